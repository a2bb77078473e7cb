/**
 * The team store on PostgreSQL (src/core/store/pg/store.ts) against a real cluster: pushes stored once, threads and
 * their summaries, read markers, closes, assignment and the first replier, the reply race held, the audit trail
 * written ahead, presence. Each test uses profiles of its own in one database (the store keys every row by profile).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCommunication } from '../../../../src/core/schemas/chat.js';
import { type PgDeskStore, PRESENCE_TTL_MS, openPgStore } from '../../../../src/core/store/pg/index.js';
import type { DeskRecord } from '../../../../src/core/store/types.js';
import { chatMessage } from '../../../helpers/chat.js';
import { pgInstalled, clusterForFile } from '../../../helpers/pg.js';

const pg = clusterForFile();

let n = 0;
const profile = () => `p${++n}`;
const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 10, 0, s)).toISOString();

function msg(id: string, thread: string, text: string, second: number, op: 'C1' | 'C3' = 'C1'): Extract<DeskRecord, { kind: 'message' }> {
  const resource: ChatCommunication =
    op === 'C1'
      ? chatMessage(id, thread, text, 'Patient/pat-1', 'PractitionerRole/1001')
      : chatMessage(id, thread, text, 'PractitionerRole/1001', 'Patient/pat-1');
  return { kind: 'message', op, at: at(second), thread, id, resource };
}

function read(id: string, second: number, thread?: string): Extract<DeskRecord, { kind: 'read' }> {
  const readAt = '2026-03-01T11:00:00';
  return {
    kind: 'read',
    op: 'C2',
    at: at(second),
    id,
    readAt,
    ...(thread ? { thread } : {}),
    resource: [{ op: 'add', path: '/recipient/0/extension', value: { url: 'urn:x.ResourceSeenAt', valueDateTime: readAt } }],
  };
}

function close(thread: string, second: number): Extract<DeskRecord, { kind: 'close' }> {
  return {
    kind: 'close',
    op: 'C4',
    at: at(second),
    thread,
    resource: { resourceType: 'Encounter', id: thread, status: 'finished', identifier: [{ system: 'urn:x', value: thread }] },
  };
}

describe.skipIf(!pgInstalled)('the team store on PostgreSQL', () => {
  let url: string;
  let store: PgDeskStore;
  /** A second desk on the same database (another operator's machine). */
  let other: PgDeskStore;
  beforeAll(async () => {
    url = await pg().createDatabase();
    store = openPgStore(url);
    other = openPgStore(url);
    await store.open();
  });
  afterAll(async () => {
    await store?.close();
    await other?.close();
  });

  describe('received pushes', () => {
    it('a repeated push is stored once and reported as a duplicate each time after the first', async () => {
      const p = profile();
      const m = msg('m1', 'enc-1', 'Hello', 1);
      expect(await store.recordReceived(p, m)).toEqual({ outcome: 'stored' });
      expect(await store.recordReceived(p, m)).toEqual({ outcome: 'duplicate' });
      expect(await other.recordReceived(p, m)).toEqual({ outcome: 'duplicate' });
      const list = await other.messages(p, 'enc-1');
      expect(list?.map((x) => [x.id, x.via, x.text, x.from, x.unread])).toEqual([['m1', 'received', 'Hello', 'portal', true]]);
      expect(await store.thread(p, 'enc-1')).toMatchObject({ messages: 1, unread: 1, lastText: 'Hello', lastFrom: 'portal' });
    });

    it('the same push arriving at several listeners at once is stored exactly once', async () => {
      const p = profile();
      const m = msg('m-race', 'enc-r', 'Once', 1);
      const desks = Array.from({ length: 6 }, () => openPgStore(url, { max: 1 }));
      try {
        const results = await Promise.all(desks.map((d) => d.recordReceived(p, m)));
        expect(results.filter((r) => r.outcome === 'stored')).toHaveLength(1);
        expect(results.filter((r) => r.outcome === 'duplicate')).toHaveLength(5);
      } finally {
        await Promise.all(desks.map((d) => d.close()));
      }
      expect(await store.thread(p, 'enc-r')).toMatchObject({ messages: 1, unread: 1 });
    });

    it('a message to a closed thread is refused and not stored; one the server acknowledged is kept', async () => {
      const p = profile();
      await store.recordReceived(p, msg('a', 'enc-c', 'before', 1));
      expect(await store.recordReceived(p, close('enc-c', 2))).toEqual({ outcome: 'stored' });
      expect(await store.recordReceived(p, close('enc-c', 3))).toEqual({ outcome: 'duplicate' });
      expect(await store.recordReceived(p, msg('b', 'enc-c', 'after', 4))).toEqual({ outcome: 'closed' });
      // The first message again: a duplicate, not a refusal.
      expect(await store.recordReceived(p, msg('a', 'enc-c', 'before', 1))).toEqual({ outcome: 'duplicate' });
      expect(await store.recordSent(p, msg('c', 'enc-c', 'sent anyway', 5, 'C3'), 'alice')).toEqual({
        outcome: 'stored',
        assigned: 'alice',
      });
      expect((await store.messages(p, 'enc-c'))?.map((m) => m.id)).toEqual(['a', 'c']);
      expect(await store.thread(p, 'enc-c')).toMatchObject({ status: 'closed', closedAt: at(2) });
    });

    it('notifications are stored, once per id when they have one', async () => {
      const p = profile();
      const note = (id?: string) =>
        ({
          kind: 'notification',
          op: 'C5',
          at: at(1),
          resource: {
            resourceType: 'Communication',
            ...(id ? { id } : {}),
            contained: [{ resourceType: 'Patient', id: 'p1', telecom: [{ system: 'email', value: 'a@example.org' }] }],
            topic: { text: 'T' },
            status: 'completed',
            category: [{ coding: [{ code: 'notification' }] }],
            payload: [{ contentString: 'x' }],
            recipient: [{ reference: '#p1' }],
          },
        }) as DeskRecord;
      expect(await store.recordReceived(p, note('n1'))).toEqual({ outcome: 'stored' });
      expect(await store.recordReceived(p, note('n1'))).toEqual({ outcome: 'duplicate' });
      expect(await store.recordSent(p, note(), 'bob')).toEqual({ outcome: 'stored' });
      expect(await store.recordSent(p, note(), 'bob')).toEqual({ outcome: 'stored' });
      expect((await store.notifications(p)).map((x) => [x.via, x.operator])).toEqual([
        ['received', undefined],
        ['sent', 'bob'],
        ['sent', 'bob'],
      ]);
    });

    it('refuses ids longer than the store indexes, naming the field, and stores nothing', async () => {
      const p = profile();
      await expect(store.recordReceived(p, msg('x'.repeat(2000), 'enc-1', 'long', 1))).rejects.toThrow(
        /^id is longer than 1024 characters/,
      );
      await expect(store.recordReceived(p, msg('ok', 't'.repeat(2000), 'long', 1))).rejects.toThrow(
        /^thread is longer than 1024 characters/,
      );
      expect(await store.listThreads(p)).toEqual([]);
    });
  });

  describe('read markers', () => {
    it('a marker makes a received message read; a second marker changes nothing; a sent message is never unread', async () => {
      const p = profile();
      await store.recordReceived(p, msg('m1', 'enc-1', 'one', 1));
      await store.recordReceived(p, msg('m2', 'enc-1', 'two', 2));
      await store.recordSent(p, msg('m3', 'enc-1', 'answer', 3, 'C3'), 'alice');
      expect(await store.thread(p, 'enc-1')).toMatchObject({ messages: 3, unread: 2, lastText: 'answer', lastFrom: 'practice' });
      expect(await store.recordSent(p, read('m1', 4), 'alice')).toEqual({ outcome: 'stored' });
      expect(await store.recordReceived(p, read('m1', 5))).toEqual({ outcome: 'duplicate' });
      expect(await store.thread(p, 'enc-1')).toMatchObject({ unread: 1 });
      const shown = await store.messages(p, 'enc-1');
      expect(shown?.map((m) => [m.id, m.read, m.unread, m.readAt, m.operator])).toEqual([
        ['m1', true, false, '2026-03-01T11:00:00', undefined],
        ['m2', false, true, undefined, undefined],
        ['m3', false, false, undefined, 'alice'],
      ]);
    });

    it('a marker for a message not seen yet is kept, and the message arrives read', async () => {
      const p = profile();
      expect(await store.recordReceived(p, read('early', 1))).toEqual({ outcome: 'stored' });
      await store.recordReceived(p, msg('early', 'enc-e', 'hi', 2));
      expect(await store.thread(p, 'enc-e')).toMatchObject({ messages: 1, unread: 0 });
    });

    it('a message and its marker arriving at once count unread exactly, whichever commits first', async () => {
      const p = profile();
      const desks = Array.from({ length: 4 }, () => openPgStore(url, { max: 1 }));
      try {
        for (let i = 0; i < 10; i++) {
          await Promise.all([
            desks[0]!.recordReceived(p, msg(`x${i}`, `enc-${i}`, 'hi', i)),
            desks[1]!.recordReceived(p, read(`x${i}`, i)),
            desks[2]!.recordReceived(p, msg(`y${i}`, `enc-${i}`, 'hi', i)),
          ]);
        }
      } finally {
        await Promise.all(desks.map((d) => d.close()));
      }
      const threads = await store.listThreads(p);
      expect(threads).toHaveLength(10);
      for (const t of threads) expect([t.thread, t.messages, t.unread]).toEqual([t.thread, 2, 1]);
    });
  });

  describe('the thread list', () => {
    it('newest first, with owner, last message and unread; filtered to mine or unassigned; changed since a rev', async () => {
      const p = profile();
      await store.recordReceived(p, msg('a1', 'enc-a', 'from a', 1));
      await store.recordReceived(p, msg('b1', 'enc-b', 'from b', 3));
      await store.recordReceived(p, msg('c1', 'enc-c', 'from c', 2));
      await store.recordReceived(p, close('enc-d', 4)); // a close of a thread with no messages sorts by its time
      expect((await store.listThreads(p)).map((t) => t.thread)).toEqual(['enc-d', 'enc-b', 'enc-c', 'enc-a']);
      expect(await store.assign(p, 'enc-b', { to: 'alice', by: 'alice' })).toEqual({ outcome: 'assigned', owner: 'alice' });
      expect(await store.assign(p, 'enc-a', { to: 'bob', by: 'alice' })).toEqual({ outcome: 'assigned', owner: 'bob' });
      const all = await other.listThreads(p);
      expect(all.map((t) => [t.thread, t.owner, t.unread, t.lastText, t.status])).toEqual([
        ['enc-d', undefined, 0, undefined, 'closed'],
        ['enc-b', 'alice', 1, 'from b', 'open'],
        ['enc-c', undefined, 1, 'from c', 'open'],
        ['enc-a', 'bob', 1, 'from a', 'open'],
      ]);
      expect((await other.listThreads(p, { filter: 'mine', operator: 'alice' })).map((t) => t.thread)).toEqual(['enc-b']);
      expect((await other.listThreads(p, { filter: 'unassigned' })).map((t) => t.thread)).toEqual(['enc-d', 'enc-c']);
      expect((await other.listThreads(p, { limit: 2 })).map((t) => t.thread)).toEqual(['enc-d', 'enc-b']);
      const rev = Math.max(...all.map((t) => t.rev));
      await store.recordReceived(p, msg('c2', 'enc-c', 'again', 5));
      expect((await other.listThreads(p, { changedSince: rev })).map((t) => [t.thread, t.messages, t.lastText])).toEqual([
        ['enc-c', 2, 'again'],
      ]);
      expect(await store.listThreads(profile())).toEqual([]);
    });

    it('lists 10,000 threads whole and filtered', async () => {
      const p = profile();
      // Rows made in one statement (10,000 pushes one by one would be the bench's job, not a unit test's).
      await store.sql`
        insert into pdesk.threads (profile, thread, owner, messages, unread, last_seq, last_at, last_text, last_from, sort_at)
        select ${p}, 'enc-' || lpad(i::text, 5, '0'), case when i % 3 = 0 then 'alice' when i % 3 = 1 then null else 'bob' end,
               1, i % 2, i, ${at(0)}::timestamptz + i * interval '1 second', 'text ' || i, 'portal',
               ${at(0)}::timestamptz + i * interval '1 second'
        from generate_series(1, 10000) i`;
      const all = await store.listThreads(p);
      expect(all).toHaveLength(10_000);
      expect(all[0]).toMatchObject({ thread: 'enc-10000', lastText: 'text 10000', unread: 0 });
      expect(all[9999]).toMatchObject({ thread: 'enc-00001', unread: 1 });
      expect(all[9999]!.owner).toBeUndefined();
      expect(await store.listThreads(p, { filter: 'mine', operator: 'alice' })).toHaveLength(3333);
      expect(await store.listThreads(p, { filter: 'unassigned' })).toHaveLength(3334);
    });
  });

  describe('assignment', () => {
    it('assigns, reassigns and unassigns with a history; a stale view of the owner is a conflict; an unknown thread is said so', async () => {
      const p = profile();
      await store.recordReceived(p, msg('m1', 'enc-1', 'hi', 1));
      expect(await store.assign(p, 'enc-404', { to: 'alice', by: 'alice' })).toEqual({ outcome: 'unknown' });
      expect(await store.assign(p, 'enc-1', { to: 'alice', by: 'alice', expect: null })).toEqual({ outcome: 'assigned', owner: 'alice' });
      // Bob's screen still showed the thread unassigned: his `a` does not take it from Alice.
      expect(await other.assign(p, 'enc-1', { to: 'bob', by: 'bob', expect: null })).toEqual({ outcome: 'conflict', owner: 'alice' });
      expect(await store.assign(p, 'enc-1', { to: 'alice', by: 'alice' })).toEqual({ outcome: 'unchanged', owner: 'alice' });
      expect(await other.assign(p, 'enc-1', { to: 'bob', by: 'carol' })).toEqual({ outcome: 'assigned', owner: 'bob', previous: 'alice' });
      expect(await other.assign(p, 'enc-1', { to: null, by: 'bob' })).toEqual({ outcome: 'unassigned', previous: 'bob' });
      expect((await store.thread(p, 'enc-1'))?.owner).toBeUndefined();
      expect((await store.assignments(p, 'enc-1')).map((a) => [a.reason, a.owner, a.previous, a.by])).toEqual([
        ['assign', 'alice', undefined, 'alice'],
        ['assign', 'bob', 'alice', 'carol'],
        ['unassign', undefined, 'bob', 'bob'],
      ]);
    });

    it('two operators taking the same unassigned thread at once: one gets it, the other is told who', async () => {
      const p = profile();
      await store.recordReceived(p, msg('m1', 'enc-1', 'hi', 1));
      const [a, b] = await Promise.all([
        store.assign(p, 'enc-1', { to: 'alice', by: 'alice', expect: null }),
        other.assign(p, 'enc-1', { to: 'bob', by: 'bob', expect: null }),
      ]);
      const outcomes = [a.outcome, b.outcome].sort();
      expect(outcomes).toEqual(['assigned', 'conflict']);
      const winner = a.outcome === 'assigned' ? 'alice' : 'bob';
      expect((a.outcome === 'conflict' ? a : b).owner).toBe(winner);
    });

    it('the first operator who replies to a thread nobody owns takes it; a later reply or a C1 does not', async () => {
      const p = profile();
      await store.recordReceived(p, msg('m1', 'enc-1', 'hi', 1));
      expect(await store.recordSent(p, msg('s0', 'enc-1', 'portal side', 2, 'C1'), 'carol')).toEqual({ outcome: 'stored' });
      expect((await store.thread(p, 'enc-1'))?.owner).toBeUndefined();
      expect(await store.recordSent(p, msg('s1', 'enc-1', 'answer', 3, 'C3'), 'alice')).toEqual({ outcome: 'stored', assigned: 'alice' });
      expect(await other.recordSent(p, msg('s2', 'enc-1', 'me too', 4, 'C3'), 'bob')).toEqual({ outcome: 'stored' });
      expect((await store.thread(p, 'enc-1'))?.owner).toBe('alice');
      expect((await store.assignments(p, 'enc-1')).map((a) => [a.reason, a.owner, a.by])).toEqual([['first-reply', 'alice', 'alice']]);
    });
  });

  describe('replies: no double answers', () => {
    async function opened(p: string) {
      await store.recordReceived(p, msg('q1', 'enc-1', 'question', 1));
      const t = await store.thread(p, 'enc-1');
      return t!.lastSeq;
    }

    it('a second operator replying while the first one is sending is held, then shown the first reply', async () => {
      const p = profile();
      const after = await opened(p);
      const a = await store.beginReply(p, { thread: 'enc-1', operator: 'alice', after });
      expect(a.ok).toBe(true);
      const b = await other.beginReply(p, { thread: 'enc-1', operator: 'bob', after });
      expect(b).toMatchObject({ ok: false, newMessages: [], replying: { operator: 'alice' } });
      if (!a.ok) return;
      expect(await store.completeReply(a.claim, msg('r1', 'enc-1', 'alice answers', 2, 'C3'))).toEqual({
        outcome: 'stored',
        assigned: 'alice',
      });
      const again = await other.beginReply(p, { thread: 'enc-1', operator: 'bob', after });
      expect(again.ok).toBe(false);
      if (again.ok) return;
      expect(again.newMessages.map((m) => [m.id, m.operator, m.text])).toEqual([['r1', 'alice', 'alice answers']]);
      expect(again.owner).toBe('alice');
      expect(again.replying).toBeUndefined();
    });

    it('two operators replying at the same instant: exactly one is cleared', async () => {
      const p = profile();
      const after = await opened(p);
      const checks = await Promise.all([
        store.beginReply(p, { thread: 'enc-1', operator: 'alice', after }),
        other.beginReply(p, { thread: 'enc-1', operator: 'bob', after }),
      ]);
      expect(checks.filter((c) => c.ok)).toHaveLength(1);
    });

    it('a message that arrived after the form was opened holds the reply, and names the message', async () => {
      const p = profile();
      const after = await opened(p);
      await other.recordReceived(p, msg('q2', 'enc-1', 'one more thing', 2));
      const c = await store.beginReply(p, { thread: 'enc-1', operator: 'alice', after });
      expect(c).toMatchObject({ ok: false, newMessages: [{ id: 'q2', text: 'one more thing', via: 'received' }] });
      // Seen now: the reply goes ahead from the new point.
      const seen = (await store.thread(p, 'enc-1'))!.lastSeq;
      expect((await store.beginReply(p, { thread: 'enc-1', operator: 'alice', after: seen })).ok).toBe(true);
    });

    it("a thread another operator owns needs force; the operator's own messages from another desk do not hold the reply", async () => {
      const p = profile();
      const after = await opened(p);
      await store.assign(p, 'enc-1', { to: 'bob', by: 'bob' });
      expect(await store.beginReply(p, { thread: 'enc-1', operator: 'alice', after })).toEqual({
        ok: false,
        newMessages: [],
        owner: 'bob',
      });
      await other.recordSent(p, msg('b1', 'enc-1', 'bob from his laptop', 2, 'C3'), 'bob');
      const forced = await store.beginReply(p, { thread: 'enc-1', operator: 'alice', after, force: true });
      expect(forced).toMatchObject({ ok: false, newMessages: [{ id: 'b1' }] });
      expect(forced.ok ? undefined : forced.owner).toBeUndefined();
      const bob = await other.beginReply(p, { thread: 'enc-1', operator: 'bob', after });
      expect(bob.ok).toBe(true);
      if (!bob.ok) return;
      // A forced reply does not take the thread.
      const seen = (await store.thread(p, 'enc-1'))!.lastSeq;
      await other.abandonReply(bob.claim);
      const a = await store.beginReply(p, { thread: 'enc-1', operator: 'alice', after: seen, force: true });
      expect(a.ok).toBe(true);
      if (a.ok) expect(await store.completeReply(a.claim, msg('a1', 'enc-1', 'alice anyway', 3, 'C3'))).toEqual({ outcome: 'stored' });
      expect((await store.thread(p, 'enc-1'))?.owner).toBe('bob');
    });

    it('an abandoned or expired claim no longer holds anyone; a reply completed after its claim expired is still recorded', async () => {
      const p = profile();
      const after = await opened(p);
      const a = await store.beginReply(p, { thread: 'enc-1', operator: 'alice', after });
      if (!a.ok) throw new Error('not cleared');
      await store.abandonReply(a.claim);
      const b = await other.beginReply(p, { thread: 'enc-1', operator: 'bob', after, holdMs: 1 });
      expect(b.ok).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      const c = await store.beginReply(p, { thread: 'enc-1', operator: 'alice', after });
      expect(c.ok).toBe(true);
      // Bob's request got its answer late: what the server acknowledged is recorded all the same.
      if (b.ok)
        expect(await other.completeReply(b.claim, msg('late', 'enc-1', 'late answer', 2, 'C3'))).toMatchObject({ outcome: 'stored' });
      expect((await store.messages(p, 'enc-1'))?.map((m) => m.id)).toEqual(['q1', 'late']);
    });

    it('a reply to a thread the store does not know yet starts it', async () => {
      const p = profile();
      const c = await store.beginReply(p, { thread: 'enc-new', operator: 'alice', after: 0 });
      expect(c.ok).toBe(true);
      if (c.ok) await store.completeReply(c.claim, msg('first', 'enc-new', 'hello from the practice', 1, 'C3'));
      expect(await store.thread(p, 'enc-new')).toMatchObject({ messages: 1, owner: 'alice', unread: 0 });
    });
  });

  describe('the audit trail', () => {
    it('a write is recorded before it is sent (outcome unknown) and completed with its status or error', async () => {
      const p = profile();
      const base = { profile: p, operator: 'alice', method: 'POST', url: 'https://practice.test/Communication' };
      const a = await store.auditBegin({ ...base, op: 'C3', at: at(1), bodySha256: 'abc', body: { x: 1 } });
      const b = await store.auditBegin({ ...base, op: 'A6', at: at(2), environment: 'production' });
      const c = await store.auditBegin({ ...base, op: 'C3', at: at(3) });
      expect((await other.auditList(p)).map((r) => [r.id, r.outcome])).toEqual([
        [a, 'unknown'],
        [b, 'unknown'],
        [c, 'unknown'],
      ]);
      await store.auditComplete(a, { status: 201, ms: 12 });
      await store.auditComplete(b, { error: { name: 'NetworkError', message: 'ECONNRESET', code: 'ECONNRESET' }, ms: 30_000 });
      // Completing twice changes nothing: the first outcome stands.
      await store.auditComplete(a, { status: 500, ms: 1 });
      const rows = await other.auditList(p);
      expect(rows[0]).toMatchObject({
        id: a,
        outcome: 'answered',
        status: 201,
        ms: 12,
        bodySha256: 'abc',
        body: { x: 1 },
        operator: 'alice',
        op: 'C3',
      });
      expect(rows[1]).toMatchObject({ outcome: 'no-answer', error: { code: 'ECONNRESET' }, environment: 'production' });
      expect(rows[2]).toMatchObject({ outcome: 'unknown' });
      expect(rows[2]!.status).toBeUndefined();
      expect((await other.auditList(p, { ops: ['A6'] })).map((r) => r.id)).toEqual([b]);
      expect((await other.auditList(p, { since: new Date(at(2)) })).map((r) => r.id)).toEqual([b, c]);
    });

    it('registered secrets in the URL and the error are redacted again', async () => {
      const { registerSecret } = await import('../../../../src/core/redact.js');
      registerSecret('tok-AUDIT-9876');
      const p = profile();
      const id = await store.auditBegin({ profile: p, operator: 'a', method: 'GET', url: 'https://x.test/?t=tok-AUDIT-9876', at: at(1) });
      await store.auditComplete(id, { error: { name: 'E', message: 'bad tok-AUDIT-9876' }, ms: 1 });
      const [r] = await store.auditList(p);
      expect(JSON.stringify(r)).not.toContain('tok-AUDIT-9876');
    });
  });

  describe('presence', () => {
    it('shows who else has a thread open, not oneself, and forgets a desk that left or stopped beating', async () => {
      const p = profile();
      const alice = { operator: 'alice', session: 's-alice' };
      const bob = { operator: 'bob', session: 's-bob' };
      const bob2 = { operator: 'bob', session: 's-bob-2' };
      await store.heartbeat(p, 'enc-1', alice);
      await other.heartbeat(p, 'enc-1', bob);
      await other.heartbeat(p, 'enc-1', bob2);
      await other.heartbeat(p, 'enc-2', bob);
      expect((await store.viewers(p, 'enc-1', alice)).map((v) => v.operator)).toEqual(['bob']);
      expect((await other.viewers(p, 'enc-1', bob)).map((v) => v.operator)).toEqual(['alice', 'bob']);
      await other.leave(p, bob, 'enc-1');
      await other.leave(p, bob2);
      expect((await store.viewers(p, 'enc-1', alice)).map((v) => v.operator)).toEqual([]);
      expect((await store.viewers(p, 'enc-2', alice)).map((v) => v.operator)).toEqual(['bob']);
      // Bob's TUI died without leaving: once his last heartbeat is older than the TTL, he is gone.
      await store.sql`update pdesk.presence set seen_at = now() - ${(PRESENCE_TTL_MS + 1000) / 1000} * interval '1 second'
        where profile = ${p} and session = 's-bob'`;
      expect(await store.viewers(p, 'enc-2', alice)).toEqual([]);
    });
  });
});
