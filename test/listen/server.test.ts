/**
 * `pdesk listen` against hostile clients (src/listen/server.ts, receiver.ts), with raw sockets: a body is refused
 * before it is read (no token, too large) and the connection closed; stalled uploads and headers are cut off;
 * connections past the limit are closed; the bytes bodies hold at once are bounded; /healthz; a stop that lets a
 * request finish within its deadline and cuts off one that does not; HTTPS.
 */
import { readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openThreadStore, type ThreadStore } from '../../src/core/threads/index.js';
import { type Receiver, type ReceiverOptions, startReceiver } from '../../src/listen/receiver.js';
import { chatMessage } from '../helpers/chat.js';
import { tempDir } from '../helpers/config.js';
import { selfSignedCert } from '../helpers/tls.js';

let dir: string;
let store: ThreadStore;
let receiver: Receiver | undefined;
const sockets: Socket[] = [];

beforeEach(() => {
  dir = tempDir('pdesk-listen-server-');
  store = openThreadStore(dir, 'desk');
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await receiver?.stop({ graceMs: 0 });
  receiver = undefined;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(o: Partial<ReceiverOptions> = {}): Promise<Receiver> {
  await store.prepare();
  receiver = await startReceiver({ port: 0, store, log: () => undefined, ...o });
  return receiver;
}

const body = (id: string, thread = 'enc-1') =>
  JSON.stringify(chatMessage(id, thread, `text of ${id}`, 'PractitionerRole/1001', 'Patient/pat-1'));

/** A raw connection: what it received, whether and when the server closed it. */
interface Raw {
  socket: Socket;
  received: () => string;
  /** Resolves with ms from connect to the close (end, reset or destroy by the server). */
  closed: Promise<number>;
}

function raw(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let text = '';
    const t0 = Date.now();
    const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now() - t0)));
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => undefined); // a reset is one way to be closed
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

const head = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);

describe('listen: refusing a body before reading it', () => {
  it('answers an unauthenticated upload 401 at once and closes the connection, the body unread', async () => {
    const r = await start({ token: 'tok-123456' });
    const c = await raw(r.port);
    // A 1 GB body announced, 64 KB of it sent, then nothing: a receiver that reads before it checks waits forever.
    c.socket.write(head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': 1024 ** 3 }));
    c.socket.write(Buffer.alloc(64 * 1024, 0x20));
    const ms = await within(c.closed, 2000, 'the connection closed');
    expect(statusOf(c.received())).toBe(401);
    expect(c.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(c.received()).toMatch(/www-authenticate: Bearer/i);
    expect(ms).toBeLessThan(2000);
  });

  it('150 stalled unauthenticated uploads are each answered and closed; none is held', async () => {
    const r = await start({ token: 'tok-123456' });
    const clients = await Promise.all(Array.from({ length: 150 }, () => raw(r.port)));
    for (const c of clients) {
      c.socket.write(
        head('POST', '/practice/Communication', { 'content-type': 'application/fhir+json', 'content-length': 4 * 1024 * 1024 }),
      );
      c.socket.write(Buffer.alloc(256 * 1024, 0x20));
    }
    await within(Promise.all(clients.map((c) => c.closed)), 5000, 'every connection closed');
    expect(clients.map((c) => statusOf(c.received()))).toEqual(clients.map(() => 401));
    await expect.poll(() => new Promise((res) => r.server.getConnections((_e, n) => res(n)))).toBe(0);
    expect(r.inProgress).toBe(0);
  });

  it('a request that expects 100-continue and has no token gets 401 without 100 Continue', async () => {
    const r = await start({ token: 'tok-123456' });
    const c = await raw(r.port);
    c.socket.write(
      head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': 100, expect: '100-continue' }),
    );
    await within(c.closed, 2000, 'the connection closed');
    expect(c.received()).not.toMatch(/100 Continue/);
    expect(statusOf(c.received())).toBe(401);
  });

  it('refuses a body declared larger than the bound with 413 at once, and one sent chunked as soon as it passes it', async () => {
    const r = await start({ limits: { maxBodyBytes: 100_000 } });
    const declared = await raw(r.port);
    declared.socket.write(head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': 100_001 }));
    await within(declared.closed, 2000, 'the connection closed');
    expect(statusOf(declared.received())).toBe(413);

    const chunked = await raw(r.port);
    chunked.socket.write(
      head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'transfer-encoding': 'chunked' }),
    );
    for (let i = 0; i < 4; i++) chunked.socket.write(`8000\r\n${' '.repeat(0x8000)}\r\n`); // 128 KB, never the last chunk
    await within(chunked.closed, 2000, 'the connection closed');
    expect(statusOf(chunked.received())).toBe(413);
    expect(r.inProgress).toBe(0);
  });

  it('refuses a wrong route or content type before the body too', async () => {
    const r = await start();
    for (const [path, type, status] of [
      ['/nowhere', 'application/fhir+json', 404],
      ['/portal/Communication', 'text/plain', 415],
    ] as const) {
      const c = await raw(r.port);
      c.socket.write(head('POST', path, { 'content-type': type, 'content-length': 1_000_000 }));
      await within(c.closed, 2000, `${path} closed`);
      expect(statusOf(c.received())).toBe(status);
    }
  });

  it('bounds the bytes all bodies in progress hold together (503), and frees them when a request ends', async () => {
    const r = await start({ limits: { maxBufferedBytes: 300_000 } });
    const a = await raw(r.port);
    a.socket.write(head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': 250_000 }));
    a.socket.write(Buffer.alloc(200_000, 0x20));
    await new Promise((res) => setTimeout(res, 100));
    const b = await raw(r.port);
    b.socket.write(head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': 250_000 }));
    b.socket.write(Buffer.alloc(200_000, 0x20));
    await within(b.closed, 2000, 'the second upload closed');
    expect(statusOf(b.received())).toBe(503);
    a.socket.destroy(); // the first goes away: its bytes are free again
    await a.closed;
    const res = await fetch(`${r.url}/portal/Communication`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: body('m-1'),
    });
    expect(res.status).toBe(201);
    await res.arrayBuffer();
  });
});

describe('listen: stalled and surplus connections', () => {
  it('closes an upload that goes silent, and headers that never end', async () => {
    const r = await start({ limits: { idleTimeoutMs: 300, headersTimeoutMs: 400 } });
    const upload = await raw(r.port);
    upload.socket.write(head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': 10_000 }));
    upload.socket.write('{"resourceType":');
    const headers = await raw(r.port);
    headers.socket.write('POST /portal/Communication HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(await within(upload.closed, 3000, 'the silent upload closed')).toBeGreaterThanOrEqual(250);
    await within(headers.closed, 3000, 'the unfinished headers closed');
    expect(await store.hasMessage('m-1')).toBe(false);
    await expect.poll(() => r.inProgress).toBe(0);
  });

  it('closes connections past the limit at once; the ones it holds keep working', async () => {
    const r = await start({ limits: { maxConnections: 5 } });
    const held = await Promise.all(Array.from({ length: 5 }, () => raw(r.port)));
    await expect.poll(() => new Promise((res) => r.server.getConnections((_e, n) => res(n)))).toBe(5);
    const extra = await raw(r.port);
    await within(extra.closed, 2000, 'the connection past the limit closed');
    expect(extra.received()).toBe('');
    held[0]!.socket.write(
      head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': Buffer.byteLength(body('m-1')) }),
    );
    held[0]!.socket.write(body('m-1'));
    await expect.poll(() => statusOf(held[0]!.received())).toBe(201);
    expect(await store.hasMessage('m-1')).toBe(true);
  });
});

describe('listen: GET /healthz', () => {
  it('says ok with its named checks, without the token; 503 once the store cannot write', async () => {
    const r = await start({ token: 'tok-123456' });
    const res = await fetch(`${r.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      checks: [
        { name: 'listen', ok: true, detail: 'taking pushes' },
        { name: 'store', ok: true, detail: 'writable, files: 1' },
      ],
    });
    const onlyHead = await fetch(`${r.url}/healthz`, { method: 'HEAD' });
    expect(onlyHead.status).toBe(200);
    expect(await onlyHead.text()).toBe('');
    const withBody = await raw(r.port);
    withBody.socket.write(head('GET', '/healthz', { 'content-length': 1_000_000 }));
    await within(withBody.closed, 2000, 'a /healthz with a body closed');
    expect(statusOf(withBody.received())).toBe(200);
    const post = await fetch(`${r.url}/healthz`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    await post.arrayBuffer();

    rmSync(join(dir, 'threads'), { recursive: true, force: true });
    const broken = await fetch(`${r.url}/healthz`);
    expect(broken.status).toBe(503);
    expect(await broken.json()).toMatchObject({
      ok: false,
      checks: [
        { name: 'listen', ok: true },
        { name: 'store', ok: false },
      ],
    });
  });

  it('a stop answers a request already under way (closing its connection after) and takes no new connections', async () => {
    const r = await start();
    const c = await raw(r.port);
    c.socket.write(head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': 10 }));
    c.socket.write('{');
    await expect.poll(() => r.inProgress).toBe(1);
    const stopped = r.stop({ graceMs: 2000 });
    const h = await raw(r.port).catch(() => undefined);
    expect(h).toBeUndefined(); // no new connections once stopping
    c.socket.write('"a":1}    ');
    await within(c.closed, 2000, 'the finished request closed');
    expect(statusOf(c.received())).toBe(400); // answered, not cut off
    expect(c.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(await stopped).toEqual({ cut: 0 });
  });
});

describe('listen: stopping with a deadline', () => {
  it('lets a request in progress finish within the deadline, and stores it', async () => {
    const r = await start();
    const c = await raw(r.port);
    const text = body('slow-1');
    c.socket.write(
      head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': Buffer.byteLength(text) }),
    );
    c.socket.write(text.slice(0, 40));
    await expect.poll(() => r.inProgress).toBe(1);
    const t0 = Date.now();
    const stopped = r.stop({ graceMs: 3000 });
    await new Promise((res) => setTimeout(res, 200));
    c.socket.write(text.slice(40));
    expect(await stopped).toEqual({ cut: 0 });
    expect(Date.now() - t0).toBeLessThan(2500);
    await within(c.closed, 1000, 'the answered connection closed');
    expect(statusOf(c.received())).toBe(201);
    expect(await store.hasMessage('slow-1')).toBe(true);
  });

  it('cuts off a client that stalls past the deadline, unacknowledged', async () => {
    const r = await start();
    const c = await raw(r.port);
    c.socket.write(head('POST', '/portal/Communication', { 'content-type': 'application/fhir+json', 'content-length': 5000 }));
    c.socket.write('{"resourceType":"Communication",');
    await expect.poll(() => r.inProgress).toBe(1);
    const t0 = Date.now();
    expect(await r.stop({ graceMs: 300 })).toEqual({ cut: 1 });
    expect(Date.now() - t0).toBeLessThan(1500);
    await within(c.closed, 1000, 'the stalled connection closed');
    expect(c.received()).toBe('');
  });
});

describe('listen: HTTPS', () => {
  it('serves pushes and /healthz over TLS with --tls-cert/--tls-key', async () => {
    const files = selfSignedCert(dir);
    const cert = readFileSync(files.cert);
    const r = await start({ tls: { cert, key: readFileSync(files.key) } });
    expect(r.url).toBe(`https://127.0.0.1:${r.port}`);
    const call = (method: string, path: string, payload?: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpsRequest(`${r.url}${path}`, { method, ca: cert, headers: { 'content-type': 'application/fhir+json' } }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
        req.end(payload);
      });
    expect((await call('POST', '/portal/Communication', body('tls-1'))).status).toBe(201);
    expect(JSON.parse((await call('GET', '/healthz')).text)).toMatchObject({ ok: true });
    expect(await store.hasMessage('tls-1')).toBe(true);
    // Plain HTTP on the TLS port gets no answer a client could take for an acknowledgement.
    const plain = await fetch(`http://127.0.0.1:${r.port}/healthz`).catch((e: Error) => e);
    expect(plain instanceof Error || plain.status === 400).toBe(true);
  });
});
