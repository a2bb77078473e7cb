/** startReceiver in-process (how the TUI runs it with --listen): onRecord, the store shared with watchers, close. */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { type StoreRecord, openThreadStore } from '../src/core/threads/index.js';
import { startReceiver } from '../src/sandbox/receiver.js';
import { tempDir } from './helpers/cli.js';

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
      onRecord: (record) => reported.push({ record, storedAlready: store.view.hasMessage((record as { id: string }).id) }),
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
    expect(store.threadSummaries()).toMatchObject([{ thread: 'enc-1', messages: 3, unread: 3 }]);

    const t0 = Date.now();
    await receiver.close();
    expect(Date.now() - t0).toBeLessThan(2000);
    await store.close();
    const fresh = openThreadStore(dir, 'desk');
    expect((await fresh.load()).messages('enc-1')!.map((m) => m.id).sort()).toEqual(['a', 'b', 'c']);
  });
});
