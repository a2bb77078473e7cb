/**
 * Windowed list: renders only the rows that fit (10,000 items scroll without lag), optional group headings
 * (e.g. slots by day), `/` filter, ↑↓ j k, PgUp PgDn, Home End (g G), Enter to open. Its height is exactly
 * `height` lines, whatever the number of items.
 *
 * The same on every list: `s` then a column's letter sorts by that column (the same letter again reverses;
 * `sort` names the columns), the title shows the sort and the time of the last refresh (`refreshedAt`), `y`
 * opens the selected row's resource raw and `X` its X-ray (`raw`, `xray`: inspect/context.tsx).
 */
import { Box, Text } from 'ink';
import type React from 'react';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { clockTime, fit, type Seg, segText, sliceSegs } from '../format.js';
import { type RawItem, type XraySubject, useInspectKeys } from '../inspect/context.js';
import type { Binding } from '../keys/router.js';
import { useKeys } from '../keys/useKeys.js';
import { useRefState } from '../keys/useRefState.js';
import { EDIT_KEYS, type LineState, editLine, lineView } from './line-editor.js';
import { type SortColumn, type SortState, sortItems, sortLabel, sortPrompt } from './sort.js';

export type { SortColumn, SortState } from './sort.js';

export interface ListViewProps<T> {
  items: readonly T[];
  /** Lines the list may use, including its title and filter lines. */
  height: number;
  width: number;
  /** One line per item (it is cut to the width): text, or coloured segments (table cells). */
  render: (item: T, width: number) => string | readonly Seg[];
  /** Text the `/` filter matches (case-insensitive); default: the rendered line. */
  filterText?: (item: T) => string;
  /** Group heading of an item; items must already be ordered by group. */
  groupOf?: (item: T) => string;
  renderGroup?: (group: string, count: number) => string;
  /** Title line (left) — the position `n/total` is shown on the right. */
  title?: string;
  /** Column header line under the title. */
  header?: string;
  onOpen?: (item: T) => void;
  /** Hint-line label of Enter (default "open"); undefined onOpen hides it. */
  openLabel?: string;
  /** Called when the selected item changes. */
  onSelect?: (item: T | undefined) => void;
  /** Shown when there are no items. */
  empty?: string;
  /** Keys are active (default true). */
  active?: boolean;
  /** Key of an item, to keep the selection on the same item when the list changes. */
  itemKey?: (item: T) => string;
  /** The key of the item to select first, once it is listed (the current profile on Systems); default the first row. */
  initialKey?: string;
  /** Rows drawn dim (e.g. slots already past). */
  dim?: (item: T) => boolean;
  /** Columns `s` sorts by, and the sort to start with (none: the order given). */
  sort?: { columns: readonly SortColumn<T>[]; initial?: SortState };
  /** When the items were last read: shown in the title. */
  refreshedAt?: Date | string | number;
  /** `y`: the selected row's resource as received. */
  raw?: (item: T) => RawItem | undefined;
  /** `X`: the X-ray of the selected row. */
  xray?: (item: T) => XraySubject | undefined;
}

type Row<T> = { group: string; count: number; item?: undefined } | { item: T; group?: undefined; count?: undefined };

interface View {
  sel: number;
  top: number;
}

export function ListView<T>(p: ListViewProps<T>) {
  const [filter, setFilter, filterRef] = useRefState<LineState>({ value: '', cursor: 0 });
  const [editing, setEditing] = useRefState(false);
  const active = p.active ?? true;

  // The parent's callbacks (render, itemKey, onSelect…) are new closures on most renders, while what the list
  // computes changes only with the items: the latest callbacks are read through a ref.
  const cb = useRef(p);
  cb.current = p;
  const [sort, setSort, sortRef] = useRefState<SortState | undefined>(p.sort?.initial);
  const [sorting, setSorting] = useRefState(false);
  const sortColumns = p.sort?.columns;
  // Columns are read through the ref: a parent passing a fresh array each render does not re-sort the list.
  const columnKeys = sortColumns?.map((c) => c.key).join('') ?? '';
  const items = useMemo(() => {
    const cols = cb.current.sort?.columns;
    return sort && cols && columnKeys ? sortItems(p.items, cols, sort, cb.current.groupOf) : p.items;
  }, [p.items, sort, columnKeys]);

  // The lower-cased filter text of every item, built only once a filter is typed (costly on a long list).
  const filtering = filter.value.trim() !== '';
  const lowered = useMemo(() => {
    if (!filtering) return undefined;
    const { filterText, render } = cb.current;
    const f = filterText ?? ((x: T) => textOf(render(x, 200)));
    return items.map((x) => f(x).toLowerCase());
  }, [items, filtering]);

  const rows = useMemo<Row<T>[]>(() => {
    const needle = filter.value.trim().toLowerCase();
    const kept: T[] = [];
    for (let i = 0; i < items.length; i++) if (!needle || !lowered || lowered[i]!.includes(needle)) kept.push(items[i]!);
    if (!p.groupOf) return kept.map((item) => ({ item }));
    const out: Row<T>[] = [];
    let current: { group: string; count: number } | undefined;
    for (const item of kept) {
      const g = p.groupOf(item);
      if (!current || current.group !== g) {
        current = { group: g, count: 0 };
        out.push(current);
      }
      current.count++;
      out.push({ item });
    }
    return out;
  }, [items, lowered, filter.value, p.groupOf]);

  const itemCount = useMemo(() => rows.reduce((n, r) => (r.item !== undefined ? n + 1 : n), 0), [rows]);
  const showFilter = editing || filter.value !== '' || sorting;
  // A short list keeps a row and the filter line first (a kept filter never goes unseen), then its title (with the
  // position), then the column header.
  const spare = p.height - 1 - (showFilter ? 1 : 0);
  const title = spare >= 1 ? p.title : undefined;
  const header = spare >= (title !== undefined ? 2 : 1) ? p.header : undefined;
  const chrome = (title !== undefined ? 1 : 0) + (header !== undefined ? 1 : 0) + (showFilter ? 1 : 0);
  const visible = Math.max(1, p.height - chrome);

  const firstSel = (from: number, dir: 1 | -1) => firstItem(rows, from, dir);

  const [view, setView, viewRef] = useRefState<View>({ sel: -1, top: 0 });

  // Keep the view valid when rows change (sorted, filtered, reloaded): the same item if it is still there, else
  // the nearest row. `anchor` is the rows the selection was last drawn on: only new rows move it to its item.
  const lastKey = useRef<string | undefined>(p.initialKey);
  const anchor = useRef<readonly Row<T>[]>(rows);
  const normalize = (v: View): View => normalizeView(v, rows, visible, cb.current.itemKey, lastKey.current, rows !== anchor.current);
  const normalized = useMemo(
    () => normalizeView(view, rows, visible, cb.current.itemKey, lastKey.current, rows !== anchor.current),
    [view, rows, visible],
  );
  // Once drawn on new rows, the view holds where the selection went (the next keys move from there).
  useLayoutEffect(() => {
    anchor.current = rows;
    if (view.sel !== normalized.sel || view.top !== normalized.top) setView(normalized);
  }, [rows, view, normalized, setView]);

  const selected = normalized.sel >= 0 ? rows[normalized.sel]?.item : undefined;
  // A layout effect: key handlers of the parent (e.g. `c` on the selected row) must see it at once. The parent
  // hears of it when the selection changes, not when its callbacks are re-created.
  useLayoutEffect(() => {
    const { itemKey, onSelect } = cb.current;
    // Nothing listed yet (or nothing matches a filter): the item to come back to is kept.
    if (selected !== undefined) lastKey.current = itemKey ? itemKey(selected) : undefined;
    onSelect?.(selected);
  }, [selected]);

  /** Move relative to the latest view (keys may arrive faster than renders). */
  const moveTo = (target: (sel: number) => number, dir: 1 | -1) => {
    if (!rows.length) return;
    const n = normalize(viewRef.current);
    const t = Math.max(0, Math.min(rows.length - 1, target(n.sel)));
    let sel = firstSel(t, dir);
    if (sel < 0) sel = firstSel(t, dir === 1 ? -1 : 1);
    if (sel < 0) return;
    // The item moved to is the one to keep: rows that change before this is drawn (a background refresh) must
    // not take the selection back to the row it left.
    const it = rows[sel]?.item;
    if (it !== undefined && cb.current.itemKey) lastKey.current = cb.current.itemKey(it);
    setView(normalize({ sel, top: n.top }));
  };

  const listKeys: Binding[] = [
    { keys: ['down', 'j'], helpKeys: '↑↓ j k', help: 'move up and down', run: () => moveTo((s) => s + 1, 1) },
    { keys: ['up', 'k'], run: () => moveTo((s) => s - 1, -1) },
    { keys: ['pgdn', 'ctrl-f'], helpKeys: 'PgUp PgDn ^B ^F', help: 'page up and down', run: () => moveTo((s) => s + visible, 1) },
    { keys: ['pgup', 'ctrl-b'], run: () => moveTo((s) => s - visible, -1) },
    { keys: ['home', 'g'], helpKeys: 'Home End g G', help: 'first and last row', run: () => moveTo(() => 0, 1) },
    { keys: ['end', 'G'], run: () => moveTo(() => rows.length - 1, -1) },
    { keys: ['/'], label: 'filter', help: 'filter the list (Enter keeps it, Esc clears it)', run: () => setEditing(true) },
  ];
  if (sortColumns?.length)
    listKeys.push({
      keys: ['s'],
      label: 'sort',
      help: `sort: s, then the column's letter (${sortColumns.map((c) => `${c.key} ${c.name}`).join(', ')}); the same letter again reverses`,
      run: () => setSorting(true),
    });
  if (p.onOpen)
    listKeys.unshift({
      keys: ['enter'],
      label: p.openLabel ?? 'open',
      help: p.openLabel ?? 'open the selected row',
      run: () => {
        const n = normalize(viewRef.current);
        const item = n.sel >= 0 ? rows[n.sel]?.item : undefined;
        if (item !== undefined) p.onOpen!(item);
      },
    });
  useKeys(listKeys, { active });

  // `s` was pressed: the next key names the column (the same column again reverses), Esc keeps the sort.
  useKeys(
    [
      { keys: ['esc'], label: 'keep sort', run: () => setSorting(false) },
      {
        keys: ['text'],
        run: (input) => {
          const col = sortColumns?.find((c) => c.key === input);
          if (!col) return false;
          const cur = sortRef.current;
          setSort({ key: col.key, desc: cur?.key === col.key ? !cur.desc : !!col.desc });
          setSorting(false);
        },
      },
    ],
    { layer: 'input', capture: true, active: active && sorting },
  );

  const currentItem = () => {
    const n = normalize(viewRef.current);
    return n.sel >= 0 ? rows[n.sel]?.item : undefined;
  };
  useInspectKeys(
    {
      raw: p.raw
        ? () => {
            const it = currentItem();
            return it === undefined ? undefined : cb.current.raw?.(it);
          }
        : undefined,
      xray: p.xray
        ? () => {
            const it = currentItem();
            return it === undefined ? undefined : cb.current.xray?.(it);
          }
        : undefined,
    },
    { active },
  );

  // A set filter: Esc clears it before Esc means "back".
  useKeys([{ keys: ['esc'], label: 'clear filter', help: 'clear the filter', run: () => setFilter({ value: '', cursor: 0 }) }], {
    layer: 'input',
    active: active && !editing && filter.value !== '',
  });

  // Editing the filter: every key goes to the filter line.
  useKeys(
    [
      { keys: ['enter'], label: 'keep filter', run: () => setEditing(false) },
      {
        keys: ['esc'],
        label: 'clear filter',
        run: () => {
          setFilter({ value: '', cursor: 0 });
          setEditing(false);
        },
      },
      {
        keys: [...EDIT_KEYS],
        run: (input, key) => {
          const next = editLine(filterRef.current, input, key, 200);
          if (!next) return false;
          setFilter(next);
          setView((v) => ({ sel: -1, top: v.top }));
        },
      },
    ],
    { layer: 'input', capture: true, active: active && editing },
  );

  const w = p.width;
  const lines: React.ReactNode[] = [];
  if (title !== undefined) {
    const count = itemCount
      ? `${selected !== undefined ? rowsBeforeItems(rows, normalized.sel) : 0}/${itemCount}${filter.value ? ` of ${p.items.length}` : ''}`
      : '';
    const by = sort && sortColumns ? sortLabel(sortColumns, sort) : '';
    const pos = [by, clockTime(p.refreshedAt), count].filter(Boolean).join(' · ');
    const left = fit(title, Math.max(0, w - pos.length - 1));
    lines.push(
      <Text key="title" bold wrap="truncate">
        {left.padEnd(Math.max(0, w - pos.length))}
        {pos}
      </Text>,
    );
  }
  if (header !== undefined)
    lines.push(
      <Text key="header" dimColor wrap="truncate">
        {fit(header, w)}
      </Text>,
    );
  if (!rows.length) {
    lines.push(
      <Text key="empty" dimColor wrap="truncate">
        {fit(filter.value ? `No row matches "${filter.value}".` : (p.empty ?? '(none)'), w)}
      </Text>,
    );
  } else {
    const end = Math.min(rows.length, normalized.top + visible);
    for (let i = normalized.top; i < end; i++) {
      const r = rows[i]!;
      if (r.item === undefined) {
        const g = r as { group: string; count: number };
        lines.push(
          <Text key={`g${i}`} color="cyan" bold wrap="truncate">
            {fit(p.renderGroup ? p.renderGroup(g.group, g.count) : `${g.group} (${g.count})`, w)}
          </Text>,
        );
      } else {
        const isSel = i === normalized.sel;
        const out = p.render(r.item as T, w - 2);
        lines.push(
          <Text key={`r${i}`} inverse={isSel && active} bold={isSel} dimColor={!isSel && !!p.dim?.(r.item as T)} wrap="truncate">
            {typeof out === 'string'
              ? fit(`${isSel ? '>' : ' '} ${out}`, w, isSel && active)
              : sliceSegs([{ text: isSel ? '> ' : '  ' }, ...out], 0, w, isSel && active).map((g, k) => (
                  <Text key={k} color={g.color} bold={g.bold} dimColor={g.dim}>
                    {g.text}
                  </Text>
                ))}
          </Text>,
        );
      }
    }
  }
  // Pad to the full height so the frame does not jump.
  const used = lines.length + (showFilter ? 1 : 0);
  for (let i = used; i < p.height; i++) lines.push(<Text key={`pad${i}`}> </Text>);
  if (sorting && sortColumns) {
    lines.push(
      <Text key="filter" color="yellow" wrap="truncate">
        {fit(sortPrompt(sortColumns, sortRef.current), w)}
      </Text>,
    );
  } else if (showFilter) {
    const [a, b, c] = lineView(filter, Math.max(1, w - 2));
    lines.push(
      <Text key="filter" wrap="truncate">
        <Text color="yellow">/</Text>
        {editing ? (
          <>
            {a}
            <Text inverse>{b}</Text>
            {c}
          </>
        ) : (
          <Text color="yellow">{fit(filter.value, w - 2)}</Text>
        )}
      </Text>,
    );
  }
  return (
    <Box flexDirection="column" height={p.height} overflowY="hidden">
      {lines.slice(0, p.height)}
    </Box>
  );
}

const textOf = (r: string | readonly Seg[]) => (typeof r === 'string' ? r : segText(r));

/** The first item row from `from` in direction `dir`, or -1. */
function firstItem<T>(rows: readonly Row<T>[], from: number, dir: 1 | -1): number {
  for (let i = from; i >= 0 && i < rows.length; i += dir) if (rows[i]!.item !== undefined) return i;
  return -1;
}

/** A valid view of `rows`: the selection on an item (the one keyed `lastKey` if it is still there), in the window. */
function normalizeView<T>(
  v: View,
  rows: readonly Row<T>[],
  visible: number,
  itemKey: ((item: T) => string) | undefined,
  lastKey: string | undefined,
  /** The rows changed since the selection was drawn: keep it on its item. */
  follow = false,
): View {
  let sel = v.sel;
  if (follow && lastKey !== undefined && itemKey) {
    const at = rows[sel]?.item;
    if (at === undefined || itemKey(at) !== lastKey) {
      const found = rows.findIndex((r) => r.item !== undefined && itemKey(r.item) === lastKey);
      if (found >= 0) sel = found;
    }
  }
  if (sel >= rows.length || sel < 0 || rows[sel]?.item === undefined) {
    let found = -1;
    if (lastKey !== undefined && itemKey) found = rows.findIndex((r) => r.item !== undefined && itemKey(r.item) === lastKey);
    sel = found >= 0 ? found : firstItem(rows, Math.max(0, Math.min(v.sel, rows.length - 1)), 1);
    if (sel < 0) sel = firstItem(rows, rows.length - 1, -1);
  }
  let top = Math.min(v.top, Math.max(0, rows.length - visible));
  if (sel >= 0) {
    if (sel < top) top = sel > 0 && rows[sel - 1]?.item === undefined ? sel - 1 : sel;
    if (sel >= top + visible) top = sel - visible + 1;
  }
  return { sel, top: Math.max(0, top) };
}

/** 1-based position of the item at row `sel` among items (headings not counted). */
function rowsBeforeItems<T>(rows: readonly Row<T>[], sel: number): number {
  // Group headings are few (one per day); count them instead of items.
  let groups = 0;
  for (let i = 0; i <= sel; i++) if (rows[i]!.item === undefined) groups++;
  return sel + 1 - groups;
}
