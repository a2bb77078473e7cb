/** X-ray of a chat thread (src/core/xray/thread.ts): from the desk's store alone (here its file engine). */
import { afterEach, describe, expect, it } from 'vitest';
import { buildChatMessage, buildEncounterClose, buildReadMarker } from '../../../src/core/api/chat.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { openFileStore } from '../../../src/core/store/file/index.js';
import type { DeskStore } from '../../../src/core/store/types.js';
import { closeRecord, messageRecord, readRecord } from '../../../src/core/threads/index.js';
import { xrayThread } from '../../../src/core/xray/index.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { tempDir } from '../../helpers/config.js';

const profile = Profile.parse(sandboxProfile('http://127.0.0.1:9'));
const msg = (id: string, thread: string, from: string, to: string, text: string) =>
  buildChatMessage(profile, { id, thread, text, sender: from, recipient: to, subject: 'Patient/pat-1' });

let store: DeskStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('xrayThread', () => {
  it('an open thread: each message with its read marker (or none), its owner, the subject', async () => {
    store = openFileStore(tempDir());
    const q = msg('m-1', 'enc-1', 'Patient/pat-1', 'PractitionerRole/1001', 'Question?');
    const a = msg('m-2', 'enc-1', 'PractitionerRole/1001', 'Patient/pat-1', 'Answer.');
    const b = msg('m-3', 'enc-1', 'PractitionerRole/1001', 'Patient/pat-1', 'And more.');
    await store.recordSent('sandbox', messageRecord('C1', 'sent', q, '2026-03-01T10:00:00.000Z'), 'alice');
    await store.recordReceived('sandbox', messageRecord('C3', 'received', a, '2026-03-01T10:05:00.000Z'));
    await store.recordReceived('sandbox', messageRecord('C3', 'received', b, '2026-03-01T10:06:00.000Z'));
    const marker = buildReadMarker(profile, new Date(2026, 2, 1, 11, 0, 0));
    await store.recordSent('sandbox', readRecord('sent', 'm-2', marker, 'enc-1', '2026-03-01T11:00:00.000Z'), 'bob');
    await store.assign('sandbox', 'enc-1', { to: 'bob', by: 'bob' });
    const x = await xrayThread(store, 'sandbox', 'enc-1');
    expect(x.title).toBe('Chat enc-1');
    expect(x.nodes.map((n) => `${n.depth} ${n.state} ${n.label}`)).toEqual([
      '0 found enc-1 · open (no close recorded)',
      expect.stringMatching(/^0 info owned by bob since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/),
      '0 found C1 out 2026-03-01 10:00 Patient/pat-1 (alice) · no read marker recorded · Question?',
      '0 found C3 in  2026-03-01 10:05 PractitionerRole/1001 · read 2026-03-01T11:00:00 · Answer.',
      '1 found read marker (C2 sent) 2026-03-01T11:00:00 by bob',
      '0 found C3 in  2026-03-01 10:06 PractitionerRole/1001 · unread (no read marker) · And more.',
      '0 info the messages are about Patient/pat-1',
    ]);
    expect(x.nodes[3]!.resource).toEqual(a);
    expect(x.nodes[4]!.resource).toEqual(marker);
  });

  it('a closed thread shows its close (C4) and the Encounter; an unknown thread is said to be unknown', async () => {
    store = openFileStore(tempDir());
    const close = buildEncounterClose(profile, 'enc-9');
    await store.recordReceived('sandbox', closeRecord('received', 'enc-9', close, '2026-03-02T09:00:00.000Z'));
    const x = await xrayThread(store, 'sandbox', 'enc-9');
    expect(x.nodes.map((n) => `${n.state} ${n.label}`)).toEqual([
      'found enc-9 · closed (C4 received 2026-03-02 09:00:00 UTC)',
      'not-found no message recorded (only the close)',
    ]);
    expect(x.nodes[0]!.resource).toEqual(close);
    expect((await xrayThread(store, 'sandbox', 'enc-nope')).nodes.map((n) => n.label)).toEqual([
      "the desk's store knows no thread enc-nope",
    ]);
  });
});
