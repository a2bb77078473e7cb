/**
 * An append-only NDJSON file written with group commit: the durable log under the write audit trail
 * (src/core/audit.ts) and the bulk send's journal (src/core/bulk/journal.ts).
 *
 * A line reaches the file (the page cache) at the end of the event-loop turn it was appended in, with every other
 * line of that turn, in one write; lines written while an fsync runs are covered by the next one. `append()`
 * resolves once its line is fsynced. A killed process therefore loses at most the lines of its last turn, and a
 * machine crash at most the lines not yet acknowledged as durable.
 */
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ExitCode, PdeskError } from './errors.js';

let bootIdCache: string | null | undefined;
/**
 * This machine's boot id (Linux), or null where there is none. A run line naming it tells a reader whether lines
 * written without an fsync can have been lost since (another boot) or not (a killed process loses nothing it wrote).
 */
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

/** Write errors of a full disk, a quota or a file size limit: the same command works again once there is room. */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * The lines appended between two writes: written together and made durable by the same fsync, so they share one
 * promise (a bulk send appends three lines a row).
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

export interface DurableLogOptions {
  /** What the file is, for errors: `audit trail`, `journal`. */
  what: string;
  /** The error of a file that cannot be opened for appending. */
  openError: (e: NodeJS.ErrnoException) => Error;
  /** Detail lines of a write that fails, after the error (what the failure means for this log). */
  lost?: string[];
}

/** Appends lines with group commit (see the module's comment). */
export class DurableLog {
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
   * Least time between two fsyncs (ms): fewer, larger groups. Each fsync costs the event loop a hand-off to the
   * thread pool; callers that keep enough work in flight (a bulk send's look-ahead) lose nothing by waiting.
   */
  minSyncIntervalMs = 0;
  private lastSyncAt = 0;

  /** Use `open`. */
  constructor(
    private readonly fh: FileHandle,
    readonly path: string,
    private readonly o: Pick<DurableLogOptions, 'what' | 'lost'>,
  ) {}

  /**
   * Open `path` for appending (mode 0600), as this class or a subclass (a journal); a first line given (a header) is
   * made durable with its directory entry.
   */
  static async open<T extends DurableLog>(
    this: new (
      fh: FileHandle,
      path: string,
      o: Pick<DurableLogOptions, 'what' | 'lost'>,
    ) => T,
    path: string,
    o: DurableLogOptions & { first?: string },
  ): Promise<T> {
    let fh: FileHandle;
    try {
      fh = await open(path, 'a', 0o600);
    } catch (e) {
      throw o.openError(e as NodeJS.ErrnoException);
    }
    const log = new this(fh, path, o);
    if (o.first === undefined) return log;
    await log.append(o.first);
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
    return log;
  }

  /**
   * Write a line with this turn's write (every line buffered in this turn, in one write), without waiting for an
   * fsync. The promise, shared by every note of the turn, resolves once the write is done: with nothing, or with the
   * error when it could not be written (it never rejects). A bulk send starts a row's request then: its `started`
   * line is in the file first, and rides the write its turn makes anyway.
   */
  noteAtWrite(line: string): Promise<PdeskError | undefined> {
    if (this.failure) return Promise.resolve(this.failure);
    this.buffered.push(line);
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
   * promise whether the line is on disk yet. Throws when the log has failed.
   */
  appendInBatch(line: string): Batch {
    if (this.failure) throw this.failure;
    this.buffered.push(line);
    this.open ??= new Batch();
    this.schedule();
    return this.open;
  }

  /** Buffer a line for this turn's write without waiting for any fsync (a bulk row's `started` line in the audit trail). */
  note(line: string): void {
    if (this.failure) return;
    this.buffered.push(line);
    this.schedule();
  }

  private fail(e: unknown): void {
    const code = (e as NodeJS.ErrnoException).code;
    this.failure ??= new PdeskError(
      `Cannot write the ${this.o.what} ${this.path} (${code ?? (e as Error).message}).`,
      ExitCode.unexpected,
      [
        ...(this.o.lost ?? []),
        ...(code && FULL_CODES.has(code) ? ['The disk (or a file size limit) is full: make room, then run the same command again.'] : []),
      ],
    );
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

  /** One write for every buffered line (the page cache), then an fsync unless one runs. */
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

  /** Write and fsync what is left (also notes not yet covered), then close. */
  async close(): Promise<void> {
    this.writeBuffered();
    while (this.syncing || this.writeScheduled || this.unsynced.length) await new Promise((r) => setImmediate(r));
    if (!this.failure) await this.fh.datasync().catch(() => undefined);
    await this.fh.close();
  }
}
