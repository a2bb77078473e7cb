/**
 * The launcher (bin/pdesk.js runs it, built to dist/boot.cjs): picks the build for the command line (route.ts) and
 * loads it. One-shot commands run from dist/cli.cjs and the TUI from dist/tui.cjs, compiled through `vm.Script` with
 * a V8 code cache (Node 20 has none of its own); the other long-running commands import the ESM build
 * (dist/main.js), a bulk send with its V8 settings (tuning.ts). How the builds and the cache work:
 * DEVELOPERS.md, "Start-up: three builds and a code cache".
 *
 * A cache file per bundle, command (`slots list`: V8 reads a cache whole) and build, in the user's cache folder
 * (PDESK_CACHE_DIR, else env-paths' `cache`); written atomically at exit when missing or rejected, after a
 * successful one-shot command or a long-running one's run but a usage error. One that cannot be read, written or
 * trusted is ignored. PDESK_CODE_CACHE=0 turns it off (the test suite does, but for the tests about it).
 */
import { fstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildFor, commandWords, isBulkSend } from './route.js';
import { tuneForBulkSend } from './tuning.js';

interface Cli {
  run(args: string[]): Promise<void>;
}

/** The cache folder: PDESK_CACHE_DIR, else what env-paths('pdesk', {suffix: ''}).cache gives (without loading it). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | undefined {
  if (env.PDESK_CACHE_DIR) return env.PDESK_CACHE_DIR;
  const home = env.HOME || env.USERPROFILE;
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || (home && join(home, 'AppData', 'Local'));
    return local ? join(local, 'pdesk', 'Cache') : undefined;
  }
  if (platform === 'darwin') return home ? join(home, 'Library', 'Caches', 'pdesk') : undefined;
  const base = env.XDG_CACHE_HOME || (home && join(home, '.cache'));
  return base ? join(base, 'pdesk') : undefined;
}

// A cache file: MAGIC, a header line (JSON: the data's length and checksum), then V8's cached data.
const MAGIC = 'pdesk-v8-cache-1\n';

/**
 * A checksum of 2048 bytes spread evenly over the data, and its length. V8 checks its cached data's version,
 * flags and source length but, in release builds, not its content, and deserialising damaged data can crash.
 * Writes are atomic, so the damage this guards against is a block the disk or another program spoiled: any
 * damaged run longer than length/2048 bytes (about 250 B for pdesk's cache, a disk sector is 512 B or more)
 * holds a sampled byte. A full hash would load node:crypto or node:zlib (or run a hot loop) on every start.
 */
export function sampledChecksum(data: Uint8Array): number {
  const step = Math.max(1, Math.floor(data.length / 2048));
  let h = 0x811c9dc5 | 0;
  for (let i = step >> 1; i < data.length; i += step) h = Math.imul(h ^ data[i]!, 16777619);
  return Math.imul(h ^ data.length, 16777619) >>> 0;
}

/** At most this many command caches per build: a cache file is written once per command that succeeds. */
const MAX_CACHES = 64;

/** V8's cached data from a cache file, or undefined when it is missing, foreign or damaged. */
export function readCache(file: string): Buffer | undefined {
  try {
    const raw = readFileSync(file);
    if (raw.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
    const end = raw.indexOf(10, MAGIC.length);
    const header = JSON.parse(raw.toString('latin1', MAGIC.length, end)) as { length?: unknown; sum?: unknown };
    const data = raw.subarray(end + 1);
    return header.length === data.length && header.sum === sampledChecksum(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Write a cache file atomically. `build` (the file name's prefix, `<bundle>-<version>-…-`) tells this build's
 * caches from other builds of the same bundle.
 */
export function writeCache(file: string, build: string, data: Buffer): void {
  const dir = dirname(file);
  const tmp = `${file}.${process.pid}.tmp`;
  const bundle = build.slice(0, build.indexOf('-') + 1);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const files = readdirSync(dir).filter((f) => f.startsWith(bundle) && f.endsWith('.v8'));
    // Caches of the bundle's other builds (an older pdesk, another node) are dead weight.
    for (const f of files) if (!f.startsWith(build)) rmSync(join(dir, f), { force: true });
    if (files.filter((f) => f.startsWith(build)).length >= MAX_CACHES) return;
    const header = `${MAGIC}${JSON.stringify({ length: data.length, sum: sampledChecksum(data) })}\n`;
    writeFileSync(tmp, Buffer.concat([Buffer.from(header, 'latin1'), data]), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * The cache file of a bundle and command line: `<bundle>-<version>-<bundle hash>-node<version>-<arch>-<command
 * words>.v8`; `build` is the part before the command words.
 */
export function cacheFileFor(
  dir: string,
  bundle: string,
  version: string,
  hash: string,
  args: readonly string[],
): { file: string; build: string } {
  const build = `${bundle}-${version}-${hash}-node${process.version}-${process.arch}-`;
  const command =
    commandWords(args)
      .join('-')
      .replace(/[^A-Za-z0-9-]/g, '_') || 'pdesk';
  return { file: join(dir, `${build}${command}.v8`), build };
}

/**
 * Load a bundle (dist/cli.cjs, dist/tui.cjs) through the code cache of the command `args` names. `keep`
 * says which exit codes leave a cache behind.
 */
export function loadBundle(
  file: string,
  args: readonly string[],
  keep: (code: number) => boolean,
  env: NodeJS.ProcessEnv = process.env,
): Cli {
  const source = readFileSync(file, 'utf8');
  // The build's first line: `// pdesk <version> <content hash>`.
  const id = /^\/\/ pdesk (\S+) (\S+)/.exec(source);
  const dir = env.PDESK_CODE_CACHE === '0' || !id ? undefined : cacheDir(env);
  const bundle = file.replace(/^.*[\\/]/, '').replace(/\.cjs$/, '');
  const cache = dir ? cacheFileFor(dir, bundle, id![1]!, id![2]!, args) : undefined;
  const cached = cache && readCache(cache.file);
  const { Script } = process.getBuiltinModule('node:vm');
  // The bundle is a function expression (scripts/build.mjs): compiled as read, without a wrapped copy of its text.
  const script = new Script(source, { filename: file, cachedData: cached });
  const mod = { exports: {} as Cli };
  // The bundle requires node's own modules only (everything else is bundled): boot's require serves it, without
  // loading node:module for createRequire.
  script.runInThisContext()(mod.exports, require, mod, file, dirname(file));
  if (cache && (!cached || script.cachedDataRejected === true))
    // At exit the cached data holds everything the command compiled.
    process.once('exit', (code) => {
      try {
        if (keep(code)) writeCache(cache.file, cache.build, script.createCachedData());
      } catch {
        /* a cache is never worth a failed run */
      }
    });
  return mod.exports;
}

/** Node 22.1+ caches compiled ES modules itself: turn it on for the ESM build. */
function enableCompileCache(env: NodeJS.ProcessEnv): void {
  const dir = env.PDESK_CODE_CACHE === '0' ? undefined : cacheDir(env);
  // process.getBuiltinModule is Node 20.16+; enableCompileCache is 22.1+ (a no-op on this project's Node 20).
  const mod = process.getBuiltinModule?.('node:module') as { enableCompileCache?: (dir: string) => unknown } | undefined;
  const enable = mod?.enableCompileCache;
  if (!dir || !enable) return;
  try {
    enable(join(dir, 'esm'));
  } catch {
    /* no cache, then */
  }
}

/**
 * Whether stdout is a terminal, without loading node:tty (which loads node:net and the streams) when a stat says:
 * a pipe, a file or /dev/null is not one; another character device is asked about.
 */
function stdoutIsTerminal(): boolean {
  try {
    const out = fstatSync(1);
    if (!out.isCharacterDevice() || out.rdev === statSync('/dev/null').rdev) return false;
  } catch {
    /* ask node */
  }
  return process.getBuiltinModule('node:tty').isatty(1);
}

/**
 * What `pdesk --help` (`-h`, `help`) and `pdesk --version` (`-V`) print, as the build recorded it
 * (scripts/build.mjs runs the CLI for it), when the output would be the same: stdout is not a terminal (commander
 * then wraps at 80 columns) and no colour is forced: building the whole command tree to print fixed text would be
 * most of `pdesk --help`'s start-up.
 */
export function fixedOutput(args: readonly string[], dist: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (args.length !== 1) return undefined;
  const which = ['--help', '-h', 'help'].includes(args[0]!) ? 'help' : ['--version', '-V'].includes(args[0]!) ? 'version' : undefined;
  if (!which || stdoutIsTerminal()) return undefined;
  if ((env.FORCE_COLOR && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') || env.CLICOLOR_FORCE !== undefined) return undefined;
  try {
    const text = (JSON.parse(readFileSync(join(dist, 'fixed.json'), 'utf8')) as Record<string, unknown>)[which];
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Run a command line; `dist` is the build folder. */
export async function main(args: string[], dist: string): Promise<void> {
  const fixed = fixedOutput(args, dist);
  if (fixed !== undefined) {
    try {
      writeSync(1, fixed);
    } catch {
      /* a reader that stopped early (EPIPE) is not an error, as for any command */
    }
    return;
  }
  const build = buildFor(args);
  if (build === 'main') {
    if (isBulkSend(args)) tuneForBulkSend();
    enableCompileCache(process.env);
    const { run } = (await import(pathToFileURL(join(dist, 'main.js')).href)) as Cli;
    return run(args);
  }
  // A one-shot command leaves a cache only after it succeeded, so a mistyped command leaves no file behind; the
  // TUI ends by a signal as often as not (130, 143), and only a usage error (2) is left out.
  if (build === 'tui') return loadBundle(join(dist, 'tui.cjs'), args, (code) => code !== 2).run(args);
  return loadBundle(join(dist, 'cli.cjs'), args, (code) => code === 0).run(args);
}
