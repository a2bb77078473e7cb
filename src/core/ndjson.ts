/**
 * Reading an append-only NDJSON file written by pdesk (the audit trail, a trace) the way the thread store reads
 * its own: a last line without its newline is a write torn by a crash (never acknowledged) and is skipped with a
 * warning; a complete line that is not a JSON object is skipped with a warning naming its line number. Neither
 * stops the reader. (The thread store and the bulk journal have their own readers: they also repair and replay.)
 */
import { readFileSync } from 'node:fs';

export interface NdjsonRead<T> {
  /** The parsed lines, in file order, with their line numbers. */
  records: Array<{ line: number; value: T }>;
  /** One sentence per skipped line. */
  warnings: string[];
}

/** Every JSON object of `path`; `what` names the file in warnings ("the audit trail …"). ENOENT is an empty file. */
export function readNdjson<T = Record<string, unknown>>(path: string, what: string): NdjsonRead<T> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], warnings: [] };
    throw e;
  }
  return parseNdjson<T>(text, what);
}

/** As readNdjson, on text already read. */
export function parseNdjson<T = Record<string, unknown>>(text: string, what: string): NdjsonRead<T> {
  const records: Array<{ line: number; value: T }> = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  // The piece after the last newline: empty when the file ends with one, else a torn write.
  const tail = lines.pop() ?? '';
  lines.forEach((l, i) => {
    if (l.trim() === '') return;
    const value = parseObject(l);
    if (value === undefined) warnings.push(`${what}: line ${i + 1} is not a JSON record; skipped.`);
    else records.push({ line: i + 1, value: value as T });
  });
  if (tail.trim() !== '') warnings.push(`${what}: the last line (${lines.length + 1}) is incomplete, a write torn by a crash; skipped.`);
  return { records, warnings };
}

function parseObject(line: string): unknown {
  try {
    const v: unknown = JSON.parse(line);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
