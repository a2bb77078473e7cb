/**
 * The write audit trail from the command line, in-process against a sandbox that wants a bearer token: every
 * write of every command (A6, A7, C1–C5, M3, `api`, a bulk send, check --write) is in `audit/<profile>.ndjson`
 * exactly once, refused ones too, with no secret in the file (mode 0600); `pdesk audit` lists it (table, JSON,
 * --op, --since), skips a torn last line with a warning; `audit.bodies: false` leaves bodies out.
 */
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPath, readAudit } from '../../../src/core/audit.js';
import { csvFile } from '../../helpers/bulk.js';
import { type Env, withSandbox, writeProfiles } from '../../helpers/run.js';
import { WRITES } from '../../helpers/writes.js';

const TOKEN = 'audit-cli-token-27182';
const vars = { SANDBOX_TOKEN: TOKEN };

async function tokenSandbox(more: Record<string, unknown> = {}): Promise<Env> {
  const env = await withSandbox({ token: TOKEN });
  const auth = { type: 'bearer' as const, tokenEnv: 'SANDBOX_TOKEN' };
  writeProfiles(env.configDir, [
    {
      ...env.profile,
      practice: { baseUrl: `${env.sandbox.url}/practice`, auth },
      portal: { baseUrl: `${env.sandbox.url}/portal`, auth },
      ...more,
    },
  ]);
  return env;
}

let env: Env;
let path: string;
beforeAll(async () => {
  env = await tokenSandbox();
  path = auditPath(env.configDir, 'sandbox');
});
afterAll(() => env.close());

/** The trail's records: each write's intent joined with its completion (src/core/audit.ts). */
const records = () => readAudit(path).records as any[];

describe('every write sent is in the audit trail exactly once', () => {
  it('from every write command, answered or refused, with no secret in the file', async () => {
    for (const w of WRITES) {
      const r = await env.run([...w.args, '--json'], { input: w.input, env: vars });
      expect([0, 4], `${w.op}: ${r.stderr}`).toContain(r.code);
    }
    // A7 again: a second write of the same operation is a second record.
    await env.run([...WRITES[1]!.args], { env: vars });
    const api = await env.run(['api', 'PUT', '/Encounter/enc-9', '--party', 'portal', '--body', '-'], {
      env: vars,
      input: JSON.stringify({ resourceType: 'Encounter', id: 'enc-9', status: 'finished' }),
    });
    expect(api.stderr).toContain('HTTP 400 Bad Request'); // the sandbox refuses the body: a write all the same
    const csv = csvFile('email,name\nann@example.org,Ann\nbob@example.org,Bob\ncid@example.org,Cid\n');
    const bulk = await env.run(['notifications', 'send', '--csv', csv, '--topic', 'T', '--text', 'Hi {name}', '--json'], { env: vars });
    expect(bulk.code, bulk.stderr).toBe(0);
    const check = await env.run(['check', '--write', '--only', 'C5', '--json'], { env: vars });
    expect(check.code, check.stderr).toBe(0);

    const sent = env.sandbox.received.filter((r) => r.method !== 'GET');
    const recs = records();
    expect(recs.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(sent.map((r) => `${r.method} ${r.path}`));
    expect(recs.map((r) => r.op ?? '-')).toEqual([...WRITES.map((w) => w.op), 'A7', '-', 'C5', 'C5', 'C5', 'C5']);
    expect(recs.filter((r) => r.op === 'A7')).toHaveLength(2);
    expect(recs.find((r) => r.method === 'PUT' && r.op === undefined)?.status).toBe(400); // refused, recorded all the same
    for (const r of recs) {
      expect(r).toMatchObject({ profile: 'sandbox', environment: 'sandbox' });
      expect(typeof r.user).toBe('string');
      expect(r.bodySha256).toMatch(/^[0-9a-f]{64}$/);
      expect(Number.isNaN(Date.parse(r.at))).toBe(false);
    }
    expect(recs.filter((r) => r.op === 'C5' && r.body?.contained?.[0]?.telecom?.[0]?.value === 'bob@example.org')).toHaveLength(1);
    expect(readFileSync(path, 'utf8')).not.toContain(TOKEN);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

describe('pdesk audit', () => {
  it('lists the writes oldest first: a table, or JSON; --op and --since filter', async () => {
    const table = await env.run(['audit'], { tty: true, columns: 160 });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/TIME\s+USER\s+OP\s+METHOD\s+URL\s+RESULT\s+MS/);
    expect(table.stdout).toMatch(/A6\s+POST\s+http:\/\/127\.0\.0\.1:\d+\/practice\/Appointment\s+\d{3}/);
    const all = (await env.run(['audit', '--json'])).json();
    expect(all).toEqual(records());
    const a6 = (await env.run(['audit', '--op', 'a6,C4', '--json'])).json();
    expect(a6.map((r: { op: string }) => r.op)).toEqual(['A6', 'C4']);
    expect((await env.run(['audit', '--since', 'today', '--json'])).json()).toHaveLength(all.length);
    expect((await env.run(['audit', '--since', 'tomorrow', '--json'])).json()).toEqual([]);
    const bad = await env.run(['audit', '--op', 'X9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('pdesk: --op must name an operation A1–A7, C1–C5 or M1–M4, not "X9".\n');
  });

  it('a torn last line (a crash mid-write) is skipped with a warning; the next write still lands whole', async () => {
    const before = records().length;
    const torn = readFileSync(path, 'utf8').split('\n').length; // the line the torn write is on
    appendFileSync(path, '{"at":"2026-03-01T09:00:00.000Z","method":"PO');
    const r = await env.run(['audit', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toHaveLength(before);
    expect(r.stderr).toBe(
      `pdesk: warning: the audit trail ${path}: the last line (${torn}) is incomplete, a write torn by a crash; skipped.\n`,
    );
    const w = await env.run(WRITES[6]!.args, { env: vars });
    expect(w.code).toBe(0);
    const after = await env.run(['audit', '--json']);
    expect(after.json()).toHaveLength(before + 1);
    expect(after.json().at(-1)).toMatchObject({ op: 'C5', status: 201 });
    expect(after.stderr).toBe(`pdesk: warning: the audit trail ${path}: line ${torn} is not a JSON record; skipped.\n`);
  });

  it('with no writes yet it lists none', async () => {
    const e = await withSandbox();
    try {
      const r = await e.run(['audit', '--json']);
      expect(r.code).toBe(0);
      expect(r.json()).toEqual([]);
    } finally {
      await e.close();
    }
  });
});

describe('audit.bodies: false', () => {
  it('records each write without its body, keeping the hash', async () => {
    const e = await tokenSandbox({ audit: { bodies: false } });
    try {
      const r = await e.run(WRITES[6]!.args, { env: vars });
      expect(r.code, r.stderr).toBe(0);
      const [rec] = (await e.run(['audit', '--json'])).json();
      expect(rec.body).toBeUndefined();
      expect(rec).toMatchObject({ op: 'C5', status: 201 });
      expect(rec.bodySha256).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await e.close();
    }
  });
});
