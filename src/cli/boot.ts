/**
 * What bin/pdesk.js runs (built to dist/boot.js): picks the bundle for the command line (route.ts) and loads
 * it. One-shot commands run from dist/cli.cjs, one CommonJS file compiled through `vm.Script` with a V8 code
 * cache, so a run skips parsing and compiling what the same command compiled before (Node 20 has no compile
 * cache for ES modules). Long-running commands import the ESM build (dist/main.js), with node's own compile
 * cache where node has one (22.1 and later).
 *
 * The code cache lives in the user's cache folder (PDESK_CACHE_DIR, else env-paths' `cache` for "pdesk"), one
 * file per pdesk version, bundle hash, node version and architecture. It is written atomically at exit when
 * missing or rejected, and grown when a command that did not add to it yet has run; a cache that cannot be
 * read, written or trusted is ignored (the run compiles as if there were none). PDESK_CODE_CACHE=0 turns it
 * off (the test suite does, except the tests about it).
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { commandWords, usesMainBuild } from './route.js';

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

// The cache file: MAGIC, a header (JSON: the commands that added to it, a checksum of the data), V8's data.
const MAGIC = 'pdesk-v8-cache-1\n';

/**
 * A checksum of 2048 bytes spread evenly over the data, and its length. V8 checks its cached data's version,
 * flags and source length but, in release builds, not its content, and deserialising damaged data can crash.
 * Writes are atomic, so the damage this guards against is a block the disk or another program spoiled: any
 * damaged run longer than length/2048 bytes (about 250 B for pdesk's cache, a disk sector is 512 B or more)
 * holds a sampled byte. A full hash would cost a one-shot command 2 to 3 ms (node:crypto or node:zlib to load,
 * or a hot loop V8 stops to optimise); 2048 reads cost microseconds.
 */
export function sampledChecksum(data: Uint8Array): number {
  const step = Math.max(1, Math.floor(data.length / 2048));
  let h = 0x811c9dc5 | 0;
  for (let i = step >> 1; i < data.length; i += step) h = Math.imul(h ^ data[i]!, 16777619);
  return Math.imul(h ^ data.length, 16777619) >>> 0;
}

interface CacheFile {
  commands: string[];
  data?: Buffer;
}

export function readCache(file: string): CacheFile {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch {
    return { commands: [] };
  }
  try {
    if (raw.toString('latin1', 0, MAGIC.length) !== MAGIC) return { commands: [] };
    const end = raw.indexOf(10, MAGIC.length);
    const header = JSON.parse(raw.toString('utf8', MAGIC.length, end)) as { commands?: unknown; length?: unknown; sum?: unknown };
    const data = raw.subarray(end + 1);
    if (header.length !== data.length || header.sum !== sampledChecksum(data) || !Array.isArray(header.commands)) return { commands: [] };
    return { commands: header.commands.filter((c): c is string => typeof c === 'string'), data };
  } catch {
    return { commands: [] };
  }
}

export function writeCache(file: string, commands: string[], data: Buffer): void {
  const dir = dirname(file);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const header = `${MAGIC}${JSON.stringify({ commands, length: data.length, sum: sampledChecksum(data) })}\n`;
    writeFileSync(tmp, Buffer.concat([Buffer.from(header), data]), { mode: 0o600 });
    renameSync(tmp, file);
    // Caches of other builds (an older pdesk, another node) are dead weight.
    const mine = file.slice(dir.length + 1);
    for (const f of readdirSync(dir)) if (f.startsWith('cli-') && f.endsWith('.v8') && f !== mine) rmSync(join(dir, f), { force: true });
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** Load dist/cli.cjs through the code cache; `args` names the command, to know whether it added to the cache. */
export function loadOneShot(file: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Cli {
  const source = readFileSync(file, 'utf8');
  // The build's first line: `// pdesk <version> <content hash>`.
  const id = /^\/\/ pdesk (\S+) (\S+)/.exec(source);
  const dir = env.PDESK_CODE_CACHE === '0' || !id ? undefined : cacheDir(env);
  const cacheFile = dir && join(dir, `cli-${id![1]}-${id![2]}-node${process.version}-${process.arch}.v8`);
  const cached = cacheFile ? readCache(cacheFile) : { commands: [] };
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData: cached.data,
  });
  const mod = { exports: {} as Cli };
  // The bundle requires node's own modules only (everything else is bundled): boot's require serves it, without
  // loading node:module for createRequire.
  script.runInThisContext()(mod.exports, require, mod, file, dirname(file));
  if (cacheFile) {
    const command = commandWords(args).join(' ');
    const fresh = !cached.data || script.cachedDataRejected === true;
    if (fresh || !cached.commands.includes(command)) {
      const commands = fresh ? [command] : [...cached.commands, command];
      // At exit the cache holds everything this command compiled, as well as what the cache brought.
      process.once('exit', () => {
        try {
          writeCache(cacheFile, commands, script.createCachedData());
        } catch {
          /* a cache is never worth a failed run */
        }
      });
    }
  }
  return mod.exports;
}

/** Node 22.1+ caches compiled ES modules itself: turn it on for the long-running build. */
function enableCompileCache(env: NodeJS.ProcessEnv): void {
  const dir = env.PDESK_CODE_CACHE === '0' ? undefined : cacheDir(env);
  const enable = (process.getBuiltinModule('node:module') as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (!dir || !enable) return;
  try {
    enable(join(dir, 'esm'));
  } catch {
    /* no cache, then */
  }
}

/** Run a command line; `dist` is the build folder. */
export async function main(args: string[], dist: string): Promise<void> {
  if (usesMainBuild(args)) {
    enableCompileCache(process.env);
    const { run } = (await import(pathToFileURL(join(dist, 'main.js')).href)) as Cli;
    return run(args);
  }
  return loadOneShot(join(dist, 'cli.cjs'), args).run(args);
}
