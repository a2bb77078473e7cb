/**
 * A short-held lock between the processes of one machine: `<path>` created with O_EXCL (one creator wins), holding
 * the owner's pid. A lock whose pid is no longer alive (a process killed with -9) is taken over at once; a live
 * owner is waited for, a few milliseconds at a time. Within one process, takers of the same path queue in memory
 * first, so they do not poll each other's lock.
 */
import { open, readFile, unlink } from 'node:fs/promises';

const queues = new Map<string, Promise<unknown>>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function take(path: string, waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      const fh = await open(path, 'wx', 0o600);
      await fh.writeFile(String(process.pid));
      await fh.close();
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = Number(await readFile(path, 'utf8').catch(() => ''));
    // A lock being written has no pid yet: its owner is alive.
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) {
      await unlink(path).catch(() => undefined);
      continue;
    }
    if (Date.now() >= until) throw new Error(`${path} is held by another pdesk process (pid ${pid || 'unknown'})`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Run `fn` holding the lock `path` (its folder must exist); waits at most `waitMs` for another holder. */
export async function withLock<T>(path: string, fn: () => Promise<T>, waitMs = 10_000): Promise<T> {
  const before = queues.get(path) ?? Promise.resolve();
  const go = async () => {
    await take(path, waitMs);
    try {
      return await fn();
    } finally {
      await unlink(path).catch(() => undefined);
    }
  };
  const run = before.then(go, go);
  const settled = run.catch(() => undefined);
  queues.set(path, settled);
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return run;
}
