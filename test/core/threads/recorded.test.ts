/** core/threads/recorded.ts: the path both the CLI and the TUI use to send chat operations and record them. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatMessage, buildEncounterClose } from '../../../src/core/api/chat.js';
import { PdeskClient } from '../../../src/core/client.js';
import { openThreadStore } from '../../../src/core/threads/index.js';
import { NotRecordedError, closeRecorded, sendRecorded } from '../../../src/core/threads/recorded.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';

let sandbox: Sandbox;
let client: PdeskClient;
let dir: string;
const profile = () => client.profile;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, replyDelayMs: 60_000 });
  client = new PdeskClient(Profile.parse(sandboxProfile(sandbox.url)));
  dir = mkdtempSync(join(tmpdir(), 'pdesk-recorded-'));
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const message = (thread: string, text: string) =>
  buildChatMessage(profile(), { thread, text, sender: 'Patient/pat-1', recipient: 'PractitionerRole/1001', subject: 'Patient/pat-1' });

describe('recorded chat operations', () => {
  it('records a message only after the server acknowledged it, stamped before it was sent', async () => {
    const store = openThreadStore(dir, 'ok');
    const before = new Date().toISOString();
    const res = await sendRecorded(client, store, 'C1', message('enc-rec-1', 'hello'));
    expect(res.status).toBe(201);
    expect(res.thread).toBe('enc-rec-1');
    const view = await openThreadStore(dir, 'ok').load();
    const [m] = view.messages('enc-rec-1') ?? [];
    expect(m).toMatchObject({ id: res.message.id, via: 'sent', op: 'C1' });
    expect(m!.at >= before).toBe(true);
    await store.close();
  });

  it('records nothing when the server refuses (a closed thread answers 409)', async () => {
    const store = openThreadStore(dir, 'refused');
    await expect(sendRecorded(client, store, 'C1', message('enc-200', 'too late'))).rejects.toMatchObject({ status: 409 });
    expect((await openThreadStore(dir, 'refused').load()).threads).toEqual([]);
    await store.close();
  });

  it('says the server accepted it when the store cannot record it (NotRecordedError), and the server has it', async () => {
    const broken = join(dir, 'broken');
    rmSync(broken, { recursive: true, force: true });
    writeFileSync(broken, 'not a folder'); // the store's folder cannot be created under a file
    const store = openThreadStore(broken, 'p');
    const body = buildEncounterClose(profile(), 'enc-rec-2');
    const err = await closeRecorded(client, store, 'enc-rec-2', body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotRecordedError);
    expect((err as Error).message).toMatch(/server accepted the close of enc-rec-2, but it could not be recorded/);
    expect(sandbox.state.encounters.get('enc-rec-2')?.status).toBe('finished');
    await store.close().catch(() => undefined);
  });
});
