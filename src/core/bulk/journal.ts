/**
 * The journal of a bulk send: an append-only NDJSON file recording, per CSV row, `sending` before the row's
 * request starts and its outcome (`ok`, `failed`, `unknown`) after. Records are written in groups with one
 * fsync per group (group commit: src/core/durable-log.ts); `record()` resolves only once its record is on disk.
 *
 * Line 1 is a header naming the template hash (text, topic, email column). Every row record carries the row
 * number and a hash of the row's fields, so a rerun against a changed CSV or template is detected. A torn
 * last line (crash mid-write) is cut off with a warning. Per-row state is held in typed arrays (9 bytes a
 * row), so memory stays small for very large files. A lock file keeps two runs off the same journal.
 */
import { hash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, fsyncSync, openSync, readSync, fstatSync, ftruncateSync } from 'node:fs';
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { DurableLog, bootId } from '../durable-log.js';
import { FieldError, PdeskError, UsageError } from '../errors.js';
import { LockHeld, acquireLockNow } from '../lockfile.js';
import { isoTime } from '../iso-time.js';

export const JOURNAL_KIND = 'pdesk-notifications';
export const JOURNAL_VERSION = 1;

/**
 * Row states. Journal records: `sending` (durable before the request may start), `started` (written just
 * before the request starts, not waited for), `ok`, `failed` (a definite answer), `unknown` (no answer: the
 * connection broke after the request went out), `cancelled` (journaled as sending, then not started because
 * the run was stopping; reads back as no record), `throttled` (answered 429: the server did not take it, and the
 * run sends it again after a pause, journaling `sending` anew; reads back as no record, like `cancelled`).
 *
 * Reading back, a `sending` with no later record is `queued` when it was written since the machine last
 * booted: a killed process loses nothing it had written, so no `started` line means the request never
 * started, and the row is sent again. Otherwise (another boot: a power loss may have dropped the `started`
 * line; or no boot id on this platform) it stays `sending`, whose outcome is unknown, like `started`.
 */
export const RowState = { none: 0, sending: 1, ok: 2, failed: 3, unknown: 4, started: 5, queued: 6 } as const;
export type RowStateValue = (typeof RowState)[keyof typeof RowState];
export type RecordState = 'sending' | 'started' | 'ok' | 'failed' | 'unknown' | 'cancelled' | 'throttled';
const STATE_OF: Record<string, RowStateValue> = { sending: 1, ok: 2, failed: 3, unknown: 4, started: 5, cancelled: 0, throttled: 0 };

/** A row whose request may have reached the server without its answer being recorded. */
export function isUncertain(state: RowStateValue): boolean {
  return state === RowState.sending || state === RowState.unknown || state === RowState.started;
}

/** The record starting each run: its boot id tells a rerun whether lines written without fsync survived. */
export interface RunRecord {
  run: string;
  boot: string | null;
  pid: number;
}

export interface JournalHeader {
  journal: typeof JOURNAL_KIND;
  version: number;
  template: string;
  emailColumn: string;
  csv: string;
  created: string;
}

export interface RowRecord {
  row: number;
  hash: string;
  state: RecordState;
  status?: number;
  reason?: string;
}

/** 16 hex digits of SHA-256 (crypto.hash, one call: a fifth of createHash's cost, asked for every row). */
export function shortHash(text: string): string {
  return hash('sha256', text).slice(0, 16);
}

export const rowHash = (fields: readonly string[]) => shortHash(JSON.stringify(fields));

/** Row state and hash per row number, in growable typed arrays. */
export class RowTable {
  private states = new Uint8Array(1024);
  private hashes = new Uint32Array(2048);
  /** Highest row number with a record. */
  maxRow = 0;
  /** Rows with any record. */
  count = 0;

  private grow(row: number): void {
    if (row < this.states.length) return;
    let n = this.states.length;
    while (n <= row) n *= 2;
    const s = new Uint8Array(n);
    s.set(this.states);
    const h = new Uint32Array(2 * n);
    h.set(this.hashes);
    this.states = s;
    this.hashes = h;
  }

  set(row: number, state: RowStateValue, hash: string): void {
    this.grow(row);
    if (this.states[row] === RowState.none && state !== RowState.none) this.count++;
    else if (this.states[row] !== RowState.none && state === RowState.none) this.count--;
    this.states[row] = state;
    this.hashes[2 * row] = parseInt(hash.slice(0, 8), 16) >>> 0;
    this.hashes[2 * row + 1] = parseInt(hash.slice(8, 16), 16) >>> 0;
    if (row > this.maxRow) this.maxRow = row;
  }

  state(row: number): RowStateValue {
    return (row < this.states.length ? this.states[row] : RowState.none) as RowStateValue;
  }

  /** True when the row has no record or its recorded hash is `hash`. */
  hashMatches(row: number, hash: string): boolean {
    if (this.state(row) === RowState.none) return true;
    return (
      this.hashes[2 * row] === parseInt(hash.slice(0, 8), 16) >>> 0 && this.hashes[2 * row + 1] === parseInt(hash.slice(8, 16), 16) >>> 0
    );
  }
}

export interface OpenJournalOptions {
  path: string;
  templateHash: string;
  emailColumn: string;
  csvPath: string;
  warn: (line: string) => void;
  /** Read only (dry run): no lock, no repair, no writes. */
  readOnly?: boolean;
}

export interface LoadedJournal {
  rows: RowTable;
  header?: JournalHeader;
  /** Complete lines that could not be read (skipped). */
  skippedLines: number;
}

/** Length of the file up to and including its last newline; `size` when it ends with one. */
function completeLength(fd: number, size: number): number {
  const chunk = 64 * 1024;
  const buf = Buffer.alloc(chunk);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk);
    const n = readSync(fd, buf, 0, end - start, start);
    const i = buf.subarray(0, n).lastIndexOf(0x0a);
    if (i >= 0) return start + i + 1;
    end = start;
  }
  return 0;
}

function firstLine(path: string): { text: string; terminated: boolean } {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    const i = text.indexOf('\n');
    return i >= 0 ? { text: text.slice(0, i), terminated: true } : { text, terminated: false };
  } finally {
    closeSync(fd);
  }
}

function notAJournal(path: string): FieldError {
  return new FieldError('journal', `${path} is not the journal of a pdesk bulk send; name a new file or the journal of this CSV`);
}

/** Check the header line, cut a torn last line (with a warning), then read every record into a RowTable. */
export async function loadJournal(o: OpenJournalOptions): Promise<LoadedJournal> {
  try {
    return await readJournal(o);
  } catch (e) {
    if (e instanceof PdeskError) throw e;
    throw new FieldError('journal', `names ${o.path}, which cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

async function readJournal(o: OpenJournalOptions): Promise<LoadedJournal> {
  const rows = new RowTable();
  if (!existsSync(o.path)) return { rows, skippedLines: 0 };
  const first = firstLine(o.path);
  let header: JournalHeader | undefined;
  try {
    const h = JSON.parse(first.text) as JournalHeader;
    if (h?.journal !== JOURNAL_KIND || !first.terminated) throw notAJournal(o.path);
    header = h;
  } catch (e) {
    // A torn header (crash while creating the journal): an unterminated prefix of a header line, nothing else.
    const prefix = `{"journal":"${JOURNAL_KIND}"`;
    const torn = !first.terminated && (first.text.startsWith(prefix) || prefix.startsWith(first.text));
    if (!torn) throw e instanceof UsageError ? e : notAJournal(o.path);
    header = undefined;
  }
  if (header) {
    if (header.version !== JOURNAL_VERSION)
      throw new FieldError('journal', `${o.path} was written by another version of pdesk (journal version ${header.version})`);
    if (header.template !== o.templateHash)
      throw new FieldError(
        'journal',
        `${o.path} was written for another {{text}}, {{topic}} or {{emailColumn}}; refusing to mix two sends in one journal`,
        ['Run again with the original text, topic and email column, or give {{journal}} a new file to start a separate send.'],
      );
  }

  // Cut a torn last line: a crash mid-write leaves a line without its newline.
  const fd = openSync(o.path, o.readOnly ? 'r' : 'r+');
  let size: number;
  try {
    size = fstatSync(fd).size;
    const complete = completeLength(fd, size);
    if (complete < size) {
      o.warn(`warning: the last line of the journal ${o.path} is incomplete (the previous run stopped while writing it); it is ignored.`);
      if (!o.readOnly) {
        ftruncateSync(fd, complete);
        fsyncSync(fd);
      }
      size = complete;
    }
  } finally {
    closeSync(fd);
  }
  if (!header) return { rows, skippedLines: 0 };

  let skippedLines = 0;
  let lineNo = 0;
  const boot = bootId();
  let sameBoot = false;
  /** Rows journaled `sending` with no later record yet, and their state before it. */
  const before = new Map<number, RowStateValue>();
  const input = createReadStream(o.path, { end: Math.max(0, size - 1), highWaterMark: 256 * 1024 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    lineNo++;
    if (lineNo === 1 || line === '') continue;
    let rec: RowRecord | undefined;
    try {
      rec = JSON.parse(line) as RowRecord;
    } catch {
      rec = undefined;
    }
    if (rec && typeof (rec as unknown as RunRecord).run === 'string') {
      sameBoot = boot !== null && (rec as unknown as RunRecord).boot === boot;
      continue;
    }
    let state = rec && STATE_OF[rec.state];
    if (
      !rec ||
      state === undefined ||
      !Number.isInteger(rec.row) ||
      rec.row < 1 ||
      typeof rec.hash !== 'string' ||
      !/^[0-9a-f]{16}$/.test(rec.hash)
    ) {
      skippedLines++;
      if (skippedLines <= 3) o.warn(`warning: line ${lineNo} of the journal ${o.path} is not a journal record; it is ignored.`);
      continue;
    }
    if (state === RowState.sending) {
      const prev = rows.state(rec.row);
      before.set(rec.row, prev);
      // A row an earlier run may have delivered stays uncertain until an outcome is recorded: a rerun that resends
      // uncertain rows and journaled it and then stopped before its request does not make it "never sent".
      if (isUncertain(prev)) state = prev;
      else if (sameBoot) state = RowState.queued;
    } else if (rec.state === 'cancelled' || rec.state === 'throttled') {
      const prev = before.get(rec.row);
      if (prev !== undefined && isUncertain(prev)) state = prev;
      before.delete(rec.row);
    } else before.delete(rec.row);
    rows.set(rec.row, state, rec.hash);
  }
  return { rows, header, skippedLines };
}

/**
 * Exclusive use of a journal: `<journal>.lock` (src/core/lockfile.ts); a lock left by a dead process is taken over,
 * one held by a live run is refused at once.
 */
export function lockJournal(path: string): () => void {
  const lock = `${path}.lock`;
  try {
    return acquireLockNow(lock);
  } catch (e) {
    if (!(e instanceof LockHeld))
      throw new FieldError('journal', `names ${path}, whose lock ${lock} cannot be created (${(e as NodeJS.ErrnoException).code ?? e})`);
    if (e.owner)
      throw new UsageError(
        `The journal ${path} is in use by another pdesk (pid ${e.owner.pid}${e.owner.host !== hostname() ? ` on ${e.owner.host}` : ''}); wait for it to finish or stop it first.`,
        [`If no such process is running, remove ${lock}.`],
      );
    throw new UsageError(`The journal ${path} is in use by another pdesk; remove ${lock} if none is running.`);
  }
}

/**
 * The journal's durable log (src/core/durable-log.ts) with its records: `record()` resolves once its line is on
 * disk, `recordAtWrite()` once it is written with its turn's lines (a row's `started` line, before its request).
 */
export class JournalWriter extends DurableLog {
  /** The line of a record (built by hand: row and status are integers, hash hex, state a fixed word). */
  static line(r: RowRecord): string {
    let s = `{"row":${r.row},"hash":"${r.hash}","state":"${r.state}"`;
    if (r.status !== undefined) s += `,"status":${r.status}`;
    if (r.reason !== undefined) s += `,"reason":${JSON.stringify(r.reason)}`;
    return `${s},"at":"${isoTime(Date.now())}"}`;
  }

  record(r: RowRecord): Promise<void> {
    return this.append(JournalWriter.line(r));
  }

  recordAtWrite(r: RowRecord): Promise<PdeskError | undefined> {
    return this.noteAtWrite(JournalWriter.line(r));
  }
}

/** Open a journal for appending; a new one gets its header line, made durable with its directory entry. */
export async function openJournal(path: string, header: JournalHeader | undefined): Promise<JournalWriter> {
  return JournalWriter.open(path, {
    what: 'journal',
    openError: (e) => new FieldError('journal', `names ${path}, which cannot be written (${e.code ?? e})`),
    lost: ['Rows whose outcome was not recorded are reported as uncertain by the next run.'],
    first: header && JSON.stringify(header),
  });
}
