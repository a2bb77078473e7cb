/**
 * Redirects (src/core/redirect.ts, decisions.md §3 "Redirects"): the decision for one 3xx (what a GET may follow,
 * which headers go along, what a write says), and the client over real HTTP: hop limits, the hops it followed, a
 * write that is never re-sent (a bulk send's status-only call too), and an http base URL redirected to https of the
 * same host, followed without the credentials unless the profile names that origin.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BulkSender } from '../../src/core/bulk/sender.js';
import { PdeskClient } from '../../src/core/client.js';
import { ExitCode, RedirectError } from '../../src/core/errors.js';
import { MAX_REDIRECTS, followRedirect, isRedirect, profileFix } from '../../src/core/redirect.js';
import { validateProfile } from '../../src/core/profile/schema.js';
import { closeAfterEach, stubServer } from '../helpers/http.js';

const TOKEN = 'redirect-test-token-9911';

function profileOf(practice: Record<string, unknown>, more: Record<string, unknown> = {}) {
  return validateProfile(
    { name: 'p', namespaces: { portal: 'a', practice: 'b' }, practice, portal: { baseUrl: 'http://portal.example/fhir' }, ...more },
    'test',
  );
}

const name = (op: string | undefined, method: string, url: string) => `${op ? `${op} ` : ''}${method} ${new URL(url).pathname}`;
const headers = { accept: 'application/fhir+json', authorization: `Bearer ${TOKEN}`, 'X-Api-Key': 'k-1234', 'x-version': '2' };
const req = (method: string, url: string) => ({ op: 'A4' as const, party: 'practice' as const, method, url, headers });
const moved = (status: number, location?: string) => ({
  status,
  headers: (location === undefined ? {} : { location }) as Record<string, string>,
});

async function redirectError(f: () => unknown): Promise<RedirectError> {
  let e: unknown;
  try {
    await f();
  } catch (err) {
    e = err;
  }
  expect(e).toBeInstanceOf(RedirectError);
  expect((e as RedirectError).exitCode).toBe(ExitCode.server);
  return e as RedirectError;
}

describe('followRedirect: one 3xx', () => {
  const p = profileOf({ baseUrl: 'http://fhir.example/r4', chat: { baseUrl: 'https://fhir.example:8443/chat' } });

  it('every 3xx is a redirect, 2xx and 4xx are not', () => {
    expect([300, 301, 302, 303, 304, 307, 308].every(isRedirect)).toBe(true);
    expect([200, 201, 204, 400, 404].some(isRedirect)).toBe(false);
  });

  it('a GET on the same origin (a relative Location too) is followed with every header', () => {
    const next = followRedirect(p, req('GET', 'http://fhir.example/r4/Slot?a=1'), moved(301, '/r4/Slot/?a=1'), [], name);
    expect(next.url).toBe('http://fhir.example/r4/Slot/?a=1');
    expect(next.headers).toBe(headers);
    expect(next.hop).toEqual({ status: 301, from: 'http://fhir.example/r4/Slot?a=1', to: 'http://fhir.example/r4/Slot/?a=1' });
  });

  it('http → https of the same host is followed; credentials go along only to an origin the party names', () => {
    const out = followRedirect(p, req('GET', 'http://fhir.example/r4/Slot'), moved(308, 'https://fhir.example/r4/Slot'), [], name);
    expect(out.url).toBe('https://fhir.example/r4/Slot');
    expect(out.headers).toEqual({ accept: 'application/fhir+json', 'x-version': '2' });
    // https://fhir.example:8443 is the practice's chat base URL: the party's own origin.
    const own = followRedirect(p, req('GET', 'http://fhir.example/r4/Slot'), moved(301, 'https://fhir.example:8443/r4/Slot'), [], name);
    expect(own.headers).toBe(headers);
  });

  it.each([
    ['another host', 'http://other.example/r4/Slot'],
    ['https → http', 'http://fhir.example:8443/chat/Slot'],
    ['another port', 'http://fhir.example:8080/r4/Slot'],
  ])('a GET to %s stops, naming the target and the setting', async (_what, location) => {
    const from = _what === 'https → http' ? 'https://fhir.example:8443/chat/Slot' : 'http://fhir.example/r4/Slot';
    const e = await redirectError(() => followRedirect(p, req('GET', from), moved(302, location), [], name));
    expect(e.location).toBe(location);
    expect(e.message).toContain(`was redirected to ${location} (HTTP 302 Found), another origin, which pdesk does not follow:`);
  });

  it('no Location, or one that is not http(s): the answer is not done, named', async () => {
    const none = await redirectError(() => followRedirect(p, req('GET', 'http://fhir.example/r4/Slot'), moved(300), [], name));
    expect(none.message).toBe('A4 GET /r4/Slot was answered HTTP 300 Multiple Choices without a Location; it was not done.');
    const ftp = await redirectError(() => followRedirect(p, req('GET', 'http://fhir.example/r4/Slot'), moved(302, 'ftp://x/y'), [], name));
    expect(ftp.message).toContain('with a Location pdesk cannot follow (ftp://x/y)');
  });

  it('a write is never followed: the sentence names the Location and the setting to change', async () => {
    const e = await redirectError(() =>
      followRedirect(
        p,
        { ...req('POST', 'http://fhir.example/r4/Appointment'), op: 'A6' },
        moved(307, 'https://fhir.example/v2/Appointment'),
        [],
        name,
      ),
    );
    expect(e.message).toBe(
      'A6 POST /r4/Appointment was redirected to https://fhir.example/v2/Appointment (HTTP 307 Temporary Redirect) and not sent again, so it was not done: set practice.baseUrl in profile "p" to https://fhir.example/v2 if the server has moved there.',
    );
    expect(e.details[0]).toBe('request: A6 POST http://fhir.example/r4/Appointment');
  });

  it(`more than ${MAX_REDIRECTS} hops, or a loop, stop`, async () => {
    const hops = Array.from({ length: MAX_REDIRECTS }, (_, i) => ({
      status: 302,
      from: `http://fhir.example/r4/${i}`,
      to: `http://fhir.example/r4/${i + 1}`,
    }));
    const many = await redirectError(() => followRedirect(p, req('GET', 'http://fhir.example/r4/5'), moved(302, '/r4/6'), hops, name));
    expect(many.message).toBe('A4 GET /r4/0 was redirected more than 5 times; pdesk stopped at http://fhir.example/r4/6.');
    const loop = await redirectError(() => followRedirect(p, req('GET', 'http://fhir.example/r4/5'), moved(302, '/r4/2'), hops, name));
    expect(loop.message).toMatch(
      /^A4 GET \/r4\/0 is redirected in a loop \(http:\/\/fhir\.example\/r4\/0 → .* → http:\/\/fhir\.example\/r4\/2\)\.$/,
    );
  });

  it('profileFix names the per-API base URL setting, or the route path, that the request came from', () => {
    expect(profileFix(p, 'C1', 'https://fhir.example:8443/chat/Communication', 'https://chat.example/v1/Communication')).toBe(
      'set practice.chat.baseUrl in profile "p" to https://chat.example/v1',
    );
    expect(profileFix(p, 'A4', 'http://fhir.example/r4/Slot?x=1', 'http://fhir.example/r4/Slot/?x=1')).toBe(
      'set routes.A4.path in profile "p" to "/Slot/"',
    );
    expect(profileFix(p, 'A4', 'http://elsewhere.example/Slot', 'http://x.example/')).toBe('check the base URLs in profile "p"');
  });
});

describe('the client over real HTTP', () => {
  function client(baseUrl: string, o: ConstructorParameters<typeof PdeskClient>[1] = {}, practice: Record<string, unknown> = {}) {
    return closeAfterEach(new PdeskClient(profileOf({ baseUrl, auth: { type: 'bearer', token: TOKEN }, ...practice }), o));
  }

  it(`a GET follows up to ${MAX_REDIRECTS} redirects on its origin and says which it followed; the sixth stops it`, async () => {
    const s = await stubServer((q, res) => {
      const n = Number(/\/hop\/(\d+)/.exec(q.url!)?.[1] ?? 0);
      if (n < Number(/[?&]hops=(\d+)/.exec(q.url!)?.[1]))
        return void res.writeHead(302, { location: `/hop/${n + 1}?hops=${/hops=(\d+)/.exec(q.url!)![1]}` }).end();
      res.writeHead(200, { 'content-type': 'application/fhir+json' }).end('{"resourceType":"Bundle","entry":[]}');
    });
    const c = client(s.url);
    const res = await c.raw('GET', 'practice', '/hop/0?hops=5');
    expect(res.status).toBe(200);
    expect(res.redirects?.map((h) => h.to)).toEqual([1, 2, 3, 4, 5].map((n) => `${s.url}/hop/${n}?hops=5`));
    for (const q of s.received) expect(q.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const e = await redirectError(() => c.raw('GET', 'practice', '/hop/0?hops=6'));
    expect(e.message).toContain('was redirected more than 5 times');
    expect(s.received).toHaveLength(6 + 6);
  });

  it("a write answered 3xx (a bulk send's status-only request too) throws, and is sent once", async () => {
    const s = await stubServer((_q, res) => void res.writeHead(308, { location: 'https://elsewhere.example/fhir/Communication' }).end());
    const c = client(s.url);
    const sender = await BulkSender.open(c, 'C1');
    for (const bulk of [false, true]) {
      const e = await redirectError(() =>
        bulk ? sender.send('{"resourceType":"Communication"}', () => undefined) : c.call('C1', { body: { resourceType: 'Communication' } }),
      );
      expect(e.status).toBe(308);
      expect(e.location).toBe('https://elsewhere.example/fhir/Communication');
    }
    expect(s.received.map((q) => q.method)).toEqual(['POST', 'POST']);
  });

  describe('http → https of the same host', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdesk-redirect-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const f = (n: string) => join(dir, n);

    async function httpsTarget() {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          'k.pem',
          '-out',
          'c.pem',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { cwd: dir, stdio: 'ignore' },
      );
      const seen: Array<string | undefined> = [];
      const server = createHttpsServer({ key: readFileSync(f('k.pem')), cert: readFileSync(f('c.pem')) }, (q, res) => {
        seen.push(q.headers.authorization);
        res.writeHead(200, { 'content-type': 'application/fhir+json' }).end('{"resourceType":"Bundle","entry":[]}');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      closeAfterEach({ close: () => new Promise<void>((r) => server.close(() => r())) });
      return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
    }

    it('is followed without the credentials; with them once the profile names the https origin', async () => {
      const target = await httpsTarget();
      const s = await stubServer((q, res) => void res.writeHead(301, { location: `${target.url}${q.url}` }).end());
      const tls = { caFile: f('c.pem') };
      const res = await client(`${s.url}/fhir`, {}, { tls }).call('A2');
      expect(res.redirects).toEqual([{ status: 301, from: `${s.url}/fhir/PractitionerRole`, to: `${target.url}/fhir/PractitionerRole` }]);
      expect(target.seen).toEqual([undefined]);
      // The same https origin named by the party (its appointment API): the credentials go along.
      await client(`${s.url}/fhir`, {}, { tls, medication: { baseUrl: `${target.url}/fhir` } }).call('A2');
      expect(target.seen).toEqual([undefined, `Bearer ${TOKEN}`]);
    });
  });
});
