/**
 * What the team store on PostgreSQL (src/core/store/pg/store.ts) adds to the desk store's contract
 * (test/core/store/contract.test.ts runs that on both engines): several listeners on one database storing a push once,
 * a message and its marker committed by different connections at once, ids the store's indexes cannot hold, 10,000
 * threads listed from their rows, audit records redacted again and written once per key. Each test uses profiles of its own in one database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgDeskStore, openPgStore } from '../../../../src/core/store/pg/index.js';
import { at, msg, read } from '../../../helpers/desk.js';
import { pgInstalled, clusterForFile } from '../../../helpers/pg.js';

const pg = clusterForFile();

let n = 0;
const profile = () => `p${++n}`;

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

  describe('the audit trail', () => {
    it('registered secrets in the URL and the error are redacted again; a record of a key known already is not written twice', async () => {
      const { registerSecret } = await import('../../../../src/core/redact.js');
      registerSecret('tok-AUDIT-9876');
      const p = profile();
      const start = { key: 'k.1', profile: p, operator: 'a', method: 'GET', url: 'https://x.test/?t=tok-AUDIT-9876', at: at(1) };
      await store.auditBegin(start);
      await other.auditBegin(start);
      await store.auditComplete(p, 'k.1', { error: { name: 'E', message: 'bad tok-AUDIT-9876' }, ms: 1 });
      const rows = await store.auditList(p);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain('tok-AUDIT-9876');
    });
  });
});
