/**
 * The file engine's layout on disk: a profile's store is a series of append-only NDJSON segments, each with an
 * optional summary (an index of what a receiver needs), and the reading of one segment line by line.
 *
 *   threads/<profile>.ndjson                   segment 1 (the store's only file before segments existed)
 *   threads/<profile>.d/000002.ndjson          segment 2, 3, …: the highest is the one appended to
 *   threads/<profile>.d/000001.index.json      summary of segment 1 (written once it is sealed), and so on
 *
 * A writer starts the next segment once the last one holds SEGMENT_BYTES; a segment is never rewritten. A
 * summary lists the message ids (with their threads) and the closed threads of a segment's first `bytes` bytes,
 * so that a receiver starts without reading the history: it reads the summaries, then only the bytes after
 * them. A summary is a cache: one that is missing, damaged or does not match its segment is ignored and the
 * segment read instead.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { type FileHandle, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type AnyRecord, type LoadedMessage, type RepairRecord, asRecord, parseMessageAt } from './records.js';

/**
 * A segment is sealed (the next one started) once it holds this many bytes, about 6,000 messages: what a
 * receiver reads at start besides the summaries.
 */
export const SEGMENT_BYTES = 4 * 1024 * 1024;
/** Bytes read at a time: reading a segment never holds more than this (and one line) in one buffer. */
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
const SUMMARY_VERSION = 1;
/** Bytes before a summary's end that it names by hash, to tell that the segment is still the one it read. */
const CHECK_BYTES = 64;
/** Warnings kept in a summary (a segment with more bad lines than this says so in one more line). */
const MAX_SUMMARY_WARNINGS = 20;

/** The folder of segments 2, 3, … (and of every summary) beside `first`, the store's first file. */
export function segmentsFolder(first: string): string {
  return `${first.slice(0, -'.ndjson'.length)}.d`;
}

const pad = (n: number) => String(n).padStart(6, '0');

export function segmentPath(first: string, n: number): string {
  return n === 1 ? first : join(segmentsFolder(first), `${pad(n)}.ndjson`);
}

export function summaryPath(first: string, n: number): string {
  return join(segmentsFolder(first), `${pad(n)}.index.json`);
}

/** The numbers of the segments that exist after the first, in order (the first is not checked). */
export function laterSegments(first: string): number[] {
  let names: string[];
  try {
    names = readdirSync(segmentsFolder(first));
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    const m = /^(\d{6,})\.ndjson$/.exec(name);
    if (m && Number(m[1]) >= 2) out.push(Number(m[1]));
  }
  return out.sort((a, b) => a - b);
}

// ---------------------------------------------------------------- reading a segment

/** Where the reading of one segment stands. */
export class SegmentCursor {
  /** Bytes of the segment read (always at a line's end). */
  offset = 0;
  lineNo = 0;
  /** The segment was read at least once (its incomplete last line is reported only the first time). */
  seen = false;
  /** An unparsable line waiting to see whether a repair record follows it. */
  badLine?: { line: number; problem: string };

  constructor(
    readonly n: number,
    readonly path: string,
  ) {}
}

export type ReadRecord = AnyRecord | LoadedMessage;

/**
 * A copy of `s` that shares no memory with the string it was cut from. An id matched out of a segment's text is
 * a slice that keeps the whole text (a megabyte) alive; an index kept for the life of a process must not.
 */
export const ownCopy = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));

/**
 * Read the segment from `cursor.offset` to its last complete line, `CHUNK_BYTES` at a time, calling `onRecord`
 * with each record in order and `warn` with each problem. A last line without a newline is a write in progress
 * in another process, or a write torn by a crash (never acknowledged): it is left unread, to be read again next
 * time, and reported on the first read when it is not a whole record. The next writer ends a torn line with a
 * repair record (records.ts). Returns false when the segment does not exist.
 */
export async function readSegment(
  cursor: SegmentCursor,
  onRecord: (r: ReadRecord) => void,
  warn: (message: string) => void,
): Promise<boolean> {
  let fh: FileHandle;
  try {
    fh = await open(cursor.path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  const first = !cursor.seen;
  cursor.seen = true;
  try {
    const { size } = await fh.stat();
    if (size < cursor.offset) {
      // The file was replaced or truncated by someone else: start over.
      warn('the file became shorter than what was read before; it is read again from the start.');
      cursor.offset = 0;
      cursor.lineNo = 0;
    }
    let carry: Buffer | undefined;
    let pos = cursor.offset;
    while (pos < size) {
      const want = Math.min(CHUNK_BYTES, size - pos);
      const chunk = Buffer.allocUnsafe(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await fh.read(chunk, got, want - got, pos + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      pos += got;
      const buf = carry ? Buffer.concat([carry, chunk.subarray(0, got)]) : chunk.subarray(0, got);
      carry = undefined;
      const end = buf.lastIndexOf(NEWLINE);
      if (end < 0) carry = buf;
      else {
        parseLines(cursor, buf.toString('utf8', 0, end), onRecord, warn);
        cursor.offset += end + 1;
        if (end + 1 < buf.length) carry = buf.subarray(end + 1);
      }
      if (got < want) break;
    }
    flushBadLine(cursor, warn);
    if (first && carry?.length) {
      let complete = false;
      try {
        JSON.parse(carry.toString('utf8'));
        complete = true;
      } catch {
        /* incomplete */
      }
      if (!complete) warn(`the last line (${cursor.lineNo + 1}) is incomplete, a write torn by a crash and never acknowledged; skipped.`);
    }
  } finally {
    await fh.close();
  }
  return true;
}

/**
 * Every record of a store, oldest first, each segment read whole (not its summary): for copying a store elsewhere
 * (`pdesk store import`). Unparsable lines are warnings, as for any reader.
 */
export async function readStore(first: string, onRecord: (r: ReadRecord) => void, warn: (message: string) => void): Promise<void> {
  for (const n of [1, ...laterSegments(first)]) {
    const path = segmentPath(first, n);
    await readSegment(new SegmentCursor(n, path), onRecord, (w) => warn(`thread store ${path}: ${w}`));
  }
}

function flushBadLine(cursor: SegmentCursor, warn: (message: string) => void): void {
  const b = cursor.badLine;
  if (!b) return;
  cursor.badLine = undefined;
  warn(`line ${b.line} is not a valid record (${b.problem}); skipped.`);
}

function parseLines(cursor: SegmentCursor, text: string, onRecord: (r: ReadRecord) => void, warn: (message: string) => void): void {
  let start = 0;
  while (start <= text.length) {
    let nl = text.indexOf('\n', start);
    if (nl < 0) nl = text.length;
    const from = start;
    start = nl + 1;
    cursor.lineNo++;
    if (nl === from) continue;
    let record: ReadRecord | RepairRecord | undefined = parseMessageAt(text, from, nl);
    let problem: string | undefined;
    if (!record) {
      const line = text.slice(from, nl);
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        problem = 'not JSON';
      }
      if (!problem) {
        const r = asRecord(value);
        if ('problem' in r) problem = r.problem;
        else record = r.record;
      }
    }
    if (record?.kind === 'repair') {
      // The line before it is a fragment torn by a crash, which its writer found and ended: skip it without a
      // warning. A whole record before it is kept: a writer in another process can see the file mid-write
      // (its size grows page by page) and add a repair record after a line that was complete after all.
      cursor.badLine = undefined;
      continue;
    }
    flushBadLine(cursor, warn);
    if (problem) cursor.badLine = { line: cursor.lineNo, problem };
    else onRecord(record as ReadRecord);
  }
}

// ---------------------------------------------------------------- summaries

/** What a receiver needs of one segment: its messages' ids and threads, its closed threads. */
export interface SegmentSummary {
  /** Bytes of the segment it covers (up to a line's end), and the lines in them. */
  bytes: number;
  lines: number;
  /** id, thread, id, thread, … of every message record. */
  messages: string[];
  /** thread, time, … of every close record. */
  closed: string[];
  /** Problems found in those bytes (skipped lines), without the file's name. */
  warnings: string[];
}

/** A summary being built while a segment is read. */
export function newSummary(): SegmentSummary {
  return { bytes: 0, lines: 0, messages: [], closed: [], warnings: [] };
}

export function addToSummary(s: SegmentSummary, r: ReadRecord): void {
  if (r.kind === 'message') s.messages.push(ownCopy(r.id), ownCopy(r.thread));
  else if (r.kind === 'close') s.closed.push(ownCopy(r.thread), ownCopy(r.at));
}

async function tailHash(fh: FileHandle, bytes: number): Promise<string> {
  const len = Math.min(CHECK_BYTES, bytes);
  const buf = Buffer.alloc(len);
  if (len) await fh.read(buf, 0, len, bytes - len);
  return createHash('sha256').update(buf).digest('hex').slice(0, 32);
}

/**
 * A summary as read back: the segment's message ids sorted (searched in place, never copied into a map), each
 * with the index of its thread in `threads`.
 */
export interface SummaryTable {
  bytes: number;
  lines: number;
  /** The segment's size when the summary was read. */
  size: number;
  ids: string[];
  threadOf: number[];
  threads: string[];
  closed: string[];
  warnings: string[];
}

/** The position of `id` in a table's sorted ids, or -1. */
export function findId(t: SummaryTable, id: string): number {
  const ids = t.ids;
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The sorted table a summary is written as: the first record of an id counts. */
function toTable(s: SegmentSummary): Pick<SummaryTable, 'ids' | 'threadOf' | 'threads'> {
  const threadIndex = new Map<string, number>();
  const byId = new Map<string, number>();
  for (let i = 0; i < s.messages.length; i += 2) {
    const id = s.messages[i]!;
    if (byId.has(id)) continue;
    const thread = s.messages[i + 1]!;
    let t = threadIndex.get(thread);
    if (t === undefined) {
      t = threadIndex.size;
      threadIndex.set(thread, t);
    }
    byId.set(id, t);
  }
  const ids = [...byId.keys()].sort();
  return { ids, threadOf: ids.map((id) => byId.get(id)!), threads: [...threadIndex.keys()] };
}

const isStringList = (v: unknown, pairs = false): v is string[] =>
  Array.isArray(v) && (!pairs || v.length % 2 === 0) && v.every((x) => typeof x === 'string');

/**
 * The table's arrays are there and agree in length. Their entries are not checked one by one (that was a tenth
 * of a start-up): a summary is written whole by pdesk or not at all, and a wrong entry could only make a
 * receiver miss a duplicate, which the view still shows once.
 */
function wellFormed(ids: unknown, threadOf: unknown, threads: unknown): boolean {
  return Array.isArray(ids) && Array.isArray(threadOf) && Array.isArray(threads) && threadOf.length === ids.length;
}

/**
 * The summary of segment `n` when there is one that matches the segment as it is now (its bytes are still there
 * and end as they did), with the segment's size now; else undefined.
 */
export async function readSummary(first: string, n: number): Promise<SummaryTable | undefined> {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(await readFile(summaryPath(first, n), 'utf8'));
  } catch {
    return undefined;
  }
  const { bytes, lines, ids, threadOf, threads, closed, warnings, check } = value ?? {};
  if (
    value?.v !== SUMMARY_VERSION ||
    !Number.isSafeInteger(bytes) ||
    !Number.isSafeInteger(lines) ||
    !wellFormed(ids, threadOf, threads) ||
    !isStringList(closed, true) ||
    !Array.isArray(warnings) ||
    typeof check !== 'string'
  )
    return undefined;
  let fh: FileHandle | undefined;
  let size: number;
  try {
    fh = await open(segmentPath(first, n), 'r');
    size = (await fh.stat()).size;
    if ((bytes as number) > size || (await tailHash(fh, bytes as number)) !== check) return undefined;
  } catch {
    return undefined;
  } finally {
    await fh?.close().catch(() => undefined);
  }
  return {
    bytes: bytes as number,
    lines: lines as number,
    size,
    ids: ids as string[],
    threadOf: threadOf as number[],
    threads: threads as string[],
    closed,
    warnings: (warnings as unknown[]).filter((w): w is string => typeof w === 'string'),
  };
}

/** Read segment `n` whole into a summary (`warnings` collects its problems too). */
export async function summarize(first: string, n: number): Promise<SegmentSummary | undefined> {
  const s = newSummary();
  const cursor = new SegmentCursor(n, segmentPath(first, n));
  const found = await readSegment(
    cursor,
    (r) => addToSummary(s, r),
    (w) => s.warnings.push(w),
  );
  if (!found) return undefined;
  s.bytes = cursor.offset;
  s.lines = cursor.lineNo;
  return s;
}

/**
 * Write the summary of segment `n` (atomically: a temporary file renamed over it). Several processes may write
 * the same summary; any of them is right. Errors are the caller's to ignore: a summary is only a cache.
 */
export async function writeSummary(first: string, n: number, s: SegmentSummary): Promise<void> {
  const path = summaryPath(first, n);
  const fh0 = await open(segmentPath(first, n), 'r');
  let check: string;
  try {
    check = await tailHash(fh0, s.bytes);
  } finally {
    await fh0.close();
  }
  let warnings = s.warnings;
  if (warnings.length > MAX_SUMMARY_WARNINGS)
    warnings = [...warnings.slice(0, MAX_SUMMARY_WARNINGS), `${warnings.length - MAX_SUMMARY_WARNINGS} more problems like these.`];
  const text = JSON.stringify({
    v: SUMMARY_VERSION,
    file: basename(segmentPath(first, n)),
    bytes: s.bytes,
    lines: s.lines,
    check,
    ...toTable(s),
    closed: s.closed,
    warnings,
  });
  await mkdir(segmentsFolder(first), { recursive: true, mode: 0o700 }); // a store of one file has no folder yet
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
