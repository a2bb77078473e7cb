/** The thread store (src/core/threads): records, durability rules, torn lines, reading speed, watching. */
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type StoreRecord,
  closeRecord,
  describeRecord,
  messageRecord,
  notificationRecord,
  openThreadStore,
  readRecord,
  threadStorePath,
} from '../../../src/core/threads/index.js';
import { chatMessage } from '../../helpers/chat.js';
import { tempDir } from '../../helpers/config.js';

const NS = { portal: 'portal.example', practice: 'practice.example' };

const chat = (id: string, thread: string, text: string, from = 'Patient/pat-1', to = 'PractitionerRole/1001') =>
  chatMessage(id, thread, text, from, to);

const marker = (at: string) => [
  { op: 'add' as const, path: '/recipient/0/extension', value: { url: `${NS.portal}.ResourceSeenAt`, valueDateTime: at } },
];

let dir: string;
beforeEach(() => {
  dir = tempDir('pdesk-threads-');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('thread store', () => {
  it('records messages, read markers and closes, and summarises threads newest first', async () => {
    const store = openThreadStore(dir, 'sandbox');
    await store.append([messageRecord('C1', 'sent', chat('m1', 'enc-1', 'question'), '2026-03-01T10:00:00.000Z')]);
    await store.append([
      messageRecord('C3', 'received', chat('m2', 'enc-1', 'answer', 'PractitionerRole/1001', 'Patient/pat-1'), '2026-03-01T10:05:00.000Z'),
      messageRecord('C3', 'received', chat('m3', 'enc-2', 'other'), '2026-03-01T09:00:00.000Z'),
      messageRecord('C3', 'received', chat('m4', 'enc-2', 'other again'), '2026-03-01T09:01:00.000Z'),
      readRecord('sent', 'm3', marker('2026-03-01T10:10:00')),
      closeRecord(
        'received',
        'enc-3',
        { resourceType: 'Encounter', id: 'enc-3', status: 'finished', identifier: [{ system: 'x', value: 'enc-3' }] },
        '2026-03-01T08:00:00.000Z',
      ),
    ]);
    await store.close();

    const again = openThreadStore(dir, 'sandbox');
    const view = await again.load();
    expect(view.threads).toEqual([
      {
        thread: 'enc-1',
        status: 'open',
        messages: 2,
        unread: 1,
        lastAt: '2026-03-01T10:05:00.000Z',
        lastText: 'answer',
        lastFrom: 'practice',
      },
      {
        thread: 'enc-2',
        status: 'open',
        messages: 2,
        unread: 1,
        lastAt: '2026-03-01T09:01:00.000Z',
        lastText: 'other again',
        lastFrom: 'practice',
      },
      { thread: 'enc-3', status: 'closed', closedAt: '2026-03-01T08:00:00.000Z', messages: 0, unread: 0 },
    ]);
    const msgs = view.messages('enc-2')!;
    expect(msgs.map((m) => [m.id, m.read, m.readAt, m.unread])).toEqual([
      ['m3', true, '2026-03-01T10:10:00', false],
      ['m4', false, undefined, true],
    ]);
    const first = view.messages('enc-1')![0]!;
    expect(first).toMatchObject({
      id: 'm1',
      op: 'C1',
      via: 'sent',
      from: 'portal',
      to: 'practice',
      sender: 'Patient/pat-1',
      text: 'question',
      unread: false,
    });
    expect(view.messages('nope')).toBeUndefined();
    expect(again.warnings).toEqual([]);
    await again.close();
  });

  it('creates the file with mode 0600 and one JSON record per line', async () => {
    const store = openThreadStore(dir, 'p1');
    await store.append([messageRecord('C1', 'sent', chat('m1', 'enc-1', 'x'))]);
    await store.close();
    const path = threadStorePath(dir, 'p1');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(JSON.parse(lines[0]!)).toMatchObject({ v: 1, kind: 'message', op: 'C1', via: 'sent', thread: 'enc-1', id: 'm1' });
  });

  it('keeps the first of two records of the same message and counts a read marker recorded before its message', async () => {
    const store = openThreadStore(dir, 'p');
    await store.append([
      readRecord('received', 'm9', marker('2026-03-01T10:00:00')),
      messageRecord('C1', 'sent', chat('m9', 'enc-9', 'mine')),
      messageRecord('C1', 'received', chat('m9', 'enc-9', 'echo')),
      messageRecord('C3', 'received', chat('m10', 'enc-9', 'theirs')),
      // Received by this desk's own listener before the sending command recorded it: the desk's own message.
      messageRecord('C3', 'received', chat('m11', 'enc-9', 'own echo')),
      messageRecord('C3', 'sent', chat('m11', 'enc-9', 'own echo')),
    ]);
    const [t] = (await store.load()).threads;
    expect(t).toMatchObject({ thread: 'enc-9', messages: 3, unread: 1 });
    expect(store.messages('enc-9')!.map((m) => [m.text, m.via, m.read, m.unread])).toEqual([
      ['mine', 'sent', true, false],
      ['theirs', 'received', false, true],
      ['own echo', 'sent', false, false],
    ]);
    await store.close();
  });

  it('orders a thread by time: a reply pushed back before the question was recorded comes after it', async () => {
    const store = openThreadStore(dir, 'p');
    await store.append([messageRecord('C3', 'received', chat('reply', 'enc-1', 'answer'), '2026-03-01T10:00:00.200Z')]);
    await store.append([messageRecord('C1', 'sent', chat('question', 'enc-1', 'question'), '2026-03-01T10:00:00.100Z')]);
    await store.append([messageRecord('C1', 'sent', chat('again', 'enc-1', 'thanks'), '2026-03-01T10:00:01.000Z')]);
    const view = await store.load();
    expect(view.messages('enc-1')!.map((m) => m.id)).toEqual(['question', 'reply', 'again']);
    expect(view.summary('enc-1')).toMatchObject({ lastText: 'thanks', lastFrom: 'portal', lastAt: '2026-03-01T10:00:01.000Z' });
    await store.close();
  });

  it('skips a torn last line with a warning, and a writer ends it so later reads are quiet', async () => {
    const store = openThreadStore(dir, 'p');
    await store.append([messageRecord('C1', 'sent', chat('m1', 'enc-1', 'whole'))]);
    await store.close();
    const path = threadStorePath(dir, 'p');
    const whole = JSON.stringify(messageRecord('C1', 'sent', chat('m2', 'enc-1', 'torn')));
    appendFileSync(path, whole.slice(0, Math.floor(whole.length / 2)));

    const warnings: string[] = [];
    const reader = openThreadStore(dir, 'p', { onWarning: (w) => warnings.push(w) });
    const view = await reader.load();
    expect(view.messages('enc-1')!.map((m) => m.id)).toEqual(['m1']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/last line \(2\) is incomplete/);

    // A writer seals the torn fragment; the reader sees the new record, and a fresh reader warns no more.
    const writer = openThreadStore(dir, 'p');
    await writer.append([messageRecord('C3', 'received', chat('m3', 'enc-1', 'after'))]);
    await writer.close();
    await reader.load();
    expect(reader.messages('enc-1')!.map((m) => m.id)).toEqual(['m1', 'm3']);
    expect(warnings).toHaveLength(1);
    const fresh = openThreadStore(dir, 'p');
    await fresh.load();
    expect(fresh.messages('enc-1')!.map((m) => m.id)).toEqual(['m1', 'm3']);
    expect(fresh.warnings).toEqual([]);
    await reader.close();
    await fresh.close();
  });

  it('keeps a whole record that a repair record follows (a writer that saw the file mid-write of another process)', async () => {
    const path = threadStorePath(dir, 'p');
    mkdirSync(dirname(path), { recursive: true });
    // What a writer leaves when it read the size while another process's write was still going in: the other
    // line is whole, then an empty line and a needless repair record, then the writer's own record.
    writeFileSync(
      path,
      `${JSON.stringify(messageRecord('C3', 'received', chat('m1', 'enc-1', 'acknowledged')))}\n` +
        `\n${JSON.stringify({ v: 1, kind: 'repair', at: '2026-11-22T10:00:00.000Z', note: 'x' })}\n` +
        `${JSON.stringify(messageRecord('C1', 'sent', chat('m2', 'enc-1', 'next')))}\n`,
    );
    const store = openThreadStore(dir, 'p');
    expect((await store.load()).messages('enc-1')!.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(store.warnings).toEqual([]);
    await store.close();
  });

  it('warns about a corrupt line in the middle and goes on', async () => {
    const path = threadStorePath(dir, 'p');
    mkdirSync(dirname(path), { recursive: true });
    const rec = (id: string) => JSON.stringify(messageRecord('C1', 'sent', chat(id, 'enc-1', id)));
    writeFileSync(path, `${rec('a')}\nnot json at all\n{"v":1,"kind":"bogus","at":"x"}\n{"v":9,"kind":"message"}\n${rec('b')}\n`);
    const store = openThreadStore(dir, 'p');
    await store.load();
    expect(store.messages('enc-1')!.map((m) => m.id)).toEqual(['a', 'b']);
    expect(store.warnings.map((w) => w.replace(/^.*: line/, 'line'))).toEqual([
      'line 2 is not a valid record (not JSON); skipped.',
      'line 3 is not a valid record (unknown record kind "bogus"); skipped.',
      'line 4 is not a valid record (record version 9 was written by a newer pdesk); skipped.',
    ]);
    await store.close();
  });

  it('writes concurrent appends in few fsyncs (group commit) and loses none', async () => {
    const store = openThreadStore(dir, 'p');
    await Promise.all(
      Array.from({ length: 500 }, (_, i) => store.append([messageRecord('C3', 'received', chat(`m${i}`, `enc-${i % 7}`, `t${i}`))])),
    );
    await store.close();
    const lines = readFileSync(threadStorePath(dir, 'p'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(500);
    const fresh = openThreadStore(dir, 'p');
    const view = await fresh.load();
    expect(view.threads.reduce((n, t) => n + t.messages, 0)).toBe(500);
    await fresh.close();
  });

  it("reports new records to watchers: its own after fsync, and another store's through the file", async () => {
    const a = openThreadStore(dir, 'p');
    const b = openThreadStore(dir, 'p');
    await a.append([messageRecord('C1', 'sent', chat('m0', 'enc-1', 'create the file'))]);
    await b.load();
    const seenByA: StoreRecord[] = [];
    const seenByB: StoreRecord[] = [];
    const stopA = a.watch((r) => seenByA.push(...r));
    b.watch((r) => seenByB.push(...r));
    await a.append([messageRecord('C1', 'sent', chat('m1', 'enc-1', 'hello'))]);
    expect(seenByA.map((r) => r.kind === 'message' && r.id)).toContain('m1');
    await expect.poll(() => seenByB.map((r) => r.kind === 'message' && r.id), { timeout: 3000 }).toContain('m1');
    expect(b.messages('enc-1')!.map((m) => m.id)).toEqual(['m0', 'm1']);
    stopA();
    await a.close();
    await b.close();
    await expect(a.append([messageRecord('C1', 'sent', chat('m2', 'enc-1', 'late'))])).rejects.toThrow(/closed/);
  });

  it('an empty or missing store loads as no threads', async () => {
    const store = openThreadStore(dir, 'none');
    expect((await store.load()).threads).toEqual([]);
    expect(store.warnings).toEqual([]);
  });

  it('reads a store of 100,000 messages in well under a second', async () => {
    const path = threadStorePath(dir, 'big');
    mkdirSync(dirname(path), { recursive: true });
    const lines: string[] = [];
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 100_000; i++) {
      const at = new Date(base + i * 1000).toISOString();
      const r =
        i % 10 === 9
          ? readRecord('sent', `m${i - 1}`, marker('2026-03-01T10:00:00'), undefined, at)
          : messageRecord(
              i % 2 ? 'C3' : 'C1',
              i % 2 ? 'received' : 'sent',
              chat(`m${i}`, `enc-${i % 500}`, `message number ${i} with some text`),
              at,
            );
      lines.push(JSON.stringify(r));
    }
    writeFileSync(path, `${lines.join('\n')}\n`);
    const store = openThreadStore(dir, 'big');
    // CPU time, not wall time: the suite shares two cores with other test files.
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const view = await store.load();
    const threads = view.threads;
    const c = process.cpuUsage(c0);
    const ms = (c.user + c.system) / 1000;
    const wall = performance.now() - t0;
    expect(threads).toHaveLength(450); // threads enc-9, enc-19, … get only read markers
    expect(view.count).toBe(100_000);
    expect(ms).toBeLessThan(1500);
    expect(store.messages('enc-0')![0]!.text).toBe('message number 0 with some text');
    console.log(`100,000 records loaded and summarised: ${ms.toFixed(0)} ms CPU, ${wall.toFixed(0)} ms wall`);
  });

  it('describes records on one terminal-safe line', () => {
    const line = describeRecord(
      messageRecord(
        'C3',
        'received',
        chat('m1', 'enc-1', 'hi\u001b[31m there\nnext', 'PractitionerRole/1001', 'Patient/pat-1'),
        '2026-03-01T10:00:00.000Z',
      ),
    );
    expect(line).toBe('2026-03-01T10:00:00.000Z C3 received enc-1 m1 from PractitionerRole/1001 to Patient/pat-1: hi there next');
    const n = describeRecord(
      notificationRecord(
        'received',
        {
          resourceType: 'Communication',
          contained: [{ resourceType: 'Patient', id: 'p1', telecom: [{ system: 'email', value: 'a@example.org' }] }],
          recipient: [{ reference: '#p1' }],
          topic: { text: 'Reminder' },
          status: 'completed',
          category: [{ coding: [{ code: 'notification' }] }],
          payload: [{ contentString: 'Bring your card' }],
        },
        '2026-03-01T10:00:00.000Z',
      ),
    );
    expect(n).toBe('2026-03-01T10:00:00.000Z C5 received notification to a@example.org: Reminder: Bring your card');
  });
});
