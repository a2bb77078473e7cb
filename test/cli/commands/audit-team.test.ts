/**
 * The write audit trail in the team store (a real PostgreSQL): with PDESK_STORE_URL set, every write of every
 * command (A6, A7, C1–C5, M3, `api`, a bulk send, check --write) is recorded in its `audit` table before it is sent
 * and completed after, exactly once, with the operator as its user and no secret; no local trail is written;
 * `pdesk audit` reads the team store; a team store that cannot be reached sends nothing. Without a team store the
 * local trail names the operator too.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPath, readAudit } from '../../../src/core/audit.js';
import { openPgStore } from '../../../src/core/store/pg/index.js';
import { csvFile } from '../../helpers/bulk.js';
import { clusterForFile, pgInstalled } from '../../helpers/pg.js';
import { type Env, withSandbox, writeProfiles } from '../../helpers/run.js';
import { WRITES } from '../../helpers/writes.js';

const pg = clusterForFile();
const TOKEN = 'audit-team-token-31415';

describe.skipIf(!pgInstalled)('the audit trail in the team store', () => {
  let env: Env;
  let url: string;
  let vars: Record<string, string>;
  beforeAll(async () => {
    url = await pg().createDatabase();
    env = await withSandbox({ token: TOKEN });
    const auth = { type: 'bearer' as const, tokenEnv: 'SANDBOX_TOKEN' };
    writeProfiles(env.configDir, [
      {
        ...env.profile,
        practice: { baseUrl: `${env.sandbox.url}/practice`, auth },
        portal: { baseUrl: `${env.sandbox.url}/portal`, auth },
      },
    ]);
    vars = { SANDBOX_TOKEN: TOKEN, PDESK_STORE_URL: url, PDESK_OPERATOR: 'alice' };
  });
  afterAll(() => env?.close());

  it('every write of every command is recorded once, with the operator, completed, and no secret; nothing local', async () => {
    for (const w of WRITES) {
      const r = await env.run([...w.args, '--json'], { input: w.input, env: vars });
      expect([0, 4], `${w.op}: ${r.stderr}`).toContain(r.code);
    }
    const csv = csvFile('email,name\nann@example.org,Ann\nbob@example.org,Bob\ncid@example.org,Cid\n');
    const bulk = await env.run(['notifications', 'send', '--csv', csv, '--topic', 'T', '--text', 'Hi {name}', '--json'], { env: vars });
    expect(bulk.code, bulk.stderr).toBe(0);
    const check = await env.run(['check', '--write', '--only', 'C5', '--json'], { env: vars });
    expect(check.code, check.stderr).toBe(0);

    const store = openPgStore(url);
    let recs: Awaited<ReturnType<typeof store.auditList>>;
    try {
      recs = await store.auditList('sandbox');
      expect(JSON.stringify(await store.sql`select * from pdesk.audit`)).not.toContain(TOKEN);
    } finally {
      await store.close();
    }
    const sent = env.sandbox.received.filter((r) => r.method !== 'GET');
    expect(recs.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(sent.map((r) => `${r.method} ${r.path}`));
    expect(recs.map((r) => r.op ?? '-')).toEqual([...WRITES.map((w) => w.op), 'C5', 'C5', 'C5', 'C5']);
    for (const r of recs) {
      expect(r).toMatchObject({ user: 'alice', profile: 'sandbox', environment: 'sandbox' });
      expect(r.outcome).toBeUndefined();
      expect(typeof r.status).toBe('number');
      expect(r.bodySha256).toMatch(/^[0-9a-f]{64}$/);
    }
    // A create's record names the id the server gave it (decisions.md §16).
    expect(recs.find((r) => r.op === 'A7')).toMatchObject({ status: 201, id: 'ar-1' });
    expect(
      recs
        .filter((r) => r.op === 'C5')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['notif-1', 'notif-2', 'notif-3', 'notif-4', 'notif-5']);
    expect(recs.filter((r) => r.op === 'C5' && (r.body as any)?.contained?.[0]?.telecom?.[0]?.value === 'bob@example.org')).toHaveLength(1);
    expect(existsSync(auditPath(env.configDir, 'sandbox'))).toBe(false);

    // pdesk audit reads the team store.
    const listed = await env.run(['audit', '--json', '--op', 'A6,C5'], { env: vars });
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.json();
    expect(rows.map((r: any) => r.op)).toEqual(['A6', 'C5', 'C5', 'C5', 'C5', 'C5']);
    expect(rows[0]).toMatchObject({ user: 'alice', method: 'POST', status: 409 });
    expect(rows[1]).toMatchObject({ user: 'alice', method: 'POST', status: 201, id: 'notif-1' });
    expect(rows[0].key).toBeUndefined();
  });

  it('a team store that cannot be reached sends nothing: exit 5, the URL named without its password', async () => {
    const before = env.sandbox.received.length;
    const r = await env.run(WRITES[0]!.args, { env: { ...vars, PDESK_STORE_URL: 'postgres://alice:Hush-9@127.0.0.1:1/pdesk' } });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('postgres://alice:***@127.0.0.1:1/pdesk');
    expect(r.stderr).toMatch(/nothing was sent/);
    // What to do about it: check the server, and see which setting chose the store.
    expect(r.stderr).toContain('Check that the database server is running');
    expect(r.stderr).toContain('Which setting chose this store, and whether it answers: pdesk store status');
    expect(r.stderr).not.toContain('Hush-9');
    expect(env.sandbox.received.length).toBe(before);
  });
});

describe('the local audit trail', () => {
  it('names the operator as the user (PDESK_OPERATOR)', async () => {
    const env = await withSandbox();
    try {
      const r = await env.run(WRITES[1]!.args, { env: { PDESK_OPERATOR: 'carol' } });
      expect(r.code, r.stderr).toBe(0);
      expect(readAudit(auditPath(env.configDir, 'sandbox')).records.map((x) => x.user)).toEqual(['carol']);
    } finally {
      await env.close();
    }
  });
});
