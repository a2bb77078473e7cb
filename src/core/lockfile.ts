/**
 * Lock files between pdesk processes: `<file>.lock`, created with O_EXCL (one creator wins, on every local file
 * system), holding the owner's pid and host name. A lock whose owner is gone is taken over: on this host, when
 * its pid is no longer alive (a process killed with -9 leaves its lock behind, and the next one does not wait for
 * it); on another host, or when it cannot be read, only once it is older than `staleMs` when that is given.
 *
 * Taking over is careful: the stale lock is renamed away and checked to be the one read as stale (another process
 * may have replaced it meanwhile, which is then put back), so two processes breaking the same stale lock do not
 * both end up holding it.
 *
 * Used by the profile store (every read-modify-write, waiting its turn) and a bulk send's journal (refused at
 * once while another run holds it). Written here rather than taken from a library: proper-lockfile, the usual
 * choice, keeps a lock alive by touching it on a timer and counts it stale only after its `stale` time (10 s by
 * default), so a process killed with -9 would make the next `profile add` wait that long; and pdesk's locks are
 * held for milliseconds (a profile write) or by one long run on one machine (a journal), where the owner's pid says
 * at once whether the lock still stands.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, linkSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LockOwner {
  pid: number;
  host: string;
}

export interface LockOptions {
  /** How long to wait for a lock held by a live process (ms); 0: do not wait (the default). */
  waitMs?: number;
  /** A lock whose owner cannot be checked (another host, unreadable) is stale after this long (ms); never without it. */
  staleMs?: number;
}

/** Why a lock could not be taken: it is held (by `owner` when it could be read), or the file cannot be made. */
export class LockHeld extends Error {
  constructor(
    readonly path: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(`${path} is held${owner ? ` by pid ${owner.pid}${owner.host !== hostname() ? ` on ${owner.host}` : ''}` : ''}`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(text: string): LockOwner | undefined {
  const m = /^(\d+) (\S+)\n?$/.exec(text) ?? /^(\d+)\n?$/.exec(text);
  if (!m) return undefined;
  return { pid: Number(m[1]), host: m[2] ?? hostname() };
}

/** Create the lock file; false when it exists. */
function create(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, `${process.pid} ${hostname()}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Whether the lock at `path`, read as `text`, is stale. A lock just created may not have its owner written yet: an
 * unreadable one is stale only when it is old.
 */
function isStale(path: string, text: string, staleMs: number | undefined): boolean {
  const owner = ownerOf(text);
  if (owner && owner.host === hostname()) return owner.pid !== process.pid && !alive(owner.pid);
  let age = 0;
  try {
    age = Date.now() - statSync(path).mtimeMs;
  } catch {
    return false;
  }
  // An owner not written yet (a creator between its open and its write) is a matter of microseconds.
  if (!owner && age > Math.min(staleMs ?? 2000, 2000)) return true;
  return staleMs !== undefined && age > staleMs;
}

/** Move a stale lock out of the way, unless it changed since it was read as `seen` (then it is put back). */
function breakStale(path: string, seen: string): void {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already: someone else broke it, or its owner released it
  }
  let now: string | undefined;
  try {
    now = readFileSync(aside, 'utf8');
  } catch {
    now = undefined;
  }
  if (now !== seen) {
    // Another process's fresh lock: put it back (unless a third took the place meanwhile).
    try {
      linkSync(aside, path);
    } catch {
      /* the place is taken again */
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    /* already gone */
  }
}

/**
 * Take the lock file `path`, waiting up to `waitMs` for a live owner; a stale one is taken over. Returns the release
 * function (which removes the lock only while it is still this process's); throws LockHeld when it stays held, or
 * the file system's error when the lock file cannot be made.
 */
export async function acquireLock(path: string, o: LockOptions = {}): Promise<() => void> {
  const deadline = Date.now() + (o.waitMs ?? 0);
  for (let attempt = 0; ; attempt++) {
    if (create(path)) return releaser(path);
    let text: string | undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue; // released meanwhile: try again at once
    }
    if (isStale(path, text, o.staleMs)) {
      breakStale(path, text);
      continue;
    }
    if (Date.now() >= deadline) throw new LockHeld(path, ownerOf(text));
    // A few milliseconds, spread so that waiting processes do not retry in step.
    await new Promise((r) => setTimeout(r, 5 + Math.random() * Math.min(50, 5 * (attempt + 1))));
  }
}

/** As acquireLock without waiting (a live owner: LockHeld at once), for a caller that cannot wait. */
export function acquireLockNow(path: string, o: Pick<LockOptions, 'staleMs'> = {}): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(path)) return releaser(path);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    if (!isStale(path, text, o.staleMs)) throw new LockHeld(path, ownerOf(text));
    breakStale(path, text);
  }
  throw new LockHeld(path, undefined);
}

function releaser(path: string): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      const owner = ownerOf(readFileSync(path, 'utf8'));
      if (owner?.pid === process.pid && owner.host === hostname()) unlinkSync(path);
    } catch {
      /* already gone */
    }
  };
}
