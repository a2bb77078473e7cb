/**
 * The sandbox's switches for showing a broken system: `--break <op>` removes one required field from that
 * operation's successful answers (the stored data stays whole); `--fail <op>:<status>` answers the operation
 * with the status and an OperationOutcome before anything changes. Bad values exit 2.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { request } from 'undici';
import { PdeskClient } from '../../src/core/client.js';
import { searchSlots } from '../../src/core/api/appointments.js';
import { ContractError } from '../../src/core/errors.js';
import { Profile } from '../../src/core/profile/schema.js';
import { breakAnswer, brokenPath } from '../../src/sandbox/breaks.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});
async function start(o: SandboxOptions) {
  sb = await startSandbox({ port: 0, ...o });
  return sb;
}
async function get(url: string) {
  const res = await request(url);
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

describe('--break', () => {
  test('A4: every page misses start in its first entry; the stored slots keep theirs; pdesk names the path (exit 6)', async () => {
    const s = await start({ breakOps: ['A4'] });
    const page = await get(`${s.url}/practice/Slot?service-category=urn:pdesk:service-category|gp`);
    expect(page.status).toBe(200);
    expect(page.body.entry[0].resource.start).toBeUndefined();
    expect(page.body.entry[1].resource.start).toMatch(/Z$/);
    expect(s.state.slots.get(page.body.entry[0].resource.id)!.start).toMatch(/Z$/);
    const client = new PdeskClient(Profile.parse(sandboxProfile(s.url)));
    const e = await searchSlots(client, { serviceCategory: 'urn:pdesk:service-category|gp', from: '2000-01-01', to: '2100-01-01' }).catch(
      (x) => x,
    );
    await client.close();
    expect(e).toBeInstanceOf(ContractError);
    expect(e.path).toBe('$.entry[0].resource.start');
    expect(e.exitCode).toBe(6);
  });

  test('only the operation named: A5 and A6 share a route, and only A5 answers are broken', async () => {
    const s = await start({ breakOps: ['A5'] });
    const list = await get(`${s.url}/practice/Appointment`);
    expect(list.body.entry[0].resource.status).toBeUndefined();
    const ok = await get(`${s.url}/practice/PractitionerRole`);
    expect(ok.body.entry[0].resource.id).toBe('1001');
  });

  test('each operation has its path; a body too short to reach it is left as it is', () => {
    expect(brokenPath('A1', '2.0.0')).toBe('$.compose.include[0].concept[0].code');
    expect(brokenPath('A1', '1.0.0')).toBe('$.compose.include[0].actor.concept.code');
    expect(brokenPath('M1', '2.0.0')).toBe('$.entry[0]["medication-request"].status');
    expect(brokenPath('C4', '2.0.0')).toBe('$.resourceType');
    const m1 = { entry: [{ 'medication-request': { status: 'active', id: 'x' } }] };
    expect(breakAnswer('M1', m1, '2.0.0')).toEqual({ entry: [{ 'medication-request': { id: 'x' } }] });
    expect(m1.entry[0]!['medication-request'].status).toBe('active');
    const empty = { resourceType: 'Bundle', entry: [] };
    expect(breakAnswer('A4', empty, '2.0.0')).toBe(empty);
  });
});

describe('--fail', () => {
  test('A6:503 is answered with the status and an OperationOutcome, and nothing is booked', async () => {
    const s = await start({ failOps: { A6: 503 } });
    const before = s.state.appointments.size;
    const res = await request(`${s.url}/practice/Appointment`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: '{}',
    });
    expect(res.statusCode).toBe(503);
    const body = (await res.body.json()) as any;
    expect(body.issue[0]).toMatchObject({
      code: 'transient',
      diagnostics: 'The sandbox is simulating a failure of A6 (--fail); nothing was changed.',
    });
    expect(s.state.appointments.size).toBe(before);
    expect((await get(`${s.url}/practice/Appointment`)).status).toBe(200);
  });

  test('C5 and C3 share a route: the category tells which one fails', async () => {
    const s = await start({ failOps: { C5: 429 } });
    const post = (category: string) =>
      request(`${s.url}/portal/Communication`, {
        method: 'POST',
        headers: { 'content-type': 'application/fhir+json' },
        body: JSON.stringify({ category: [{ coding: [{ code: category }] }] }),
      }).then(async (r) => {
        await r.body.dump();
        return r.statusCode;
      });
    expect(await post('notification')).toBe(429);
    expect(await post('chat')).toBe(400); // reached the C3 handler, which validates the body
  });
});

describe('pdesk sandbox options', () => {
  test('a bad --break or --fail exits 2 naming the option, and nothing starts', async () => {
    const a = await runCli(['sandbox', '--port', '0', '--break', 'X9']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--break must name an operation A1–A7, C1–C5 or M1–M4, not "X9".');
    for (const v of ['A4', 'A4:200', 'A4:abc', 'Z1:503']) {
      const b = await runCli(['sandbox', '--port', '0', '--fail', v]);
      expect(b.code, v).toBe(2);
      expect(b.stderr).toContain(`--fail must be <op>:<status> with an error status 400–599, e.g. A4:503, not "${v}".`);
    }
  });
});
