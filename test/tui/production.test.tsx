/**
 * Every write key of every screen on a production profile, against a real sandbox: nothing reaches the server
 * before the profile's name is typed (`y` and Enter alone send nothing), and once it is, exactly one write does.
 * Slots Enter (A6), Appointments c (A7), Chat n and x on the list, c m x n in a thread (C1 C2 C3 C4), Notify n e N
 * (C5), Meds o on the list and in the details (M3). Systems, Check and the inspector send nothing but GET.
 * The confirmation is the client's (core/client.ts: a production client without a confirmation hook sends no
 * write): a screen's review confirms its own write, any other write waits for the desk's question.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Desk, KEY, type OpenOptions, openChatWithAnswer, openDesk, toSlots } from './harness.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function open(o: OpenOptions = {}): Promise<Desk> {
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-tui-prod-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const d = await openDesk({ profile: { environment: 'production' }, ...o, root: { configDir: dir, ...o.root } });
  closers.push(() => d.close());
  return d;
}

const writes = (d: Desk) => d.sandbox.received.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

/**
 * The Chat screen on production, the practice system's answer in enc-100 in its store. The sandbox's own automatic
 * answer to a C1 (a POST to its /portal after replyDelayMs) is not the desk's write: put off beyond the test, which
 * on a busy machine takes longer than the default 1.5 s between its C1 and its C3.
 */
const openChat = () =>
  openChatWithAnswer({ profile: { environment: 'production' }, sandbox: { replyDelayMs: 600_000 } }, (c) => closers.push(c));

/**
 * At a confirmation on production: `y` and Enter send nothing and say the name is wanted; the name typed sends
 * exactly one write (`expected`, e.g. `POST /practice/Appointment`).
 */
async function confirmByName(d: Desk, expected: string) {
  const before = writes(d);
  await d.waitFor(`type the profile's name "sandbox"`);
  await d.press('y', KEY.enter);
  await d.waitFor('That is not "sandbox"');
  expect(writes(d)).toEqual(before);
  await d.press(KEY.backspace);
  await d.type('sandbox');
  expect(writes(d)).toEqual(before);
  await d.press(KEY.enter);
  await waitUntil(() => writes(d).length > before.length);
  expect(writes(d)).toEqual([...before, expected]);
}

/** Move a form's cursor down to the field labelled `label`. */
async function focusField(d: Desk, label: string) {
  for (let i = 0; i < 10 && !d.frame().includes(`› ${label}`); i++) await d.press(KEY.down);
  await d.waitFor(`› ${label}`);
}

async function waitUntil(ok: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('on a production profile no write key sends before the profile name is typed', () => {
  it('Slots: Enter on a slot books (A6)', async () => {
    const d = await open();
    await toSlots(d);
    await d.press(KEY.enter);
    await d.waitFor('Book this slot (A6)');
    await d.type('pat-1');
    await d.press(KEY.enter, KEY.enter, KEY.enter);
    await d.waitFor('Book? POST Appointment (A6)');
    await confirmByName(d, 'POST /practice/Appointment');
    await d.waitFor('Booked appointment');
  });

  it('Appointments: c cancels (A7)', async () => {
    const d = await open({ screen: 'appointments' });
    await d.waitFor('appt-1');
    await d.press('c', KEY.down);
    await d.type('ill');
    await d.press(KEY.enter);
    await d.waitFor('POST AppointmentResponse (A7)');
    await confirmByName(d, 'POST /practice/AppointmentResponse');
    await d.waitFor('Cancelled appointment appt-1');
  });

  it('Notify: n, e and N send a notification (C5)', async () => {
    const d = await open({ screen: 'notify' });
    await d.waitFor('Sent this session (0)');
    for (const key of ['n', 'e', 'N']) {
      await d.press(key);
      await d.waitFor(/New notification \(C5\) to sandbox/);
      if (key === 'N' || key === 'n') {
        await d.press('\u0015');
        await d.type('emma.jansen@example.org');
        await d.press(KEY.enter, '\u0015');
        await d.type('Reminder');
        await d.press(KEY.enter, '\u0015');
      } else await d.press(KEY.tab, KEY.tab);
      await d.type(`Sent with ${key}`);
      await d.press(KEY.enter);
      await d.waitFor(/Send\? POST .*\(C5\)/);
      await confirmByName(d, 'POST /portal/Communication');
      await d.waitFor('Sent the notification to emma.jansen@example.org');
    }
    expect(d.sandbox.state.notifications.map((n) => n.payload[0]!.contentString)).toEqual(['Sent with n', 'Sent with e', 'Sent with N']);
  });

  it('Meds: o on the list and in the details reorders (M3)', async () => {
    const d = await open({ screen: 'meds' });
    await d.waitFor('Metformin 500 mg tablet');
    for (const fromDetail of [false, true]) {
      if (fromDetail) {
        await d.press(KEY.enter);
        await d.waitFor('Medication request mr-1 (M2)');
      }
      await d.press('o');
      await d.waitFor('Reorder mr-1 (M3)');
      await d.press(KEY.enter, KEY.enter, KEY.enter, KEY.enter, KEY.enter);
      await d.waitFor('Order? POST MedicationRequest (M3)');
      await confirmByName(d, 'POST /practice/MedicationRequest');
      await d.waitFor(/Ordered mr-\d+/);
    }
  });

  it('Chat: n and x on the list; c, m, x and n in a thread (C1, C2, C3, C4)', async () => {
    const d = await openChat();

    // n on the list: a new thread (C1).
    await d.press('n');
    await d.waitFor('New chat message');
    await d.press('\u0015');
    await d.type('enc-900');
    await d.press(KEY.enter, KEY.enter);
    await d.type('Patient/pat-1');
    await d.press(KEY.enter);
    await d.type('PractitionerRole/1001');
    await d.press(KEY.enter);
    await d.type('Patient/pat-1');
    await d.press(KEY.enter, KEY.enter);
    await d.type('Hello');
    await d.press(KEY.enter);
    await d.waitFor('Send? POST Communication (C1)');
    await confirmByName(d, 'POST /practice/Communication');
    await d.waitFor('Chat › enc-900');
    await d.press(KEY.esc);
    await d.waitFor(/enc-900\s+open/);

    // x on the list (enc-900 is selected): close it (C4).
    await d.press('/');
    await d.type('enc-900');
    await d.press(KEY.enter);
    await d.waitFor(/> enc-900/);
    await d.press('x');
    await d.waitFor('Close chat enc-900?');
    await confirmByName(d, 'PUT /portal/Encounter/enc-900');
    await d.waitFor('Closed chat enc-900');
    await d.press(KEY.esc, 'j'); // the filter goes; enc-100 is below enc-900

    // In enc-100: c (the answer goes out as C1), m (C2: no review of its own, the desk asks), n, x.
    await d.waitFor(/> enc-100/);
    await d.press(KEY.enter);
    await d.waitFor(/in C3\s+Dr\. Anna Berg\s+unread/); // the thread's messages are read
    await d.press('m');
    const q = await d.waitFor('Send C2 (PATCH /Communication/msg-100-2)');
    expect(q).toContain(`type the profile's name "sandbox"`);
    await confirmByName(d, 'PATCH /practice/Communication/msg-100-2');
    await d.waitFor('Marked msg-100-2 read');

    await d.press('c');
    await d.waitFor('Answer as the portal (C1) in enc-100');
    await d.type('Thank you');
    await d.press(KEY.enter, KEY.enter);
    await d.waitFor('Send? POST Communication (C1)');
    await confirmByName(d, 'POST /practice/Communication');
    await d.waitFor(/Sent C1 in enc-100/);

    await d.press('n');
    await d.waitFor('New chat message');
    await focusField(d, 'Send as'); // the form keeps what was typed before, and where
    await d.press(KEY.right); // as the practice system (C3)
    for (const v of ['PractitionerRole/1001', 'Patient/pat-1', 'Patient/pat-1', '', 'From the practice']) {
      await d.press(KEY.down, '\u0015');
      await d.type(v);
    }
    await d.press(KEY.enter);
    await d.waitFor('Send? POST Communication (C3)');
    await confirmByName(d, 'POST /portal/Communication');
    await d.waitFor(/Sent C3 in enc-100/);

    await d.press('x');
    await d.waitFor('Close chat enc-100?');
    await confirmByName(d, 'PUT /portal/Encounter/enc-100');
    await d.waitFor('Closed chat enc-100');
  });

  it('Esc at the desk’s question sends nothing and says so', async () => {
    const d = await openChat();
    await d.press(KEY.enter);
    await d.waitFor(/in C3\s+Dr\. Anna Berg\s+unread/);
    await d.press('m');
    await d.waitFor('Send C2 (PATCH /Communication/msg-100-2)');
    await d.press(KEY.esc);
    await d.waitFor('Not confirmed: C2 (PATCH /Communication/msg-100-2) was not sent.');
    expect(d.frame()).toContain('1 unread');
    expect(writes(d)).toEqual([]);
  });
});
