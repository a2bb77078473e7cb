/**
 * Chat screen against a real sandbox and a real push receiver (src/sandbox/receiver.ts) writing the thread
 * store in a temporary config folder, as `tui --listen` does: threads and unread counts update live as pushes
 * arrive; replies go out as C1 or C3 and are recorded; mark read (C2) and close (C4) reach the sandbox and
 * the store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildChatMessage, replyMessage, sendMessage } from '../../../../src/core/api/chat.js';
import { PdeskClient } from '../../../../src/core/client.js';
import type { ChatCommunication } from '../../../../src/core/schemas/chat.js';
import { type ThreadStore, openThreadStore } from '../../../../src/core/threads/index.js';
import { Profile } from '../../../../src/core/profile/schema.js';
import { type Receiver, startReceiver } from '../../../../src/listen/receiver.js';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { type Desk, KEY, lines, openDesk } from '../../harness.js';

interface Chat {
  desk: Desk;
  receiver: Receiver;
  /** The receiver's store (the screen opens its own on the same file). */
  store: ThreadStore;
  /** A client whose practice and portal are the receiver: pushes as the other party would send them. */
  pusher: PdeskClient;
  close(): Promise<void>;
}

let chat: Chat | undefined;
let plain: Desk | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await plain?.close();
  plain = undefined;
});

async function openChat(size?: { columns: number; rows: number }, latencyMs = 0, demoPushDelayMs = 600_000): Promise<Chat> {
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-tui-chat-'));
  const store = openThreadStore(dir, 'sandbox');
  const receiver = await startReceiver({ port: 0, store, log: () => undefined });
  const desk = await openDesk({
    screen: 'chat',
    size,
    // The sandbox pushes its automatic C3 replies to the receiver, as with `tui --sandbox --listen`.
    sandbox: { pushTo: `${receiver.url}/portal`, replyDelayMs: 100, demoPushDelayMs, latencyMs },
    root: { configDir: dir, receiver: { url: receiver.url } },
  });
  const pusher = new PdeskClient(Profile.parse(sandboxProfile(receiver.url, { name: 'pusher' })));
  return {
    desk,
    receiver,
    store,
    pusher,
    async close() {
      await desk.close();
      await pusher.close();
      await receiver.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Push the sandbox's seed answer in enc-100 (Dr. Anna Berg → Emma Jansen, C3) to the receiver. */
async function pushSeedAnswer(c: Chat): Promise<ChatCommunication> {
  const m = c.desk.sandbox.state.messages.get('msg-100-2')!;
  await replyMessage(c.pusher, m);
  return m;
}

const posts = (d: Desk, path: string) => d.sandbox.received.filter((r) => r.method === 'POST' && r.path === path);

async function storeMessages(c: Chat, thread: string) {
  await c.store.refresh();
  return c.store.view.messages(thread) ?? [];
}

describe('Chat screen', () => {
  it('renders the threads of the store and updates live when a push arrives', async () => {
    chat = await openChat({ columns: 80, rows: 24 });
    const d = chat.desk;
    let f = await d.waitFor('No threads in the store yet');
    expect(f).toContain(`Receiving pushes (C1–C5) at ${chat.receiver.url}`);
    expect(lines(f).length).toBeLessThanOrEqual(23);
    await pushSeedAnswer(chat);
    f = await d.waitFor(/enc-100\s+open\s+1\s+1\s/);
    expect(f).toContain('Chat threads — 1 unread');
    expect(f).toContain('Yes, a short c'); // 80 columns: the text column is what is left
    expect(f).toMatch(/last change \d\d-\d\d \d\d:\d\d: message in enc-100 \(msg-100-2\)/);
    for (const l of lines(f)) expect(l.length).toBeLessThanOrEqual(80);
    // A second thread arrives while the first is open; the list keeps it all.
    await d.press(KEY.enter);
    f = await d.waitFor(/in C3\s+Dr\. Anna Berg\s+unread\s+Yes, a short course/);
    expect(f).toContain('Chat › enc-100 · open · 1 message · 1 unread');
    expect(f).toContain('From Dr. Anna Berg (PractitionerRole/1001) to Emma Jansen (Patient/pat-1)');
    const other = buildChatMessage(Profile.parse(sandboxProfile(chat.receiver.url)), {
      thread: 'enc-300',
      // Server text is untrusted: the title change (OSC) and the screen clear must not reach the terminal.
      text: 'Your new \u001b]0;pwned\u0007prescription\u001b[2J is ready.',
      sender: 'PractitionerRole/1002',
      recipient: 'Patient/pat-2',
      subject: 'Patient/pat-2',
    });
    await replyMessage(chat.pusher, other);
    await d.press(KEY.esc);
    f = await d.waitFor(/enc-300\s+open\s+1\s+1\s/);
    expect(f).toContain('Chat threads — 2 unread');
    expect(f).toContain('Your new presc');
    expect(f).not.toContain('pwned');
    expect(f).not.toContain('\u001b[2J');
  });

  it("the sandbox's seed reaches the screen: its closed chat enc-200 is listed as closed, offering no close", async () => {
    chat = await openChat(undefined, 0, 50);
    const d = chat.desk;
    await d.waitFor(/enc-200\s+closed\s/);
    await d.waitFor(/enc-100\s+open\s+1\s+1\s/); // the demo message
    await chat.store.refresh();
    expect(chat.store.view.isClosed('enc-200')).toBe(true);
    await d.press('/');
    await d.type('enc-200');
    await d.press(KEY.enter);
    await d.waitFor(/> enc-200\s+closed/);
    await vi.waitFor(() => expect(lines(d.frame()).at(-1)).not.toContain('close chat'));
    await d.press(KEY.enter);
    await d.waitFor('Chat › enc-200 · closed · 0 messages');
    await d.press('c');
    await d.waitFor('Chat enc-200 is closed: it accepts no new messages.');
  });

  it('without a config folder it says there is no store', async () => {
    plain = await openDesk({ screen: 'chat' });
    await plain.waitFor('No config folder is known to this TUI');
  });

  it('answers a C3 as the portal with C1 (references swapped, subject and topic copied), records it, and the reply arrives live', async () => {
    chat = await openChat();
    const d = chat.desk;
    await pushSeedAnswer(chat);
    await d.waitFor(/enc-100\s+open\s+1/);
    await d.press(KEY.enter);
    await d.waitFor(/in C3\s+Dr\. Anna Berg/); // the thread's messages are read
    await d.press('c');
    let f = await d.waitFor('Answer as the portal (C1) in enc-100');
    expect(f).toContain('To Dr. Anna Berg (PractitionerRole/1001) from Emma Jansen (Patient/pat-1)');
    expect(f).toContain('subject Emma Jansen (Patient/pat-1) · answering C3 msg-100-2');
    expect(f).toContain('Medication question'); // topic prefilled
    await d.type('Thank you, q and j are typed.');
    await d.press(KEY.enter, KEY.enter); // → topic, review
    f = await d.waitFor('Send? POST Communication (C1) to the practice system in enc-100:');
    expect(f).toContain('From Emma Jansen (Patient/pat-1) to Dr. Anna Berg (PractitionerRole/1001)');
    expect(f).toContain('Text: Thank you, q and j are typed.');
    expect(posts(d, '/practice/Communication')).toHaveLength(0); // nothing sent before y
    await d.press('y');
    f = await d.waitFor(/Sent C1 in enc-100 \(HTTP 201\), recorded: [\w-]+\./);
    const sent = posts(d, '/practice/Communication');
    expect(sent).toHaveLength(1);
    const body = sent[0]!.body as ChatCommunication;
    expect(body.sender).toEqual([{ reference: 'Patient/pat-1', display: 'Emma Jansen' }]);
    expect(body.recipient).toEqual([{ reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' }]);
    expect(body.subject[0]!.reference).toBe('Patient/pat-1');
    expect(body.topic?.text).toBe('Medication question');
    expect(body.payload[0]!.contentString).toBe('Thank you, q and j are typed.');
    expect(body.encounter.identifier[0]).toEqual({ system: 'practice.example.encounter-id', value: 'enc-100' });
    expect(d.sandbox.state.messages.get(body.id)).toBeDefined();
    const stored = (await storeMessages(chat, 'enc-100')).find((m) => m.id === body.id);
    expect(stored).toMatchObject({ op: 'C1', via: 'sent', text: 'Thank you, q and j are typed.' });
    expect(f).toMatch(/out C1\s+Emma Jansen\s+Thank you, q and j/);
    expect(d.quitCalls).toBe(0);
    // The sandbox's automatic C3 answer is pushed to the receiver and shows up in the open thread.
    f = await d.waitFor(/in C3\s+Dr\. Anna Berg\s+unread\s+Thank you for your message/);
    expect(f).toContain('enc-100 · open · 3 messages · 2 unread');
    await vi.waitFor(() => expect(d.sandbox.state.pushes.at(-1)).toMatchObject({ op: 'C3', kind: 'reply', status: 201 }));
    // The next answer goes to the newest incoming message's sender, still as the portal.
    await d.press('c');
    f = await d.waitFor('Answer as the portal (C1) in enc-100');
    expect(f).toContain('To Dr. Anna Berg (PractitionerRole/1001) from Emma Jansen (Patient/pat-1)');
    expect(f).not.toContain('answering C3 msg-100-2'); // the newer incoming message is answered
  });

  it('m marks the selected received message read (C2), x closes the chat (C4) after a confirmation', async () => {
    chat = await openChat();
    const d = chat.desk;
    await pushSeedAnswer(chat);
    await d.waitFor(/enc-100\s+open\s+1\s+1\s/);
    // On the list, m says where it works instead of doing nothing.
    await d.press('m');
    await d.waitFor('m marks a message read in a thread: Enter opens the selected one, then select the message.');
    await d.press(KEY.enter);
    await d.waitFor(/in C3\s+Dr\. Anna Berg\s+unread/);
    await d.press('m');
    let f = await d.waitFor('Marked msg-100-2 read (HTTP 200); recorded.');
    expect(f).toMatch(/read \(marked \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\)/);
    const patch = d.sandbox.received.filter((r) => r.method === 'PATCH');
    expect(patch).toHaveLength(1);
    expect(patch[0]!.path).toBe('/practice/Communication/msg-100-2');
    expect(d.sandbox.state.readMarkers.map((r) => r.communicationId)).toEqual(['msg-100-2']);
    await chat.store.refresh();
    expect(chat.store.view.isRead('msg-100-2')).toBe(true);
    expect(f).toContain('enc-100 · open · 1 message');
    expect(f).not.toContain('1 unread');
    expect(f).toMatch(/in C3\s+Dr\. Anna Berg\s+read\s/);
    // Marking it again sends nothing.
    await d.press('m');
    await d.waitFor('is already marked read');
    expect(d.sandbox.received.filter((r) => r.method === 'PATCH')).toHaveLength(1);

    await d.press('x');
    f = await d.waitFor('Close chat enc-100? PUT Encounter/enc-100 (C4)');
    expect(f).toContain('"status": "finished"');
    expect(f).toContain('"value": "enc-100"');
    await d.press('n'); // no: back, nothing sent
    await d.waitFor('Chat › enc-100 · open');
    expect(d.sandbox.received.filter((r) => r.method === 'PUT')).toHaveLength(0);
    await d.press('x');
    await d.waitFor('Close chat enc-100?');
    await d.press('y');
    f = await d.waitFor('Closed chat enc-100 (HTTP 200); recorded.');
    expect(d.sandbox.state.encounters.get('enc-100')?.status).toBe('finished');
    await chat.store.refresh();
    expect(chat.store.view.isClosed('enc-100')).toBe(true);
    expect(f).toContain('Chat › enc-100 · closed');
    // A closed chat offers no reply and no close on its key line (the keys register a render after the
    // answer shows, so wait for the line that has mark read straight after x-ray).
    f = await d.waitFor(/X x-ray\s+m mark read/);
    expect(lines(f).at(-1)).not.toContain('reply');
    expect(lines(f).at(-1)).not.toContain('x close');
    expect(lines(f).at(-1)).toContain('m mark read');
    // A closed chat takes no answer: said at once, nothing sent.
    await d.press('c');
    await d.waitFor('Chat enc-100 is closed: it accepts no new messages.');
    expect(posts(d, '/practice/Communication')).toHaveLength(0);
    await d.press(KEY.esc);
    await d.waitFor(/enc-100\s+closed/);
  });

  it('answers a C1 as the practice system with C3; a refusal (409) stays in the status line with the form intact', async () => {
    chat = await openChat(undefined, 200); // a slow server: Enter pressed again meanwhile sends nothing more
    const d = chat.desk;
    // A portal message in enc-200, which the sandbox has closed (the store does not know).
    const c1 = buildChatMessage(Profile.parse(sandboxProfile(chat.receiver.url)), {
      thread: 'enc-200',
      text: 'Is my prescription ready?',
      sender: 'Patient/pat-1',
      recipient: 'PractitionerRole/1002',
      subject: 'Patient/pat-1',
      topic: 'Prescription',
    });
    await sendMessage(chat.pusher, c1);
    await d.waitFor(/enc-200\s+open\s+1\s+1\s/);
    await d.press(KEY.enter);
    await d.waitFor(/in C1\s+Patient\/pat-1\s+unread/);
    await d.press('c');
    let f = await d.waitFor('Answer as the practice system (C3) in enc-200');
    expect(f).toContain('To Patient/pat-1 from PractitionerRole/1002');
    expect(f).toContain('subject Patient/pat-1 · answering C1');
    await d.type('Yes, it is ready.');
    await d.press(KEY.enter, KEY.enter);
    await d.waitFor('Send? POST Communication (C3) to the portal in enc-200:');
    await d.press('y', KEY.enter, KEY.enter); // the form submitted again while it is sent: nothing more is sent, and it says so
    await d.waitFor('A request is running: nothing more was sent.');
    f = await d.waitFor('HTTP 409 Conflict');
    expect(f).toContain('Chat enc-200 is closed');
    expect(f).toContain('Answer as the practice system (C3) in enc-200'); // the form is still open…
    expect(f).toContain('Yes, it is ready.'); // …with the text typed
    const sent = posts(d, '/portal/Communication');
    expect(sent).toHaveLength(1);
    expect((sent[0]!.body as ChatCommunication).sender[0]!.reference).toBe('PractitionerRole/1002');
    expect((sent[0]!.body as ChatCommunication).topic?.text).toBe('Prescription');
    // Nothing recorded as sent.
    expect((await storeMessages(chat, 'enc-200')).filter((m) => m.via === 'sent')).toHaveLength(0);
  });

  it('n writes a message in a new thread; ? lists the keys, / filters, Esc walks back', async () => {
    chat = await openChat();
    const d = chat.desk;
    await pushSeedAnswer(chat);
    await d.waitFor(/enc-100\s+open/);
    await d.press('?');
    let f = await d.waitFor('Help — keys');
    expect(f).toContain('Chat screen');
    expect(f).toContain('write a message in any thread');
    expect(f).toContain('close the selected chat (C4)');
    expect(f).toContain('filter the list');
    await d.press(KEY.esc);
    await d.waitFor('Chat threads');

    await d.press('n');
    await d.waitFor('New chat message');
    await d.press('\u0015'); // the selected thread is prefilled: clear it
    await d.type('enc-500');
    await d.press(KEY.enter, KEY.enter); // as portal (C1)
    await d.type('Patient/pat-2');
    await d.press(KEY.enter);
    await d.type('PractitionerRole/1002');
    await d.press(KEY.enter);
    await d.type('Patient/pat-2');
    await d.press(KEY.enter, KEY.enter);
    await d.type('A new question');
    await d.press(KEY.enter);
    await d.waitFor('Send? POST Communication (C1) to the practice system in enc-500:');
    await d.press('y');
    f = await d.waitFor(/Sent C1 in enc-500 \(HTTP 201\), recorded/);
    expect(f).toMatch(/Chat › enc-500 · open · [12] messages?/); // 2 once the sandbox's answer is in
    expect((posts(d, '/practice/Communication')[0]!.body as ChatCommunication).sender[0]!.reference).toBe('Patient/pat-2');
    await d.waitFor('Thank you for your message'); // the sandbox's answer, pushed to the receiver
    await d.press('?');
    f = await d.waitFor('Help — keys');
    expect(f).toContain('mark the selected received message read (C2)');
    await d.press(KEY.esc);
    await d.press(KEY.esc); // back to the threads
    f = await d.waitFor(/enc-500\s+open\s+1\s+2\s/);
    expect(f).toContain('enc-100');
    await d.press('/');
    await d.type('enc-5');
    f = await d.waitFor('/enc-5');
    expect(f).not.toMatch(/enc-100\s+open/);
    await d.press(KEY.esc); // clears the filter
    await d.waitFor(/enc-100\s+open/);
    // Esc on the threads goes back to the previous screen.
    await d.press('4');
    await d.waitFor('Sent this session');
    await d.press('3');
    await d.waitFor('Chat threads');
    await d.press(KEY.esc);
    await d.waitFor('Sent this session');
    expect(d.quitCalls).toBe(0);
  });
});
