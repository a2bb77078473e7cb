/**
 * JSON for the raw view: pretty-printed, every line sanitised (server text never reaches the terminal with
 * control sequences) and redacted (a server may echo a credential), each line split into coloured tokens.
 */
import { redact } from '../../core/redact.js';
import { sanitize } from '../../core/sanitize.js';
import type { Seg } from '../format.js';

const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],])/g;

export const JSON_COLORS = { key: 'cyan', string: 'green', number: 'yellow', literal: 'magenta', punct: 'gray' } as const;

/** The value as pretty JSON lines, sanitised and redacted. */
export function rawLines(value: unknown): string[] {
  const text = value === undefined ? '(nothing)' : (JSON.stringify(value, null, 2) ?? String(value));
  return redact(text)
    .split('\n')
    .map((l) => sanitize(l));
}

/** One JSON line as coloured segments. */
export function colorLine(line: string): Seg[] {
  const out: Seg[] = [];
  let last = 0;
  for (const m of line.matchAll(TOKEN)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ text: line.slice(last, at) });
    if (m[1] !== undefined) {
      out.push({ text: m[1], color: m[2] !== undefined ? JSON_COLORS.key : JSON_COLORS.string });
      if (m[2] !== undefined) out.push({ text: m[2], color: JSON_COLORS.punct });
    } else if (m[3] !== undefined) out.push({ text: m[3], color: JSON_COLORS.number });
    else if (m[4] !== undefined) out.push({ text: m[4], color: JSON_COLORS.literal });
    else out.push({ text: m[5]!, color: JSON_COLORS.punct });
    last = at + m[0].length;
  }
  if (last < line.length) out.push({ text: line.slice(last) });
  return out;
}
