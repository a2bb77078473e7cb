/**
 * A thread's lock in the file store: the lock file of src/core/lockfile.ts (O_EXCL, the owner's pid; a dead owner's
 * lock taken over at once), held while a reply is checked and claimed or an owner changed. Within one process,
 * takers of the same lock queue in memory first, so they do not poll each other's lock file.
 */
import { acquireLock } from '../../lockfile.js';

const queues = new Map<string, Promise<unknown>>();

/** Run `fn` holding the lock file `path` (its folder must exist); waits at most `waitMs` for another process. */
export function withLock<T>(path: string, fn: () => Promise<T>, waitMs = 10_000): Promise<T> {
  const before = queues.get(path) ?? Promise.resolve();
  const go = async () => {
    const release = await acquireLock(path, { waitMs });
    try {
      return await fn();
    } finally {
      release();
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
