import { afterEach, describe, expect, it } from 'vitest';
import { type Desk, KEY, lines, openChatWithAnswer, openDesk, toSlots } from './harness.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function open(o: Parameters<typeof openDesk>[0] = {}): Promise<Desk> {
  const d = await openDesk({ profile: { readOnly: true }, ...o });
  closers.push(() => d.close());
  return d;
}

/** Nothing but GET reached the sandbox. */
const onlyGets = (d: Desk) => expect(d.sandbox.received.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);

/** The status line's sentence, wherever it wraps. */
const refused = (what: string, op: string, why = '') =>
  new RegExp(`Profile "sandbox" is read-only${why}: ${what} \\(${op}\\) is not available\\.`.replace(/ /g, '\\s+'));

describe('the TUI on a read-only profile', () => {
  it('the header says read-only; Enter on a slot does not open the booking form (A6)', async () => {
    const d = await open();
    const f = await d.waitFor('gp — General practice');
    expect(lines(f)[0]).toContain(' read-only ');
    await toSlots(d);
    await d.press(KEY.enter);
    await d.waitFor(refused('booking a slot', 'A6'));
    expect(d.frame()).not.toContain('Book this slot (A6)');
    onlyGets(d);
  });

  it('c on an appointment does not open the cancel form (A7)', async () => {
    const d = await open({ screen: 'appointments' });
    await d.waitFor('appt-1');
    await d.press('c');
    await d.waitFor(refused('cancelling an appointment', 'A7'));
    expect(d.frame()).not.toContain('Cancel appointment appt-1');
    onlyGets(d);
  });

  it('n and e open no notification form (C5), nor N', async () => {
    const d = await open({ screen: 'notify' });
    await d.waitFor('Sent this session (0)');
    for (const key of ['n', 'e', 'N']) {
      await d.press(key);
      await d.waitFor(refused('a notification', 'C5'));
      expect(d.frame()).toContain('New notification (C5) — n to write'); // the form stays shut
      await d.press(KEY.esc);
    }
    await d.press('n');
    await d.type('ann@example.org');
    await d.press(KEY.enter);
    expect(d.frame()).not.toContain('Send? POST');
    onlyGets(d);
  });

  it('o on a medication request opens no reorder form (M3), from the list or the details', async () => {
    const d = await open({ screen: 'meds' });
    await d.waitFor('Metformin 500 mg tablet');
    await d.press('o');
    await d.waitFor(refused('a reorder', 'M3'));
    await d.press(KEY.enter);
    await d.waitFor('mr-1');
    await d.press('o');
    await d.waitFor(refused('a reorder', 'M3'));
    expect(d.frame()).not.toContain('Reorder mr-1 (M3)');
    onlyGets(d);
  });

  it('chat: c (reply), n (new), m (mark read) and x (close) open nothing and send nothing', async () => {
    const d = await openChatWithAnswer({ profile: { readOnly: true } }, (c) => closers.push(c));
    await d.press('n');
    await d.waitFor(refused('a new message', 'C1'));
    await d.press('x');
    await d.waitFor(refused('closing a chat', 'C4'));
    await d.press(KEY.enter);
    await d.waitFor('1 unread');
    for (const [key, what, op] of [
      ['c', 'a reply', 'C1'],
      ['m', 'marking a message read', 'C2'],
      ['x', 'closing a chat', 'C4'],
      ['n', 'a new message', 'C1'],
    ] as const) {
      await d.press(key);
      await d.waitFor(refused(what, op));
    }
    const f = d.frame();
    expect(f).toContain('1 unread');
    expect(f).not.toContain('Close chat enc-100?');
    onlyGets(d);
  });

  it('--read-only on a profile that is not: the same, and the reason names the option', async () => {
    const d = await open({ screen: 'appointments', profile: {}, root: { clientOptions: { readOnly: true, readOnlyWhy: '--read-only' } } });
    const f = await d.waitFor('appt-1');
    expect(lines(f)[0]).toContain(' read-only ');
    await d.press('c');
    await d.waitFor(refused('cancelling an appointment', 'A7', ' \\(--read-only\\)'));
    onlyGets(d);
  });
});
