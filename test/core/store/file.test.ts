/**
 * What the file engine of the desk store (src/core/store/file/) adds to the contract (contract.test.ts runs that on
 * both engines): its records are the thread store's (an operator on what was sent, owners as `assign` records),
 * read by a thread store as they always were; a receiver checks pushes against what other processes appended up to
 * the moment it answers; a thread's lock held by another process is waited for (a dead one's taken over); a
 * subscription to every profile; a desk over a thread store its owner opened.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileDeskStore, openFileStore } from '../../../src/core/store/file/index.js';
import { closeRecord, openThreadStore, parseMessageAt } from '../../../src/core/threads/index.js';
import { close, msg, note, read } from '../../helpers/desk.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pdesk-file-desk-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const lines = (profile: string) =>
  readFileSync(join(dir, 'threads', `${profile}.ndjson`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('the file store behind the desk store', () => {
  it('writes thread store records: the operator on what was sent, owners as assign records; a thread store reads them', async () => {
    const desk = openFileStore(dir);
    await desk.recordReceived('north', msg('q1', 'enc-1', 'question', 1));
    await desk.recordSent('north', msg('r1', 'enc-1', 'answer', 2, 'C3'), 'alice');
    await desk.recordSent('north', read('q1', 3), 'alice');
    await desk.assign('north', 'enc-1', { to: 'bob', by: 'alice' });
    await desk.recordSent('north', note(4, 'n1'), 'alice');
    await desk.close();
    const written = lines('north');
    expect(written.map((r) => [r.kind, r.via, r.operator, r.owner, r.reason])).toEqual([
      ['message', 'received', undefined, undefined, undefined],
      ['message', 'sent', 'alice', undefined, undefined],
      ['assign', undefined, undefined, 'alice', 'first-reply'],
      ['read', 'sent', 'alice', undefined, undefined],
      ['assign', undefined, undefined, 'bob', 'assign'],
      ['notification', 'sent', 'alice', undefined, undefined],
    ]);
    expect(written[4]).toMatchObject({ thread: 'enc-1', previous: 'alice', by: 'alice' });
    // The message line keeps the loader's fast path (operator before resource): parsed without JSON.parse.
    const text = readFileSync(join(dir, 'threads', 'north.ndjson'), 'utf8');
    const second = text.split('\n')[1]!;
    expect(parseMessageAt(second, 0, second.length)).toMatchObject({ id: 'r1', via: 'sent', operator: 'alice' });
    // A thread store reads them as before: owners are not chat records, and change nothing it shows.
    const store = openThreadStore(dir, 'north');
    const view = await store.load();
    expect(store.warnings).toEqual([]);
    expect(view.threads).toEqual([
      {
        thread: 'enc-1',
        status: 'open',
        messages: 2,
        unread: 0,
        lastAt: msg('r1', 'enc-1', '', 2).at,
        lastText: 'answer',
        lastFrom: 'practice',
      },
    ]);
    expect(view.deskThread('enc-1')).toMatchObject({ owner: 'bob' });
    await store.close();
  });

  it('a receiver refuses a message to a thread another process closed the moment it is closed, and knows what it appended', async () => {
    const listener = openFileStore(dir);
    await listener.prepare('north');
    expect(await listener.recordReceived('north', msg('m1', 'enc-5', 'hi', 1))).toEqual({ outcome: 'stored' });
    // Another process (chat close) appends to the same files.
    const other = openThreadStore(dir, 'north');
    await other.append([closeRecord('sent', 'enc-5', close('enc-5', 2).resource)]);
    await other.close();
    expect(await listener.recordReceived('north', msg('m2', 'enc-5', 'late', 3))).toEqual({ outcome: 'closed' });
    expect(await listener.recordReceived('north', msg('m1', 'enc-5', 'hi', 1))).toEqual({ outcome: 'duplicate' });
    // Read markers and notifications read since the start are known: a repeat is not written again.
    expect(await listener.recordReceived('north', read('m1', 4))).toEqual({ outcome: 'stored', thread: 'enc-5' });
    expect(await listener.recordReceived('north', read('m1', 5))).toEqual({ outcome: 'duplicate' });
    expect(await listener.recordReceived('north', note(6, 'n1'))).toEqual({ outcome: 'stored' });
    expect(await listener.recordReceived('north', note(7, 'n1'))).toEqual({ outcome: 'duplicate' });
    await listener.close();
    expect(lines('north').map((r) => r.kind)).toEqual(['message', 'close', 'read', 'notification']);
  });

  it('a close and a message to its thread arriving together: the message is refused while the close is written', async () => {
    const desk = openFileStore(dir);
    await desk.prepare('north');
    const [c, m] = await Promise.all([
      desk.recordReceived('north', close('enc-9', 1)),
      desk.recordReceived('north', msg('m9', 'enc-9', 'racing', 2)),
    ]);
    expect(c).toEqual({ outcome: 'stored' });
    expect(m).toEqual({ outcome: 'closed' });
    await desk.close();
  });

  it('over a thread store its owner opened: reads and writes through it, and leaves it open', async () => {
    const store = openThreadStore(dir, 'north');
    const view = await store.load();
    const desk = FileDeskStore.over(store);
    expect(desk.dir).toBe(dir);
    expect(desk.where('north')).toBe(store.path);
    await desk.recordReceived('north', msg('m1', 'enc-1', 'hi', 1));
    expect(view.messages('enc-1')?.map((m) => m.id)).toEqual(['m1']);
    await desk.close();
    await store.append([closeRecord('sent', 'enc-1', close('enc-1', 2).resource)]);
    await store.close();
  });

  it("a thread's owner changes wait while another process holds its lock, and a dead process's lock is taken over", async () => {
    const desk = openFileStore(dir);
    await desk.recordReceived('north', msg('m1', 'enc-1', 'hi', 1));
    const locks = join(dir, 'desk', 'north', 'locks');
    mkdirSync(locks, { recursive: true });
    const lock = join(locks, `${createHash('sha256').update('enc-1').digest('hex').slice(0, 32)}.lock`);
    // Another process takes the thread's lock (as src/core/lockfile.ts writes it) and holds it for 400 ms.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); fs.writeFileSync(${JSON.stringify(lock)}, process.pid + ' ' + require('node:os').hostname() + '\\n', { flag: 'wx' });
         console.log('held'); setTimeout(() => { fs.unlinkSync(${JSON.stringify(lock)}); }, 400);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const holderExit = new Promise((r) => holder.once('exit', r));
    await new Promise((r) => holder.stdout!.once('data', r));
    const t0 = Date.now();
    expect(await desk.assign('north', 'enc-1', { to: 'alice', by: 'alice', expect: null })).toEqual({
      outcome: 'assigned',
      owner: 'alice',
    });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    await holderExit;
    // A process killed while holding it: its lock does not hold anyone up.
    const dead = spawn(process.execPath, [
      '-e',
      `require('node:fs').writeFileSync(${JSON.stringify(lock)}, process.pid + ' ' + require('node:os').hostname() + '\\n')`,
    ]);
    await new Promise((r) => dead.once('exit', r));
    const t1 = Date.now();
    expect(await desk.assign('north', 'enc-1', { to: 'bob', by: 'bob' })).toMatchObject({ outcome: 'assigned', owner: 'bob' });
    expect(Date.now() - t1).toBeLessThan(1000);
    await desk.close();
  });

  it('a subscription to every profile hears each profile with a store', async () => {
    const desk = openFileStore(dir);
    await desk.recordReceived('north', msg('n1', 'enc-n', 'north', 1));
    await desk.recordReceived('south', msg('s1', 'enc-s', 'south', 1));
    const events: Array<{ profile: string; kind: string }> = [];
    const sub = await desk.subscribe(undefined, (e) => {
      if ('profile' in e) events.push({ profile: e.profile, kind: e.kind });
    });
    const other = openFileStore(dir);
    await other.recordReceived('north', msg('n2', 'enc-n', 'again', 2));
    await other.recordReceived('south', msg('s2', 'enc-s', 'again', 2));
    await vi.waitFor(() =>
      expect(events).toEqual(
        expect.arrayContaining([
          { profile: 'north', kind: 'message' },
          { profile: 'south', kind: 'message' },
        ]),
      ),
    );
    await sub.close();
    await other.close();
    await desk.close();
  });

  it('profile names that cannot name a file are refused', async () => {
    const desk = openFileStore(dir);
    await expect(desk.recordReceived('../x', msg('m1', 'enc-1', 'hi', 1))).rejects.toThrow(/Invalid profile name/);
    await expect(desk.heartbeat('../x', 'enc-1', { operator: 'a', session: 's' })).rejects.toThrow(/Invalid profile name/);
    await desk.close();
  });
});
