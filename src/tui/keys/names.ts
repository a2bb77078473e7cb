/** Key events by name: what a binding's `keys` match, what a text field inserts, how hints show a key. */
import type { Key } from 'ink';

/** Key names a binding may use; anything else is a literal character (`c`, `/`, `?`, `G`). */
export type KeyName =
  | 'enter'
  | 'esc'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'pgup'
  | 'pgdn'
  | 'home'
  | 'end'
  | 'tab'
  | 'shift-tab'
  | 'backspace'
  | 'space'
  | `ctrl-${string}`
  /** Any printable text (typing, paste). The handler gets the text as `input`. */
  | 'text';

/** Name of a key event as used in bindings: 'enter', 'esc', 'pgdn', 'ctrl-s', 'a', 'G', … */
export function keyNames(input: string, key: Key): string[] {
  const names: string[] = [];
  if (key.return) names.push('enter');
  if (key.escape) names.push('esc');
  if (key.upArrow) names.push('up');
  if (key.downArrow) names.push('down');
  if (key.leftArrow) names.push('left');
  if (key.rightArrow) names.push('right');
  if (key.pageUp) names.push('pgup');
  if (key.pageDown) names.push('pgdn');
  if (key.home) names.push('home');
  if (key.end) names.push('end');
  if (key.tab) names.push(key.shift ? 'shift-tab' : 'tab');
  // Most terminals send \x7f for Backspace, which Ink reports as `delete` (DEVELOPERS.md, "Stack notes").
  if (key.backspace || key.delete) names.push('backspace');
  if (key.ctrl && input) names.push(`ctrl-${input.toLowerCase()}`);
  if (!key.ctrl && !key.meta && input === ' ') names.push('space');
  if (!key.ctrl && !key.meta && input.length === 1 && input !== ' ') names.push(input);
  return names;
}

/** True when the event is printable text a text field should insert. */
export function isText(input: string, key: Key): boolean {
  if (!input || key.ctrl || key.meta || key.return || key.escape || key.tab) return false;
  return !/[\u0000-\u001f\u007f-\u009f]/.test(input);
}

/** Display form of a key for hints: `enter` → `Enter`, `pgdn` → `PgDn`. */
export function keyLabel(k: string): string {
  const map: Record<string, string> = {
    enter: 'Enter',
    esc: 'Esc',
    up: '↑',
    down: '↓',
    left: '←',
    right: '→',
    pgup: 'PgUp',
    pgdn: 'PgDn',
    home: 'Home',
    end: 'End',
    tab: 'Tab',
    'shift-tab': 'S-Tab',
    backspace: 'Bksp',
    space: 'Space',
    text: 'type',
  };
  if (map[k]) return map[k]!;
  if (k.startsWith('ctrl-')) return `^${k.slice(5).toUpperCase()}`;
  return k;
}
