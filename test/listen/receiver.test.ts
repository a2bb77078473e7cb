/** startReceiver in-process (how the TUI runs it with --listen): onRecord, the store shared with watchers, close. */
import { readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { buildEncounterClose } from '../../src/core/api/chat.js';
import { type StoreRecord, openThreadStore, threadStorePath } from '../../src/core/threads/index.js';
import { startReceiver } from '../../src/listen/receiver.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { tempDir } from '../helpers/config.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const chat = (id: string, thread: string) => ({
  resourceType: 'Communication',
  id,
  identifier: [{ system: 'portal.example.communication-id', value: id }],
  status: 'completed',
  payload: [{ contentString: `text of ${id}` }],
  encounter: { identifier: [{ system: 'practice.example.encounter-id', value: thread }] },
  recipient: [{ reference: 'Patient/pat-1' }],
  sender: [{ reference: 'PractitionerRole/1001' }],
  subject: [{ reference: 'Patient/pat-1' }],
  category: [{ coding: [{ system: 'portal.example.communication-type', code: 'chat' }] }],
});

describe('startReceiver', () => {
  it('stores, then answers, then reports each record; watchers of the same store see it; close ends keep-alive connections', async () => {
    dir = tempDir('pdesk-receiver-');
    const store = openThreadStore(dir, 'desk');
    const watched: StoreRecord[] = [];
    store.watch((r) => watched.push(...r));
    const reported: Array<{ record: StoreRecord; storedAlready: boolean }> = [];
    const receiver = await startReceiver({
      port: 0,
      store,
      token: 'tok-123456',
      onRecord: (record) =>
        reported.push({
          record,
          storedAlready: readFileSync(threadStorePath(dir, 'desk'), 'utf8').includes(`"id":"${(record as { id: string }).id}"`),
        }),
    });
    expect(receiver.url).toBe(`http://127.0.0.1:${receiver.port}`);
    const post = (body: unknown, token = 'tok-123456') =>
      request(`${receiver.url}/portal/Communication`, {
        method: 'POST',
        headers: { 'content-type': 'application/fhir+json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const denied = await post(chat('a', 'enc-1'), 'nope');
    expect(denied.statusCode).toBe(401);
    expect(denied.headers['www-authenticate']).toMatch(/^Bearer/);
    await denied.body.dump();
    const ok = await Promise.all(['a', 'b', 'c'].map((id) => post(chat(id, 'enc-1'))));
    for (const r of ok) {
      expect(r.statusCode).toBe(201);
      await r.body.dump();
    }
    expect(reported.map((r) => r.storedAlready)).toEqual([true, true, true]);
    expect(watched.map((r) => (r as { id: string }).id).sort()).toEqual(['a', 'b', 'c']);
    expect(await store.hasMessage('c')).toBe(true);
    expect((await store.load()).threads).toMatchObject([{ thread: 'enc-1', messages: 3, unread: 3 }]);

    const t0 = Date.now();
    await receiver.close();
    expect(Date.now() - t0).toBeLessThan(2000);
    await store.close();
    const fresh = openThreadStore(dir, 'desk');
    expect(
      (await fresh.load())
        .messages('enc-1')!
        .map((m) => m.id)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
  });

  it('answers a duplicate message or a repeated close only once the store has made the file durable (and 500 if it cannot)', async () => {
    dir = tempDir('pdesk-receiver-');
    const store = openThreadStore(dir, 'desk');
    const receiver = await startReceiver({ port: 0, store, log: () => undefined });
    const send = async (method: string, path: string, body: unknown) => {
      const r = await request(`${receiver.url}${path}`, {
        method,
        headers: { 'content-type': 'application/fhir+json' },
        body: JSON.stringify(body),
      });
      await r.body.dump();
      return r.statusCode;
    };
    const close = {
      resourceType: 'Encounter',
      id: 'enc-2',
      status: 'finished',
      identifier: [{ system: 'practice.example.encounter-id', value: 'enc-2' }],
    };
    expect(await send('POST', '/portal/Communication', chat('a', 'enc-1'))).toBe(201);
    expect(await send('PUT', '/portal/Encounter/enc-2', close)).toBe(200);

    // The view may show a record whose writer's fsync has not finished: the repeat waits for one of its own.
    let release!: () => void;
    let syncs = 0;
    store.sync = () => {
      syncs++;
      return new Promise<void>((r) => (release = r));
    };
    let answered: number | undefined;
    const dup = send('POST', '/portal/Communication', chat('a', 'enc-1')).then((s) => (answered = s));
    await new Promise((r) => setTimeout(r, 150));
    expect(syncs).toBe(1);
    expect(answered).toBeUndefined();
    release();
    expect(await dup).toBe(200);

    store.sync = () => Promise.reject(new Error('EIO'));
    expect(await send('POST', '/portal/Communication', chat('a', 'enc-1'))).toBe(500);
    expect(await send('PUT', '/portal/Encounter/enc-2', close)).toBe(500);

    await receiver.close();
    await store.close();
  });

  it('answers the portal pushes it shares with the sandbox (C3, C4, C5) with the same refusals', async () => {
    dir = tempDir('pdesk-receiver-');
    const store = openThreadStore(dir, 'desk');
    const receiver = await startReceiver({ port: 0, store });
    const sandbox = await startSandbox({ port: 0 });
    const close = (id: string) => ({
      resourceType: 'Encounter',
      id,
      status: 'finished',
      identifier: [{ system: 'practice.example.encounter-id', value: id }],
    });
    const cases: Array<[string, string, unknown, string?]> = [
      ['POST', '/portal/Communication', { ...chat('x', 'enc-9'), category: undefined }],
      ['POST', '/portal/Communication', { ...chat('x', 'enc-9'), category: [{ coding: [{ code: 'other' }] }] }],
      ['POST', '/portal/Communication', { ...chat('x', 'enc-9'), payload: 'no' }],
      ['POST', '/portal/Communication', chat('x', 'enc-9'), 'text/plain'],
      ['PUT', '/portal/Encounter/enc-9', close('enc-8')],
      ['PUT', '/portal/Encounter/enc-9', { ...close('enc-9'), status: 'in-progress' }],
      ['PUT', '/portal/Encounter/%E0%A4%A', close('enc-9')],
      ['POST', '/portal/Encounter/enc-9', close('enc-9')],
    ];
    for (const [method, path, body, type] of cases) {
      const answers = [];
      for (const base of [receiver.url, sandbox.url]) {
        const r = await request(`${base}${path}`, {
          method,
          headers: { 'content-type': type ?? 'application/fhir+json' },
          body: JSON.stringify(body),
        });
        answers.push({ status: r.statusCode, allow: r.headers.allow, outcome: await r.body.json() });
      }
      expect(answers[0]!.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(answers[0], `${method} ${path}`).toEqual(answers[1]);
    }
    expect((await openThreadStore(dir, 'desk').load()).count).toBe(0);
    await sandbox.close();
    await receiver.close();
    await store.close();
  });

  it('both receivers take a C4 with the class pdesk sends and one without it, and keep the body as sent (decisions.md §7)', async () => {
    dir = tempDir('pdesk-receiver-');
    const store = openThreadStore(dir, 'desk');
    const records: StoreRecord[] = [];
    const receiver = await startReceiver({ port: 0, store, onRecord: (r) => records.push(r) });
    const sandbox = await startSandbox({ port: 0 });
    const withClass = buildEncounterClose(Profile.parse(sandboxProfile('http://127.0.0.1:1')), 'enc-c');
    expect(withClass.class).toEqual({ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'VR', display: 'virtual' });
    const withoutClass = {
      resourceType: 'Encounter',
      id: 'enc-n',
      status: 'finished',
      identifier: [{ system: 'practice.example.encounter-id', value: 'enc-n' }],
    };
    for (const base of [receiver.url, sandbox.url]) {
      for (const body of [withClass, withoutClass]) {
        const r = await request(`${base}/portal/Encounter/${body.id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/fhir+json' },
          body: JSON.stringify(body),
        });
        expect(r.statusCode, `${base} ${body.id}`).toBe(200);
        expect(await r.body.json()).toEqual(body);
      }
    }
    expect(records.map((r) => (r as { resource: unknown }).resource)).toEqual([withClass, withoutClass]);
    expect(sandbox.state.encounters.get('enc-c')?.closedBy).toEqual(withClass);
    expect(sandbox.state.encounters.get('enc-n')?.closedBy).toEqual(withoutClass);
    expect((await store.isClosed('enc-c')) && (await store.isClosed('enc-n'))).toBe(true);
    await sandbox.close();
    await receiver.close();
    await store.close();
  });

  it('takes a push in FHIR R4 shape (single sender and subject, encounter a Reference, the read marker a list) and stores the interface shape', async () => {
    dir = tempDir('pdesk-receiver-');
    const store = openThreadStore(dir, 'desk');
    const receiver = await startReceiver({ port: 0, store });
    const send = async (method: string, path: string, body: unknown, type = 'application/fhir+json') => {
      const r = await request(`${receiver.url}${path}`, { method, headers: { 'content-type': type }, body: JSON.stringify(body) });
      await r.body.dump();
      return r.statusCode;
    };
    const r4 = {
      ...chat('r4-1', 'enc-r4'),
      encounter: { reference: 'Encounter/enc-r4', identifier: { system: 'practice.example.encounter-id', value: 'enc-r4' } },
      sender: { reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' },
      subject: { reference: 'Patient/pat-1' },
    };
    expect(await send('POST', '/portal/Communication', r4)).toBe(201);
    const marker = [
      {
        op: 'add',
        path: '/recipient/0/extension',
        value: [{ url: 'portal.example.ResourceSeenAt', valueDateTime: '2030-01-02T10:15:00+01:00' }],
      },
    ];
    expect(await send('PATCH', '/practice/Communication/r4-1', marker, 'application/json-patch+json')).toBe(200);
    const [m] = (await openThreadStore(dir, 'desk').load()).messages('enc-r4')!;
    expect(m).toMatchObject({ id: 'r4-1', sender: 'PractitionerRole/1001', senderDisplay: 'Dr. Anna Berg', subject: 'Patient/pat-1' });
    expect(m!.resource.sender).toEqual([r4.sender]);
    expect(m!.resource.encounter).toEqual({ reference: 'Encounter/enc-r4', identifier: [r4.encounter.identifier] });
    expect(m!.readAt).toBe('2030-01-02T10:15:00+01:00');
    await receiver.close();
    await store.close();
  });
});
