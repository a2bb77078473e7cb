/**
 * The key feed (src/tui/keys/useKeyFeed.ts). Keys that arrive together in one read (typed faster than they were read, a
 * paste ending in Enter, tmux send-keys) are each handled, in order, as if they had arrived one by one; a run of
 * text goes whole to a text field that takes it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Key } from 'ink';
import { splitKeys } from '../../../src/tui/keys/useKeyFeed.js';
import { type Desk, KEY, openDesk } from '../harness.js';

const none = { return: false, escape: false, ctrl: false, meta: false, tab: false, delete: false, backspace: false } as unknown as Key;

describe('splitKeys', () => {
  it('splits a run of text and control characters into the keys Ink would report one by one', () => {
    const keys = splitKeys('\u0015pat-1\r\r\tX\u007f', none);
    expect(keys.map(([input, k]) => [input, k.return, k.ctrl, k.tab, k.delete, k.shift])).toEqual([
      ['u', false, true, false, false, false],
      ['pat-1', false, false, false, false, false],
      ['', true, false, false, false, false],
      ['', true, false, false, false, false],
      ['', false, false, true, false, false],
      ['X', false, false, false, false, true],
      ['', false, false, false, true, false],
    ]);
  });

  it('leaves plain text (a paste) and single keys whole', () => {
    expect(splitKeys('hello world', none)).toEqual([['hello world', none]]);
    const enter = { ...none, return: true };
    expect(splitKeys('', enter)).toEqual([['', enter]]);
  });
});

describe('a form filled in one chunk', () => {
  let desk: Desk | undefined;
  afterEach(async () => {
    await desk?.close();
    desk = undefined;
  });

  it('types each field, moves on at each Enter and reaches the confirmation', async () => {
    desk = await openDesk({ screen: 'notify' });
    await desk.waitFor('Sent this session (');
    await desk.press('n');
    await desk.waitFor(/New notification \(C5\) to sandbox/);
    await desk.press('\u0015emma.jansen@example.org\r\u0015Lab results\r\u0015Your results are in.\r');
    const confirm = await desk.waitFor(/Send\? POST http:\/\/127\.0\.0\.1:\d+\/portal\/Communication \(C5\)/);
    expect(confirm).toContain('To emma.jansen@example.org · topic Lab results');
    await desk.press('y');
    await desk.waitFor('Sent this session (1)');
    expect(desk.sandbox.state.notifications[0]!.payload[0]!.contentString).toBe('Your results are in.');
  });
});

describe('repeated letters in one chunk', () => {
  let desk: Desk | undefined;
  afterEach(async () => {
    await desk?.close();
    desk = undefined;
  });

  it('jj moves two rows and qq quits: every key of the chunk counts', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('3 appointments.');
    await desk.press('jj');
    await desk.waitFor(/> appt-3/);
    await desk.press('kk');
    await desk.waitFor(/> appt-1/);
    await desk.press('qq');
    await vi.waitFor(() => expect(desk!.quitCalls).toBe(2));
  });

  it('keys read before the screen drew the previous one reach what that key opened (the palette, then a form)', async () => {
    desk = await openDesk();
    await desk.waitFor('gp — General practice');
    desk.burst(':', 'a', 'p', 'p', '\r');
    await desk.waitFor('3 appointments.');
    expect(desk.frame()).toContain('[2 Appointments]');
    desk.burst('c', '\u001B[B', 'n', 'o', ' ', 'q');
    await desk.waitFor(/› Comment\s+no q/);
    expect(desk.quitCalls).toBe(0);
  });

  it('a run of text typed into a form arrives whole, and the same letters are typed, not taken as keys', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('3 appointments.');
    await desk.press('c');
    await desk.waitFor('Cancel appointment appt-1');
    await desk.press(KEY.down, 'jjqq');
    await desk.waitFor('jjqq');
    expect(desk.quitCalls).toBe(0);
  });
});
