/** Notify screen against a real sandbox: write, confirm the body, send (C5), the session's sent list, errors keep the form. */
import { afterEach, describe, expect, it } from 'vitest';
import { type Desk, KEY, lines, openDesk } from '../../harness.js';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const c5Posts = (d: Desk) => d.sandbox.received.filter((r) => r.method === 'POST' && r.path === '/portal/Communication');

async function fill(d: Desk, email: string, topic: string, text: string) {
  await d.waitFor('Sent this session (');
  await d.press('n');
  await d.waitFor(/New notification \(C5\) to sandbox/);
  // ^U clears each field first (the form keeps email and topic after a send).
  await d.press('\u0015');
  await d.type(email);
  await d.press(KEY.enter, '\u0015');
  await d.type(topic);
  await d.press(KEY.enter, '\u0015');
  await d.type(text);
  await d.press(KEY.enter); // review
}

describe('Notify screen', () => {
  it('renders the form and the empty sent list within the frame', async () => {
    desk = await openDesk({ screen: 'notify', size: { columns: 80, rows: 24 } });
    await desk.waitFor('Sent this session (0)');
    const f = await desk.waitFor(/n\/e write/);
    expect(f).not.toMatch(/Sent this session \(0\).*\d\d:\d\d:\d\d/); // nothing sent: no time
    expect(f).toContain('New notification (C5) — n to write');
    expect(f).toContain('Nothing sent yet in this session');
    expect(lines(f).length).toBeLessThanOrEqual(23);
    for (const l of lines(f)) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('sends after a confirmation showing the body; the sandbox holds it and the sent list shows it', async () => {
    desk = await openDesk({ screen: 'notify' });
    await fill(desk, 'emma.jansen@example.org', 'Lab results', 'Your results are in; no need to call.');
    const confirm = await desk.waitFor(/Send\? POST http:\/\/127\.0\.0\.1:\d+\/portal\/Communication \(C5\)/);
    expect(confirm).toContain('To emma.jansen@example.org · topic Lab results');
    expect(confirm).toContain('"value": "emma.jansen@example.org"');
    await desk.press(KEY.pgdn);
    await desk.waitFor('"code": "notification"');
    expect(c5Posts(desk)).toHaveLength(0); // nothing sent before the confirmation
    await desk.press('y');
    const f = await desk.waitFor('Sent the notification to emma.jansen@example.org (HTTP 201, id notif-1)');
    expect(desk.sandbox.state.notifications).toHaveLength(1);
    const n = desk.sandbox.state.notifications[0]!;
    expect(n.contained[0]!.telecom[0]!.value).toBe('emma.jansen@example.org');
    expect(n.topic.text).toBe('Lab results');
    expect(n.payload[0]!.contentString).toBe('Your results are in; no need to call.');
    expect(n.category[0]!.coding![0]!.system).toBe('portal.example.communication-category');
    expect(f).toContain('Sent this session (1)');
    expect(f).toMatch(/Sent this session \(1\).* (\d\d:\d\d:\d\d) · 1\/1/); // the time of the last send
    expect(f).toMatch(/\d\d:\d\d:\d\d\s+201\s+emma\.jansen@example\.org\s+Lab results\s+Your results are in/);
    // Enter shows what was sent and what the portal answered; Esc goes back.
    await desk.press(KEY.enter);
    await desk.waitFor('Notification 1 sent at');
    expect(desk.frame()).toContain('Text: Your results are in; no need to call.');
    await desk.press(KEY.pgdn);
    await desk.waitFor('The portal answered:');
    await desk.press(KEY.esc);
    await desk.waitFor('Sent this session (1)');
    // The text was cleared, email and topic kept: a second one to the same person goes out too.
    await desk.press('n');
    await desk.waitFor(/New notification \(C5\) to sandbox/);
    expect(desk.frame()).toContain('Lab results');
    await desk.press(KEY.tab, KEY.tab);
    await desk.type('Second one');
    await desk.press(KEY.enter);
    await desk.waitFor(/Send\? POST http:\/\/127\.0\.0\.1:\d+\/portal\/Communication \(C5\)/);
    await desk.press(KEY.enter);
    await desk.waitFor('Sent this session (2)');
    expect(desk.sandbox.state.notifications.map((x) => x.payload[0]!.contentString)).toEqual([
      'Your results are in; no need to call.',
      'Second one',
    ]);
  });

  it('a bad address is refused before anything is sent, and a server error keeps the form as typed', async () => {
    desk = await openDesk({ screen: 'notify' });
    await fill(desk, 'not-an-address', 'Reminder', 'Tomorrow 9:00');
    let f = await desk.waitFor('Email must be an email address, not "not-an-address"');
    expect(f).toContain('not-an-address');
    expect(f).toContain('Tomorrow 9:00');
    expect(c5Posts(desk)).toHaveLength(0);
    // The cursor is on the address to fix (^U clears the field), then the portal fails.
    expect(f).toMatch(/› Email\s+not-an-address/);
    await desk.press('\u0015');
    await desk.type('emma@example.org');
    desk.sandbox.setFailRate(1);
    await desk.press(KEY.tab, KEY.tab, KEY.enter);
    f = await desk.waitFor(/Send\? POST http:\/\/127\.0\.0\.1:\d+\/portal\/Communication \(C5\)/);
    expect(f).not.toContain('must be an email address'); // the corrected mistake is no longer reported
    await desk.press('y');
    f = await desk.waitFor('HTTP 503 Service Unavailable');
    expect(f).toContain('simulating a failure');
    expect(f).toContain('New notification (C5) to sandbox'); // the form is open again…
    expect(f).toContain('emma@example.org'); // …with what was typed
    expect(f).toContain('Tomorrow 9:00');
    expect(f).toContain('Sent this session (0)');
    expect(c5Posts(desk)).toHaveLength(1); // one attempt, not retried
    expect(desk.sandbox.state.notifications).toHaveLength(0);
  });

  it('Esc during a send abandons it, and the status line warns that it may have reached the server', async () => {
    desk = await openDesk({ screen: 'notify', sandbox: { latencyMs: 2000 } });
    await fill(desk, 'emma@example.org', 'Reminder', 'Tomorrow 9:00');
    await desk.waitFor('Send? POST');
    await desk.press('y');
    await desk.waitFor('Esc to abandon');
    await desk.press(KEY.esc);
    const f = await desk.waitFor('Abandoned: Sending the notification', 1500);
    expect(f.replace(/\n/g, ' ')).toContain('may have reached the server');
    expect(f).toContain('Tomorrow 9:00'); // the form is kept
  });

  it('? lists the keys, / filters the sent list, Esc closes the form and goes back to the previous screen', async () => {
    desk = await openDesk({ screen: 'notify' });
    await fill(desk, 'a@example.org', 'Alpha topic', 'first');
    await desk.waitFor('Send? POST');
    await desk.press('y');
    await desk.waitFor('Sent this session (1)');
    await fill(desk, 'b@example.org', 'Beta topic', 'second');
    await desk.waitFor('Send? POST');
    await desk.press('y');
    await desk.waitFor('Sent this session (2)');
    await desk.press('?');
    let f = await desk.waitFor('Help — keys');
    expect(f).toContain('Notify screen');
    expect(f).toContain('write a notification');
    expect(f).toContain('filter the list');
    await desk.press(KEY.esc);
    await desk.waitFor('Sent this session (2)');
    await desk.press('/');
    await desk.type('beta');
    f = await desk.waitFor('/beta');
    expect(f).toContain('b@example.org');
    expect(f).not.toContain('a@example.org');
    await desk.press(KEY.esc);
    await desk.waitFor('a@example.org');
    // In the form, ? and / are typed, Esc closes it.
    await desk.press('n');
    await desk.press(KEY.tab, KEY.tab, '\u0015');
    await desk.type('what? a/b');
    await desk.waitFor('what? a/b');
    await desk.press(KEY.esc);
    await desk.waitFor('New notification (C5) — n to write');
    // Esc on the list goes back to the previous screen.
    await desk.press('5');
    await desk.waitFor('Metformin'); // loaded: Esc would abandon a running request
    await desk.press(KEY.esc);
    await desk.waitFor('Sent this session (2)');
    expect(desk.quitCalls).toBe(0);
  });
});
