/**
 * core/store/recorded.ts: the path both the CLI and the TUI use to send chat operations and record them in the desk
 * store, on both engines (the file store, the team store on a real PostgreSQL) against the sandbox over HTTP: written
 * ahead as pending, recorded after the acknowledgement, removed after a refusal, left pending when the outcome is
 * unknown; a reply checked and claimed, held by what changed, its claim kept while its outcome is unknown.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatMessage, buildEncounterClose } from '../../../src/core/api/chat.js';
import { PdeskClient } from '../../../src/core/client.js';
import { openFileStore } from '../../../src/core/store/file/index.js';
import { openPgStore } from '../../../src/core/store/pg/index.js';
import {
  type DeskTarget,
  NotRecordedError,
  ReplyHeldError,
  closeRecorded,
  replyRecorded,
  sendRecorded,
} from '../../../src/core/store/recorded.js';
import type { DeskStore } from '../../../src/core/store/types.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';
import { msg } from '../../helpers/desk.js';
import { clusterForFile, pgInstalled } from '../../helpers/pg.js';

const pg = clusterForFile();
let sandbox: Sandbox;
/** Answers every C3 with 503: the outcome of a reply is unknown. */
let failing: Sandbox;
let client: PdeskClient;
let failingClient: PdeskClient;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, replyDelayMs: 60_000, demoPushDelayMs: 600_000 });
  failing = await startSandbox({ port: 0, replyDelayMs: 60_000, demoPushDelayMs: 600_000, failOps: { C3: 503 } });
  client = new PdeskClient(Profile.parse(sandboxProfile(sandbox.url)));
  failingClient = new PdeskClient(Profile.parse(sandboxProfile(failing.url)));
  dir = mkdtempSync(join(tmpdir(), 'pdesk-recorded-'));
});
afterAll(async () => {
  await client.close();
  await failingClient.close();
  await sandbox.close();
  await failing.close();
  rmSync(dir, { recursive: true, force: true });
});

const message = (thread: string, text: string) =>
  buildChatMessage(client.profile, { thread, text, sender: 'Patient/pat-1', recipient: 'PractitionerRole/1001', subject: 'Patient/pat-1' });
const reply = (thread: string, text: string) =>
  buildChatMessage(client.profile, { thread, text, sender: 'PractitionerRole/1001', recipient: 'Patient/pat-1', subject: 'Patient/pat-1' });
const posts = (s: Sandbox) => s.received.filter((r) => r.method === 'POST').length;

let n = 0;
const engines: Array<{ name: string; available: boolean; open(): Promise<DeskStore> }> = [
  { name: 'the file store', available: true, open: async () => openFileStore(mkdtempSync(join(dir, 'desk-'))) },
  { name: 'the team store', available: pgInstalled, open: async () => openPgStore(await pg().createDatabase()) },
];

for (const engine of engines) {
  describe.skipIf(!engine.available)(`recorded chat operations: ${engine.name}`, () => {
    let store: DeskStore;
    const as = (operator: string, profile: string): DeskTarget => ({ store, profile, operator });
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('records a message only after the server acknowledged it, stamped before it was sent, with its operator', async () => {
      const p = `ok${++n}`;
      const before = new Date().toISOString();
      const res = await sendRecorded(client, as('alice', p), 'C1', message('enc-rec-1', 'hello'));
      expect(res.status).toBe(201);
      expect(res.thread).toBe('enc-rec-1');
      const [m] = (await store.messages(p, 'enc-rec-1')) ?? [];
      expect(m).toMatchObject({ id: res.message.id, via: 'sent', op: 'C1', operator: 'alice' });
      expect(m!.at >= before).toBe(true);
    });

    it('records nothing when the server refuses (a closed thread answers 409)', async () => {
      const p = `refused${++n}`;
      await expect(sendRecorded(client, as('alice', p), 'C1', message('enc-200', 'too late'))).rejects.toMatchObject({ status: 409 });
      expect(await store.listThreads(p)).toEqual([]);
    });

    it('a reply is cleared, sent, recorded and takes the thread nobody owned', async () => {
      const p = `reply${++n}`;
      await store.recordReceived(p, msg('q1', 'enc-r1', 'question', 1));
      const seen = (await store.thread(p, 'enc-r1'))!.lastSeq;
      const res = await replyRecorded(client, as('alice', p), reply('enc-r1', 'answer'), { after: seen });
      expect(res.recorded).toEqual({ outcome: 'stored', assigned: 'alice' });
      expect(await store.thread(p, 'enc-r1')).toMatchObject({ owner: 'alice', messages: 2 });
      // Released: another operator's reply is not held by a claim (only by the owner, now alice).
      const b = await store.beginReply(p, { thread: 'enc-r1', operator: 'bob', after: (await store.thread(p, 'enc-r1'))!.lastSeq });
      expect(b).toEqual({ ok: false, newMessages: [], owner: 'alice' });
    });

    it('a reply after a message the operator has not seen is held: nothing is sent, the message is named', async () => {
      const p = `held${++n}`;
      await store.recordReceived(p, msg('q1', 'enc-h', 'question', 1));
      const seen = (await store.thread(p, 'enc-h'))!.lastSeq;
      await store.recordReceived(p, msg('q2', 'enc-h', 'one more thing', 2));
      const before = posts(sandbox);
      const err = await replyRecorded(client, as('alice', p), reply('enc-h', 'answer'), { after: seen }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReplyHeldError);
      expect((err as ReplyHeldError).hold.newMessages.map((m) => m.id)).toEqual(['q2']);
      expect((err as Error).message).toBe(
        'The reply to thread enc-h was not sent: a message came in after the point it was written after (received q2).',
      );
      expect((err as ReplyHeldError).exitCode).toBe(2);
      expect(posts(sandbox)).toBe(before);
      expect((await store.messages(p, 'enc-h'))?.map((m) => m.id)).toEqual(['q1', 'q2']);
    });

    it("another operator's thread holds the reply unless forced, and a forced reply leaves the owner", async () => {
      const p = `owned${++n}`;
      await store.recordReceived(p, msg('q1', 'enc-o', 'question', 1));
      await store.assign(p, 'enc-o', { to: 'bob', by: 'bob' });
      const seen = (await store.thread(p, 'enc-o'))!.lastSeq;
      const err = await replyRecorded(client, as('alice', p), reply('enc-o', 'answer'), { after: seen }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReplyHeldError);
      expect((err as ReplyHeldError).hold.owner).toBe('bob');
      const res = await replyRecorded(client, as('alice', p), reply('enc-o', 'answer anyway'), { after: seen, force: true });
      expect(res.recorded).toEqual({ outcome: 'stored' });
      expect((await store.thread(p, 'enc-o'))?.owner).toBe('bob');
    });

    it('a reply answered 5xx stays pending (outcome unknown) and its claim holds other operators off; a 4xx releases it', async () => {
      const p = `unknown${++n}`;
      await store.recordReceived(p, msg('q1', 'enc-u', 'question', 1));
      const seen = (await store.thread(p, 'enc-u'))!.lastSeq;
      const sent = reply('enc-u', 'maybe delivered');
      await expect(replyRecorded(failingClient, as('alice', p), sent, { after: seen })).rejects.toMatchObject({ status: 503 });
      expect((await store.messages(p, 'enc-u'))?.map((m) => [m.id, m.via, m.operator])).toEqual([
        ['q1', 'received', undefined],
        [sent.id, 'pending', 'alice'],
      ]);
      const bob = await store.beginReply(p, { thread: 'enc-u', operator: 'bob', after: (await store.thread(p, 'enc-u'))!.lastSeq });
      expect(bob).toMatchObject({ ok: false, replying: { operator: 'alice' } });
      // Refused (the sandbox's closed chat answers 409): released and removed.
      const q = `refused${++n}`;
      await store.recordReceived(q, msg('q1', 'enc-200', 'question', 1));
      const at = (await store.thread(q, 'enc-200'))!.lastSeq;
      await expect(replyRecorded(client, as('alice', q), reply('enc-200', 'too late'), { after: at })).rejects.toMatchObject({
        status: 409,
      });
      expect((await store.messages(q, 'enc-200'))?.map((m) => m.id)).toEqual(['q1']);
      expect((await store.beginReply(q, { thread: 'enc-200', operator: 'bob', after: at })).ok).toBe(true);
    });
  });
}

describe('the file store', () => {
  it('says the server accepted it when the store cannot record it (NotRecordedError), and the server has it', async () => {
    const broken = join(dir, 'broken');
    rmSync(broken, { recursive: true, force: true });
    writeFileSync(broken, 'not a folder'); // the store's folder cannot be created under a file
    const store = openFileStore(broken);
    const body = buildEncounterClose(client.profile, 'enc-rec-2');
    const err = await closeRecorded(client, { store, profile: 'p', operator: 'alice' }, 'enc-rec-2', body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotRecordedError);
    expect((err as Error).message).toMatch(/server accepted the close of enc-rec-2, but it could not be recorded in the thread store/);
    expect(sandbox.state.encounters.get('enc-rec-2')?.status).toBe('finished');
    await store.close().catch(() => undefined);
  });
});
