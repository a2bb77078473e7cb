/**
 * Single-line text editing shared by form fields, the list filter and the `:` palette: insert typed or pasted
 * text at the cursor, ←/→, Home/End (also ^A/^E), Backspace, ^U (clear to start), ^K (clear to end), ^W
 * (delete word). Pure: returns the next state, or undefined when the key is not an editing key.
 */
import type { Key } from 'ink';
import { isText, keyNames } from '../keys/names.js';

export interface LineState {
  value: string;
  cursor: number;
}

export const EDIT_KEYS = [
  'text',
  'left',
  'right',
  'home',
  'end',
  'backspace',
  'space',
  'ctrl-a',
  'ctrl-e',
  'ctrl-u',
  'ctrl-k',
  'ctrl-w',
] as const;

export function editLine(s: LineState, input: string, key: Key, maxLength = 4000): LineState | undefined {
  const cursor = Math.min(s.cursor, s.value.length);
  const names = keyNames(input, key);
  const has = (n: string) => names.includes(n);
  if (has('left')) return { value: s.value, cursor: Math.max(0, cursor - 1) };
  if (has('right')) return { value: s.value, cursor: Math.min(s.value.length, cursor + 1) };
  if (has('home') || has('ctrl-a')) return { value: s.value, cursor: 0 };
  if (has('end') || has('ctrl-e')) return { value: s.value, cursor: s.value.length };
  if (has('backspace')) {
    if (cursor === 0) return s;
    return { value: s.value.slice(0, cursor - 1) + s.value.slice(cursor), cursor: cursor - 1 };
  }
  if (has('ctrl-u')) return { value: s.value.slice(cursor), cursor: 0 };
  if (has('ctrl-k')) return { value: s.value.slice(0, cursor), cursor };
  if (has('ctrl-w')) {
    const before = s.value.slice(0, cursor).replace(/\S+\s*$/, '');
    return { value: before + s.value.slice(cursor), cursor: before.length };
  }
  if (isText(input, key)) {
    const room = Math.max(0, maxLength - s.value.length);
    const text = input.slice(0, room);
    return { value: s.value.slice(0, cursor) + text + s.value.slice(cursor), cursor: cursor + text.length };
  }
  return undefined;
}

/** The visible part of a line of `width` columns with the cursor shown: [before, atCursor, after]. */
export function lineView(s: LineState, width: number): [string, string, string] {
  const cursor = Math.min(s.cursor, s.value.length);
  const w = Math.max(1, width);
  // Scroll so the cursor stays visible.
  const start = Math.max(0, cursor - w + 1);
  const visible = s.value.slice(start, start + w);
  const c = cursor - start;
  return [visible.slice(0, c), visible.charAt(c) || ' ', visible.slice(c + 1)];
}
