/**
 * How bin/pdesk.js starts (src/cli/route.ts, src/cli/boot.ts): which build runs a command line, and the V8 code
 * cache of dist/cli.cjs, which must speed runs up without ever breaking one (missing, damaged, unwritable). The
 * rest of the suite runs with the cache off (vitest.config.ts); these tests turn it on with a folder of their own.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cacheDir, cacheFileFor, fixedOutput, readCache, sampledChecksum, writeCache } from '../../src/cli/boot.js';
import { buildProgram } from '../../src/cli/main.js';
import { VALUE_OPTIONS, buildFor, commandWords, isBulkSend } from '../../src/cli/route.js';
import { runCli, tempDir } from '../helpers/cli.js';

describe('which build runs a command line', () => {
  it.each([
    [[], 'tui'],
    [['tui'], 'tui'],
    [['tui', '--sandbox'], 'tui'],
    [['--profile', 'prod', 'tui'], 'tui'],
    [['--profile=prod', '--json', 'listen', '--port', '0'], 'main'],
    [['sandbox'], 'main'],
    [['check'], 'main'],
    [['doctor'], 'main'],
    [['notifications', 'send', '--csv', 'rows.csv', '--text', 'x'], 'main'],
    [['notifications', 'send', '--csv=rows.csv'], 'main'],
    [['profile', 'add', 'x'], 'main'],
    [['profile', 'import', 'f.json'], 'main'],
    [['profile', 'use', 'x'], 'main'],
    [['profile', 'remove', 'x'], 'main'],
    [['profile', 'list'], 'cli'],
    [['profile', 'show', 'x'], 'cli'],
    [['profile'], 'cli'],
    [['--help'], 'cli'],
    [[], 'tui'],
    [['--profile', 'north'], 'tui'], // global options only: the desk on that profile
    [['--read-only', '--trace', 't.ndjson'], 'tui'],
    [['--profile', 'north', '--help'], 'cli'],
    [['--version'], 'cli'],
    [['help', 'tui'], 'cli'],
    [['slots', 'list', '--from', 'today'], 'cli'],
    [['--profile', 'tui', 'slots', 'list'], 'cli'], // a profile named "tui"
    [['--limit', '5', 'appointments', 'list'], 'cli'],
    [['chat', 'send', '--text', 'tui'], 'cli'],
    [['notifications', 'send', '--email', 'a@example.org', '--text', 'csv'], 'cli'],
    [['--query', 'tui', 'slots', 'list'], 'cli'], // --query and --trace take a value
    [['--trace', 'check', 'audit'], 'cli'],
    [['--trace', 't.ndjson', 'doctor'], 'main'],
    [['check', '--all-profiles'], 'main'],
    [['audit', '--since', 'today'], 'cli'],
    [['auth', 'status'], 'cli'],
    [['auth', 'token', '--party', 'practice'], 'cli'],
    [['trace', 'show', 't.ndjson'], 'cli'],
    [['api', 'get', '/Schedule', '--param', 'a=b'], 'cli'],
    [['completion', 'bash'], 'cli'],
    [['__complete', 'slots', ''], 'cli'],
    [['__complete', 'tui'], 'cli'],
  ])('%j → %s', (args, build) => {
    expect(buildFor(args)).toBe(build);
  });

  it('a bulk send, and only a bulk send, gets the V8 settings of src/cli/tuning.ts from the launcher', () => {
    expect(isBulkSend(['notifications', 'send', '--csv', 'people.csv', '--topic', 't', '--text', 'x'])).toBe(true);
    expect(isBulkSend(['--profile', 'p', 'notifications', 'send', '--csv=people.csv'])).toBe(true);
    expect(isBulkSend(['notifications', 'send', '--email', 'a@example.org', '--text', 'csv'])).toBe(false);
    expect(isBulkSend(['tui', '--csv'])).toBe(false);
    expect(isBulkSend(['slots', 'list'])).toBe(false);
    // Never from inside a command: no module of src/cli/commands sets a V8 flag.
    const commands = join(import.meta.dirname, '../../src/cli/commands');
    const sources = readdirSync(commands, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    expect(sources.length).toBeGreaterThan(20);
    for (const d of sources) expect(readFileSync(join(d.parentPath, d.name), 'utf8')).not.toMatch(/setFlagsFromString|node:v8|tuning\.js/);
  });

  it('commandWords skips options and the values of global options', () => {
    expect(commandWords(['--profile', 'p', '--json', 'slots', 'list', '--from', 'today'])).toEqual(['slots', 'list']);
    expect(commandWords(['--help'])).toEqual([]);
    expect(commandWords(['slots', 'list'], 1)).toEqual(['slots']);
  });

  it('knows every global option that takes a value, as the commander program declares them', () => {
    // A global value option missing here would route `pdesk --new-option tui slots list` by the word "tui".
    const declared = buildProgram()
      .options.filter((o) => o.required || o.optional)
      .map((o) => o.long);
    expect([...VALUE_OPTIONS].sort()).toEqual(declared.sort());
  });
});

describe('pdesk --help and --version', () => {
  it.each([['--help'], ['-h'], ['help'], ['--version'], ['-V']])('%s prints what the CLI prints (recorded by the build)', async (flag) => {
    // A second argument takes the CLI's own path: the recorded text must be byte for byte what it prints.
    const [fixed, live] = await Promise.all([runCli([flag]), runCli([flag, '--no-color'])]);
    expect([fixed.code, fixed.stderr]).toEqual([0, '']);
    expect(fixed.stdout).toBe(live.stdout);
    expect(fixed.stdout).toMatch(flag.toLowerCase().includes('v') ? /^\d+\.\d+\.\d+\n$/ : /^Usage: pdesk \[options\] \[command\]\n/);
  });

  it('is printed by the CLI itself when colour is forced or stdout is a terminal', () => {
    const dist = fileURLToPath(new URL('../../dist', import.meta.url));
    expect(fixedOutput(['--help'], dist, {})).toMatch(/^Usage: pdesk/);
    expect(fixedOutput(['--help'], dist, { FORCE_COLOR: '1' })).toBeUndefined();
    expect(fixedOutput(['--help'], dist, { CLICOLOR_FORCE: '1' })).toBeUndefined();
    expect(fixedOutput(['--help'], dist, { FORCE_COLOR: '0' })).toMatch(/^Usage: pdesk/);
    expect(fixedOutput(['slots', '--help'], dist, {})).toBeUndefined();
    expect(fixedOutput(['--help'], '/nonexistent', {})).toBeUndefined();
  });
});

describe('the one-shot bundle', () => {
  it('holds neither undici, Ink, React nor conf (their imports are stubs that name the other builds)', () => {
    const code = readFileSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url)), 'utf8');
    expect(code).toMatch(/^\/\/ pdesk \d+\.\d+\.\d+\S* [0-9a-f]{16}\n/);
    for (const marker of ['llhttp', 'yoga', 'react-reconciler', 'new Conf(', 'class Pool ']) expect(code).not.toContain(marker);
    expect(code).toContain('is not in the one-shot bundle (dist/cli.cjs)');
  });
});

describe('the code cache of dist/cli.cjs', () => {
  /** Run pdesk with the code cache on, in `dir`. */
  const run = (args: string[], dir: string) => runCli(args, { env: { PDESK_CODE_CACHE: undefined, PDESK_CACHE_DIR: dir } });
  const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8'));

  it('lives in PDESK_CACHE_DIR, else the env-paths cache folder of each platform', () => {
    expect(cacheDir({ PDESK_CACHE_DIR: '/c' }, 'linux')).toBe('/c');
    expect(cacheDir({ HOME: '/h' }, 'linux')).toBe('/h/.cache/pdesk');
    expect(cacheDir({ HOME: '/h', XDG_CACHE_HOME: '/x' }, 'linux')).toBe('/x/pdesk');
    expect(cacheDir({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Caches/pdesk');
    expect(cacheDir({ LOCALAPPDATA: 'C:\\L' }, 'win32')).toMatch(/^C:\\L[\\/]pdesk[\\/]Cache$/);
    expect(cacheDir({}, 'linux')).toBeUndefined();
  });

  it('one file per command, written by its first successful run and reused unchanged by the next', async () => {
    const dir = tempDir();
    const first = await run(['--help', '--no-color'], dir);
    expect(first.code).toBe(0);
    const [file] = cacheFiles(dir);
    expect(file).toMatch(/^cli-\d+\.\d+\.\d+\S*-[0-9a-f]{16}-nodev\d+\.\d+\.\d+-\w+-pdesk\.v8$/);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(readCache(join(dir, file!))).toBeDefined();
    const bytes = readFileSync(join(dir, file!));

    const again = await run(['--help', '--no-color'], dir);
    expect(again.stdout).toBe(first.stdout);
    expect(readFileSync(join(dir, file!)).equals(bytes)).toBe(true);

    expect((await run(['--json', 'profile', 'list'], dir)).code).toBe(0);
    expect(cacheFiles(dir).sort()).toEqual([file, file!.replace(/-pdesk\.v8$/, '-profile-list.v8')].sort());
    // A failed run (here a mistyped command, exit 2) writes none.
    expect((await run(['profile', 'lsit'], dir)).code).toBe(2);
    expect(cacheFiles(dir)).toHaveLength(2);
  });

  it("writing a cache removes other builds' caches", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'cli-0.0.1-0123456789abcdef-nodev20.0.0-x64-pdesk.v8'), 'old');
    writeFileSync(join(dir, 'unrelated.txt'), 'kept');
    await run(['--version', '--no-color'], dir);
    expect(readdirSync(dir).filter((f) => f.startsWith('cli-0.0.1'))).toEqual([]);
    expect(readdirSync(dir)).toContain('unrelated.txt');
  });

  it('a damaged or foreign cache file is ignored and replaced; the run is unaffected', async () => {
    const dir = tempDir();
    const clean = await run(['--help', '--no-color'], dir);
    const file = join(dir, cacheFiles(dir)[0]!);
    const good = readFileSync(file);
    const damaged = Buffer.from(good);
    damaged.fill(0x5a, good.length - 5000, good.length - 4000); // a spoiled block inside V8's data
    for (const bad of [damaged, Buffer.from('not a cache at all'), good.subarray(0, good.length >> 1)]) {
      writeFileSync(file, bad);
      const r = await run(['--help', '--no-color'], dir);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, clean.stdout, '']);
      expect(readCache(file)).toBeDefined(); // rewritten, valid again
    }
  });

  it('an unusable cache folder changes nothing but speed', async () => {
    const base = tempDir();
    writeFileSync(join(base, 'a-file'), '');
    const r = await run(['--version', '--no-color'], join(base, 'a-file', 'cache'));
    expect([r.code, r.stdout.trim(), r.stderr]).toEqual([0, '0.1.0', '']);
  });

  it('PDESK_CODE_CACHE=0 writes no cache', async () => {
    const dir = tempDir();
    const r = await runCli(['--version', '--no-color'], { env: { PDESK_CODE_CACHE: '0', PDESK_CACHE_DIR: dir } });
    expect(r.code).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the checksum catches a spoiled run of bytes; writeCache/readCache round-trip', () => {
    const data = Buffer.alloc(100_000, 7);
    const sum = sampledChecksum(data);
    const spoiled = Buffer.from(data);
    spoiled.fill(0, 5_000, 5_000 + Math.ceil(data.length / 2048));
    expect(sampledChecksum(spoiled)).not.toBe(sum);
    expect(sampledChecksum(data.subarray(0, 99_999))).not.toBe(sum);
    const file = join(tempDir(), 'cli-x-a.v8');
    writeCache(file, 'cli-x-', data);
    expect(readCache(file)).toEqual(data);
    const { file: named } = cacheFileFor('/c', 'cli', '1.2.3', 'abc', ['--profile', 'p', 'slots', 'list', '--from', 'x']);
    expect(named).toBe(`/c/cli-1.2.3-abc-node${process.version}-${process.arch}-slots-list.v8`);
  });
});
