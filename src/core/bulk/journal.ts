/**
 * The journal of a bulk send: an append-only NDJSON file recording, per CSV row, `sending` before the row's
 * request starts and its outcome (`ok`, `failed`, `unknown`) after. Records are written in groups with one
 * fsync per group (group commit); `append()` resolves only once its record is on disk.
 *
 * Line 1 is a header naming the template hash (text, topic, email column). Every row record carries the row
 * number and a hash of the row's fields, so a rerun against a changed CSV or template is detected. A torn
 * last line (crash mid-write) is cut off with a warning. Per-row state is held in typed arrays (9 bytes a
 * row), so memory stays small for very large files. A lock file keeps two runs off the same journal.
 */
import { hash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  readSync,
  fstatSync,
  ftruncateSync,
  writeSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { ExitCode, PdeskError, UsageError } from '../errors.js';
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

let bootIdCache: string | null | undefined;
/** This machine's boot id (Linux), or null where there is none. */
export function bootId(): string | null {
  if (bootIdCache === undefined) {
    try {
      bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      bootIdCache = null;
    }
  }
  return bootIdCache;
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

function notAJournal(path: string): UsageError {
  return new UsageError(`--journal ${path} is not a pdesk notifications journal; name a new file or the journal of this CSV.`);
}

/** Check the header line, cut a torn last line (with a warning), then read every record into a RowTable. */
export async function loadJournal(o: OpenJournalOptions): Promise<LoadedJournal> {
  try {
    return await readJournal(o);
  } catch (e) {
    if (e instanceof PdeskError) throw e;
    throw new UsageError(`--journal: cannot read ${o.path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
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
      throw new UsageError(`--journal ${o.path} was written by another version of pdesk (journal version ${header.version}).`);
    if (header.template !== o.templateHash)
      throw new UsageError(
        `The journal ${o.path} was written for another --text, --topic or --email-column; refusing to mix two sends in one journal.`,
        ['Run again with the original options, or pass --journal <new file> to start a separate send.'],
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
      // A row an earlier run may have delivered stays uncertain until an outcome is recorded: a rerun with
      // --resend-uncertain that journaled it and then stopped before its request does not make it "never sent".
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
    if (!(e instanceof LockHeld)) throw new UsageError(`--journal: cannot create ${lock} (${(e as NodeJS.ErrnoException).code ?? e}).`);
    if (e.owner)
      throw new UsageError(
        `The journal ${path} is in use by another pdesk (pid ${e.owner.pid}${e.owner.host !== hostname() ? ` on ${e.owner.host}` : ''}); wait for it to finish or stop it first.`,
        [`If no such process is running, remove ${lock}.`],
      );
    throw new UsageError(`The journal ${path} is in use by another pdesk; remove ${lock} if none is running.`);
  }
}

/** Write errors of a full disk, a quota or a file size limit: the same command works again once there is room. */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * The lines appended between two writes: written together and made durable by the same fsync, so they share one
 * promise (a bulk send appends three lines a row; a promise each was a third of the writer's cost).
 */
export class Batch {
  readonly promise: Promise<void>;
  /** True once the batch is on disk (its promise resolved). */
  done = false;
  resolve!: () => void;
  reject!: (e: unknown) => void;
  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = () => {
        this.done = true;
        resolve();
      };
      this.reject = reject;
    });
  }
}

/**
 * Appends records with group commit. A record reaches the file (the page cache) at the end of the current
 * event-loop turn, together with every other record of that turn, in one write; records written while an
 * fsync runs are covered by the next one. `record()` resolves once its line is fsynced. A killed process
 * therefore loses at most the records of its last turn, and a machine crash at most the records not yet
 * acknowledged as durable.
 */
export class JournalWriter {
  /** Lines not yet written (without their line breaks), and the batch of those appended. */
  private buffered: string[] = [];
  private open?: Batch;
  private writeScheduled = false;
  /** Written, waiting for the next fsync. */
  private unsynced: Batch[] = [];
  private syncing = false;
  private failure?: PdeskError;
  /** fsyncs done (one per batch), for tests and the benchmark. */
  batches = 0;
  /**
   * Least time between two fsyncs (ms): fewer, larger groups. Each fsync also costs the event loop a hand-off
   * to the thread pool, which on a busy machine can block it for a while; callers that keep enough work in
   * flight (the bulk runner's lookahead) lose nothing by waiting a few milliseconds.
   */
  minSyncIntervalMs = 0;
  private lastSyncAt = 0;

  private constructor(
    private readonly fh: FileHandle,
    readonly path: string,
    private readonly what: string,
  ) {}

  /**
   * Open for appending; a new journal gets its header line, made durable with its directory entry. The write
   * audit trail (src/core/audit.ts) appends through this writer too: `what` names its file in errors, and
   * `openError` says what an unopenable file means there.
   */
  static async open(
    path: string,
    header: JournalHeader | Record<string, unknown> | undefined,
    o: { what?: string; openError?: (e: NodeJS.ErrnoException) => Error } = {},
  ): Promise<JournalWriter> {
    let fh: FileHandle;
    try {
      fh = await open(path, 'a', 0o600);
    } catch (e) {
      if (o.openError) throw o.openError(e as NodeJS.ErrnoException);
      throw new UsageError(`--journal: cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? e}).`);
    }
    const w = new JournalWriter(fh, path, o.what ?? 'journal');
    if (header) {
      await w.append(JSON.stringify(header));
      try {
        const dfd = openSync(dirname(path), 'r');
        try {
          fsyncSync(dfd);
        } finally {
          closeSync(dfd);
        }
      } catch {
        /* some platforms cannot fsync a directory */
      }
    }
    return w;
  }

  /** The line of a record (built by hand: row and status are integers, hash hex, state a fixed word). */
  static line(r: RowRecord): string {
    let s = `{"row":${r.row},"hash":"${r.hash}","state":"${r.state}"`;
    if (r.status !== undefined) s += `,"status":${r.status}`;
    if (r.reason !== undefined) s += `,"reason":${JSON.stringify(r.reason)}`;
    return `${s},"at":"${isoTime(Date.now())}"}`;
  }

  /**
   * Write a record with this turn's write (every line buffered in this turn, in one write), without waiting for an
   * fsync. The promise, shared by every note of the turn, resolves once the write is done: with nothing, or with the
   * error when it could not be written (it never rejects). A bulk send starts a row's request then: its `started` line
   * is in the file first, and rides the write its turn makes anyway.
   */
  noteAtWrite(r: RowRecord): Promise<PdeskError | undefined> {
    if (this.failure) return Promise.resolve(this.failure);
    this.buffered.push(JournalWriter.line(r));
    this.schedule();
    if (!this.turnWrite) {
      let resolve!: (error?: PdeskError) => void;
      const promise = new Promise<PdeskError | undefined>((r) => (resolve = r));
      this.turnWrite = { promise, resolve };
    }
    return this.turnWrite.promise;
  }

  /** What the notes of this turn wait for: the next write (noteAtWrite). */
  private turnWrite?: { promise: Promise<PdeskError | undefined>; resolve: (error?: PdeskError) => void };

  private schedule(): void {
    if (!this.writeScheduled) {
      this.writeScheduled = true;
      setImmediate(() => this.writeBuffered());
    }
  }

  record(r: RowRecord): Promise<void> {
    return this.append(JournalWriter.line(r));
  }

  /**
   * Append one line; resolves once it is written and fsynced. It is written at the end of the event-loop turn, with
   * every line appended in that turn, or sooner by `flush`.
   */
  append(line: string): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return this.appendInBatch(line).promise;
  }

  /**
   * As `append`, returning the batch the line is in (shared by every line of the turn): its `done` says without a
   * promise whether the line is on disk yet. Throws when the writer has failed.
   */
  appendInBatch(line: string): Batch {
    if (this.failure) throw this.failure;
    this.buffered.push(line);
    this.open ??= new Batch();
    this.schedule();
    return this.open;
  }

  /**
   * Buffer a line for this turn's write without waiting for any fsync (a bulk send's `started` lines of the audit
   * trail, written with the journal's own, before the request starts).
   */
  note(line: string): void {
    if (this.failure) return;
    this.buffered.push(line);
    this.schedule();
  }

  private fail(e: unknown): void {
    const code = (e as NodeJS.ErrnoException).code;
    this.failure ??= new PdeskError(`Cannot write the ${this.what} ${this.path} (${code ?? (e as Error).message}).`, ExitCode.unexpected, [
      ...(this.what === 'journal' ? ['Rows whose outcome was not recorded are reported as uncertain by the next run.'] : []),
      ...(code && FULL_CODES.has(code) ? ['The disk (or a file size limit) is full: make room, then run the same command again.'] : []),
    ]);
    for (const b of this.unsynced) b.reject(this.failure);
    this.open?.reject(this.failure);
    this.unsynced = [];
    this.open = undefined;
    this.buffered = [];
    this.wrote(this.failure);
  }

  private wrote(error?: PdeskError): void {
    const t = this.turnWrite;
    this.turnWrite = undefined;
    t?.resolve(error);
  }

  /**
   * Called before each write of buffered lines. A bulk send writes the audit trail's pending records there, so a
   * row's outcome line is never on disk before its request's audit record.
   */
  beforeWrite?: () => void;

  /** Write the buffered lines now (they are written at the end of the turn anyway). */
  flush(): void {
    this.writeBuffered();
  }

  /** One write for every buffered line (the page cache: microseconds), then an fsync unless one runs. */
  private writeBuffered(): void {
    this.writeScheduled = false;
    if (this.failure || this.buffered.length === 0) return;
    this.beforeWrite?.();
    this.buffered.push(''); // the last line's break
    const text = this.buffered.join('\n');
    this.buffered = [];
    try {
      // The text as is: node encodes it outside the JS heap (no Buffer per write). A short write, which a regular
      // file does not make but for a full disk, is finished from its bytes.
      const written = writeSync(this.fh.fd, text);
      const bytes = Buffer.byteLength(text);
      if (written < bytes) {
        const buf = Buffer.from(text);
        for (let off = written; off < bytes; ) off += writeSync(this.fh.fd, buf, off, bytes - off);
      }
    } catch (e) {
      this.fail(e);
      return;
    }
    if (this.open) this.unsynced.push(this.open);
    this.open = undefined;
    if (!this.syncing && this.unsynced.length) void this.syncLoop();
    this.wrote();
  }

  /** fsync on the thread pool while requests proceed; everything written before it started is then durable. */
  private async syncLoop(): Promise<void> {
    this.syncing = true;
    try {
      while (this.unsynced.length && !this.failure) {
        const wait = this.lastSyncAt + this.minSyncIntervalMs - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        this.lastSyncAt = Date.now();
        const batch = this.unsynced;
        this.unsynced = [];
        try {
          await this.fh.datasync();
        } catch (e) {
          this.unsynced.unshift(...batch);
          this.fail(e);
          return;
        }
        this.batches++;
        for (const b of batch) b.resolve();
      }
    } finally {
      this.syncing = false;
    }
  }

  /** Write and fsync what is left (also `started` notes not yet covered), then close. */
  async close(): Promise<void> {
    this.writeBuffered();
    while (this.syncing || this.writeScheduled || this.unsynced.length) await new Promise((r) => setImmediate(r));
    if (!this.failure) await this.fh.datasync().catch(() => undefined);
    await this.fh.close();
  }
}
