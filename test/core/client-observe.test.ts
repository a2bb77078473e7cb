/**
 * The client's general hooks: `observe` sees every HTTP exchange once (answered, refused or unanswered), with
 * secrets redacted in the URL, headers and both bodies; `readOnly` refuses anything but GET before it is sent.
 */
import { describe, expect, test } from 'vitest';
import { type Exchange, PdeskClient } from '../../src/core/client.js';
import { ConfigError, HttpError, NetworkError } from '../../src/core/errors.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { closeAfterEach, stubServer } from '../helpers/http.js';

const token = 'observe-secret-token-4711';
process.env.PDESK_TEST_OBSERVE_TOKEN = token;

function client(url: string, o: { readOnly?: boolean } = {}) {
  const seen: Exchange[] = [];
  const profile = Profile.parse({
    ...sandboxProfile(url),
    practice: { baseUrl: `${url}/practice`, auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_OBSERVE_TOKEN' } },
    retries: { max: 1 },
  });
  const c = closeAfterEach(new PdeskClient(profile, { observe: (e) => seen.push(e), readOnly: o.readOnly }));
  return { c, seen };
}

describe('observe', () => {
  test('is called once per exchange, retries included, with everything secret redacted', async () => {
    const stub = await stubServer((req, res, { n, body }) => {
      if (n === 1) {
        res.writeHead(503, { 'retry-after': '0' });
        res.end();
        return;
      }
      res.writeHead(201, { 'content-type': 'application/fhir+json', 'set-cookie': `s=${token}`, date: new Date(0).toUTCString() });
      res.end(JSON.stringify({ echo: JSON.parse(body || '{}'), auth: req.headers.authorization }));
    });
    const { c, seen } = client(stub.url);
    await c.call('A2', { query: [['key', token]] });
    await c.call('A6', { body: { resourceType: 'Appointment', note: `carries ${token}` } });
    expect(seen).toHaveLength(2);
    const [get, post] = seen;
    expect(get).toMatchObject({ op: 'A2', party: 'practice', method: 'GET', status: 201, attempts: 2 });
    expect(get!.url).toBe(`${stub.url}/practice/PractitionerRole?key=***`);
    expect(get!.requestHeaders.authorization).toBe('Bearer ***');
    expect(get!.responseHeaders!['set-cookie']).toBe('***');
    expect(get!.responseHeaders!.date).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
    expect(post).toMatchObject({ op: 'A6', method: 'POST', status: 201, attempts: 1 });
    expect(post!.requestBody).toBe('{"resourceType":"Appointment","note":"carries ***"}');
    expect(post!.responseBody).toContain('"auth":"Bearer ***"');
    expect(Number.isNaN(Date.parse(post!.startedAt))).toBe(false);
    expect(JSON.stringify(seen)).not.toContain(token);
  });

  test('sees refusals (before the HttpError is thrown) and exchanges that got no answer', async () => {
    const stub = await stubServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/fhir+json' });
      res.end('{"resourceType":"OperationOutcome","issue":[]}');
    });
    const { c, seen } = client(stub.url);
    await expect(c.call('M2', { params: { id: 'x' } })).rejects.toBeInstanceOf(HttpError);
    expect(seen[0]).toMatchObject({ op: 'M2', status: 404, responseBody: '{"resourceType":"OperationOutcome","issue":[]}' });
    await stub.close();
    await expect(c.call('A2')).rejects.toBeInstanceOf(NetworkError);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.status).toBeUndefined();
    expect(seen[1]!.error).toMatchObject({ name: 'NetworkError', code: 'ECONNREFUSED' });
  });
});

test('readOnly refuses every method but GET before anything is sent (exit 3)', async () => {
  const stub = await stubServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/fhir+json' });
    res.end('{"resourceType":"Bundle"}');
  });
  const { c, seen } = client(stub.url, { readOnly: true });
  await c.call('A5');
  for (const op of ['A6', 'C2', 'C4'] as const) {
    const e = await c.call(op, { params: { communicationId: 'm', encounterId: 'e' }, body: {} }).catch((x) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.exitCode).toBe(3);
    expect(e.message).toMatch(new RegExp(`^Profile "sandbox" is read-only here: ${op} \\((POST|PATCH|PUT) /[^ ]+\\) was not sent\\.$`));
  }
  await expect(c.raw('DELETE', 'practice', '/Appointment/1')).rejects.toBeInstanceOf(ConfigError);
  expect(stub.received.map((r) => r.method)).toEqual(['GET']);
  expect(seen).toHaveLength(1);
});
