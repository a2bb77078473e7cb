/**
 * useChat: threads from a real thread store in a temporary folder, writes answered by canned answers (no
 * sandbox): the reply is reviewed before it is sent, refusals name their field, a closed chat offers nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOptions } from '../../../../src/core/client.js';
import { type ThreadStore, messageRecord, openThreadStore } from '../../../../src/core/threads/index.js';
import { useChat } from '../../../../src/tui/screens/chat/useChat.js';
import { chatMessage } from '../../../helpers/chat.js';
import { type RenderedHook, renderHook } from '../../hook-harness.js';

let h: RenderedHook<ReturnType<typeof useChat>> | undefined;
let store: ThreadStore | undefined;
let dir: string | undefined;
afterEach(async () => {
  h?.unmount();
  h = undefined;
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const echo = (o: CallOptions) => o.body;

/** A store holding one received C3 in enc-100, and the hook on it. */
async function open() {
  dir = mkdtempSync(join(tmpdir(), 'pdesk-usechat-'));
  store = openThreadStore(dir, 'sandbox');
  await store.prepare();
  const m = {
    ...chatMessage('msg-1', 'enc-100', 'Your results are in.', 'PractitionerRole/1001', 'Patient/pat-1'),
    topic: { text: 'Lab' },
  };
  await store.append([messageRecord('C3', 'received', m)]);
  const hook = renderHook(() => useChat(), { configDir: dir, answers: { C1: echo, C3: echo, C4: echo } });
  await hook.until(() => expect(hook.current.summaries.map((t) => t.thread)).toEqual(['enc-100']));
  return hook;
}

describe('useChat', () => {
  it('a reply is reviewed before it is sent: an empty text is refused on Text, n goes back, y sends C1 and records it', async () => {
    h = await open();
    h.current.openThread(h.current.summaries[0]!);
    await h.until(() => expect(h!.current.plan?.op).toBe('C1'));
    h.current.openCompose();
    await h.until(() => expect(h!.current.stack.top.kind).toBe('compose'));
    expect(h.current.forms.compose.values()).toEqual({ text: '', topic: 'Lab' });
    h.current.reviewReply({ text: '  ', topic: 'Lab' });
    await h.until(() => expect(h!.text()).toBe('Text must not be empty.'));
    expect(h.current.forms.compose.bind.focusRequest?.field).toBe('text');
    h.current.forms.compose.bind.onChange({ text: 'Thanks', topic: 'Lab results' }, 'topic');
    h.current.reviewReply(h.current.forms.compose.values());
    await h.until(() => expect(h!.current.stack.top.kind).toBe('send'));
    const top = h.current.stack.top as {
      op: string;
      body: { sender: Array<{ reference: string }>; recipient: Array<{ reference: string }> };
    };
    expect(top.op).toBe('C1');
    expect(top.body.sender[0]!.reference).toBe('Patient/pat-1');
    expect(top.body.recipient[0]!.reference).toBe('PractitionerRole/1001');
    h.current.unconfirm();
    await h.until(() => expect(h!.current.stack.top.kind).toBe('compose'));
    expect(h.current.forms.compose.bind.focusRequest?.field).toBe('topic'); // edited last
    expect(h.fake.calls).toHaveLength(0); // nothing sent without the confirmation
    h.current.reviewReply(h.current.forms.compose.values());
    await h.until(() => expect(h!.current.stack.top.kind).toBe('send'));
    h.current.confirmSend();
    await h.until(() => expect(h!.text()).toMatch(/^Sent C1 in enc-100 \(HTTP 201\), recorded: [\w-]+\.$/));
    expect(h.current.stack.steps.map((s) => s.kind)).toEqual(['threads', 'thread']);
    expect(h.current.forms.compose.values()).toEqual({ text: '', topic: 'Lab results' });
    expect(h.fake.of('C1')).toHaveLength(1);
    await h.until(() => expect(h!.current.messages.map((m) => m.text)).toEqual(['Your results are in.', 'Thanks']));
  });

  it('a new message names its wrong field; a closed chat takes no reply and is not closed twice', async () => {
    h = await open();
    h.current.selectThread(h.current.summaries[0]); // what the list reports
    h.current.openNew();
    await h.until(() => expect(h!.current.stack.top.kind).toBe('new'));
    expect(h.current.forms.fresh.values().thread).toBe('enc-100'); // the selected thread
    h.current.reviewNew({
      thread: 'enc-100',
      as: 'portal (C1)',
      sender: 'Patient/pat-1',
      recipient: 'nobody',
      subject: 'Patient/pat-1',
      topic: '',
      text: 'Hi',
    });
    await h.until(() => expect(h!.text()).toBe('Recipient must be a reference like PractitionerRole/<id> or Patient/<id>, not "nobody".'));
    expect(h.current.forms.fresh.bind.focusRequest?.field).toBe('recipient');
    h.current.stack.pop();
    h.current.askClose('enc-100');
    await h.until(() => expect(h!.current.stack.top.kind).toBe('close'));
    h.current.confirmClose();
    await h.until(() => expect(h!.text()).toBe('Closed chat enc-100 (HTTP 200); recorded.'));
    expect(h.fake.of('C4')[0]!.params).toEqual({ encounterId: 'enc-100' });
    await h.until(() => expect(h!.current.summaries[0]!.status).toBe('closed'));
    expect(h.current.isClosed('enc-100')).toBe(true);
    h.current.askClose('enc-100');
    await h.until(() => expect(h!.text()).toBe('Chat enc-100 is already closed.'));
    expect(h.current.stack.top.kind).toBe('threads');
    h.current.openThread(h.current.summaries[0]!);
    await h.until(() => expect(h!.current.stack.top.kind).toBe('thread'));
    h.current.openCompose();
    await h.until(() => expect(h!.text()).toBe('Chat enc-100 is closed: it accepts no new messages.'));
    expect(h.current.stack.top.kind).toBe('thread');
    expect(h.fake.of('C4')).toHaveLength(1);
  });
});
