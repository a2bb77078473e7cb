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

/** Word-wrap sanitised text (newlines kept) to lines of at most `width` columns. */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/ +/)) {
      if (!word) continue;
      if (!line) line = word;
      else if (line.length + 1 + word.length <= w) line += ` ${word}`;
      else {
        out.push(line);
        line = word;
      }
      while (line.length > w) {
        out.push(line.slice(0, w));
        line = line.slice(w);
      }
    }
    out.push(line);
  }
  return out;
}
