/** X-ray of a chat thread (src/core/xray/thread.ts): from the thread store alone. */
import { describe, expect, it } from 'vitest';
import { buildChatMessage, buildEncounterClose, buildReadMarker } from '../../../src/core/api/chat.js';
import { closeRecord, messageRecord, readRecord, ThreadView } from '../../../src/core/threads/index.js';
import { xrayThread } from '../../../src/core/xray/index.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';

const profile = Profile.parse(sandboxProfile('http://127.0.0.1:9'));
const msg = (id: string, thread: string, from: string, to: string, text: string) =>
  buildChatMessage(profile, { id, thread, text, sender: from, recipient: to, subject: 'Patient/pat-1' });

describe('xrayThread', () => {
  it('an open thread: each message with its read marker (or none), the subject', () => {
    const view = new ThreadView();
    const q = msg('m-1', 'enc-1', 'Patient/pat-1', 'PractitionerRole/1001', 'Question?');
    const a = msg('m-2', 'enc-1', 'PractitionerRole/1001', 'Patient/pat-1', 'Answer.');
    const b = msg('m-3', 'enc-1', 'PractitionerRole/1001', 'Patient/pat-1', 'And more.');
    view.apply(messageRecord('C1', 'sent', q, '2026-03-01T10:00:00.000Z'));
    view.apply(messageRecord('C3', 'received', a, '2026-03-01T10:05:00.000Z'));
    view.apply(messageRecord('C3', 'received', b, '2026-03-01T10:06:00.000Z'));
    const marker = buildReadMarker(profile, new Date(2026, 2, 1, 11, 0, 0));
    view.apply(readRecord('sent', 'm-2', marker, 'enc-1', '2026-03-01T11:00:00.000Z'));
    const x = xrayThread(view, 'enc-1');
    expect(x.title).toBe('Chat enc-1');
    expect(x.nodes.map((n) => `${n.depth} ${n.state} ${n.label}`)).toEqual([
      '0 found enc-1 · open (no close recorded)',
      '0 found C1 out 2026-03-01 10:00 Patient/pat-1 · no read marker recorded · Question?',
      '0 found C3 in  2026-03-01 10:05 PractitionerRole/1001 · read 2026-03-01T11:00:00 · Answer.',
      '1 found read marker (C2 sent) 2026-03-01T11:00:00',
      '0 found C3 in  2026-03-01 10:06 PractitionerRole/1001 · unread (no read marker) · And more.',
      '0 info the messages are about Patient/pat-1',
    ]);
    expect(x.nodes[2]!.resource).toBe(a);
    expect(x.nodes[3]!.resource).toEqual(marker);
  });

  it('a closed thread shows its close (C4) and the Encounter; an unknown thread is said to be unknown', () => {
    const view = new ThreadView();
    const close = buildEncounterClose(profile, 'enc-9');
    view.apply(closeRecord('received', 'enc-9', close, '2026-03-02T09:00:00.000Z'));
    const x = xrayThread(view, 'enc-9');
    expect(x.nodes.map((n) => `${n.state} ${n.label}`)).toEqual([
      'found enc-9 · closed (C4 received 2026-03-02 09:00:00 UTC)',
      'not-found no message recorded (only the close)',
    ]);
    expect(x.nodes[0]!.resource).toEqual(close);
    expect(xrayThread(view, 'enc-nope').nodes.map((n) => n.label)).toEqual(['the thread store knows no thread enc-nope']);
  });
});
