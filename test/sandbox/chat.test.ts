/** Sandbox chat (C1–C4) and notifications (C5): threads, automatic C3 replies pushed to a receiver, read markers. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { request } from 'undici';
import { buildChatMessage, buildEncounterClose, buildReadMarker } from '../../src/core/api/chat.js';
import { buildNotification } from '../../src/core/api/notifications.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

let sb: Sandbox | undefined;
let receiver: Server | undefined;

afterEach(async () => {
  await sb?.close();
  await new Promise((r) => (receiver ? receiver.close(r) : r(undefined)));
  sb = receiver = undefined;
});

async function start(o: SandboxOptions = {}) {
  sb = await startSandbox({ port: 0, replyDelayMs: 60_000, ...o });
  return sb;
}
const profile = () => Profile.parse(sandboxProfile('http://127.0.0.1:1'));

async function call(method: string, url: string, body?: unknown, contentType = 'application/fhir+json') {
  const res = await request(url, {
    method: method as 'GET',
    headers: body === undefined ? {} : { 'content-type': contentType },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

const msg = (thread: string, id?: string) =>
  buildChatMessage(profile(), {
    thread,
    text: 'Is my prescription ready?',
    sender: 'Patient/pat-1',
    recipient: 'PractitionerRole/1001',
    subject: 'Patient/pat-1',
    id,
  });

/** A stand-in portal that records what is pushed to it. */
async function startReceiver(status = 201) {
  const got: Array<{ method: string; url: string; headers: Record<string, unknown>; body: any }> = [];
  receiver = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      got.push({ method: req.method!, url: req.url!, headers: req.headers, body: JSON.parse(data) });
      res.writeHead(status, { 'content-type': 'application/fhir+json' }).end(JSON.stringify({ resourceType: 'Communication' }));
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/portal`, got };
}

describe('C1 send to the practice system', () => {
  test('seed: enc-100 open with a question and an answer, enc-200 closed', async () => {
    const sb = await start();
    expect(sb.state.encounters.get('enc-100')?.status).toBe('in-progress');
    expect(sb.state.encounters.get('enc-200')?.status).toBe('finished');
    const q = sb.state.messages.get('msg-100-1')!;
    const a = sb.state.messages.get('msg-100-2')!;
    expect([q.sender[0]!.reference, q.recipient[0]!.reference]).toEqual(['Patient/pat-1', 'PractitionerRole/1001']);
    expect([a.sender[0]!.reference, a.recipient[0]!.reference]).toEqual(['PractitionerRole/1001', 'Patient/pat-1']);
    expect(q.identifier[0]).toEqual({ system: 'portal.example.communication-id', value: 'msg-100-1' });
    expect(q.encounter.identifier[0]).toEqual({ system: 'practice.example.encounter-id', value: 'enc-100' });
  });

  test('a new thread is opened, 201 echoes the message, a duplicate id is 200 and stored once', async () => {
    const sb = await start();
    const m = msg('enc-new', 'm-1');
    const first = await call('POST', `${sb.url}/practice/Communication`, m);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id: 'm-1', resourceType: 'Communication' });
    expect(sb.state.encounters.get('enc-new')?.status).toBe('in-progress');
    const again = await call('POST', `${sb.url}/practice/Communication`, { ...m, payload: [{ contentString: 'changed' }] });
    expect(again.status).toBe(200);
    expect(again.body.payload[0].contentString).toBe('Is my prescription ready?');
    expect([...sb.state.messages.keys()].filter((k) => k === 'm-1')).toHaveLength(1);
  });

  test('a closed chat refuses new messages (409) and stores nothing', async () => {
    const sb = await start();
    const res = await call('POST', `${sb.url}/practice/Communication`, msg('enc-200', 'm-2'));
    expect(res.status).toBe(409);
    expect(res.body.resourceType).toBe('OperationOutcome');
    expect(res.body.issue[0].diagnostics).toMatch(/closed/);
    expect(sb.state.messages.has('m-2')).toBe(false);
  });

  test('an invalid message is 400 naming the JSON path', async () => {
    const sb = await start();
    const m = msg('enc-100', 'm-3') as Record<string, unknown>;
    delete m.sender;
    const res = await call('POST', `${sb.url}/practice/Communication`, m);
    expect(res.status).toBe(400);
    expect(res.body.issue[0].expression).toEqual(['$.sender']);
    expect(sb.state.messages.has('m-3')).toBe(false);
  });

  test('after the reply delay an automatic C3 reply is pushed to pushTo, from the recipient back to the sender', async () => {
    const portal = await startReceiver();
    const sb = await start({ pushTo: portal.url, replyDelayMs: 50 });
    const res = await call('POST', `${sb.url}/practice/Communication`, msg('enc-100', 'm-4'));
    expect(res.status).toBe(201);
    await vi.waitFor(
      () =>
        expect(
          portal.got.filter(
            (g) => g.body.sender?.[0]?.reference === 'PractitionerRole/1001' && g.body.id !== undefined && g.body.topic === undefined,
          ).length,
        ).toBeGreaterThanOrEqual(1),
      { timeout: 3000 },
    );
    const reply = portal.got.find((g) => g.body.recipient?.[0]?.reference === 'Patient/pat-1' && g.body.topic === undefined)!;
    expect(reply.method).toBe('POST');
    expect(reply.url).toBe('/portal/Communication');
    expect(reply.headers['content-type']).toBe('application/fhir+json');
    expect(reply.body.encounter.identifier[0].value).toBe('enc-100');
    expect(reply.body.category[0].coding[0]).toEqual({ system: 'portal.example.communication-type', code: 'chat' });
    expect(sb.state.messages.get(reply.body.id)).toBeDefined();
    await vi.waitFor(() => expect(sb.state.pushes.find((p) => p.kind === 'reply')?.status).toBe(201));
  });

  test('without pushTo the reply lands on its own portal', async () => {
    const sb = await start({ replyDelayMs: 20 });
    await call('POST', `${sb.url}/practice/Communication`, msg('enc-7', 'm-5'));
    await vi.waitFor(
      () => expect([...sb.state.portalMessages.values()].some((m) => m.encounter.identifier[0]!.value === 'enc-7')).toBe(true),
      { timeout: 3000 },
    );
    expect(sb.received.some((r) => r.method === 'POST' && r.path === '/portal/Communication')).toBe(true);
  });

  test('with a token, the reply to its own portal carries the token (and is accepted)', async () => {
    const sb = await start({ replyDelayMs: 20, token: 'tok-abcdef' });
    const res = await request(`${sb.url}/practice/Communication`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json', authorization: 'Bearer tok-abcdef' },
      body: JSON.stringify(msg('enc-8', 'm-8')),
    });
    expect(res.statusCode).toBe(201);
    await res.body.dump();
    await vi.waitFor(() => expect(sb.state.pushes[0]?.status).toBe(201), { timeout: 3000 });
    const push = sb.received.find((r) => r.path === '/portal/Communication')!;
    expect(push.headers.authorization).toBe('Bearer tok-abcdef');
  });

  test("with pushTo the seed's closed chat (C4), a demo C3 and a demo C5 are pushed shortly after start", async () => {
    const portal = await startReceiver();
    await start({ pushTo: portal.url, demoPushDelayMs: 20 });
    await vi.waitFor(() => expect(portal.got.length).toBe(3), { timeout: 5000 });
    const close = portal.got.find((g) => g.method === 'PUT')!;
    expect(close.url).toBe('/portal/Encounter/enc-200');
    expect(close.body).toMatchObject({ resourceType: 'Encounter', id: 'enc-200', status: 'finished' });
    const codes = portal.got
      .filter((g) => g.method === 'POST')
      .map((g) => g.body.category[0].coding[0].code)
      .sort();
    expect(codes).toEqual(['chat', 'notification']);
  });

  test('a failed push is logged and recorded, and the sandbox keeps serving', async () => {
    const portal = await startReceiver(500);
    const lines: string[] = [];
    const sb = await start({ pushTo: portal.url, replyDelayMs: 10, log: (l) => lines.push(l) });
    await call('POST', `${sb.url}/practice/Communication`, msg('enc-100', 'm-6'));
    await vi.waitFor(() => expect(lines.some((l) => l.includes('C3 push') && l.includes('500'))).toBe(true), { timeout: 3000 });
    expect(sb.state.pushes.find((p) => p.kind === 'reply')?.error).toMatch(/500/);
    expect((await call('GET', `${sb.url}/practice/PractitionerRole`)).status).toBe(200);
  });
});

describe('C2 mark read', () => {
  test('by id, at /recipient/0/extension and /recipient/0/extension/-: appended, 200 with the Communication', async () => {
    const sb = await start();
    const marker = buildReadMarker(profile(), new Date(2026, 10, 22, 10, 15));
    const res = await call('PATCH', `${sb.url}/practice/Communication/msg-100-2`, marker, 'application/json-patch+json');
    expect(res.status).toBe(200);
    expect(res.body.recipient[0].extension).toEqual([{ url: 'portal.example.ResourceSeenAt', valueDateTime: '2026-11-22T10:15:00' }]);
    const dash = [{ ...marker[0]!, path: '/recipient/0/extension/-' }];
    const res2 = await call('PATCH', `${sb.url}/practice/Communication/msg-100-2`, dash, 'application/json-patch+json');
    expect(res2.body.recipient[0].extension).toHaveLength(2);
    expect(sb.state.readMarkers.map((r) => r.communicationId)).toEqual(['msg-100-2', 'msg-100-2']);
  });

  test('conditional form PATCH /Communication?identifier=<system>|<value>', async () => {
    const sb = await start();
    const marker = buildReadMarker(profile());
    const q = encodeURIComponent('portal.example.communication-id|msg-100-1');
    const res = await call('PATCH', `${sb.url}/practice/Communication?identifier=${q}`, marker, 'application/fhir+json');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe('msg-100-1');
    expect(sb.state.messages.get('msg-100-1')!.recipient[0]).toHaveProperty('extension');
    const missing = await call(
      'PATCH',
      `${sb.url}/practice/Communication?identifier=${encodeURIComponent('portal.example.communication-id|nope')}`,
      marker,
      'application/json-patch+json',
    );
    expect(missing.status).toBe(404);
  });

  test('unknown message 404; unsupported path 422; bad marker 400; nothing recorded', async () => {
    const sb = await start();
    const marker = buildReadMarker(profile());
    expect((await call('PATCH', `${sb.url}/practice/Communication/nope`, marker, 'application/json-patch+json')).status).toBe(404);
    const other = await call(
      'PATCH',
      `${sb.url}/practice/Communication/msg-100-2`,
      [{ ...marker[0]!, path: '/status' }],
      'application/json-patch+json',
    );
    expect(other.status).toBe(422);
    expect(other.body.issue[0].expression).toEqual(['$[0].path']);
    const bad = await call(
      'PATCH',
      `${sb.url}/practice/Communication/msg-100-2`,
      [{ op: 'replace', path: '/recipient/0/extension', value: {} }],
      'application/json-patch+json',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.issue[0].expression[0]).toMatch(/^\$\[0\]\./);
    expect(sb.state.readMarkers).toEqual([]);
  });
});

describe('portal side: C3, C4, C5', () => {
  test('C3 is stored at the portal; C4 closes the chat; later messages to it are 409 on both sides', async () => {
    const sb = await start();
    const p = profile();
    const m = buildChatMessage(p, {
      thread: 'enc-100',
      text: 'See you tomorrow',
      sender: 'PractitionerRole/1001',
      recipient: 'Patient/pat-1',
      subject: 'Patient/pat-1',
      id: 'r-1',
    });
    expect((await call('POST', `${sb.url}/portal/Communication`, m)).status).toBe(201);
    expect(sb.state.portalMessages.has('r-1')).toBe(true);

    const close = await call('PUT', `${sb.url}/portal/Encounter/enc-100`, buildEncounterClose(p, 'enc-100'));
    expect(close.status).toBe(200);
    expect(close.body).toMatchObject({ resourceType: 'Encounter', id: 'enc-100', status: 'finished' });
    expect(sb.state.encounters.get('enc-100')?.status).toBe('finished');
    expect(
      (await call('POST', `${sb.url}/portal/Communication`, { ...m, id: 'r-2', identifier: [{ system: 'x', value: 'r-2' }] })).status,
    ).toBe(409);
    expect((await call('POST', `${sb.url}/practice/Communication`, msg('enc-100', 'm-7'))).status).toBe(409);
  });

  test('C4: path id must equal body id (400); an unseen encounter is recorded closed', async () => {
    const sb = await start();
    const p = profile();
    const mismatch = await call('PUT', `${sb.url}/portal/Encounter/enc-100`, buildEncounterClose(p, 'enc-999'));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.issue[0].expression).toEqual(['$.id']);
    expect(sb.state.encounters.get('enc-100')?.status).toBe('in-progress');
    expect((await call('PUT', `${sb.url}/portal/Encounter/enc-x`, buildEncounterClose(p, 'enc-x'))).status).toBe(200);
    expect(sb.state.encounters.get('enc-x')?.status).toBe('finished');
  });

  test('C5: a notification is validated by its category and kept', async () => {
    const sb = await start();
    const n = buildNotification(profile(), { email: 'a@example.org', topic: 'Reminder', text: 'Hello' });
    const res = await call('POST', `${sb.url}/portal/Communication`, n);
    expect(res.status).toBe(201);
    expect(res.body.id).toBe('notif-1');
    expect(sb.state.notifications).toHaveLength(1);
    expect(sb.state.notifications[0]!.contained[0]!.telecom[0]!.value).toBe('a@example.org');
    const bad = await call('POST', `${sb.url}/portal/Communication`, {
      ...n,
      contained: [{ resourceType: 'Patient', id: 'p1', telecom: [{ system: 'email', value: 'not-an-address' }] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issue[0].expression).toEqual(['$.contained[0].telecom[0].value']);
    const none = await call('POST', `${sb.url}/portal/Communication`, { ...n, category: [] });
    expect(none.status).toBe(400);
    expect(none.body.issue[0].expression).toEqual(['$.category']);
    expect(sb.state.notifications).toHaveLength(1);
  });
});
