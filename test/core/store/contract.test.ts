/**
 * The desk store's contract (src/core/store/types.ts), one suite run unchanged against both engines: the file store
 * in a config folder (src/core/store/file/) and the team store on a real PostgreSQL (src/core/store/pg/). `other` is
 * a second desk on the same backing: another operator's machine on the database, another process on the folder.
 * Pushes stored once, threads and their summaries, read markers, closes, notifications, owners and the first
 * replier, the reply race held, presence, change events. Each test uses profiles of its own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openFileStore } from '../../../src/core/store/file/index.js';
import { readSessionFile, sessionFileName } from '../../../src/core/store/file/presence.js';
import { PRESENCE_TTL_MS, openPgStore } from '../../../src/core/store/pg/index.js';
import type { DeskEvent, DeskStore, Subscription } from '../../../src/core/store/types.js';
import { at, close, msg, note, read } from '../../helpers/desk.js';
import { clusterForFile, pgInstalled } from '../../helpers/pg.js';

const pg = clusterForFile();

interface Backing {
  store: DeskStore;
  /** A second desk on the same backing. */
  other: DeskStore;
  /** Make a session's heartbeats older than the presence TTL (a desk that died without leaving). */
  expire(profile: string, session: string): Promise<void>;
  close(): Promise<void>;
}

const engines: Array<{ name: string; available: boolean; open(): Promise<Backing> }> = [
  {
    name: 'the file store',
    available: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'pdesk-desk-'));
      const store = openFileStore(dir);
      const other = openFileStore(dir);
      return {
        store,
        other,
        async expire(profile, session) {
          const path = join(dir, 'desk', profile, 'presence', sessionFileName(session));
          const f = (await readSessionFile(path))!;
          for (const t of Object.keys(f.threads)) f.threads[t] = Date.now() - PRESENCE_TTL_MS - 1000;
          writeFileSync(path, JSON.stringify(f));
        },
        async close() {
          await store.close();
          await other.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'the team store on PostgreSQL',
    available: pgInstalled,
    async open() {
      const url = await pg().createDatabase();
      const store = openPgStore(url);
      const other = openPgStore(url);
      await store.open();
      return {
        store,
        other,
        async expire(profile, session) {
          await store.sql`update pdesk.presence set seen_at = now() - ${(PRESENCE_TTL_MS + 1000) / 1000} * interval '1 second'
            where profile = ${profile} and session = ${session}`;
        },
        async close() {
          await store.close();
          await other.close();
        },
      };
    },
  },
];

let n = 0;
const profile = () => `p${++n}`;

for (const engine of engines) {
  describe.skipIf(!engine.available)(`the desk store: ${engine.name}`, () => {
    let b: Backing;
    let store: DeskStore;
    let other: DeskStore;
    beforeAll(async () => {
      b = await engine.open();
      store = b.store;
      other = b.other;
    });
    afterAll(async () => {
      await b?.close();
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

      it('the same push arriving several times at once is stored exactly once', async () => {
        const p = profile();
        const m = msg('m-race', 'enc-r', 'Once', 1);
        const results = await Promise.all(Array.from({ length: 6 }, () => store.recordReceived(p, m)));
        expect(results.filter((r) => r.outcome === 'stored')).toHaveLength(1);
        expect(results.filter((r) => r.outcome === 'duplicate')).toHaveLength(5);
        expect(await other.thread(p, 'enc-r')).toMatchObject({ messages: 1, unread: 1 });
      });

      it('a message to a closed thread is refused and not stored; one the server acknowledged is kept', async () => {
        const p = profile();
        await store.recordReceived(p, msg('a', 'enc-c', 'before', 1));
        expect(await store.recordReceived(p, close('enc-c', 2))).toEqual({ outcome: 'stored' });
        expect(await other.recordReceived(p, close('enc-c', 3))).toEqual({ outcome: 'duplicate' });
        expect(await other.recordReceived(p, msg('b', 'enc-c', 'after', 4))).toEqual({ outcome: 'closed' });
        // The first message again: a duplicate, not a refusal.
        expect(await store.recordReceived(p, msg('a', 'enc-c', 'before', 1))).toEqual({ outcome: 'duplicate' });
        expect(await store.recordSent(p, msg('c', 'enc-c', 'sent anyway', 5, 'C3'), 'alice')).toEqual({
          outcome: 'stored',
          assigned: 'alice',
        });
        expect((await other.messages(p, 'enc-c'))?.map((m) => m.id)).toEqual(['a', 'c']);
        expect(await other.thread(p, 'enc-c')).toMatchObject({ status: 'closed', closedAt: at(2), owner: 'alice' });
      });

      it('a close of a thread never seen records it closed', async () => {
        const p = profile();
        expect(await store.recordReceived(p, close('enc-new', 1))).toEqual({ outcome: 'stored' });
        expect(await other.thread(p, 'enc-new')).toMatchObject({ status: 'closed', messages: 0, unread: 0, lastSeq: 0 });
      });

      it('notifications are stored, once per id when they have one, with who sent them', async () => {
        const p = profile();
        expect(await store.recordReceived(p, note(1, 'n1', 'first'))).toEqual({ outcome: 'stored' });
        expect(await other.recordReceived(p, note(2, 'n1', 'again'))).toEqual({ outcome: 'duplicate' });
        expect(await store.recordSent(p, note(3), 'bob')).toEqual({ outcome: 'stored' });
        expect(await store.recordSent(p, note(4), 'bob')).toEqual({ outcome: 'stored' });
        expect((await other.notifications(p)).map((x) => [x.via, x.operator, x.email, x.topic, x.text])).toEqual([
          ['received', undefined, 'a@example.org', 'T', 'first'],
          ['sent', 'bob', 'a@example.org', 'T', 'x'],
          ['sent', 'bob', 'a@example.org', 'T', 'x'],
        ]);
      });
    });

    describe('read markers', () => {
      it('a marker makes a received message read; a second marker changes nothing; a sent message is never unread', async () => {
        const p = profile();
        await store.recordReceived(p, msg('m1', 'enc-1', 'one', 1));
        await store.recordReceived(p, msg('m2', 'enc-1', 'two', 2));
        await store.recordSent(p, msg('m3', 'enc-1', 'answer', 3, 'C3'), 'alice');
        expect(await store.thread(p, 'enc-1')).toMatchObject({ messages: 3, unread: 2, lastText: 'answer', lastFrom: 'practice' });
        expect(await store.recordSent(p, read('m1', 4), 'alice')).toEqual({ outcome: 'stored', thread: 'enc-1' });
        expect(await other.recordReceived(p, read('m1', 5))).toEqual({ outcome: 'duplicate' });
        expect(await store.thread(p, 'enc-1')).toMatchObject({ unread: 1 });
        const shown = await other.messages(p, 'enc-1');
        expect(shown?.map((m) => [m.id, m.read, m.unread, m.readAt, m.operator])).toEqual([
          ['m1', true, false, '2026-03-01T11:00:00', undefined],
          ['m2', false, true, undefined, undefined],
          ['m3', false, false, undefined, 'alice'],
        ]);
        // Positions grow in the order of arrival.
        const seqs = shown!.map((m) => m.seq);
        expect([...seqs].sort((a, c) => a - c)).toEqual(seqs);
        expect((await store.thread(p, 'enc-1'))!.lastSeq).toBe(seqs[2]);
      });

      it('a marker for a message not seen yet is kept, and the message arrives read', async () => {
        const p = profile();
        expect(await store.recordReceived(p, read('early', 1))).toEqual({ outcome: 'stored' });
        await other.recordReceived(p, msg('early', 'enc-e', 'hi', 2));
        expect(await store.thread(p, 'enc-e')).toMatchObject({ messages: 1, unread: 0 });
      });

      it('a message this desk sent that came back as a push is its own, never unread', async () => {
        const p = profile();
        expect(await store.recordReceived(p, msg('own', 'enc-o', 'echo', 1, 'C3'))).toEqual({ outcome: 'stored' });
        expect(await store.recordSent(p, msg('own', 'enc-o', 'echo', 1, 'C3'), 'alice')).toEqual({ outcome: 'duplicate' });
        expect((await other.messages(p, 'enc-o'))?.map((m) => [m.via, m.unread, m.operator])).toEqual([['sent', false, 'alice']]);
        expect(await other.thread(p, 'enc-o')).toMatchObject({ unread: 0 });
      });
    });

    describe('what an X-ray reads', () => {
      it("a thread's close and its messages' read markers as recorded, with who and when; an unknown thread is undefined", async () => {
        const p = profile();
        await store.recordReceived(p, msg('m1', 'enc-x', 'one', 1));
        await store.recordReceived(p, msg('m2', 'enc-x', 'two', 2));
        await store.recordSent(p, msg('m3', 'enc-x', 'answer', 3, 'C3'), 'alice');
        await store.recordSent(p, read('m1', 4), 'alice');
        await store.recordReceived(p, read('elsewhere', 4)); // a marker of a message in no thread of this one
        const before = await other.threadRecords(p, 'enc-x');
        expect(before?.close).toBeUndefined();
        expect(before?.readMarkers.map((m) => m.id)).toEqual(['m1']);
        await other.recordSent(p, close('enc-x', 5), 'bob');
        const r = await store.threadRecords(p, 'enc-x');
        expect(r?.close).toEqual({ via: 'sent', at: at(5), operator: 'bob', resource: close('enc-x', 5).resource });
        expect(r?.readMarkers.map((m) => [m.id, m.readAt, m.via, m.at, m.operator])).toEqual([
          ['m1', '2026-03-01T11:00:00', 'sent', at(4), 'alice'],
        ]);
        expect(r?.readMarkers[0]?.resource).toEqual(read('m1', 4).resource);
        expect(await store.threadRecords(p, 'enc-none')).toBeUndefined();
      });

      it('the threads that name a reference as subject, sender or recipient, not in their text', async () => {
        const p = profile();
        await store.recordReceived(p, msg('a1', 'enc-a', 'about pat-1', 1));
        const b = msg('b1', 'enc-b', 'about pat-2', 2);
        b.resource = { ...b.resource, sender: [{ reference: 'Patient/pat-2' }], subject: [{ reference: 'Patient/pat-2' }] };
        await store.recordReceived(p, b);
        await store.recordReceived(p, msg('c1', 'enc-c', 'a text that says "Patient/pat-2"', 3));
        expect((await other.threadsNaming(p, 'Patient/pat-2')).map((t) => t.thread)).toEqual(['enc-b']);
        expect((await other.threadsNaming(p, 'Patient/pat-1')).map((t) => t.thread)).toEqual(['enc-c', 'enc-a']);
        expect(await other.threadsNaming(p, 'PractitionerRole/1001')).toHaveLength(3);
        expect(await other.threadsNaming(p, 'Patient/nobody')).toEqual([]);
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
        await expect(other.listThreads(p, { filter: 'mine' })).rejects.toThrow(/needs the operator/);
        const rev = Math.max(...all.map((t) => t.rev));
        await store.recordReceived(p, msg('c2', 'enc-c', 'again', 5));
        expect((await other.listThreads(p, { changedSince: rev })).map((t) => [t.thread, t.messages, t.lastText])).toEqual([
          ['enc-c', 2, 'again'],
        ]);
        const afterMessage = Math.max(...(await other.listThreads(p)).map((t) => t.rev));
        // A read marker, an owner and a close are changes too.
        await other.recordReceived(p, read('a1', 6));
        await store.assign(p, 'enc-b', { to: null, by: 'alice' });
        await store.recordSent(p, close('enc-a', 7), 'alice');
        expect((await other.listThreads(p, { changedSince: afterMessage })).map((t) => t.thread).sort()).toEqual(['enc-a', 'enc-b']);
        expect(await store.listThreads(profile())).toEqual([]);
        expect(await store.thread(p, 'enc-404')).toBeUndefined();
        expect(await store.messages(p, 'enc-404')).toBeUndefined();
        expect(await store.messages(p, 'enc-d')).toEqual([]);
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
        expect(await other.assign(p, 'enc-1', { to: 'bob', by: 'carol' })).toEqual({
          outcome: 'assigned',
          owner: 'bob',
          previous: 'alice',
        });
        expect(await other.assign(p, 'enc-1', { to: null, by: 'bob' })).toEqual({ outcome: 'unassigned', previous: 'bob' });
        expect((await store.thread(p, 'enc-1'))?.owner).toBeUndefined();
        const history = await store.assignments(p, 'enc-1');
        expect(history.map((a) => [a.reason, a.owner, a.previous, a.by])).toEqual([
          ['assign', 'alice', undefined, 'alice'],
          ['assign', 'bob', 'alice', 'carol'],
          ['unassign', undefined, 'bob', 'bob'],
        ]);
        for (const a of history) expect(Date.parse(a.at)).not.toBeNaN();
      });

      it('two operators taking the same unassigned thread at once: one gets it, the other is told who', async () => {
        const p = profile();
        await store.recordReceived(p, msg('m1', 'enc-1', 'hi', 1));
        const [a, b] = await Promise.all([
          store.assign(p, 'enc-1', { to: 'alice', by: 'alice', expect: null }),
          other.assign(p, 'enc-1', { to: 'bob', by: 'bob', expect: null }),
        ]);
        expect([a.outcome, b.outcome].sort()).toEqual(['assigned', 'conflict']);
        const winner = a.outcome === 'assigned' ? 'alice' : 'bob';
        expect((a.outcome === 'conflict' ? a : b).owner).toBe(winner);
        expect((await store.thread(p, 'enc-1'))?.owner).toBe(winner);
      });

      it('the first operator who replies to a thread nobody owns takes it; a later reply or a C1 does not', async () => {
        const p = profile();
        await store.recordReceived(p, msg('m1', 'enc-1', 'hi', 1));
        expect(await store.recordSent(p, msg('s0', 'enc-1', 'portal side', 2, 'C1'), 'carol')).toEqual({ outcome: 'stored' });
        expect((await store.thread(p, 'enc-1'))?.owner).toBeUndefined();
        expect(await store.recordSent(p, msg('s1', 'enc-1', 'answer', 3, 'C3'), 'alice')).toEqual({ outcome: 'stored', assigned: 'alice' });
        expect(await other.recordSent(p, msg('s2', 'enc-1', 'me too', 4, 'C3'), 'bob')).toEqual({ outcome: 'stored' });
        expect((await store.thread(p, 'enc-1'))?.owner).toBe('alice');
        expect((await other.assignments(p, 'enc-1')).map((a) => [a.reason, a.owner, a.by])).toEqual([['first-reply', 'alice', 'alice']]);
      });

      it('two first replies at once: one operator takes the thread', async () => {
        const p = profile();
        await store.recordReceived(p, msg('m1', 'enc-1', 'hi', 1));
        const [a, b] = await Promise.all([
          store.recordSent(p, msg('r-a', 'enc-1', 'from alice', 2, 'C3'), 'alice'),
          other.recordSent(p, msg('r-b', 'enc-1', 'from bob', 3, 'C3'), 'bob'),
        ]);
        expect([a.assigned, b.assigned].filter(Boolean)).toHaveLength(1);
        expect((await store.assignments(p, 'enc-1')).map((x) => x.reason)).toEqual(['first-reply']);
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
        expect(Date.parse(a.claim.until)).toBeGreaterThan(Date.now() + 60_000);
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
        expect(await other.thread(p, 'enc-new')).toMatchObject({ messages: 1, owner: 'alice', unread: 0 });
      });

      it('a first reply to a thread the store does not know, refused or abandoned, leaves no thread behind', async () => {
        const p = profile();
        const c = await store.beginReply(p, { thread: 'enc-gone', operator: 'alice', after: 0 });
        expect(c.ok).toBe(true);
        if (!c.ok) return;
        const m = msg('r1', 'enc-gone', 'never taken', 1, 'C3');
        await store.recordPending(p, m, 'alice');
        expect(await other.thread(p, 'enc-gone')).toMatchObject({ messages: 1 });
        await store.recordRefused(p, m);
        await store.abandonReply(c.claim);
        expect(await other.thread(p, 'enc-gone')).toBeUndefined();
        expect((await other.listThreads(p)).map((t) => t.thread)).toEqual([]);
        // Abandoned before anything was written ahead (the store could not record it): nothing either.
        const d = await store.beginReply(p, { thread: 'enc-never', operator: 'alice', after: 0 });
        if (d.ok) await store.abandonReply(d.claim);
        expect(await other.listThreads(p)).toEqual([]);
      });
    });

    describe('messages written ahead (pending)', () => {
      it('a message recorded before it left shows with an unknown outcome, from every desk, until the answer settles it', async () => {
        const p = profile();
        await store.recordReceived(p, msg('q1', 'enc-1', 'question', 1));
        await store.recordPending(p, msg('r1', 'enc-1', 'on its way', 2, 'C3'), 'alice');
        expect((await other.messages(p, 'enc-1'))?.map((m) => [m.id, m.via, m.operator])).toEqual([
          ['q1', 'received', undefined],
          ['r1', 'pending', 'alice'],
        ]);
        expect((await other.thread(p, 'enc-1'))?.owner).toBeUndefined();
        // Acknowledged: sent, under the same id, and the first reply takes the thread.
        expect(await store.recordSent(p, msg('r1', 'enc-1', 'on its way', 2, 'C3'), 'alice')).toEqual({
          outcome: 'stored',
          assigned: 'alice',
        });
        expect((await other.messages(p, 'enc-1'))?.map((m) => [m.id, m.via])).toEqual([
          ['q1', 'received'],
          ['r1', 'sent'],
        ]);
        expect(await other.thread(p, 'enc-1')).toMatchObject({ messages: 2, owner: 'alice' });
      });

      it('a message the server stored under another id settles its pending record; one refused leaves the thread', async () => {
        const p = profile();
        await store.recordReceived(p, msg('q1', 'enc-1', 'question', 1));
        const asSent = msg('mine-1', 'enc-1', 'answer', 2, 'C3');
        await store.recordPending(p, asSent, 'alice');
        // The server's id; its identifier keeps the id sent (chatMessage's identifier is the id given).
        const theirs = { ...asSent, id: 'srv-9', resource: { ...asSent.resource, id: 'srv-9' } };
        await other.recordSent(p, theirs, 'alice');
        expect((await store.messages(p, 'enc-1'))?.map((m) => [m.id, m.via])).toEqual([
          ['q1', 'received'],
          ['srv-9', 'sent'],
        ]);
        await store.recordPending(p, msg('no-1', 'enc-1', 'refused', 3, 'C3'), 'alice');
        await store.recordRefused(p, msg('no-1', 'enc-1', 'refused', 3, 'C3'));
        expect((await other.messages(p, 'enc-1'))?.map((m) => m.id)).toEqual(['q1', 'srv-9']);
        // A thread that only the refused message opened is gone.
        await store.recordPending(p, msg('no-2', 'enc-2', 'refused', 4, 'C1'), 'alice');
        expect(await other.thread(p, 'enc-2')).toMatchObject({ messages: 1 });
        await other.recordRefused(p, msg('no-2', 'enc-2', 'refused', 4, 'C1'));
        expect(await store.thread(p, 'enc-2')).toBeUndefined();
        expect((await store.listThreads(p)).map((t) => t.thread)).toEqual(['enc-1']);
      });
    });

    describe('the audit trail', () => {
      it('a write is recorded before it is sent (outcome unknown) and completed with its status, error or created id', async () => {
        const p = profile();
        const base = { profile: p, operator: 'alice', method: 'POST', url: 'https://practice.test/Communication' };
        await store.auditBegin({ ...base, key: 'r1.1', op: 'C3', at: at(1), bodySha256: 'abc', body: { x: 1 } });
        await store.auditBegin({ ...base, key: 'r1.2', op: 'A6', at: at(2), environment: 'production' });
        await store.auditBegin({ ...base, key: 'r1.3', op: 'C3', at: at(3) });
        expect((await other.auditList(p)).map((r) => [r.key, r.outcome, r.user])).toEqual([
          ['r1.1', 'unknown', 'alice'],
          ['r1.2', 'unknown', 'alice'],
          ['r1.3', 'unknown', 'alice'],
        ]);
        await store.auditComplete(p, 'r1.1', { status: 201, ms: 12, created: 'srv-1' });
        await store.auditComplete(p, 'r1.2', { error: { name: 'NetworkError', message: 'ECONNRESET', code: 'ECONNRESET' }, ms: 30_000 });
        const rows = await other.auditList(p);
        expect(rows[0]).toEqual({
          at: at(1),
          user: 'alice',
          profile: p,
          op: 'C3',
          method: 'POST',
          url: 'https://practice.test/Communication',
          status: 201,
          id: 'srv-1',
          ms: 12,
          bodySha256: 'abc',
          body: { x: 1 },
          key: 'r1.1',
        });
        expect(rows[1]).toMatchObject({ error: { code: 'ECONNRESET' }, environment: 'production', ms: 30_000 });
        expect(rows[1]!.outcome).toBeUndefined();
        expect(rows[2]).toMatchObject({ key: 'r1.3', outcome: 'unknown' });
        expect(rows[2]!.status).toBeUndefined();
        expect((await other.auditList(p, { ops: ['A6'] })).map((r) => r.key)).toEqual(['r1.2']);
        expect((await other.auditList(p, { since: new Date(at(2)) })).map((r) => r.key)).toEqual(['r1.2', 'r1.3']);
        expect(await other.auditList(profile())).toEqual([]);
      });

      it('a bulk row written ahead counts once started; a write not sent after all leaves the trail', async () => {
        const p = profile();
        const base = { profile: p, operator: 'bob', method: 'POST', url: 'https://portal.test/Communication', op: 'C5' as const };
        await store.auditBegin({ ...base, key: 'r2.1', at: at(1), ahead: true });
        await store.auditBegin({ ...base, key: 'r2.2', at: at(2), ahead: true });
        await store.auditStart(p, 'r2.2', at(5));
        await store.auditBegin({ ...base, key: 'r2.3', at: at(3), ahead: true });
        await store.auditStart(p, 'r2.3', at(6));
        await store.auditComplete(p, 'r2.3', { status: 201, ms: 4 });
        await store.auditBegin({ ...base, key: 'r2.4', at: at(4) });
        await store.auditWithdraw(p, 'r2.4');
        // r2.1 never started: never sent. r2.2 started (its time is the start's) and never answered: unknown.
        expect((await other.auditList(p)).map((r) => [r.key, r.at, r.outcome, r.status])).toEqual([
          ['r2.2', at(5), 'unknown', undefined],
          ['r2.3', at(6), undefined, 201],
        ]);
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
        for (const v of await store.viewers(p, 'enc-1')) expect(Date.now() - Date.parse(v.seenAt)).toBeLessThan(PRESENCE_TTL_MS);
        await other.leave(p, bob, 'enc-1');
        await other.leave(p, bob2);
        expect((await store.viewers(p, 'enc-1', alice)).map((v) => v.operator)).toEqual([]);
        expect((await store.viewers(p, 'enc-2', alice)).map((v) => v.operator)).toEqual(['bob']);
        // Bob's TUI died without leaving: once his last heartbeat is older than the TTL, he is gone.
        await b.expire(p, 's-bob');
        expect(await store.viewers(p, 'enc-2', alice)).toEqual([]);
      });
    });

    describe('change events', () => {
      it("another desk's push, owner, close and presence reach a subscriber, each naming its thread", async () => {
        const p = profile();
        const events: DeskEvent[] = [];
        let sub: Subscription | undefined;
        try {
          sub = await store.subscribe(p, (e) => events.push(e));
          await other.recordReceived(p, msg('e1', 'enc-1', 'hi', 1));
          await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ kind: 'message', thread: 'enc-1', id: 'e1' })));
          const rev = (events.find((e) => e.kind === 'message') as { rev: number }).rev;
          await other.assign(p, 'enc-1', { to: 'bob', by: 'bob' });
          await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ kind: 'assignment', thread: 'enc-1' })));
          const assigned = events.find((e) => e.kind === 'assignment') as { rev: number };
          expect(assigned.rev).toBeGreaterThan(rev);
          await other.recordReceived(p, close('enc-1', 2));
          await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ kind: 'close', thread: 'enc-1' })));
          await other.recordReceived(p, note(3, 'n-e'));
          await vi.waitFor(() => expect(events).toContainEqual({ kind: 'notification', profile: p }));
          await other.heartbeat(p, 'enc-1', { operator: 'bob', session: 's-events' });
          await vi.waitFor(() => expect(events).toContainEqual({ kind: 'presence', profile: p, thread: 'enc-1' }));
          // Another profile's changes are not this subscription's.
          await other.recordReceived(profile(), msg('e2', 'enc-x', 'elsewhere', 1));
          await sub.poll();
          expect(events.filter((e) => 'thread' in e && e.thread === 'enc-x')).toEqual([]);
          const count = events.length;
          await sub.close();
          await other.recordReceived(p, msg('e3', 'enc-2', 'after close', 4));
          await new Promise((r) => setTimeout(r, 200));
          expect(events).toHaveLength(count);
        } finally {
          await sub?.close();
          await other.leave(p, { operator: 'bob', session: 's-events' });
        }
      });
    });

    describe('health', () => {
      it('says the store can take writes once prepared', async () => {
        const p = profile();
        await store.prepare(p);
        const checks = await store.health();
        expect(checks.length).toBeGreaterThan(0);
        expect(checks.every((c) => c.ok)).toBe(true);
        expect(store.where(p)).toBeTruthy();
      });
    });
  });
}
