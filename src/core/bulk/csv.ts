/**
 * CSV input of bulk sends, streamed with csv-parse (quoted fields, embedded delimiters and newlines, a UTF-8
 * BOM): the separator (`,` or `;`, or a tab) is detected from the header line; records come one at a time, so
 * memory stays flat however long the file is. Also the writer of the failed-rows CSV.
 */
import { createReadStream, openSync, readSync, closeSync } from 'node:fs';
import { finished } from 'node:stream';
import { parse, type Parser } from 'csv-parse';
import { FieldError } from '../errors.js';

export type Delimiter = ',' | ';' | '\t';

/** Read the start of a file (enough for a header line); `field` names the file in errors. */
function head(path: string, field: string, bytes = 64 * 1024): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new FieldError(field, `names ${path}, which cannot be read (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The separator of the header line: the most frequent of `,` `;` and tab outside quotes (`,` on a tie). */
export function detectDelimiter(text: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (c === ',' || c === ';' || c === '\t')) counts[c]++;
  }
  let best: Delimiter = ',';
  for (const d of [';', '\t'] as const) if (counts[d] > counts[best]) best = d;
  return best;
}

export function detectFileDelimiter(path: string, field = 'csv'): Delimiter {
  return detectDelimiter(head(path, field));
}

/** What `openCsv` reads of the file at a time, unless told: a pass over the whole file with nothing else to do. */
const READ_CHUNK_BYTES = 64 * 1024;

/**
 * What a bulk send reads at a time. csv-parse parses each chunk it is given at once, and holds its records until they
 * are taken: a large chunk keeps the portal waiting while it is parsed, and gives every young-generation collection
 * its records to copy; a small one costs a read every few dozen rows (docs/performance.md).
 */
export const SEND_CHUNK_BYTES = 4 * 1024;

/** A csv-parse stream over `path`: arrays of fields, the header being the first record; read `chunkBytes` at a time. */
export function openCsv(path: string, delimiter: Delimiter, chunkBytes = READ_CHUNK_BYTES): Parser {
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  const input = createReadStream(path, { highWaterMark: chunkBytes });
  input.on('error', (e) => parser.destroy(e));
  parser.on('close', () => input.destroy());
  return input.pipe(parser);
}

/** What `eachRecord` does after a record: go on (undefined), stop (false), or wait, then go on or stop. */
export type RecordStep = undefined | false | Promise<undefined | false>;

/**
 * Call `f` with every record of a csv-parse stream in order, then destroy the stream; rejects with the stream's error.
 * Records already parsed are handed over one after another with no promise each (a bulk send reads thousands a
 * second; an async iterator makes a promise and a result object per record); it waits only for the stream to parse
 * more, or while `f`'s returned promise is pending.
 */
export async function eachRecord(parser: Parser, f: (record: string[]) => RecordStep): Promise<void> {
  let ended = false;
  let error: unknown;
  let wake: (() => void) | undefined;
  const next = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  parser.on('readable', next);
  // The end, an error, or a premature close (an error too).
  const stopWatching = finished(parser, (e) => {
    if (e) error = e;
    else ended = true;
    next();
  });
  try {
    for (;;) {
      const record = parser.destroyed ? null : (parser.read() as string[] | null);
      if (record !== null) {
        const step = f(record);
        if (step === false || (step !== undefined && (await step) === false)) return;
      } else if (error !== undefined) throw error;
      else if (ended) return;
      else await new Promise<void>((r) => (wake = r));
    }
  } finally {
    stopWatching();
    parser.off('readable', next);
    parser.destroy();
  }
}

/** The first record of a CSV file (its header), or undefined for an empty file. */
export async function readHeader(path: string, delimiter: Delimiter): Promise<string[] | undefined> {
  const parser = openCsv(path, delimiter);
  try {
    for await (const rec of parser) return rec as string[];
    return undefined;
  } finally {
    parser.destroy();
  }
}

/** One CSV line (with its line break), quoting fields that need it. */
export function csvLine(fields: readonly string[], delimiter: Delimiter): string {
  return `${fields
    .map((f) => (f.includes(delimiter) || /["\r\n]/.test(f) || /^\s|\s$/.test(f) ? `"${f.replace(/"/g, '""')}"` : f))
    .join(delimiter)}\r\n`;
}

/** The problem of a csv-parse error, as one sentence fragment. */
export function describeCsvError(e: unknown): string {
  const err = e as { code?: string; message?: string; lines?: number };
  const msg = (err.message ?? String(e)).replace(/^Invalid (Record|Opening Quote|Closing Quote)?:?\s*/i, '');
  return `${msg}${err.lines && !/line \d+/.test(msg) ? ` (line ${err.lines})` : ''}`;
}
