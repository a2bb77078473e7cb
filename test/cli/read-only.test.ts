/**
 * Read-only profiles (`readOnly: true`) and `--read-only`, enforced in the client below every command: each write
 * command (A6, A7, C1–C5, M3, `api` with a non-GET method, a bulk send, check --write) exits 3 with one sentence
 * naming the profile and the operation, and the sandbox receives nothing but GET; `--dry-run` still prints the
 * request; reads work. In-process against the sandbox.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvFile } from '../helpers/bulk.js';
import { type Env, withSandbox } from '../helpers/run.js';
import { WRITES } from '../helpers/writes.js';

let env: Env;
beforeAll(async () => {
  env = await withSandbox({}, { readOnly: true });
});
afterAll(() => env.close());

const notGets = () => env.sandbox.received.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('a read-only profile', () => {
  it.each(WRITES)('$op: exits 3 naming the profile and the operation, and nothing but GET is sent', async (w) => {
    const r = await env.run([...w.args, '--json'], { input: w.input });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toBe(`pdesk: Profile "sandbox" is read-only: ${w.op} (${w.path}) was not sent.\n`);
    expect(r.stdout).toBe('');
    expect(notGets()).toEqual([]);
  });

  it('pdesk api with any method but GET exits 3; GET is sent', async () => {
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']) {
      const r = await env.run(['api', m, '/Appointment', ...(['POST', 'PUT', 'PATCH'].includes(m) ? ['--body', '-'] : [])], {
        input: '{}',
      });
      expect(r.code, `${m}: ${r.stderr}`).toBe(3);
      expect(r.stderr).toBe(`pdesk: Profile "sandbox" is read-only: ${m} /Appointment was not sent.\n`);
    }
    const get = await env.run(['api', 'GET', '/Appointment']);
    expect(get.code).toBe(0);
    expect(get.json().resourceType).toBe('Bundle');
    expect(notGets()).toEqual([]);
  });

  it('a bulk send is refused before anything is journaled', async () => {
    const csv = csvFile('email,name\nann@example.org,Ann\nbob@example.org,Bob\n');
    const r = await env.run(['notifications', 'send', '--csv', csv, '--topic', 'T', '--text', 'Hi {name}', '--json']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('pdesk: Profile "sandbox" is read-only: C5 (POST /Communication) was not sent.\n');
    expect(existsSync(join(env.configDir, 'journals'))).toBe(false);
    expect(notGets()).toEqual([]);
  });

  it('check --write is refused before anything is sent; the read-only suite runs', async () => {
    const w = await env.run(['check', '--write', '--json']);
    expect(w.code).toBe(3);
    expect(w.stderr).toContain('pdesk: Profile "sandbox" is read-only: check --write was not run');
    expect(env.sandbox.received.length).toBe(env.sandbox.received.filter((r) => r.method === 'GET').length);
    const ro = await env.run(['check', '--only', 'A5', '--json']);
    expect(ro.code, ro.stderr).toBe(0);
    expect(notGets()).toEqual([]);
  });

  it('--dry-run still prints the request it would send (exit 0), and reads work', async () => {
    const r = await env.run([...WRITES[0]!.args, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ op: 'A6', method: 'POST' });
    const list = await env.run(['appointments', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(list.json().length).toBeGreaterThan(0);
    expect(notGets()).toEqual([]);
  });

  it('nothing was written to the audit trail: nothing was sent', () => {
    expect(existsSync(join(env.configDir, 'audit', 'sandbox.ndjson'))).toBe(false);
  });
});

describe('--read-only', () => {
  it('makes any profile read-only for the run, and the sentence says why', async () => {
    const e = await withSandbox();
    try {
      const r = await e.run([...WRITES[6]!.args, '--read-only']);
      expect(r.code).toBe(3);
      expect(r.stderr).toBe('pdesk: Profile "sandbox" is read-only (--read-only): C5 (POST /Communication) was not sent.\n');
      expect(e.sandbox.received).toHaveLength(0);
      const ok = await e.run(WRITES[6]!.args);
      expect(ok.code, ok.stderr).toBe(0);
      expect(e.sandbox.state.notifications).toHaveLength(1);
    } finally {
      await e.close();
    }
  });
});
