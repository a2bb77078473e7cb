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

  it('wrap expands tabs to the stops a terminal uses: no line is wider than the width on screen, no character lost', () => {
    // Patient text as sent, with a TAB: each wrapped line was one column wider on screen than counted.
    const text = 'Ibuprofen:\tit can harm you\tif you take it daily; ask about your\tkidneys first.';
    const lines = wrap(text, 24);
    // Stops are counted from the start of the text as sent, as on one long line.
    expect(lines).toEqual(['Ibuprofen:      it can', 'harm you if you take it', 'daily; ask about your', 'kidneys first.']);
    for (const l of lines) {
      expect(l).not.toContain('\t');
      expect(l.length).toBeLessThanOrEqual(24);
    }
    expect(lines.join(' ').split(/\s+/)).toEqual(text.split(/\s+/));
    expect(format.expandTabs('a\tb\tc')).toBe(`a${' '.repeat(7)}b${' '.repeat(7)}c`);
  });

  it("wrap keeps the spaces inside a line and a paragraph's indentation, and drops them where it breaks", () => {
    expect(wrap('  indented  twice   here', 40)).toEqual(['  indented  twice   here']);
    expect(wrap('one   two', 4)).toEqual(['one', 'two']);
  });

  it('growWidths: on a wide row the columns grow to their longest value, left to right, the last keeping its minimum', () => {
    // 8 + 10 + 0 and two gaps: 22 used; at 60 the last keeps 20, 18 to spare.
    expect(format.growWidths([8, 10, 0], [30, 14, 0], 60)).toEqual([26, 10, 0]);
    expect(format.growWidths([8, 10, 0], [12, 14, 0], 60)).toEqual([12, 14, 0]);
    expect(format.growWidths([8, 10, 0], [30, 14, 0], 40)).toEqual([8, 10, 0]); // no room to spare
    expect(format.growWidths([8, 0], [500, 0], 400)).toEqual([60, 0]); // one endless value takes at most 60
  });

  it('jsonLines pretty-prints and sanitises every line', () => {
    expect(jsonLines({ a: 1, b: 'x' })).toEqual(['{', '  "a": 1,', '  "b": "x"', '}']);
  });

  it('segments are cut across cells with …, padded on request, and laid out as columns', () => {
    const segs = [{ text: 'abc', color: 'red' }, { text: 'def' }];
    expect(format.sliceSegs(segs, 0, 4)).toEqual([{ text: 'abc', color: 'red' }, { text: '…' }]);
    expect(format.segText(format.sliceSegs(segs, 2, 3))).toBe('cd…');
    expect(format.segText(format.sliceSegs(segs, 0, 8, true))).toBe('abcdef  ');
    expect(format.sliceSegs(segs, 1, 2)[0]).toEqual({ text: 'b', color: 'red' });
    const row = format.segColumns([{ text: 'id-1' }, { text: 'production', color: 'red' }, { text: 'the rest of it' }], [6, 4, 0], 20);
    expect(format.segText(row)).toBe('id-1    pro…  the r…');
    expect(row.find((s) => s.color === 'red')?.text).toBe('pro…');
  });

  it('an id column takes the longest id while the others keep their minimum; then it gives way', () => {
    const ids = ['appt-1', '6f1c2a7e-0b7d-4d8e-9a51-7f3c2b1e9d40'];
    expect(format.idWidth(ids, 10, 100, 50)).toBe(36);
    expect(format.idWidth(ids, 10, 70, 50)).toBe(20);
    expect(format.idWidth(['a'], 10, 100, 50)).toBe(10);
    expect(format.idWidth(ids, 10, 40, 50)).toBe(10);
  });

  it('clockTime is the local time of a refresh, and nothing for no time', () => {
    const d = new Date(2026, 2, 1, 9, 5, 7);
    expect(format.clockTime(d)).toBe('09:05:07');
    expect(format.clockTime(d.toISOString())).toBe('09:05:07');
    expect(format.clockTime(undefined)).toBe('');
    expect(format.clockTime('not a date')).toBe('');
  });
});
