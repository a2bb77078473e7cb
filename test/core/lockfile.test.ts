/** Lock files between processes (src/core/lockfile.ts): exclusive, waited for, stale ones taken over, and only then. */
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockHeld, acquireLock, acquireLockNow } from '../../src/core/lockfile.js';
import { tempDir } from '../helpers/config.js';

const DEAD_PID = 999_999_999;

describe('acquireLock', () => {
  it('is exclusive: holders never overlap, each waiting its turn', async () => {
    const path = join(tempDir(), 'x.lock');
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const release = await acquireLock(path, { waitMs: 5_000 });
        inside++;
        most = Math.max(most, inside);
        await new Promise((r) => setTimeout(r, 5));
        inside--;
        release();
      }),
    );
    expect(most).toBe(1);
    expect(existsSync(path)).toBe(false);
  });

  it('holds the owner; a live owner is waited for up to waitMs, then LockHeld names it', async () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, `1 ${hostname()}\n`); // pid 1 is alive (init)
    const started = Date.now();
    const e = await acquireLock(path, { waitMs: 100 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LockHeld);
    expect((e as LockHeld).owner).toEqual({ pid: 1, host: hostname() });
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(() => acquireLockNow(path)).toThrow(LockHeld);
    expect(readFileSync(path, 'utf8')).toBe(`1 ${hostname()}\n`); // untouched
  });

  it('takes over a lock whose owner on this host is dead, at once; releases only its own', async () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, `${DEAD_PID} ${hostname()}\n`);
    const release = await acquireLock(path);
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid} ${hostname()}\n`);
    release();
    expect(existsSync(path)).toBe(false);
    // A release after someone else took the lock leaves theirs alone.
    const again = acquireLockNow(path);
    writeFileSync(path, `1 ${hostname()}\n`);
    again();
    expect(readFileSync(path, 'utf8')).toBe(`1 ${hostname()}\n`);
  });

  it("another host's lock is stale only after staleMs, and never without it", async () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, `${DEAD_PID} some-other-host\n`);
    await expect(acquireLock(path, { staleMs: 30_000 })).rejects.toBeInstanceOf(LockHeld);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(path, old, old);
    expect(() => acquireLockNow(path)).toThrow(LockHeld);
    const release = acquireLockNow(path, { staleMs: 30_000 });
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid} ${hostname()}\n`);
    release();
  });

  it('an empty lock (its creator stopped before writing its pid) is stale once a few seconds old', async () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, '');
    expect(() => acquireLockNow(path)).toThrow(LockHeld);
    const old = (Date.now() - 10_000) / 1000;
    utimesSync(path, old, old);
    acquireLockNow(path)();
  });
});
