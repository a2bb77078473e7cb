/**
 * The transports (src/core/transport*.ts) over real HTTP to a tiny node:http server on port 0: retries of
 * idempotent methods only, Retry-After, connection errors, resets mid-body, time-outs, size bound. Every
 * behaviour is proven for both transports: the undici pool (long-running work) and node:http (one-shot
 * commands). Waits are recorded by an injected sleep, so the tests do not actually wait.
 */
import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { type AddressInfo, type Socket, createServer as createNetServer } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { ContractError, ExitCode, NetworkError, TooLargeError } from '../../src/core/errors.js';
import { registerSecret } from '../../src/core/redact.js';
import {
  type Deadline,
  DeadlineClock,
  MAX_RETRY_AFTER_MS,
  type RawRequest,
  type TransportOptions,
  isIdempotent,
  retryAfterMs,
} from '../../src/core/transport.js';
import { HttpTransport } from '../../src/core/transport-http.js';
import { PoolTransport } from '../../src/core/transport-pool.js';
import { type StubHandler, closeAfterEach, stubServer } from '../helpers/http.js';

const TRANSPORTS = [
  ['undici pool', PoolTransport],
  ['node:http', HttpTransport],
] as const;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/fhir+json', ...headers });
  res.end(JSON.stringify(body));
};

async function tooLarge(p: Promise<unknown>): Promise<TooLargeError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(TooLargeError);
  expect(e).not.toBeInstanceOf(NetworkError);
  expect((e as TooLargeError).exitCode).toBe(ExitCode.contract);
  return e as TooLargeError;
}

async function networkError(p: Promise<unknown>): Promise<NetworkError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(NetworkError);
  expect((e as NetworkError).exitCode).toBe(ExitCode.server);
  return e as NetworkError;
}

describe('retryAfterMs', () => {
  const now = Date.parse('2026-03-02T09:00:00Z');
  it.each([
    ['5', 5000],
    [' 3 ', 3000],
    ['0', 0],
    ['Mon, 02 Mar 2026 09:00:30 GMT', 30_000],
    ['Monday, 02-Mar-26 09:00:12 GMT', 12_000],
    ['Mon, 02 Mar 2026 08:00:00 GMT', 0],
  ])('%j → %d ms', (v, ms) => {
    expect(retryAfterMs(v, now)).toBe(ms);
  });

  it.each([undefined, '', 'soon', '1.5', '-1', '120 s'])('%j is not a Retry-After', (v) => {
    expect(retryAfterMs(v, now)).toBeUndefined();
  });
});

describe('DeadlineClock', () => {
  it('slices are a tenth of the time-out, 1 to 250 ms; requests of one slice share a deadline, a fired one is never handed out', async () => {
    expect([30_000, 2_000, 200, 5].map((ms) => new DeadlineClock(ms).sliceMs)).toEqual([250, 200, 20, 1]);
    const clock = new DeadlineClock(30_000);
    const a = clock.now();
    expect(clock.now()).toBe(a); // the same slice (250 ms wide): one deadline
    await new Promise((r) => setTimeout(r, 260));
    const b = clock.now();
    expect(b).not.toBe(a);
    b.abort();
    expect(clock.now()).not.toBe(b);
    expect(a.aborted).toBe(false);
  });
});

describe('isIdempotent', () => {
  it('GET, HEAD, OPTIONS, PUT, DELETE, TRACE are; POST and PATCH are not', () => {
    for (const m of ['GET', 'get', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']) expect(isIdempotent(m)).toBe(true);
    for (const m of ['POST', 'PATCH', 'post']) expect(isIdempotent(m)).toBe(false);
  });
});

describe('undici pool', () => {
  it('one pool per origin and TLS files: requests alternating between two TLS settings keep to their own connections', async () => {
    const s = await stubServer((req, res) => json(res, 200, { port: req.socket.remotePort }));
    const t = closeAfterEach(new PoolTransport({ connections: 1 }));
    const a = undefined;
    const b = { cert: 'client certificate B' }; // not used by plain HTTP, but a connection setting of its own
    const ports: number[] = [];
    for (const tls of [a, b, a, a, b])
      ports.push(JSON.parse((await t.request({ method: 'GET', url: `${s.url}/x`, headers: {}, tls })).text).port);
    expect(ports[0]).not.toBe(ports[1]);
    expect(ports).toEqual([ports[0], ports[1], ports[0], ports[0], ports[1]]);
  });
});

describe.each(TRANSPORTS)('%s', (_name, Impl) => {
  function transport(o: TransportOptions = {}) {
    const waits: number[] = [];
    const log: string[] = [];
    const t = new Impl({ sleep: async (ms) => void waits.push(ms), log: (l) => log.push(l), ...o });
    closeAfterEach(t);
    return { t, waits, log };
  }

  describe('retries on status', () => {
    it('a GET is retried on 503 with backoff and succeeds', async () => {
      const s = await stubServer((_q, res, { n }) => (n < 3 ? json(res, 503, {}) : json(res, 200, { ok: 1 })));
      const { t, waits, log } = transport();
      const r = await t.request({ method: 'GET', url: `${s.url}/Slot`, headers: {} });
      expect(r.status).toBe(200);
      expect(r.attempts).toBe(3);
      expect(JSON.parse(r.text)).toEqual({ ok: 1 });
      expect(waits).toEqual([200, 400]);
      expect(log).toEqual(['retry 1/2 in 200 ms: HTTP 503 Service Unavailable', 'retry 2/2 in 400 ms: HTTP 503 Service Unavailable']);
      expect(s.received).toHaveLength(3);
    });

    it('honours a Retry-After up to 10 s (429, 502, 504 too)', async () => {
      const statuses = [429, 502, 504];
      const s = await stubServer((_q, res, { n }) =>
        n <= 3 ? json(res, statuses[n - 1]!, {}, { 'retry-after': String(n * 3) }) : json(res, 200, {}),
      );
      const { t, waits } = transport({ retriesMax: 3 });
      const r = await t.request({ method: 'GET', url: s.url, headers: {} });
      expect(r.status).toBe(200);
      expect(waits).toEqual([3000, 6000, 9000]);
    });

    it('a Retry-After longer than 10 s is not waited for: the 503 is returned at once', async () => {
      const s = await stubServer((_q, res) => json(res, 503, { resourceType: 'OperationOutcome', issue: [] }, { 'retry-after': '120' }));
      const { t, waits, log } = transport();
      const r = await t.request({ method: 'GET', url: s.url, headers: {} });
      expect(r.status).toBe(503);
      expect(r.attempts).toBe(1);
      expect(waits).toEqual([]);
      expect(log.join('\n')).toContain('not retrying: Retry-After 120 is longer than 10 s');
      expect(MAX_RETRY_AFTER_MS).toBe(10_000);
    });

    it('gives up after retries.max and returns the last answer', async () => {
      const s = await stubServer((_q, res) => json(res, 503, {}));
      const { t } = transport({ retriesMax: 1 });
      const r = await t.request({ method: 'GET', url: s.url, headers: {} });
      expect([r.status, r.attempts, s.received.length]).toEqual([503, 2, 2]);
    });

    it.each(['POST', 'PATCH'])('a %s is never re-sent on 503', async (method) => {
      const s = await stubServer((_q, res) => json(res, 503, {}));
      const { t, waits } = transport();
      const r = await t.request({ method, url: s.url, headers: { 'content-type': 'application/fhir+json' }, body: '{"a":1}' });
      expect(r.status).toBe(503);
      expect(s.received).toHaveLength(1);
      expect(s.received[0]!.body).toBe('{"a":1}');
      expect(waits).toEqual([]);
    });

    it('a PUT is idempotent and retried; 500 and 4xx are not retried', async () => {
      const s = await stubServer((_q, res, { n }) => json(res, n === 1 ? 503 : n === 2 ? 500 : 404, {}));
      const { t } = transport();
      expect((await t.request({ method: 'PUT', url: s.url, headers: {}, body: '{}' })).status).toBe(500);
      expect(s.received).toHaveLength(2);
      expect((await t.request({ method: 'GET', url: s.url, headers: {} })).status).toBe(404);
      expect(s.received).toHaveLength(3);
    });
  });

  describe('connection errors', () => {
    it('connection refused names the origin; a GET is retried first', async () => {
      const s = await stubServer(() => undefined);
      await s.close();
      const { t, waits } = transport();
      const e = await networkError(t.request({ method: 'GET', url: `${s.url}/Slot`, headers: {} }));
      expect(e.message).toBe(`Cannot reach ${s.url} (connection refused).`);
      expect(e.code).toBe('ECONNREFUSED');
      expect(waits).toEqual([200, 400]);
    });

    it('a connection reset before the answer: a GET is retried and succeeds', async () => {
      const s = await stubServer((req, res, { n }) => (n === 1 ? req.socket.destroy() : json(res, 200, { ok: true })));
      const { t } = transport();
      const r = await t.request({ method: 'GET', url: s.url, headers: {} });
      expect([r.status, r.attempts, s.received.length]).toEqual([200, 2, 2]);
    });

    it('a connection reset: a POST is not re-sent, and the error says it may have arrived', async () => {
      const s = await stubServer((req) => req.socket.destroy());
      const { t, waits } = transport();
      const e = await networkError(t.request({ method: 'POST', url: s.url, headers: {}, body: '{}' }));
      expect(e.message).toMatch(/^Cannot reach http:\/\/127\.0\.0\.1:\d+ \(connection reset\)\.$/);
      expect(e.details.join('\n')).toContain('may have reached the server');
      expect(s.received).toHaveLength(1);
      expect(waits).toEqual([]);
    });

    it('a reset in the middle of the body: GET retried, POST reported once', async () => {
      const midBody: StubHandler = (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/fhir+json', 'content-length': '1000' });
        res.write('{"resourceType":"Bundle","entry":[');
        setTimeout(() => res.socket?.destroy(), 5);
      };
      const s = await stubServer((q, res, info) => (info.n === 1 ? midBody(q, res, info) : json(res, 200, { done: true })));
      const { t } = transport();
      const r = await t.request({ method: 'GET', url: s.url, headers: {} });
      expect(JSON.parse(r.text)).toEqual({ done: true });
      expect(r.attempts).toBe(2);

      const p = await stubServer(midBody);
      const e = await networkError(t.request({ method: 'POST', url: p.url, headers: {}, body: '{}' }));
      expect(e.message).toContain('connection reset');
      expect(e.details.join('\n')).toContain('may have reached the server');
      expect(p.received).toHaveLength(1);
    });
  });

  describe('deadlines and bounds', () => {
    it('no answer within requestMs is a time-out naming the origin (not retried)', async () => {
      const s = await stubServer(() => undefined); // never answers
      const { t, waits } = transport({ requestMs: 150 });
      const started = Date.now();
      const e = await networkError(t.request({ method: 'GET', url: `${s.url}/x`, headers: {} }));
      expect(e.message).toBe(`No answer from ${s.url} within 150 ms.`);
      expect(e.code).toBe('TIMEOUT');
      expect(Date.now() - started).toBeLessThan(3000);
      expect(waits).toEqual([]);
      expect(s.received).toHaveLength(1);
    });

    it('requests share the deadline of their slice of time: never cut before requestMs, at most a slice after it', async () => {
      const s = await stubServer((q, res) => (q.url === '/ok' ? json(res, 200, {}) : undefined)); // /ok answers, the rest never
      const { t } = transport({ requestMs: 200 });
      const timed = async (path: string, afterMs = 0) => {
        await new Promise((r) => setTimeout(r, afterMs));
        const started = performance.now();
        const e = await networkError(t.request({ method: 'GET', url: `${s.url}${path}`, headers: {} }));
        return { e, ms: performance.now() - started };
      };
      const all = await Promise.all([timed('/a'), timed('/b', 5), timed('/c', 15), timed('/d', 60)]);
      for (const { e, ms } of all) {
        expect(e.code).toBe('TIMEOUT');
        expect(ms).toBeGreaterThanOrEqual(199); // the timer's own millisecond rounding aside
        expect(ms).toBeLessThan(200 + 20 + 1000); // a slice (20 ms) late at most, and the machine's load
      }
      // A request after those deadlines fired gets a deadline of its own.
      expect((await t.request({ method: 'GET', url: `${s.url}/ok`, headers: {} })).status).toBe(200);
    });

    it('a secret in the URL of a request that timed out or was abandoned is redacted in the error', async () => {
      registerSecret('url-secret-5150');
      const s = await stubServer(() => undefined);
      const { t } = transport({ requestMs: 100 });
      const timedOut = await networkError(t.request({ method: 'GET', url: `${s.url}/x?key=url-secret-5150`, headers: {} }));
      expect(timedOut.details).toEqual([`GET ${s.url}/x?key=***`]);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 30);
      const abandoned = await networkError(
        t.request({ method: 'GET', url: `${s.url}/y?key=url-secret-5150`, headers: {}, signal: ac.signal }),
      );
      expect(abandoned.details).toEqual([`GET ${s.url}/y?key=***`]);
    });

    it("the caller's abort signal abandons the request", async () => {
      const s = await stubServer(() => undefined);
      const { t } = transport();
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      const e = await networkError(t.request({ method: 'GET', url: s.url, headers: {}, signal: ac.signal }));
      expect(e.message).toBe('The request was abandoned.');
    });

    it("a caller's abort ends a request still waiting for a connection, without waiting for the one ahead of it", async () => {
      const s = await stubServer((q, res) => (q.url === '/hang' ? undefined : json(res, 200, {})));
      const { t } = transport({ connections: 1, requestMs: 5_000 });
      const hanging = networkError(t.request({ method: 'GET', url: `${s.url}/hang`, headers: {} }));
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      const started = performance.now();
      const e = await networkError(t.request({ method: 'GET', url: `${s.url}/queued`, headers: {}, signal: ac.signal }));
      expect(e.message).toBe('The request was abandoned.');
      expect(performance.now() - started).toBeLessThan(2_000); // not the 5 s of the request ahead of it
      expect(s.received.map((r) => r.url)).toEqual(['/hang']); // the abandoned one was never sent
      expect((await hanging).code).toBe('TIMEOUT');
    });

    it("a request whose caller's signal was aborted before it was made is abandoned and never sent", async () => {
      const s = await stubServer((_q, res) => json(res, 200, {}));
      const { t } = transport();
      const ac = new AbortController();
      ac.abort();
      const e = await networkError(t.request({ method: 'POST', url: `${s.url}/x`, headers: {}, body: '{}', signal: ac.signal }));
      expect(e.message).toBe('The request was abandoned.');
      expect(e.code).toBe('ABORTED');
      expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
      expect(s.received).toHaveLength(0);
    });

    it('no abort listener is left on the shared deadline or the caller signal once requests end, however they end', async () => {
      const s = await stubServer((q, res) => (q.url === '/hang' ? undefined : json(res, q.url === '/500' ? 500 : 200, {})));
      // Every attempt's deadline, as the transport hands it to its `send`.
      const send = vi.spyOn(Impl.prototype as unknown as { send: (u: URL, r: RawRequest, d: Deadline, p: string) => unknown }, 'send');
      const { t } = transport();
      const ac = new AbortController();
      const signal = ac.signal;
      await t.request({ method: 'GET', url: `${s.url}/ok`, headers: {}, signal });
      await t.request({ method: 'POST', url: `${s.url}/500`, headers: {}, body: '{}', signal });
      const other = new AbortController();
      setTimeout(() => other.abort(), 30);
      await networkError(t.request({ method: 'GET', url: `${s.url}/hang`, headers: {}, signal: other.signal }));
      expect(send).toHaveBeenCalledTimes(3);
      for (const [, , deadline] of send.mock.calls) expect(deadline.listenerCount('abort')).toBe(0);
      send.mockRestore();
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
    });

    it('an informational answer (103 Early Hints) before the real one is passed over', async () => {
      const s = await stubServer((_q, res) => {
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
        json(res, 201, { id: 'n1' }, { location: '/Communication/n1' });
      });
      const { t } = transport();
      const r = await t.request({ method: 'POST', url: `${s.url}/Communication`, headers: {}, body: '{}' });
      expect(r.status).toBe(201);
      expect(r.headers.location).toBe('/Communication/n1');
      expect(JSON.parse(r.text)).toEqual({ id: 'n1' });
    });

    it('a response larger than maxResponseBytes is refused, announced or chunked (not retried), as too large: not as "Cannot reach"', async () => {
      const s = await stubServer((_q, res, { n }) => {
        if (n === 1) return json(res, 200, { big: 'x'.repeat(2_000_000) });
        res.writeHead(200, { 'content-type': 'application/fhir+json' }); // chunked: no content-length
        for (let i = 0; i < 10; i++) res.write('x'.repeat(200_000));
        res.end();
      });
      const { t } = transport({ maxResponseBytes: 1024 * 1024 });
      for (const n of [1, 2]) {
        const e = await tooLarge(t.request({ method: 'GET', url: `${s.url}/Slot`, headers: {} }));
        expect(e.message).toBe(`The answer from ${s.url} is larger than 1 MB, the most pdesk reads in one answer (limits.responseMB).`);
        expect(e.details).toEqual([
          `request: GET ${s.url}/Slot`,
          'If answers this large are expected, raise limits.responseMB in the profile.',
        ]);
        expect(s.received).toHaveLength(n);
      }
      // A write was answered: it may have been done.
      const e = await tooLarge(t.request({ method: 'POST', url: `${s.url}/Communication`, headers: {}, body: '{}' }));
      expect(e.details[1]).toBe('The request was sent and answered: check before sending it again.');
    });

    describe('compressed answers', () => {
      const body = { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Slot', id: 's1', text: 'ü'.repeat(100) } }] };
      const encoded =
        (encoding: string, data: Buffer): StubHandler =>
        (_q, res) => {
          res.writeHead(200, { 'content-type': 'application/fhir+json', 'content-encoding': encoding });
          res.end(data);
        };
      const raw = Buffer.from(JSON.stringify(body));

      it.each([
        ['gzip', gzipSync(raw)],
        ['x-gzip', gzipSync(raw)],
        ['deflate', deflateSync(raw)],
        ['deflate', deflateRawSync(raw)], // raw deflate, as some servers send it
        ['br', brotliCompressSync(raw)],
        ['gzip, br', brotliCompressSync(gzipSync(raw))], // applied in order, decoded in reverse
        ['identity', raw],
      ])('Content-Encoding %s is decoded', async (encoding, data) => {
        const s = await stubServer(encoded(encoding, data));
        const { t } = transport();
        const r = await t.request({ method: 'GET', url: s.url, headers: {} });
        expect(JSON.parse(r.text)).toEqual(body);
        expect(r.headers['content-encoding']).toBe(encoding);
      });

      it('an answer with no body and a Content-Encoding (a 204) is empty, not a decoding error', async () => {
        const s = await stubServer((_q, res) => {
          res.writeHead(204, { 'content-encoding': 'gzip' });
          res.end();
        });
        const { t } = transport();
        const r = await t.request({ method: 'PUT', url: s.url, headers: {}, body: '{}' });
        expect(r).toMatchObject({ status: 204, text: '' });
      });

      it('the size bound applies to the decoded size: a zip bomb is refused as too large, and never inflated whole', async () => {
        // 64 MB of zeros gzip to ~64 kB: well under the bound on the wire, far over it decoded.
        const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
        expect(bomb.length).toBeLessThan(100_000);
        const s = await stubServer(encoded('gzip', bomb));
        const { t } = transport({ maxResponseBytes: 1024 * 1024 });
        const heap = process.memoryUsage().arrayBuffers;
        const e = await tooLarge(t.request({ method: 'GET', url: `${s.url}/Slot`, headers: {} }));
        expect(e.message).toContain('is larger than 1 MB');
        // Stopped at the bound: nothing like 64 MB was held at once.
        expect(process.memoryUsage().arrayBuffers - heap).toBeLessThan(32 * 1024 * 1024);
        expect(s.received).toHaveLength(1);
      });

      it('data that cannot be decoded, or an encoding pdesk does not know, is an answer that breaks the interface (exit 6)', async () => {
        const s = await stubServer((q, res) =>
          encoded(q.url === '/bad' ? 'gzip' : 'compress', Buffer.from('this is not gzip at all'))(q, res, { body: '', n: 0 }),
        );
        const { t } = transport();
        const bad = await t.request({ method: 'GET', url: `${s.url}/bad`, headers: {} }).catch((e: unknown) => e);
        expect(bad).toBeInstanceOf(ContractError);
        expect((bad as ContractError).exitCode).toBe(ExitCode.contract);
        expect((bad as ContractError).message).toMatch(
          /^The server's answer does not match the interface at \$: the body cannot be decoded as gzip: /,
        );
        expect((bad as ContractError).details).toEqual([`request: GET ${s.url}/bad`]);
        const unknown = await t.request({ method: 'GET', url: `${s.url}/x`, headers: {} }).catch((e: unknown) => e);
        expect((unknown as ContractError).message).toContain(
          'Content-Encoding "compress" cannot be decoded (pdesk asks for gzip, deflate, br)',
        );
        expect(s.received).toHaveLength(2); // not retried
      });
    });

    it('no connection within connectMs (a TLS handshake that never ends) is a connect time-out, retried for a GET', async () => {
      const sockets: Socket[] = [];
      const silent = createNetServer((sock) => void sockets.push(sock)); // accepts, never answers the handshake
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      closeAfterEach({
        close: () =>
          new Promise<void>((r) => {
            for (const sock of sockets) sock.destroy();
            silent.close(() => r());
          }),
      });
      const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const { t, waits } = transport({ connectMs: 100 });
      const e = await networkError(t.request({ method: 'GET', url: `${url}/Slot`, headers: {} }));
      expect(e.message).toBe(`Cannot reach ${url} (connect time-out).`);
      expect(e.code).toBe('UND_ERR_CONNECT_TIMEOUT');
      expect(waits).toEqual([200, 400]);
      expect(sockets).toHaveLength(3);
    });

    it('reads an answer as undici does: header names in lower case, repeated headers joined, a byte order mark skipped', async () => {
      const s = await stubServer((_q, res) => {
        res.writeHead(200, [
          ['Content-Type', 'application/fhir+json'],
          ['X-Seen', 'a'],
          ['x-seen', 'b'],
        ]);
        res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Müller"}')]));
      });
      const { t } = transport();
      const r = await t.request({ method: 'GET', url: s.url, headers: {} });
      expect(r.headers['x-seen']).toBe('a, b');
      expect(r.headers['content-type']).toBe('application/fhir+json');
      expect(JSON.parse(r.text)).toEqual({ name: 'Müller' });
    });

    it('a body that arrives in many pieces, a character split between two of them, reads back whole', async () => {
      const text = JSON.stringify({ names: Array.from({ length: 4000 }, (_, i) => `Müller-Łukasz ${i} 東京`) });
      const bytes = Buffer.from(text);
      const s = await stubServer((_q, res) => {
        res.writeHead(200, { 'content-type': 'application/fhir+json' }); // chunked
        // Odd-sized pieces, so that multi-byte characters fall across their edges.
        for (let off = 0; off < bytes.length; off += 997) res.write(bytes.subarray(off, off + 997));
        res.end();
      });
      const { t } = transport();
      const r = await t.request({ method: 'GET', url: s.url, headers: {} });
      expect(r.text).toBe(text);
    });

    it('each request goes to its own path and query, one URL after another (the parsed URL is kept for the same text only)', async () => {
      const s = await stubServer((_q, res) => json(res, 200, {}));
      const { t } = transport();
      for (const path of ['/a?x=1', '/a?x=1', '/b', '/a?x=2', '/a?x=1'])
        expect((await t.request({ method: 'GET', url: `${s.url}${path}`, headers: {} })).status).toBe(200);
      expect(s.received.map((r) => r.url)).toEqual(['/a?x=1', '/a?x=1', '/b', '/a?x=2', '/a?x=1']);
    });

    it('sends method, path with query, headers and body as given', async () => {
      const s = await stubServer((req, res) => json(res, 201, { got: req.headers['x-test'], ct: req.headers['content-type'] }));
      const { t } = transport();
      const r = await t.request({
        method: 'POST',
        url: `${s.url}/a/b%2Fc?x=1%7C2`,
        headers: { 'x-test': 'yes', 'content-type': 'application/fhir+json' },
        body: '{"k":1}',
      });
      expect(r.status).toBe(201);
      expect(JSON.parse(r.text)).toEqual({ got: 'yes', ct: 'application/fhir+json' });
      const { headers, ...request } = s.received[0]!;
      expect(request).toEqual({ method: 'POST', url: '/a/b%2Fc?x=1%7C2', body: '{"k":1}' });
      expect(headers['x-test']).toBe('yes');
    });
  });
});
