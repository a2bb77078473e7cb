/**
 * Column sort of a list (ListView's `s`): the columns a list offers, each with the letter that picks it, how a
 * row is compared by it, and the sort's label for the title. Sorting is stable; rows without a value go last;
 * in a grouped list (slots by day) rows are sorted within their group and the groups keep their order.
 */
export interface SortColumn<T> {
  /** The letter after `s`: `i` id, `t` time. */
  key: string;
  /** Shown in the prompt and the title: `start`. */
  name: string;
  /** The value compared: numbers as numbers, text case-insensitively. */
  value: (item: T) => string | number | undefined;
  /** Sort this column descending first (counts, times where the newest matters). */
  desc?: boolean;
}

export interface SortState {
  key: string;
  desc: boolean;
}

/**
 * Made on the first text comparison, not when the TUI loads: building a collator loads ICU's collation data, which
 * the first frame does not need; no screen needs it until a list is sorted by text.
 */
let collator: Intl.Collator | undefined;

function compare(a: string | number | undefined, b: string | number | undefined): number {
  if (a === undefined || a === '') return b === undefined || b === '' ? 0 : 1;
  if (b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return collator.compare(String(a), String(b));
}

export function sortItems<T>(
  items: readonly T[],
  columns: readonly SortColumn<T>[],
  sort: SortState,
  groupOf?: (item: T) => string,
): readonly T[] {
  const col = columns.find((c) => c.key === sort.key);
  if (!col) return items;
  const sign = sort.desc ? -1 : 1;
  const keyed = items.map((item, i) => ({ item, i, v: col.value(item) }));
  let groupRank: Map<string, number> | undefined;
  let groups: string[] | undefined;
  if (groupOf) {
    groupRank = new Map();
    groups = items.map((x) => {
      const g = groupOf(x);
      if (!groupRank!.has(g)) groupRank!.set(g, groupRank!.size);
      return g;
    });
  }
  keyed.sort((x, y) => {
    if (groups && groupRank) {
      const d = groupRank.get(groups[x.i]!)! - groupRank.get(groups[y.i]!)!;
      if (d) return d;
    }
    const missingX = x.v === undefined || x.v === '';
    const missingY = y.v === undefined || y.v === '';
    // Rows without a value stay last whichever way the sort goes.
    if (missingX !== missingY) return missingX ? 1 : -1;
    return sign * compare(x.v, y.v) || x.i - y.i;
  });
  return keyed.map((k) => k.item);
}

/** `start ↑` for the title. */
export function sortLabel<T>(columns: readonly SortColumn<T>[], sort: SortState): string {
  const col = columns.find((c) => c.key === sort.key);
  return col ? `${col.name} ${sort.desc ? '↓' : '↑'}` : '';
}

/** The prompt after `s`: `sort by: i id  s status  t start …`. */
export function sortPrompt<T>(columns: readonly SortColumn<T>[], sort: SortState | undefined): string {
  return `sort by: ${columns.map((c) => `${c.key} ${c.name}${sort?.key === c.key ? (sort.desc ? '↓' : '↑') : ''}`).join('  ')}   (same letter again: reverse · Esc: keep)`;
}
