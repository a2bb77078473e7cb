/**
 * `pdesk listen` as a process: each push kind is validated, stored durably and only then acknowledged;
 * invalid bodies, closed threads, tokens; Ctrl-C; and a listener killed with SIGKILL while clients post
 * concurrently loses nothing it acknowledged. As a service: SIGTERM lets a request in progress finish and cuts
 * off one that stalls past --shutdown-timeout; a host beyond loopback needs a token; HTTPS and its options.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openThreadStore } from '../../src/core/threads/index.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { chatMessage } from '../helpers/chat.js';
import { runCli, tempDir, writeProfiles } from '../helpers/cli.js';
import { type ListenProcess, startListen } from '../helpers/listen.js';
import { selfSignedCert } from '../helpers/tls.js';

const NS = { portal: 'portal.example', practice: 'practice.example' };

const chat = (id: string, thread: string, text: string, from = 'PractitionerRole/1001', to = 'Patient/pat-1') =>
  chatMessage(id, thread, text, from, to);

const notification = {
  resourceType: 'Communication',
  contained: [{ resourceType: 'Patient', id: 'p1', telecom: [{ system: 'email', value: 'emma@example.org' }] }],
  recipient: [{ reference: '#p1' }],
  topic: { text: 'Reminder' },
  status: 'completed',
  category: [{ coding: [{ system: `${NS.portal}.communication-category`, code: 'notification' }] }],
  payload: [{ contentString: 'Your appointment is tomorrow.' }],
};

const marker = [
  { op: 'add', path: '/recipient/0/extension', value: { url: `${NS.portal}.ResourceSeenAt`, valueDateTime: '2026-03-01T10:15:00' } },
];
const encounter = (id: string) => ({
  resourceType: 'Encounter',
  id,
  status: 'finished',
  identifier: [{ system: `${NS.practice}.encounter-id`, value: id }],
});

async function call(url: string, method: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': method === 'PATCH' ? 'application/json-patch+json' : 'application/fhir+json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

let dir: string;
let listener: ListenProcess | undefined;
beforeEach(() => {
  dir = tempDir('pdesk-listen-');
  writeProfiles(dir, [sandboxProfile('http://127.0.0.1:9')]);
});
afterEach(async () => {
  await listener?.stop('SIGKILL');
  listener = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function storeView() {
  const store = openThreadStore(dir, 'sandbox');
  const view = await store.load();
  return { view, warnings: store.warnings };
}

describe('pdesk listen', () => {
  it('receives C1 and C2 at /practice, C3, C4 and C5 at /portal; stores each before answering; prints one NDJSON line each', async () => {
    listener = await startListen(dir, ['--json']);
    const { url } = listener;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const c1 = await call(
      `${url}/practice/Communication`,
      'POST',
      chat('m-1', 'enc-1', 'question', 'Patient/pat-1', 'PractitionerRole/1001'),
    );
    expect(c1.status).toBe(201);
    // Acknowledged means stored: the store holds it the moment the answer arrives.
    expect((await storeView()).view.messages('enc-1')!.map((m) => m.id)).toEqual(['m-1']);

    expect((await call(`${url}/portal/Communication`, 'POST', chat('m-2', 'enc-1', 'answer'))).status).toBe(201);
    expect((await call(`${url}/practice/Communication/m-2`, 'PATCH', marker)).status).toBe(200);
    // The conditional form of C2, for a message the listener never saw: recorded all the same.
    expect(
      (
        await call(
          `${url}/practice/Communication?identifier=${encodeURIComponent(`${NS.portal}.communication-id|m-unseen`)}`,
          'PATCH',
          marker,
        )
      ).status,
    ).toBe(200);
    expect((await call(`${url}/portal/Communication`, 'POST', notification)).status).toBe(201);
    expect((await call(`${url}/portal/Encounter/enc-1`, 'PUT', encounter('enc-1'))).status).toBe(200);
    // A C4 for an unseen encounter records it as closed.
    expect((await call(`${url}/portal/Encounter/enc-new`, 'PUT', encounter('enc-new'))).status).toBe(200);
    // enc-1 is closed now: a new message to it is refused.
    expect((await call(`${url}/portal/Communication`, 'POST', chat('m-3', 'enc-1', 'late'))).status).toBe(409);

    const lines = await listener.waitForLines(7);
    const printed = lines.map((l) => JSON.parse(l));
    expect(printed.map((r) => `${r.op} ${r.kind} ${r.via}`)).toEqual([
      'C1 message received',
      'C3 message received',
      'C2 read received',
      'C2 read received',
      'C5 notification received',
      'C4 close received',
      'C4 close received',
    ]);
    expect(printed[2]).toMatchObject({ id: 'm-2', thread: 'enc-1', readAt: '2026-03-01T10:15:00' });
    expect(printed[3]).toMatchObject({ id: 'm-unseen' });
    expect(printed[3].thread).toBeUndefined();

    const { view, warnings } = await storeView();
    expect(warnings).toEqual([]);
    // Newest first: enc-new has no messages, so its close time counts, and it was closed last.
    expect(view.threads.map((t) => [t.thread, t.status, t.messages, t.unread])).toEqual([
      ['enc-new', 'closed', 0, 0],
      ['enc-1', 'closed', 2, 1],
    ]);
    expect(view.messages('enc-1')!.map((m) => [m.id, m.op, m.from, m.read, m.unread])).toEqual([
      ['m-1', 'C1', 'portal', false, true],
      ['m-2', 'C3', 'practice', true, false],
    ]);
    expect(view.isRead('m-unseen')).toBe(true);
    expect(view.notifications).toMatchObject([{ email: 'emma@example.org', topic: 'Reminder', text: 'Your appointment is tomorrow.' }]);

    // Ctrl-C: exits 0.
    expect(await listener.stop('SIGINT')).toBe(0);
    listener = undefined;
  });

  it('answers a duplicate message 200 without storing it twice', async () => {
    listener = await startListen(dir, ['--json']);
    expect((await call(`${listener.url}/portal/Communication`, 'POST', chat('dup', 'enc-1', 'once'))).status).toBe(201);
    expect((await call(`${listener.url}/portal/Communication`, 'POST', chat('dup', 'enc-1', 'once'))).status).toBe(200);
    await listener.waitForLines(1);
    expect((await storeView()).view.summary('enc-1')!.messages).toBe(1);
    expect(readFileSync(`${dir}/threads/sandbox.ndjson`, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('refuses invalid bodies with 400 and an OperationOutcome naming the path, and stores nothing', async () => {
    listener = await startListen(dir, ['--json']);
    const { url } = listener;
    const noText = chat('bad-1', 'enc-1', 'x') as Record<string, unknown>;
    delete noText.payload;
    const r1 = await call(`${url}/portal/Communication`, 'POST', noText);
    expect(r1.status).toBe(400);
    expect(r1.body).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'invalid', expression: ['$.payload'] }],
    });
    expect((await call(`${url}/practice/Communication`, 'POST', '{"resourceType": "Communi')).status).toBe(400);
    expect((await call(`${url}/portal/Communication`, 'POST', { ...notification, contained: [] })).status).toBe(400);
    expect((await call(`${url}/portal/Communication`, 'POST', { ...chat('bad-2', 'enc-1', 'x'), category: [] })).status).toBe(400);
    const wrongPath = [{ ...marker[0], path: '/status' }];
    const r2 = await call(`${url}/practice/Communication/m-1`, 'PATCH', wrongPath);
    expect(r2.status).toBe(400);
    expect(r2.body.issue[0].expression).toEqual(['$[0].path']);
    expect(
      (
        await call(`${url}/practice/Communication/m-1`, 'PATCH', [
          { ...marker[0], value: { ...marker[0]!.value, valueDateTime: '2026-03-01T10:15:00Z' } },
        ])
      ).status,
    ).toBe(400);
    expect((await call(`${url}/portal/Encounter/enc-1`, 'PUT', { ...encounter('enc-1'), status: 'in-progress' })).status).toBe(400);
    expect((await call(`${url}/portal/Encounter/enc-1`, 'PUT', encounter('enc-2'))).status).toBe(400);
    expect((await call(`${url}/portal/Communication`, 'POST', chat('bad-3', 'enc-1', 'x'), { 'content-type': 'text/plain' })).status).toBe(
      415,
    );
    expect((await call(`${url}/portal/Nothing`, 'POST', {})).status).toBe(404);
    const get = await fetch(`${url}/portal/Communication`);
    expect(get.status).toBe(405);
    await get.arrayBuffer();
    // Nothing stored, nothing printed.
    expect((await storeView()).view.threads).toEqual([]);
    expect(listener.lines).toEqual([]);
  });

  it('refuses a message to a closed thread with 409 and does not store it', async () => {
    listener = await startListen(dir, ['--json']);
    const { url } = listener;
    expect((await call(`${url}/portal/Encounter/enc-9`, 'PUT', encounter('enc-9'))).status).toBe(200);
    const r = await call(`${url}/portal/Communication`, 'POST', chat('late', 'enc-9', 'too late'));
    expect(r.status).toBe(409);
    expect(r.body.issue[0].code).toBe('conflict');
    expect((await call(`${url}/practice/Communication`, 'POST', chat('late2', 'enc-9', 'too late'))).status).toBe(409);
    expect((await storeView()).view.summary('enc-9')).toMatchObject({ status: 'closed', messages: 0 });
  });

  it('refuses a message to a thread another process closed in the same store', async () => {
    listener = await startListen(dir, ['--json']);
    const other = openThreadStore(dir, 'sandbox');
    const { closeRecord } = await import('../../src/core/threads/index.js');
    await other.append([closeRecord('sent', 'enc-5', encounter('enc-5') as never)]);
    await other.close();
    await expect
      .poll(async () => (await call(`${listener!.url}/portal/Communication`, 'POST', chat(randomUUID(), 'enc-5', 'x'))).status, {
        timeout: 5000,
      })
      .toBe(409);
  });

  it('--token-env requires the bearer token (401 otherwise); an unset variable exits 3', async () => {
    listener = await startListen(dir, ['--json', '--token-env', 'LISTEN_TOKEN'], { LISTEN_TOKEN: 's3cret-token' });
    const { url } = listener;
    const none = await call(`${url}/portal/Communication`, 'POST', chat('t-1', 'enc-1', 'x'));
    expect(none.status).toBe(401);
    expect(none.body.resourceType).toBe('OperationOutcome');
    expect((await call(`${url}/portal/Communication`, 'POST', chat('t-1', 'enc-1', 'x'), { authorization: 'Bearer wrong' })).status).toBe(
      401,
    );
    expect(
      (await call(`${url}/portal/Communication`, 'POST', chat('t-1', 'enc-1', 'x'), { authorization: 'Bearer s3cret-token' })).status,
    ).toBe(201);
    expect((await storeView()).view.messages('enc-1')!.map((m) => m.id)).toEqual(['t-1']);
    expect(listener.stderr()).not.toContain('s3cret-token');
  });

  it('prints one readable, control-free line per record in table mode', async () => {
    listener = await startListen(dir, ['--output', 'table']);
    expect(
      (await call(`${listener.url}/portal/Communication`, 'POST', chat('c-1', 'enc-1', 'hello \u001b]0;pwned\u0007\u001b[2Jthere'))).status,
    ).toBe(201);
    const [line] = await listener.waitForLines(1);
    expect(line).toMatch(/C3 received enc-1 c-1 from PractitionerRole\/1001 to Patient\/pat-1: hello there$/);
    expect(line).not.toMatch(/\u001b/);
  });

  it('--json lines escape C1 controls and DEL in pushed text (valid JSON, same text)', async () => {
    listener = await startListen(dir, ['--json']);
    const text = 'csi \u009b2J del \u007f end';
    expect((await call(`${listener.url}/portal/Communication`, 'POST', chat('c-9', 'enc-1', text))).status).toBe(201);
    const [line] = await listener.waitForLines(1);
    expect(line).not.toMatch(/[\u007f-\u009f]/);
    expect(line).toContain('\\u009b2J');
    expect(JSON.parse(line!).resource.payload[0].contentString).toBe(text);
  });

  it('loses nothing it acknowledged when killed with SIGKILL while clients post concurrently', async () => {
    listener = await startListen(dir, ['--json']);
    const url = listener.url;
    const acked: string[] = [];
    const total = 600;
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < total) {
        const id = `k-${next++}`;
        try {
          const r = await call(`${url}/portal/Communication`, 'POST', chat(id, `enc-${next % 13}`, `message ${id}`));
          if (r.status === 201) acked.push(id);
        } catch {
          /* the listener is gone: not acknowledged */
        }
        if (!killed && acked.length >= 150) {
          killed = true;
          listener!.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 24 }, worker));
    expect(killed).toBe(true);
    expect(await listener.stop('SIGKILL')).toBe(137);
    expect(acked.length).toBeGreaterThanOrEqual(150);

    // Restart on the same store: it starts (a torn last line at most warns) and holds every acknowledged id.
    listener = await startListen(dir, ['--json']);
    const r = await call(`${listener.url}/portal/Communication`, 'POST', chat('after-restart', 'enc-1', 'still here'));
    expect(r.status).toBe(201);
    const { view } = await storeView();
    const stored = new Set(view.threads.flatMap((t) => view.messages(t.thread)!.map((m) => m.id)));
    const lost = acked.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    expect(stored.has('after-restart')).toBe(true);
  });
});

/** A raw connection that sends a push's headers and the first `sent` bytes of its body, then waits. */
function partialPush(url: string, text: string, sent: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    socket.once('connect', () => {
      socket.write(
        `POST /portal/Communication HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/fhir+json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text.slice(0, sent)}`,
      );
      resolve({ socket, received: () => received, closed });
    });
    socket.once('error', reject);
  });
}

const exitOf = (p: ListenProcess) =>
  new Promise<number>((r) => p.child.once('exit', (code, signal) => r(code ?? (signal === 'SIGTERM' ? 143 : 128))));

describe('pdesk listen as a service', () => {
  it('SIGTERM: a request in progress finishes and is stored, then it exits 0', async () => {
    listener = await startListen(dir, ['--json', '--shutdown-timeout', '5']);
    const text = JSON.stringify(chat('term-1', 'enc-1', 'sent slowly'));
    const c = await partialPush(listener.url, text, 30);
    await new Promise((r) => setTimeout(r, 100));
    const exited = exitOf(listener);
    listener.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    c.socket.write(text.slice(30));
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 201 /);
    expect(await exited).toBe(0);
    listener = undefined;
    expect((await storeView()).view.messages('enc-1')!.map((m) => m.id)).toEqual(['term-1']);
  });

  it('SIGTERM: a client that stalls is cut off after --shutdown-timeout, unacknowledged, and it exits 0', async () => {
    listener = await startListen(dir, ['--json', '--shutdown-timeout', '1']);
    const c = await partialPush(listener.url, JSON.stringify(chat('stall-1', 'enc-1', 'never finished')), 30);
    await new Promise((r) => setTimeout(r, 100));
    const exited = exitOf(listener);
    const t0 = Date.now();
    listener.child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running after 6 s'), 6000))]);
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    await c.closed;
    expect(c.received()).toBe('');
    expect(listener.stderr()).toMatch(/1 request was still in progress after 1 s and cut off, not acknowledged\./);
    listener = undefined;
    expect((await storeView()).view.threads).toEqual([]);
  });

  it('SIGTERM the moment the URL is printed is a clean stop (a service manager may stop it as soon as it is up)', async () => {
    for (let i = 0; i < 6; i++) {
      const p = await startListen(dir, ['--json']);
      expect(await p.stop('SIGTERM'), `start ${i + 1}`).toBe(0);
    }
  });

  it('refuses a --host beyond loopback without --token-env (exit 2, one sentence); --insecure starts with a warning', async () => {
    const r = await runCli(['listen', '--port', '0', '--host', '0.0.0.0'], { configDir: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'pdesk: --host 0.0.0.0 can be reached from other machines, so it needs --token-env NAME (or --insecure to take pushes from anyone who can reach it).\n',
    );
    listener = await startListen(dir, ['--json', '--host', '0.0.0.0', '--insecure']);
    await expect.poll(() => listener!.stderr()).toMatch(/warning: --insecure: anyone who can reach/);
    const health = await fetch(`${listener.url}/healthz`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
  });

  it('--tls-cert and --tls-key: HTTPS; either alone, an unreadable file or a bad pair exits 2 naming the option', async () => {
    const { cert, key } = selfSignedCert(dir);
    writeFileSync(join(dir, 'junk.pem'), 'not a key\n');
    const cases: Array<[string[], RegExp]> = [
      [['--tls-cert', cert], /^pdesk: --tls-cert needs --tls-key: give both, or neither\.\n$/],
      [['--tls-key', key], /^pdesk: --tls-key needs --tls-cert: give both, or neither\.\n$/],
      [['--tls-cert', join(dir, 'missing.pem'), '--tls-key', key], /^pdesk: --tls-cert: cannot read .*missing\.pem \(ENOENT\)\.\n$/],
      [
        ['--tls-cert', cert, '--tls-key', join(dir, 'junk.pem')],
        /^pdesk: --tls-cert and --tls-key are not a PEM certificate and its private key \(.+\)\.\n$/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['listen', '--port', '0', ...args], { configDir: dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    listener = await startListen(dir, ['--json', '--tls-cert', cert, '--tls-key', key]);
    expect(listener.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(`${listener!.url}/healthz`, { ca: readFileSync(cert) }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });
});
