/**
 * `pdesk store import`'s copy (src/core/store/pg/import.ts) against a real PostgreSQL: a local store written through
 * the file engine (messages received and sent with their operator, read markers, a close, owners, notifications
 * with and without ids, a message left pending, an audit trail with a completed, an unknown and a pre-write-ahead
 * record) reads the same from the team store after the copy; a second run adds nothing; a dry run counts the same and
 * changes nothing.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPath } from '../../../../src/core/audit.js';
import { type FileDeskStore, openFileStore } from '../../../../src/core/store/file/index.js';
import { importLocalStore } from '../../../../src/core/store/pg/import.js';
import { openPgStore } from '../../../../src/core/store/pg/index.js';
import type { DeskStore } from '../../../../src/core/store/types.js';
import { messageRecord, openThreadStore } from '../../../../src/core/threads/index.js';
import { chatMessage } from '../../../helpers/chat.js';
import { at, close, msg, note, read } from '../../../helpers/desk.js';
import { clusterForFile, pgInstalled } from '../../../helpers/pg.js';

const pg = clusterForFile();

/** What a desk shows of a profile, without the positions each engine numbers its own way. */
async function shown(store: DeskStore, profile: string) {
  const threads = await store.listThreads(profile);
  return {
    threads: threads.map(({ rev: _r, lastSeq: _s, assignedAt: _a, ...t }) => t),
    messages: await Promise.all(
      threads.map(async (t) =>
        (await store.messages(profile, t.thread))!.map((m) => [m.id, m.via, m.at, m.operator, m.read, m.unread, m.text]),
      ),
    ),
    owners: await Promise.all(threads.map(async (t) => (await store.assignments(profile, t.thread)).map(({ at: _, ...a }) => a))),
    notifications: (await store.notifications(profile)).map((n) => [n.via, n.at, n.operator, n.text, n.resource.id]),
    audit: (await store.auditList(profile)).map(({ key: _, ...a }) => a),
  };
}

describe.skipIf(!pgInstalled)('store import', () => {
  let dir: string;
  let local: FileDeskStore;
  /** What the local store showed before the pending message was written. */
  let want: Awaited<ReturnType<typeof shown>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pdesk-import-'));
    local = openFileStore(dir);
    const p = 'north';
    await local.recordReceived(p, msg('q1', 'enc-1', 'question', 1));
    await local.recordReceived(p, msg('q2', 'enc-1', 'second', 2));
    await local.recordSent(p, msg('r1', 'enc-1', 'answer', 3, 'C3'), 'alice');
    await local.recordSent(p, read('q1', 4), 'alice');
    await local.recordReceived(p, read('unseen', 5));
    await local.recordReceived(p, msg('q3', 'enc-2', 'other thread', 6));
    await local.assign(p, 'enc-2', { to: 'bob', by: 'alice' });
    await local.assign(p, 'enc-2', { to: null, by: 'bob' });
    await local.recordReceived(p, close('enc-1', 7));
    await local.recordReceived(p, note(8, 'n1', 'with id'));
    await local.recordSent(p, note(9, undefined, 'no id'), 'alice');
    await local.recordSent(p, note(9, undefined, 'no id'), 'alice'); // the same again: a second notification
    // The audit trail: a completed write, one whose outcome is unknown, and a record from before write-ahead.
    const base = { profile: p, operator: 'alice', method: 'POST', url: 'https://practice.test/Communication', op: 'C3' as const };
    await local.auditBegin({ ...base, key: 'run1.1', at: at(3), bodySha256: 'abc', body: { x: 1 } });
    await local.auditComplete(p, 'run1.1', { status: 201, ms: 12, created: 'srv-1' });
    await local.auditBegin({ ...base, key: 'run1.2', at: at(10) });
    mkdirSync(join(dir, 'audit'), { recursive: true });
    appendFileSync(
      auditPath(dir, p),
      `${JSON.stringify({ at: at(0), user: 'carol', profile: p, op: 'A6', method: 'POST', url: 'https://practice.test/Appointment', status: 201, ms: 5 })}\n`,
    );
    want = await shown(local, p);
    // A message whose answer never came, in a thread of its own: pending in the file store (its outcome unknown,
    // as its audit record says), and not copied.
    const store = openThreadStore(dir, p);
    await store.append([
      messageRecord('C3', 'pending', chatMessage('lost', 'enc-9', 'never answered', 'PractitionerRole/1', 'Patient/1'), at(10)),
    ]);
    await store.close();
    expect((await local.messages(p, 'enc-9'))?.map((m) => m.via)).toEqual(['pending']);
  });
  afterAll(async () => {
    await local?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies a local store so that the team store shows the same; a second run adds nothing', async () => {
    const url = await pg().createDatabase();
    const team = openPgStore(url);
    try {
      const first = await importLocalStore(team, dir, 'north');
      expect(first.added).toEqual({ messages: 4, reads: 2, closes: 1, notifications: 3, owners: 3, audit: 3 });
      expect(first.present).toEqual({ messages: 0, reads: 0, closes: 0, notifications: 0, owners: 0, audit: 0 });
      expect(first.unknown).toBe(1);
      expect(want.messages.flat()).toHaveLength(4);
      expect(want.audit.map((a) => [a.user, a.outcome])).toEqual([
        ['carol', undefined],
        ['alice', undefined],
        ['alice', 'unknown'],
      ]);
      expect(await shown(team, 'north')).toEqual(want);

      const second = await importLocalStore(team, dir, 'north');
      expect(second.added).toEqual({ messages: 0, reads: 0, closes: 0, notifications: 0, owners: 0, audit: 0 });
      expect(second.present).toEqual(first.added);
      expect(await shown(team, 'north')).toEqual(want);
      // Rows, not only what is shown: nothing twice.
      const [{ n }] = await team.sql<[{ n: number }]>`select
        (select count(*) from pdesk.messages) + (select count(*) from pdesk.read_markers) + (select count(*) from pdesk.notifications)
        + (select count(*) from pdesk.assignments) + (select count(*) from pdesk.audit) as n`;
      expect(Number(n)).toBe(4 + 2 + 3 + 3 + 3);
    } finally {
      await team.close();
    }
  });

  it('a dry run counts what would be copied and changes nothing', async () => {
    const url = await pg().createDatabase();
    const team = openPgStore(url);
    try {
      const dry = await importLocalStore(team, dir, 'north', { dryRun: true });
      expect(dry.added).toEqual({ messages: 4, reads: 2, closes: 1, notifications: 3, owners: 3, audit: 3 });
      expect(await team.listThreads('north')).toEqual([]);
      expect(await team.auditList('north')).toEqual([]);
    } finally {
      await team.close();
    }
  });
});
