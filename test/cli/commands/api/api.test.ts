/**
 * `pdesk api <METHOD> <path>` run in-process against the sandbox (which here requires a bearer token): the
 * profile's auth and headers are sent, the JSON answer printed, non-2xx answers exit 4/5, bad input exits 2
 * with nothing sent.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProfileInput } from '../../../../src/core/profile/schema.js';
import { type Env, withSandbox, writeProfiles } from '../../../helpers/run.js';

const TOKEN = 'sandbox-T0KEN-4d3c2b1a';
let env: Env;
let profile: ProfileInput;
const withToken = { env: { PDESK_TEST_TOKEN: TOKEN } };
const received = () => env.sandbox.received;

beforeAll(async () => {
  env = await withSandbox({ token: TOKEN });
  profile = {
    ...env.profile,
    practice: {
      ...env.profile.practice,
      auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_TOKEN' },
      headers: { 'X-Client': 'pdesk-test' },
      appointment: { headers: { 'X-Api-Version': '2.0.0' } },
    },
    portal: { ...env.profile.portal, auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_TOKEN' } },
  };
  writeProfiles(env.configDir, [profile]);
});
afterAll(async () => {
  await env?.close();
});
beforeEach(() => {
  received().length = 0;
});

describe('pdesk api against the sandbox', () => {
  it('GET prints the JSON answer, sent with the profile auth and party headers (not per-API ones)', async () => {
    const r = await env.run(['api', 'GET', '/PractitionerRole'], withToken);
    expect(r.code, r.stderr).toBe(0);
    const body = r.json();
    expect(body.resourceType).toBe('Bundle');
    expect(body.entry.map((e: { resource: { id: string } }) => e.resource.id)).toContain('1001');
    expect(received()).toHaveLength(1);
    expect(received()[0]).toMatchObject({ method: 'GET', path: '/practice/PractitionerRole' });
    expect(received()[0]!.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'x-client': 'pdesk-test',
      accept: 'application/fhir+json',
    });
    expect(received()[0]!.headers['x-api-version']).toBeUndefined();
  });

  it('--query values are URL-encoded and appended to a path that may have a query already', async () => {
    const r = await env.run(['api', 'get', '/Schedule?_count=5', '--param', 'service-category=urn:pdesk:service-category|gp'], withToken);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().resourceType).toBe('Bundle');
    expect(r.json().entry.length).toBeGreaterThan(0);
    expect(received()[0]!.query.replace(/^\?/, '')).toBe('_count=5&service-category=urn%3Apdesk%3Aservice-category%7Cgp');
  });

  it('POST --body <file> to the portal: sent as FHIR JSON, the server state changes, the answer is printed', async () => {
    const file = join(env.configDir, 'notification.json');
    const notification = {
      resourceType: 'Communication',
      contained: [{ resourceType: 'Patient', id: 'p1', telecom: [{ system: 'email', value: 'api-test@example.org' }] }],
      recipient: [{ reference: '#p1' }],
      topic: { text: 'raw' },
      status: 'completed',
      category: [{ coding: [{ system: 'portal.example.communication-category', code: 'notification' }] }],
      payload: [{ contentString: 'sent with pdesk api' }],
    };
    writeFileSync(file, JSON.stringify(notification));
    const before = env.sandbox.state.notifications.length;
    const r = await env.run(['api', 'POST', '/Communication', '--party', 'portal', '--body', file], withToken);
    expect(r.code, r.stderr).toBe(0);
    expect(received()[0]).toMatchObject({ method: 'POST', path: '/portal/Communication', body: notification });
    expect(received()[0]!.headers['content-type']).toBe('application/fhir+json');
    expect(env.sandbox.state.notifications.length).toBe(before + 1);
    expect(env.sandbox.state.notifications.at(-1)!.payload[0]!.contentString).toBe('sent with pdesk api');
    expect(typeof r.json()).toBe('object');
  });

  it('--body - reads standard input (PUT closes a chat)', async () => {
    const enc = {
      resourceType: 'Encounter',
      id: 'enc-api',
      status: 'finished',
      identifier: [{ system: 'practice.example.encounter-id', value: 'enc-api' }],
    };
    const r = await env.run(['api', 'PUT', '/Encounter/enc-api', '--party', 'portal', '--body', '-'], {
      ...withToken,
      input: JSON.stringify(enc),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ resourceType: 'Encounter', status: 'finished' });
    expect(env.sandbox.state.encounters.get('enc-api')?.status).toBe('finished');
  });

  it('a full URL on the profile server is accepted', async () => {
    const r = await env.run(['api', 'GET', `${env.sandbox.url}/practice/Organization?identifier=x%7Cy`], withToken);
    expect(r.code, r.stderr).toBe(0);
    expect(received()[0]).toMatchObject({ method: 'GET', path: '/practice/Organization' });
  });

  it('a 404 exits 4 with the status line and the OperationOutcome issue', async () => {
    const r = await env.run(['api', 'GET', '/MedicationRequest/does-not-exist'], withToken);
    expect(r.code).toBe(4);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('pdesk: HTTP 404 Not Found');
    expect(lines[1]).toMatch(/^ {2}error [\w-]+: .*does-not-exist/);
    expect(r.stderr).toContain(`request: GET ${env.sandbox.url}/practice/MedicationRequest/does-not-exist`);
    expect(r.stdout).toBe('');
  });

  it('without the token the sandbox answers 401: exit 4, and no token appears anywhere', async () => {
    const r = await env.run(['api', 'GET', '/PractitionerRole', '--verbose'], { env: { PDESK_TEST_TOKEN: 'wrong-T0KEN-000000' } });
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')).toContain('pdesk: HTTP 401 Unauthorized');
    expect(r.stderr).toContain('Authorization: Bearer ***');
    expect(r.stderr + r.stdout).not.toContain('wrong-T0KEN-000000');
  });

  it('a 5xx exits 5', async () => {
    env.sandbox.setFailRate(1);
    try {
      const r = await env.run(['api', 'POST', '/Communication', '--body', '-'], { ...withToken, input: '{}' });
      expect(r.code).toBe(5);
      expect(r.stderr.split('\n')[0]).toBe('pdesk: HTTP 503 Service Unavailable');
      expect(received()).toHaveLength(1);
    } finally {
      env.sandbox.setFailRate(0);
    }
  });

  it('--dry-run prints the request with the token redacted and sends nothing', async () => {
    const r = await env.run(['api', 'POST', '/Communication', '--body', '-', '--dry-run'], {
      ...withToken,
      input: '{"resourceType":"Communication"}',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual({
      method: 'POST',
      url: `${env.sandbox.url}/practice/Communication`,
      headers: {
        accept: 'application/fhir+json',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': expect.stringMatching(/^pdesk\//),
        'X-Client': 'pdesk-test',
        'content-type': 'application/fhir+json',
        authorization: 'Bearer ***',
      },
      body: { resourceType: 'Communication' },
    });
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(received()).toHaveLength(0);
  });

  it.each([
    [['api', 'FETCH', '/Slot'], 'pdesk: <METHOD> must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, not "FETCH".'],
    [['api', 'GET', '/Slot', '--party', 'pharmacy'], 'pdesk: --party must be one of practice, portal, not "pharmacy".'],
    [['api', 'GET', '/Slot', '--param', 'novalue'], 'pdesk: --param must be key=value, not "novalue".'],
    [['api', 'GET', '/Slot', '--body', '-'], 'pdesk: --body cannot be sent with GET.'],
    [['api', 'GET', 'https://elsewhere.example/Slot'], 'pdesk: <path> must be a path or a URL on the practice server'],
    [['api', 'GET'], "pdesk: Missing required argument 'path'."],
  ])('%j exits 2 and sends nothing', async (args, message) => {
    const r = await env.run(args, withToken);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(received()).toHaveLength(0);
  });

  it('a --body that is not JSON exits 2 and sends nothing', async () => {
    const r = await env.run(['api', 'POST', '/Communication', '--body', '-'], { ...withToken, input: '{"oops"' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^pdesk: --body: standard input is not valid JSON/);
    expect(received()).toHaveLength(0);
  });
});

describe('pdesk api answers without a body, and terminal safety', () => {
  it('prints {"ok":true,"status":204} for an empty answer; C1 controls in JSON strings are escaped', async () => {
    const server = createServer((req, res) => {
      if (req.method === 'DELETE') {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      res.end(JSON.stringify({ text: 'a\u009b2Jb\u001b[31mc' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      writeProfiles(env.configDir, [profile, { ...profile, name: 'plain', practice: { baseUrl: url, auth: { type: 'none' } } }]);
      const del = await env.run(['--profile', 'plain', 'api', 'DELETE', '/Thing/1']);
      expect(del.code, del.stderr).toBe(0);
      expect(del.json()).toEqual({ ok: true, status: 204 });
      const get = await env.run(['--profile', 'plain', 'api', 'GET', '/Thing/1', '--output', 'table']);
      expect(get.code, get.stderr).toBe(0);
      expect(get.stdout).not.toMatch(/[\u001b\u009b]/);
      expect(JSON.parse(get.stdout)).toEqual({ text: 'a\u009b2Jb\u001b[31mc' });
    } finally {
      writeProfiles(env.configDir, [profile]);
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('headers and secrets in what is printed', () => {
  it('sends one Authorization header, from the auth setting, whatever a profile header spells it', async () => {
    writeProfiles(env.configDir, [
      { ...profile, practice: { ...profile.practice, headers: { AUTHORIZATION: 'Basic c3RhbGU=', 'X-Client': 'pdesk-test' } } },
    ]);
    try {
      const r = await env.run(['appointment-types', 'list', '--service-category', 'gp', '--json'], withToken);
      expect(r.code).toBe(0);
      const req = received().find((x) => x.path.endsWith('/ValueSet'))!;
      expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    } finally {
      writeProfiles(env.configDir, [profile]);
    }
  });

  it('a token a server echoes back in a successful answer is not printed', async () => {
    const echo = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      res.end(JSON.stringify({ resourceType: 'Bundle', type: 'searchset', seen: req.headers.authorization }));
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    writeProfiles(env.configDir, [{ ...profile, practice: { ...profile.practice, baseUrl: url, appointment: undefined } }]);
    try {
      const r = await env.run(['api', 'GET', '/Anything'], withToken);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain(TOKEN);
      expect(r.json().seen).toBe('Bearer ***');
    } finally {
      writeProfiles(env.configDir, [profile]);
      await new Promise<void>((r) => echo.close(() => r()));
    }
  });
});
