/**
 * The team store's migrations (src/core/store/pg/migrate.ts) against a real PostgreSQL: applied on first use, once
 * when several processes start together, recorded with their checksum, and a schema from a newer pdesk refused.
 */
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../../src/core/errors.js';
import { connect } from '../../../../src/core/store/pg/connect.js';
import { LATEST_VERSION, MIGRATIONS, openPgStore, pgMigrate, pgStatus } from '../../../../src/core/store/pg/index.js';
import { checksumOf, migrate, schemaState } from '../../../../src/core/store/pg/migrate.js';
import { chatMessage } from '../../../helpers/chat.js';
import { clusterForFile, pgInstalled } from '../../../helpers/pg.js';

const pg = clusterForFile();

describe.skipIf(!pgInstalled)('team store migrations', () => {
  it('a new database is migrated on first use, each migration recorded with its checksum and who applied it', async () => {
    const url = await pg().createDatabase();
    const store = openPgStore(url, { operator: 'alice' });
    try {
      expect(await store.listThreads('p')).toEqual([]);
      const sql = connect(url);
      try {
        const s = await schemaState(sql);
        expect(s.version).toBe(LATEST_VERSION);
        expect(s.pending).toEqual([]);
        expect(s.applied.map((a) => [a.version, a.checksum, a.appliedBy])).toEqual(
          MIGRATIONS.map((m) => [m.version, checksumOf(m), 'alice']),
        );
      } finally {
        await sql.end();
      }
    } finally {
      await store.close();
    }
  });

  it('processes migrating at once apply each migration exactly once', async () => {
    const url = await pg().createDatabase();
    const conns = Array.from({ length: 6 }, () => connect(url, { max: 1 }));
    try {
      const results = await Promise.all(conns.map((c, i) => migrate(c, `p${i}`)));
      // One of them applied everything; the others waited for its commit and found nothing pending.
      expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 0, 0, 0, MIGRATIONS.length]);
      const rows = await conns[0]!`select version from pdesk.schema_migrations`;
      expect(rows.length).toBe(MIGRATIONS.length);
    } finally {
      await Promise.all(conns.map((c) => c.end()));
    }
  });

  it('a database at version 1 (the first team desks) moves to version 2 keeping its rows: its audit records keyed by their ids', async () => {
    const url = await pg().createDatabase();
    const sql = connect(url, { max: 1 });
    try {
      // Version 1 as a pdesk that knew only it applied it.
      await sql.begin(async (tx) => {
        await tx.unsafe('create schema pdesk');
        await tx.unsafe(
          'create table pdesk.schema_migrations (version integer primary key, name text not null, checksum text not null, applied_at timestamptz not null default now(), applied_by text not null)',
        );
        await tx.unsafe(MIGRATIONS[0]!.sql);
        await tx`insert into pdesk.schema_migrations (version, name, checksum, applied_by) values (1, ${MIGRATIONS[0]!.name}, ${checksumOf(MIGRATIONS[0]!)}, 'old')`;
        await tx`insert into pdesk.audit (profile, operator, at, method, url, outcome, status, ms) values ('p', 'alice', now(), 'POST', 'https://x.test/', 'answered', 201, 5)`;
      });
      expect((await schemaState(sql)).pending.map((m) => m.version)).toEqual(MIGRATIONS.slice(1).map((m) => m.version));
    } finally {
      await sql.end();
    }
    const store = openPgStore(url, { operator: 'bob' });
    try {
      const [old] = await store.auditList('p');
      expect(old).toMatchObject({ user: 'alice', status: 201, ms: 5 });
      expect(old!.key).toMatch(/^\d+$/);
      // Version 2's own: an audit record written ahead is left out until started.
      await store.auditBegin({
        key: 'r.1',
        profile: 'p',
        operator: 'bob',
        method: 'POST',
        url: 'https://x.test/',
        at: new Date().toISOString(),
        ahead: true,
      });
      expect(await store.auditList('p')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('stores opened at once on a new database all work (migration on first use under the lock)', async () => {
    const url = await pg().createDatabase();
    const stores = Array.from({ length: 4 }, () => openPgStore(url, { max: 1 }));
    try {
      const lists = await Promise.all(stores.map((s) => s.listThreads('p')));
      expect(lists).toEqual([[], [], [], []]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('status reports the pending migrations; migrate applies them, --dry-run only reads', async () => {
    const url = await pg().createDatabase();
    const before = (await pgStatus(url, 'PDESK_STORE_URL')).status;
    expect(before).toMatchObject({ engine: 'postgres', reachable: true, schemaVersion: 0, latestVersion: LATEST_VERSION });
    expect(before.pending).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    expect(before.url).not.toContain(pg().password);
    expect((await pgMigrate(url, 'ops', { dryRun: true })).applied).toEqual([]);
    expect((await pgStatus(url, 'x')).status.schemaVersion).toBe(0);
    const done = await pgMigrate(url, 'ops');
    expect(done.applied.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
    const after = (await pgStatus(url, 'x')).status;
    expect(after).toMatchObject({ schemaVersion: LATEST_VERSION, pending: [] });
    expect((await pgMigrate(url, 'ops')).applied).toEqual([]);
  });

  it('a store told not to migrate refuses a schema that is behind (exit 3), and nothing is created', async () => {
    const url = await pg().createDatabase();
    const store = openPgStore(url, { migrate: false });
    try {
      const e = await store.listThreads('p').catch((x) => x);
      expect(e.exitCode).toBe(ExitCode.config);
      expect(e.message).toMatch(`has schema version 0; this pdesk needs ${LATEST_VERSION}`);
      expect(e.message).not.toContain(pg().password);
      expect((await pgStatus(url, 'x')).status.schemaVersion).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('a schema migrated by a newer pdesk is refused, by the store and by migrate', async () => {
    const url = await pg().createDatabase();
    await pgMigrate(url, 'ops');
    const sql = connect(url);
    await sql`insert into pdesk.schema_migrations (version, name, checksum, applied_by) values (${LATEST_VERSION + 1}, 'future', 'x', 'z')`;
    await sql.end();
    const store = openPgStore(url);
    try {
      const e = await store.listThreads('p').catch((x) => x);
      expect(e.exitCode).toBe(ExitCode.config);
      expect(e.message).toMatch(`newer than this pdesk knows (${LATEST_VERSION})`);
    } finally {
      await store.close();
    }
    await expect(pgMigrate(url, 'ops')).rejects.toThrow(/newer than this pdesk knows/);
    expect((await pgStatus(url, 'x')).status.newer).toEqual([LATEST_VERSION + 1]);
  });

  it("the README's set-up: an owner role that is no superuser migrates, a desk role granted what it says works, a later table reaches it", async () => {
    const db = `readme_${process.pid}`;
    // As the database's administrator, once.
    await pg().psql("create role pdesk_owner login password 'Owner-Pass-1234'; create role pdesk_desk login password 'Desk-Pass-1234'");
    await pg().psql(`create database ${db} owner pdesk_owner`);
    const owner = pg().urlOf(db, { name: 'pdesk_owner', password: 'Owner-Pass-1234' });
    const desk = pg().urlOf(db, { name: 'pdesk_desk', password: 'Desk-Pass-1234' });
    expect((await pgMigrate(owner, 'owner')).applied.length).toBe(MIGRATIONS.length);
    // As the owner: what every desk and listener needs, now and for what later migrations create.
    const sql = connect(owner, { max: 1 });
    try {
      await sql.unsafe(`grant connect on database ${db} to pdesk_desk;
        grant usage on schema pdesk to pdesk_desk;
        grant select, insert, update, delete on all tables in schema pdesk to pdesk_desk;
        grant usage on all sequences in schema pdesk to pdesk_desk;
        alter default privileges in schema pdesk grant select, insert, update, delete on tables to pdesk_desk;
        alter default privileges in schema pdesk grant usage on sequences to pdesk_desk;`);
    } finally {
      await sql.end();
    }
    const store = openPgStore(desk, { migrate: false });
    try {
      const resource = chatMessage('m1', 'enc-1', 'hi', 'Patient/1', 'PractitionerRole/1');
      await store.recordReceived('p', { kind: 'message', op: 'C1', at: new Date().toISOString(), thread: 'enc-1', id: 'm1', resource });
      await store.recordSent(
        'p',
        { kind: 'message', op: 'C3', at: new Date().toISOString(), thread: 'enc-1', id: 'm2', resource: { ...resource, id: 'm2' } },
        'alice',
      );
      const c = await store.beginReply('p', { thread: 'enc-1', operator: 'alice', after: 0 });
      if (c.ok) await store.abandonReply(c.claim);
      await store.auditBegin({
        key: 'r.1',
        profile: 'p',
        operator: 'alice',
        method: 'POST',
        url: 'https://x.test/',
        at: new Date().toISOString(),
      });
      await store.auditWithdraw('p', 'r.1');
      await store.heartbeat('p', 'enc-1', { operator: 'alice', session: 's' });
      await store.leave('p', { operator: 'alice', session: 's' });
      expect((await store.listThreads('p')).map((t) => [t.thread, t.owner, t.messages])).toEqual([['enc-1', 'alice', 2]]);
    } finally {
      await store.close();
    }
    // A table a later migration creates (as the owner) is the desk role's too.
    const later = connect(owner, { max: 1 });
    try {
      await later.unsafe('create table pdesk.later (id bigint generated always as identity, x int)');
    } finally {
      await later.end();
    }
    const d = connect(desk, { max: 1 });
    try {
      await d`insert into pdesk.later (x) values (1)`;
      // The desk role cannot migrate.
      await expect(d.unsafe('create table pdesk.mine (x int)')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await d.end();
    }
  });

  it('a database that cannot be reached or refuses the password: a status saying so, errors naming the URL without the password', async () => {
    const wrong = pg().urlOf('postgres', { name: 'postgres', password: 'not-the-Password-42' });
    const refused = await pgStatus(wrong, 'PDESK_STORE_URL');
    expect(refused.status).toMatchObject({ reachable: false });
    expect(refused.status.error).toMatch(/the password was refused \(28P01\)/);
    expect(JSON.stringify(refused.status)).not.toContain('not-the-Password-42');
    expect((refused.error as { exitCode: number }).exitCode).toBe(ExitCode.config);

    const closedPort = `postgres://postgres:${pg().password}@127.0.0.1:1/postgres`;
    const down = await pgStatus(closedPort, 'PDESK_STORE_URL');
    expect(down.status.reachable).toBe(false);
    expect(down.status.error).toMatch(/cannot be reached \(ECONNREFUSED\)/);
    expect((down.error as { exitCode: number }).exitCode).toBe(ExitCode.server);
    expect(JSON.stringify(down.status)).not.toContain(pg().password);
  });
});

describe.skipIf(!pgInstalled)('a least-privilege database user (docs/decisions.md §17)', () => {
  it('works with the documented grants once the owner migrated, and cannot migrate', async () => {
    const db = `least_${process.pid}`;
    await pg().createDatabase(db);
    const owner = pg().urlOf(db);
    await pgMigrate(owner, 'owner');
    await pg().psql(
      [
        "create role desk login password 'Desk-Pass-1234'",
        `grant connect on database ${db} to desk`,
        'grant usage on schema pdesk to desk',
        'grant select, insert, update, delete on all tables in schema pdesk to desk',
        'grant usage on all sequences in schema pdesk to desk',
        'grant execute on all functions in schema pdesk to desk',
      ].join('; '),
      db,
    );
    const url = pg().urlOf(db, { name: 'desk', password: 'Desk-Pass-1234' });
    const store = openPgStore(url, { migrate: false });
    try {
      const resource = chatMessage('m1', 'enc-1', 'hi', 'Patient/1', 'PractitionerRole/1');
      expect(
        await store.recordReceived('p', { kind: 'message', op: 'C1', at: new Date().toISOString(), thread: 'enc-1', id: 'm1', resource }),
      ).toEqual({
        outcome: 'stored',
      });
      expect(await store.assign('p', 'enc-1', { to: 'alice', by: 'alice' })).toMatchObject({ outcome: 'assigned' });
      await store.auditBegin({
        key: 'r.1',
        profile: 'p',
        operator: 'alice',
        method: 'POST',
        url: 'https://x.test/',
        at: new Date().toISOString(),
      });
      await store.auditComplete('p', 'r.1', { status: 201, ms: 3 });
      await store.auditBegin({
        key: 'r.2',
        profile: 'p',
        operator: 'alice',
        method: 'POST',
        url: 'https://x.test/',
        at: new Date().toISOString(),
      });
      await store.auditWithdraw('p', 'r.2');
      expect((await store.auditList('p')).map((r) => [r.key, r.status])).toEqual([['r.1', 201]]);
      await store.heartbeat('p', 'enc-1', { operator: 'alice', session: 's' });
      const sub = await store.subscribe('p', () => undefined);
      await sub.close();
      expect((await store.listThreads('p')).map((t) => [t.thread, t.owner])).toEqual([['enc-1', 'alice']]);
    } finally {
      await store.close();
    }
    // A migration needs the owner's rights: the operator's user is told so.
    await pg().psql(`delete from pdesk.schema_migrations`, db);
    const e = await pgMigrate(url, 'desk').catch((x) => x);
    expect(e.exitCode).toBe(ExitCode.config);
    expect(e.message).toMatch(/lacks a privilege \(42501\)/);
  });
});
