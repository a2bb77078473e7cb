/** Column sort of a list (src/tui/components/sort.ts). */
import { describe, expect, it } from 'vitest';
import { type SortColumn, sortItems, sortLabel, sortPrompt } from '../../../src/tui/components/sort.js';

interface Row {
  id: string;
  n?: number;
  day: string;
}
const COLS: SortColumn<Row>[] = [
  { key: 'i', name: 'id', value: (r) => r.id },
  { key: 'n', name: 'count', value: (r) => r.n, desc: true },
];
const rows: Row[] = [
  { id: 'b-10', n: 2, day: 'mon' },
  { id: 'a-2', n: 10, day: 'tue' },
  { id: 'B-9', day: 'mon' },
  { id: 'a-10', n: 2, day: 'tue' },
];

describe('sortItems', () => {
  it('sorts text case-insensitively with numbers in order, numbers as numbers, rows without a value last either way', () => {
    expect(sortItems(rows, COLS, { key: 'i', desc: false }).map((r) => r.id)).toEqual(['a-2', 'a-10', 'B-9', 'b-10']);
    expect(sortItems(rows, COLS, { key: 'n', desc: false }).map((r) => r.id)).toEqual(['b-10', 'a-10', 'a-2', 'B-9']);
    expect(sortItems(rows, COLS, { key: 'n', desc: true }).map((r) => r.id)).toEqual(['a-2', 'b-10', 'a-10', 'B-9']);
    expect(sortItems(rows, COLS, { key: 'zz', desc: false })).toBe(rows);
  });

  it('in a grouped list sorts within each group, the groups keeping their order', () => {
    const grouped = [rows[0]!, rows[2]!, rows[1]!, rows[3]!]; // mon, mon, tue, tue
    expect(sortItems(grouped, COLS, { key: 'i', desc: true }, (r) => r.day).map((r) => r.id)).toEqual(['b-10', 'B-9', 'a-10', 'a-2']);
  });

  it('labels the sort for the title and lists the columns with their letters', () => {
    expect(sortLabel(COLS, { key: 'n', desc: true })).toBe('count ↓');
    expect(sortPrompt(COLS, { key: 'i', desc: false })).toMatch(
      /^sort by: i id↑ {2}n count {3}\(same letter again: reverse · Esc: keep\)$/,
    );
  });
});
