/**
 * The package as a user installs it: `npm pack`, then `npm install -g --prefix <empty folder> ./pdesk-*.tgz` with no
 * network (--offline, an empty npm cache, an unreachable registry: anything it would fetch fails the install), then
 * the installed `pdesk` run from an empty folder, away from this source tree and its node_modules: --version, the
 * sandbox (saving its profile), a read, `pdesk check`, and the TUI under a terminal.
 *
 * It packs the dist/ `npm test` built (`--ignore-scripts`: `npm pack` alone would run `prepare` and rebuild dist/
 * under the other tests' feet).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const hasScript = !spawnSync('script', ['--version']).error;

/** The environment without npm's own variables (`npm test` sets npm_config_*, which would steer the npm we run). */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^npm_/i.test(k) && k !== 'NODE_PATH' && k !== 'PDESK_PROFILE') env[k] = v;
  return { ...env, NO_COLOR: '1', ...extra };
}

describe('the packed package, installed into an empty prefix without a network', () => {
  const dir = tempDir('pdesk-install-');
  const prefix = join(dir, 'prefix');
  const home = join(dir, 'home'); // no source tree above it
  const npmEnv = cleanEnv({
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_logs_max: '0',
  });
  const env = cleanEnv({ PDESK_CONFIG_DIR: join(dir, 'config'), HOME: home, TMPDIR: dir });
  const pdesk = join(prefix, 'bin', 'pdesk');
  let files: string[] = [];
  let sandbox: ChildProcess | undefined;

  const run = (args: string[]) => spawnSync(pdesk, args, { cwd: home, env, encoding: 'utf8', timeout: 30_000 });

  beforeAll(() => {
    spawnSync('mkdir', ['-p', home]);
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      env: npmEnv,
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = packed!.files.map((f) => f.path);
    const install = spawnSync('npm', ['install', '-g', '--offline', '--prefix', prefix, join(dir, packed!.filename)], {
      cwd: dir,
      env: npmEnv,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`);
  }, 180_000);

  afterAll(() => {
    sandbox?.kill('SIGKILL');
  });

  it('the tarball holds what runs and nothing else', () => {
    for (const f of ['bin/pdesk.js', 'dist/boot.cjs', 'dist/cli.cjs', 'dist/tui.cjs', 'dist/main.js', 'dist/fixed.json'])
      expect(files).toContain(f);
    expect(files).toContain('dist/THIRD-PARTY-NOTICES.txt');
    expect(files).toContain('profiles/sandbox.json');
    expect(files).toContain('docs/cli.md');
    expect(files).toContain('README.md');
    expect(files.filter((f) => /^(src|test|bench|scripts|\.ci|node_modules)\//.test(f) || /^dist\.(tmp|old)-/.test(f))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    // Nothing to fetch at install: the bundles are self-contained.
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'pdesk', 'node_modules'))).toBe(false);
    expect(readdirSync(join(prefix, 'lib', 'node_modules', 'pdesk')).sort()).toEqual([
      'README.md',
      'bin',
      'dist',
      'docs',
      'package.json',
      'profiles',
    ]);
  });

  it('pdesk --version and --help run from the installed package', () => {
    const v = run(['--version']);
    expect(v.stderr).toBe('');
    expect(v.stdout).toBe(`${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
    expect(run(['slots', 'list', '--help']).stdout).toContain('Examples:');
  });

  it('pdesk sandbox --port 0 saves its profile; a read and pdesk check pass against it', async () => {
    sandbox = spawn(pdesk, ['sandbox', '--port', '0'], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    sandbox.stderr!.setEncoding('utf8').on('data', (d) => (err += d));
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no output; stderr: ${err}`)), 20_000);
      sandbox!.stdout!.setEncoding('utf8').on('data', (d) => {
        out += d;
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out.slice(0, out.indexOf('\n')));
        }
      });
    });
    expect(JSON.parse(line).savedProfile).toMatchObject({ name: 'sandbox', created: true });

    const read = run(['--profile', 'sandbox', 'appointment-types', 'list', '--service-category', 'gp', '--json']);
    expect(read.stderr).toBe('');
    expect(read.status).toBe(0);
    expect(JSON.parse(read.stdout).map((t: { code: string }) => t.code)).toContain('consult');

    const check = run(['--profile', 'sandbox', 'check', '--json']);
    expect(check.status, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout).summary).toMatchObject({ fail: 0, error: 0 });

    const exited = new Promise<number | null>((r) => sandbox!.on('exit', (code) => r(code)));
    sandbox.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it.skipIf(!hasScript)(
    'pdesk tui --sandbox draws its desk under a terminal and quits on q',
    async () => {
      const cmd = `stty rows 24 cols 80 2>/dev/null; exec '${pdesk}' tui --sandbox`;
      const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
        cwd: home,
        env: { ...env, TERM: 'xterm-256color' },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
      const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
      try {
        const t0 = Date.now();
        while (!out.includes('appt API 2.0.0')) {
          if (Date.now() - t0 > 20_000) throw new Error(`no desk drawn: ${JSON.stringify(out.slice(-500))}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(out).toContain('sandbox');
        child.stdin!.write('q');
        expect(await exited).toBe(0);
      } finally {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    },
    60_000,
  );
});
