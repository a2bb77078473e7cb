/**
 * A throw-away PostgreSQL cluster for the tests of the team store: `initdb` and `pg_ctl` of the machine's PostgreSQL
 * (Debian's `postgresql` package puts them in /usr/lib/postgresql/<version>/bin, off PATH; .ci/run installs it),
 * in a temporary folder, on a free port of 127.0.0.1, its socket folder inside the temporary folder. Its superuser
 * `postgres` logs in over TCP with a password (scram-sha-256), as a team's users would. The binaries refuse to run
 * as root: as root they run as the `postgres` user (`runuser`), in a folder that user owns.
 *
 *   const c = await startCluster();          // c.url, await c.createDatabase(), await c.stop()
 *
 * Test files use pg.ts's `clusterForFile()`; this module has no test runner in it, so a bench can start a cluster too.
 *
 * Where PostgreSQL is not installed, `pgInstalled` is false, the reason is printed once, and the tests that need it
 * are skipped; under CI (`CI` set) that is a failure instead, since .ci/run installs it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The folder of `initdb` and `pg_ctl`: PDESK_PG_BIN, else Debian's newest version, else PATH's. */
export function findPgBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  if (env.PDESK_PG_BIN) return has(env.PDESK_PG_BIN) ? env.PDESK_PG_BIN : undefined;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (has(join(debian, v, 'bin'))) return join(debian, v, 'bin');
  }
  for (const dir of (env.PATH ?? '').split(':')) if (dir && has(dir)) return dir;
  return undefined;
}

const BIN = findPgBin();
export const pgInstalled = BIN !== undefined;
export const pgMissingReason = pgInstalled
  ? undefined
  : 'PostgreSQL is not installed (no initdb and pg_ctl in /usr/lib/postgresql/*/bin or on PATH): the team store tests are skipped. `.ci/run` installs it (apt-get install postgresql).';

let warned = false;
export function warnMissing(): void {
  if (pgInstalled || warned) return;
  warned = true;
  if (process.env.CI) throw new Error(`${pgMissingReason} Under CI this is a failure.`);
  console.warn(`\n[skip] ${pgMissingReason}\n`);
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Run one of PostgreSQL's binaries, as the `postgres` user when this process is root. */
async function pgRun(tool: string, args: string[]): Promise<string> {
  const file = join(BIN!, tool);
  const { stdout } = asRoot ? await run('runuser', ['-u', 'postgres', '--', file, ...args]) : await run(file, args);
  return stdout;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface PgCluster {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres`: the superuser on the cluster's first database. */
  url: string;
  password: string;
  port: number;
  /** The temporary folder (data, socket folder, log). */
  dir: string;
  /** Milliseconds taken by initdb and by the start, for the record. */
  timings: { initdbMs: number; startMs: number };
  /** The URL of `database` on the cluster (for another user, with `user` and `password`). */
  urlOf(database: string, user?: { name: string; password: string }): string;
  /** A new, empty database; returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Run SQL as the superuser through psql (for set-up: roles, grants). */
  psql(sql: string, database?: string): Promise<string>;
  stop(): Promise<void>;
}

let databases = 0;

/**
 * Start a cluster; `stop()` stops it and removes its folder. Tests run it without fsync (it lives as long as one test
 * file); `durable` keeps PostgreSQL's defaults (a bench's figures with commits on disk).
 */
export async function startCluster(o: { durable?: boolean } = {}): Promise<PgCluster> {
  warnMissing();
  if (!BIN) throw new Error(pgMissingReason);
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-pg-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'socket');
  mkdirSync(socket);
  const password = `pw-${Math.random().toString(36).slice(2)}-Secret`;
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (asRoot) {
    const id = await run('id', ['-u', 'postgres']).then((r) => Number(r.stdout.trim()));
    const gid = await run('id', ['-g', 'postgres']).then((r) => Number(r.stdout.trim()));
    for (const p of [dir, socket, pwfile]) chownSync(p, id, gid);
  }
  let t0 = Date.now();
  await pgRun('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    `--pwfile=${pwfile}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
    '--no-instructions',
  ]);
  rmSync(pwfile);
  const initdbMs = Date.now() - t0;
  t0 = Date.now();
  let port = 0;
  // A free port can be taken between the probe and the start: try again with another.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await pgRun('pg_ctl', [
        '-D',
        data,
        '-l',
        join(dir, 'log'),
        '-w',
        '-t',
        '60',
        '-o',
        // fsync off: the cluster lives as long as one test file; durability against a crash of PostgreSQL itself is
        // PostgreSQL's, and no test kills it.
        `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 ${o.durable ? '' : '-c fsync=off -c full_page_writes=off '}-c max_connections=60`,
        'start',
      ]);
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
  const startMs = Date.now() - t0;
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    try {
      const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
      if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', join(BIN!, 'pg_ctl'), ...args], { stdio: 'ignore' });
      else execFileSync(join(BIN!, 'pg_ctl'), args, { stdio: 'ignore' });
    } catch {
      /* already stopped */
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // A worker that ends without its afterAll (an error in a hook) still stops its server.
  process.once('exit', stopNow);
  const urlOf = (database: string, user = { name: 'postgres', password }) =>
    `postgres://${encodeURIComponent(user.name)}:${encodeURIComponent(user.password)}@127.0.0.1:${port}/${database}`;
  const psql = (sql: string, database = 'postgres') =>
    pgRun('psql', [
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-h',
      socket,
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      database,
      '-At',
      '-c',
      sql,
    ]);
  return {
    url: urlOf('postgres'),
    password,
    port,
    dir,
    timings: { initdbMs, startMs },
    urlOf,
    psql,
    async createDatabase(name = `t${process.pid}_${++databases}`) {
      await psql(`create database "${name}"`);
      return urlOf(name);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', stopNow);
      await pgRun('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
