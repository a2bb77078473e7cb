/** Text helpers for fixed-width TUI rows. Server text goes through `clean` (control sequences stripped). */
import { sanitize } from '../core/sanitize.js';

/** Server text made safe for one terminal line. */
export function clean(text: string | number | undefined | null): string {
  return text === undefined || text === null ? '' : sanitize(String(text));
}

/** Cut `text` to `width` columns (with `…`), optionally padded to exactly `width`. */
export function fit(text: string, width: number, pad = false): string {
  if (width <= 0) return '';
  const t = text.length > width ? (width === 1 ? text.slice(0, 1) : `${text.slice(0, width - 1)}…`) : text;
  return pad ? t.padEnd(width) : t;
}

/** Columns of a table row: each value cut or padded to its width, joined by two spaces; the last may be flexible (width 0 = rest). */
export function columns(values: readonly string[], widths: readonly number[], total: number): string {
  let out = '';
  for (let i = 0; i < values.length; i++) {
    const last = i === values.length - 1;
    const w = widths[i] || Math.max(0, total - out.length);
    out += last ? fit(values[i] ?? '', Math.max(0, Math.min(w, total - out.length))) : `${fit(values[i] ?? '', w, true)}  `;
  }
  return fit(out, total);
}

/** JSON for a confirmation: pretty-printed, every string sanitised, split into lines. */
export function jsonLines(value: unknown): string[] {
  return JSON.stringify(value, null, 2)
    .split('\n')
    .map((l) => sanitize(l));
}

/** Columns between tab stops, as terminals set them. */
const TAB = 8;

/** A line with each tab replaced by the spaces a terminal would move over (stops every 8 columns). */
export function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(TAB - (out.length % TAB)) : ch;
  return out;
}

/**
 * Word-wrap sanitised text (newlines kept) to lines of at most `width` columns. Tabs are expanded first: a
 * terminal moves a tab to its next stop, so a tab counted as one column made a line wider than the screen, and
 * the terminal cut or wrapped it (a character lost at every wrap). Spaces inside a line are kept as sent, a
 * paragraph's indentation too; the spaces where a line breaks are dropped.
 */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    let gap = '';
    for (const tok of expandTabs(para).match(/ +|[^ ]+/g) ?? []) {
      if (tok.startsWith(' ')) {
        gap = tok;
        continue;
      }
      if (!line) line = gap + tok;
      else if (line.length + gap.length + tok.length <= w) line += gap + tok;
      else {
        out.push(line);
        line = tok;
      }
      gap = '';
      while (line.length > w) {
        out.push(line.slice(0, w));
        line = line.slice(w);
      }
    }
    out.push(line);
  }
  return out;
}

/** A piece of a row with its own colour (a cell of a table row). */
export interface Seg {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
}

/** Plain text of segments. */
export const segText = (segs: readonly Seg[]) => segs.map((s) => s.text).join('');

/**
 * Columns `[from, from + width)` of a line of segments, cut with `…` where text goes on past the right edge,
 * optionally padded to exactly `width`.
 */
export function sliceSegs(segs: readonly Seg[], from: number, width: number, pad = false): Seg[] {
  const total = segText(segs).length;
  const out: Seg[] = [];
  if (width <= 0) return out;
  const end = from + width;
  const cut = total > end;
  let pos = 0;
  for (const s of segs) {
    const a = Math.max(pos, from);
    const b = Math.min(pos + s.text.length, cut ? end - 1 : end);
    if (b > a) out.push({ ...s, text: s.text.slice(a - pos, b - pos) });
    pos += s.text.length;
  }
  if (cut) out.push({ text: '…' });
  if (pad) {
    const len = segText(out).length;
    if (len < width) out.push({ text: ' '.repeat(width - len) });
  }
  return out;
}

/** Table cells as segments: each value cut or padded to its width (0 = the rest), two spaces between. */
export function segColumns(cells: readonly Seg[], widths: readonly number[], total: number): Seg[] {
  const out: Seg[] = [];
  let used = 0;
  for (let i = 0; i < cells.length; i++) {
    const last = i === cells.length - 1;
    const w = widths[i] || Math.max(0, total - used);
    const room = Math.max(0, Math.min(w, total - used));
    const text = last ? fit(cells[i]!.text, room) : fit(cells[i]!.text, room, true);
    out.push({ ...cells[i]!, text });
    used += text.length;
    if (!last && used < total) {
      out.push({ text: '  ' });
      used += 2;
    }
  }
  return sliceSegs(out, 0, total);
}

/**
 * The width of an id column: the longest id, at least `min`, and at most what the row can give it while the
 * other columns keep `othersMin` — ids are never cut when the terminal is wide enough to show them.
 */
export function idWidth(ids: Iterable<string>, min: number, rowWidth: number, othersMin: number): number {
  let longest = min;
  for (const id of ids) if (id.length > longest) longest = id.length;
  return Math.max(min, Math.min(longest, rowWidth - othersMin));
}

/** Most columns a column grows to on a wide terminal: one value without end must not take the row. */
const GROW_MAX = 60;

/**
 * Column widths that grow on a wide terminal (k9s sizes its columns to what they hold): every column has its base
 * width, the last (0) the rest of the row but at least `lastMin`; the room to spare goes to the columns whose
 * longest value (`longest`, by column) is wider than their base, left to right, each up to that value (at most
 * GROW_MAX). On a terminal with no room to spare the widths are the base ones.
 */
export function growWidths(base: readonly number[], longest: readonly number[], total: number, lastMin = 20): number[] {
  const out = [...base];
  const used = base.slice(0, -1).reduce((a, b) => a + b, 0) + 2 * (base.length - 1);
  let spare = total - used - lastMin;
  for (let i = 0; i < out.length - 1 && spare > 0; i++) {
    const want = Math.min(GROW_MAX, longest[i] ?? 0) - out[i]!;
    if (want <= 0) continue;
    const grow = Math.min(spare, want);
    out[i] = out[i]! + grow;
    spare -= grow;
  }
  return out;
}

/** The longest of some values (0 for none). */
export const longestOf = (values: Iterable<string>): number => {
  let n = 0;
  for (const v of values) if (v.length > n) n = v.length;
  return n;
};

/** `14:03:22`: the local time of a refresh, for list titles. */
export function clockTime(at: Date | string | number | undefined): string {
  if (at === undefined) return '';
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
