/** Sandbox HTTP plumbing: content types, error answers, fail rate, throttle, token, latency, request record. */
import { afterEach, describe, expect, test } from 'vitest';
import { request } from 'undici';
import { buildNotification } from '../../src/core/api/notifications.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});
async function start(o: SandboxOptions = {}) {
  sb = await startSandbox({ port: 0, ...o });
  return sb;
}

async function raw(method: string, url: string, o: { body?: string; headers?: Record<string, string> } = {}) {
  const res = await request(url, { method: method as 'GET', headers: o.headers, body: o.body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
const notification = () =>
  buildNotification(Profile.parse(sandboxProfile('http://127.0.0.1:1')), { email: 'x@example.org', topic: 't', text: 'x' });
const fhir = { 'content-type': 'application/fhir+json' };

describe('error answers are OperationOutcomes with the right status', () => {
  test('404 unknown route, 405 wrong method (with Allow), 415 wrong content type, 400 bad JSON', async () => {
    const sb = await start();
    const nf = await raw('GET', `${sb.url}/practice/Nothing`);
    expect(nf.status).toBe(404);
    expect(nf.headers['content-type']).toBe('application/fhir+json');
    expect(nf.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-found' }] });
    expect((await raw('GET', `${sb.url}/`)).status).toBe(404);

    const na = await raw('DELETE', `${sb.url}/practice/Appointment`);
    expect(na.status).toBe(405);
    expect(na.headers.allow).toBe('GET, POST');
    expect((await raw('GET', `${sb.url}/portal/Communication`)).status).toBe(405);

    const ct = await raw('POST', `${sb.url}/portal/Communication`, {
      body: JSON.stringify(notification()),
      headers: { 'content-type': 'text/plain' },
    });
    expect(ct.status).toBe(415);
    expect(ct.body.issue[0].diagnostics).toContain('text/plain');
    const patchCt = await raw('POST', `${sb.url}/portal/Communication`, {
      body: JSON.stringify(notification()),
      headers: { 'content-type': 'application/json-patch+json' },
    });
    expect(patchCt.status).toBe(415);

    const bad = await raw('POST', `${sb.url}/portal/Communication`, { body: '{"resourceType":', headers: fhir });
    expect(bad.status).toBe(400);
    expect(bad.body.issue[0].expression).toEqual(['$']);
    expect(bad.body.issue[0].diagnostics).toMatch(/not valid JSON/);
    expect(sb.state.notifications).toHaveLength(0);
  });

  test('application/json and a charset parameter are accepted', async () => {
    const sb = await start();
    const res = await raw('POST', `${sb.url}/portal/Communication`, {
      body: JSON.stringify(notification()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/fhir+json');
  });
});

describe('fail rate, token, latency', () => {
  test('setFailRate(1): every request is 503 and nothing is stored; setFailRate(0) restores', async () => {
    const sb = await start();
    sb.setFailRate(1);
    const res = await raw('POST', `${sb.url}/portal/Communication`, { body: JSON.stringify(notification()), headers: fhir });
    expect(res.status).toBe(503);
    expect(res.body.resourceType).toBe('OperationOutcome');
    expect(sb.state.notifications).toHaveLength(0);
    expect((await raw('GET', `${sb.url}/practice/PractitionerRole`)).status).toBe(503);
    sb.setFailRate(0);
    expect((await raw('POST', `${sb.url}/portal/Communication`, { body: JSON.stringify(notification()), headers: fhir })).status).toBe(201);
    expect(() => sb.setFailRate(2)).toThrow();
  });

  test('a seeded fail rate is deterministic', async () => {
    const statuses = async () => {
      const s = await startSandbox({ port: 0, failRate: 0.5, seed: 42 });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await raw('GET', `${s.url}/practice/PractitionerRole`)).status);
      await s.close();
      return out;
    };
    const a = await statuses();
    expect(a).toEqual(await statuses());
    expect(a).toContain(503);
    expect(a).toContain(200);
  });

  test('with a token: 401 without it or with a wrong one, 200 with it', async () => {
    const sb = await start({ token: 's3cret-token' });
    const none = await raw('GET', `${sb.url}/practice/PractitionerRole`);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.body.resourceType).toBe('OperationOutcome');
    expect((await raw('GET', `${sb.url}/practice/PractitionerRole`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await raw('GET', `${sb.url}/practice/PractitionerRole`, { headers: { authorization: 'Bearer s3cret-token' } })).status).toBe(
      200,
    );
  });

  test('--throttle n answers every n-th request 429 with Retry-After: 1, before any change', async () => {
    const sb = await start({ throttleEvery: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await raw('POST', `${sb.url}/portal/Communication`, { body: JSON.stringify(notification()), headers: fhir });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body.resourceType).toBe('OperationOutcome');
      }
    }
    expect(statuses).toEqual([201, 201, 429, 201, 201, 429]);
    expect(sb.state.notifications).toHaveLength(4); // a 429 changed nothing
  });

  test('latency delays every answer', async () => {
    const sb = await start({ latencyMs: 150 });
    const t = Date.now();
    await raw('GET', `${sb.url}/practice/PractitionerRole`);
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
  });
});

describe('request record', () => {
  test('received keeps method, path, query, headers and the parsed body (raw text if not JSON)', async () => {
    const sb = await start();
    await raw('GET', `${sb.url}/practice/Slot?service-category=gp&schedule.date=ge2026-03-01`, { headers: { 'x-test': 'yes' } });
    await raw('POST', `${sb.url}/portal/Communication`, { body: JSON.stringify(notification()), headers: fhir });
    await raw('POST', `${sb.url}/portal/Communication`, { body: 'not json', headers: fhir });
    expect(sb.received).toHaveLength(3);
    expect(sb.received[0]).toMatchObject({
      method: 'GET',
      path: '/practice/Slot',
      query: 'service-category=gp&schedule.date=ge2026-03-01',
      body: undefined,
    });
    expect(sb.received[0]!.headers['x-test']).toBe('yes');
    expect((sb.received[1]!.body as { resourceType: string }).resourceType).toBe('Communication');
    expect(sb.received[2]!.body).toBe('not json');
    expect(Number.isNaN(Date.parse(sb.received[2]!.at))).toBe(false);
  });

  test('recordRequests: false keeps nothing in received but still serves', async () => {
    const sb = await start({ recordRequests: false });
    expect((await raw('POST', `${sb.url}/portal/Communication`, { body: JSON.stringify(notification()), headers: fhir })).status).toBe(201);
    expect(sb.received).toEqual([]);
    expect(sb.state.notifications).toHaveLength(1);
  });

  test('1,000 notifications over keep-alive connections are all stored, in well under the time limit', async () => {
    const sb = await start({ recordRequests: false });
    const body = JSON.stringify(notification());
    const t = Date.now();
    for (let i = 0; i < 20; i++)
      await Promise.all(Array.from({ length: 50 }, () => raw('POST', `${sb.url}/portal/Communication`, { body, headers: fhir })));
    expect(sb.state.notifications).toHaveLength(1000);
    expect(sb.state.notifications.at(-1)!.id).toBe('notif-1000');
    expect(Date.now() - t).toBeLessThan(10_000);
  });
});
