/**
 * Output formats of cli.md: `table` (TTY default; fits the terminal width, server text sanitised), `json`
 * (default when piped) and `ndjson` (one JSON value per line). JSON output is bounded in depth: a value nested
 * deeper than MAX_JSON_DEPTH (only an answer that breaks the interface is) is a ContractError naming its path
 * (exit 6), where JSON.stringify would overflow the stack.
 */
import { ContractError } from '../core/errors.js';
import { MAX_READ_DEPTH, deepPath, shortJsonPath } from '../core/json.js';
import { sanitize } from '../core/sanitize.js';

export type Format = 'table' | 'json' | 'ndjson';
export const FORMATS: readonly Format[] = ['table', 'json', 'ndjson'];

export interface Column<T> {
  header: string;
  value: (row: T) => string | number | undefined;
  /** Columns marked `flex` shrink first when the table is wider than the terminal. */
  flex?: boolean;
}

function cell(v: string | number | undefined): string {
  return v === undefined ? '' : sanitize(String(v));
}

function truncate(s: string, width: number): string {
  if (s.length <= width) return s;
  return width <= 1 ? s.slice(0, width) : `${s.slice(0, width - 1)}…`;
}

/** Render rows as a table no wider than `width`. */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], width = 100): string {
  const cells = rows.map((r) => columns.map((c) => cell(c.value(r))));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i]!.length)));
  const gap = 2;
  let total = widths.reduce((a, b) => a + b, 0) + gap * (columns.length - 1);
  // Shrink flexible columns first (widest first), then any column, down to a floor of 6 characters.
  for (const pass of [true, false]) {
    while (total > width) {
      let widest = -1;
      widths.forEach((w, i) => {
        if ((!pass || columns[i]!.flex) && w > 6 && (widest < 0 || w > widths[widest]!)) widest = i;
      });
      if (widest < 0) break;
      const cut = Math.min(total - width, widths[widest]! - 6);
      widths[widest] = widths[widest]! - cut;
      total -= cut;
    }
  }
  const line = (vals: string[]) =>
    vals
      .map((v, i) => (i === vals.length - 1 ? truncate(v, widths[i]!) : truncate(v, widths[i]!).padEnd(widths[i]!)))
      .join(' '.repeat(gap))
      .trimEnd();
  const out = [line(columns.map((c) => c.header)), ...cells.map(line)];
  return out.join('\n');
}

/** A single resource in table mode: `field  value` lines, nested values as compact JSON. */
export function renderRecord(record: Record<string, unknown>, width = 100): string {
  const keys = Object.keys(record);
  const kw = Math.max(...keys.map((k) => k.length), 1);
  return keys
    .map((k) => {
      const v = record[k];
      const text = typeof v === 'string' ? v : tooDeep(v) ? `(nested more than ${MAX_JSON_DEPTH} levels deep)` : JSON.stringify(v);
      return `${k.padEnd(kw)}  ${truncate(sanitize(text ?? ''), Math.max(10, width - kw - 2))}`;
    })
    .join('\n');
}

/** The deepest nesting JSON output prints; interface resources are a few levels deep. */
export const MAX_JSON_DEPTH = MAX_READ_DEPTH;

/** The path to the first value nested more than `max` levels deep, or undefined (a walk without recursion). */
export function tooDeep(value: unknown, max = MAX_JSON_DEPTH): Array<string | number> | undefined {
  return deepPath(value, max);
}

/**
 * JSON text safe for a terminal: JSON.stringify escapes C0 controls but leaves DEL and C1 (e.g. U+009B, a CSI)
 * as they are; those are escaped too. The text stays valid JSON with the same value. A value nested deeper
 * than MAX_JSON_DEPTH is a ContractError (exit 6) naming the path.
 */
export function safeJson(value: unknown, pretty = false): string {
  checkDepth(value);
  return jsonText(value, pretty);
}

/** A ContractError naming the path of a value nested deeper than MAX_JSON_DEPTH, if there is one. */
function checkDepth(value: unknown): void {
  const deep = tooDeep(value);
  if (deep)
    throw new ContractError(shortJsonPath(deep), `the value is nested more than ${MAX_JSON_DEPTH} levels deep`, [
      'An interface resource is a few levels deep; pdesk does not print this answer as JSON.',
    ]);
}

function jsonText(value: unknown, pretty: boolean): string {
  return JSON.stringify(value, null, pretty ? 2 : undefined).replace(
    /[\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function renderJson(data: unknown, format: 'json' | 'ndjson'): string {
  if (format === 'json') return safeJson(data, true);
  if (Array.isArray(data)) {
    checkDepth(data); // once for the whole list, so the path names the element: $[3].…
    return data.map((d) => jsonText(d, false)).join('\n');
  }
  return safeJson(data);
}
