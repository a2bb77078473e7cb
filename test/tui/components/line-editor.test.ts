/** The single-line editor of fields, the filter and the palette (src/tui/components/line-editor.ts). */
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { editLine, lineView } from '../../../src/tui/components/line-editor.js';

const key = (k: Partial<Key> = {}) => ({ ctrl: false, meta: false, return: false, escape: false, tab: false, ...k }) as Key;

describe('editLine', () => {
  it('inserts at the cursor, moves, deletes backwards (Backspace arrives as delete), and clears with ^U ^K ^W', () => {
    let s = { value: 'pat', cursor: 3 };
    s = editLine(s, '-1', key())!;
    expect(s).toEqual({ value: 'pat-1', cursor: 5 });
    s = editLine(s, '', key({ leftArrow: true }))!;
    s = editLine(s, '', key({ delete: true }))!;
    expect(s).toEqual({ value: 'pat1', cursor: 3 });
    expect(editLine({ value: 'a b c', cursor: 5 }, 'w', key({ ctrl: true }))).toEqual({ value: 'a b ', cursor: 4 });
    expect(editLine({ value: 'abcd', cursor: 2 }, 'u', key({ ctrl: true }))).toEqual({ value: 'cd', cursor: 0 });
    expect(editLine({ value: 'abcd', cursor: 2 }, 'k', key({ ctrl: true }))).toEqual({ value: 'ab', cursor: 2 });
    expect(editLine({ value: 'ab', cursor: 0 }, '', key({ delete: true }))).toEqual({ value: 'ab', cursor: 0 });
    expect(editLine({ value: 'abc', cursor: 0 }, 'xyz', key(), 4)).toEqual({ value: 'xabc', cursor: 1 });
    expect(editLine({ value: 'ab', cursor: 1 }, '', key({ return: true }))).toBeUndefined();
  });
});

describe('lineView', () => {
  it('scrolls so the cursor stays visible', () => {
    expect(lineView({ value: 'abcdef', cursor: 6 }, 4)).toEqual(['def', ' ', '']);
    expect(lineView({ value: 'abcdef', cursor: 1 }, 4)).toEqual(['a', 'b', 'cd']);
  });
});
