/** Fixed-width text of the TUI (src/tui/format.ts): server text cleaned, cut, padded, wrapped. */
import { describe, expect, it } from 'vitest';
import * as format from '../../src/tui/format.js';

const { clean, columns, jsonLines, wrap } = format;

describe('format', () => {
  it('clean strips control sequences from server text and renders nothing for nothing', () => {
    expect(clean('a\u001b]0;pwned\u0007b\u001b[2Jc')).toBe('abc');
    expect(clean(undefined)).toBe('');
    expect(clean(42)).toBe('42');
  });

  it('fit cuts with … and pads on request', () => {
    expect(format.fit('abcdef', 4)).toBe('abc…');
    expect(format.fit('ab', 4, true)).toBe('ab  ');
    expect(format.fit('ab', 0)).toBe('');
    expect(format.fit('ab', 1)).toBe('a');
  });

  it('columns pads each cell to its width and gives the last the rest, never wider than the total', () => {
    expect(columns(['id', 'status', 'a long text here'], [4, 6, 0], 20)).toBe('id    status  a lon…');
    expect(columns(['x', 'y'], [3, 0], 4)).toHaveLength(4);
  });

  it('wrap keeps words whole where it can and cuts a word longer than the width', () => {
    expect(wrap('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('a\nb', 10)).toEqual(['a', 'b']);
  });

  it('jsonLines pretty-prints and sanitises every line', () => {
    expect(jsonLines({ a: 1, b: 'x' })).toEqual(['{', '  "a": 1,', '  "b": "x"', '}']);
  });
});
