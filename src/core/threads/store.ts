/**
 * The durable, append-only thread store (record format: records.ts). One file per profile,
 * `<dir>/threads/<profile>.ndjson`.
 *
 * Writing: `append(records)` resolves only after the records are written and fsynced (the file's folder is
 * fsynced too when the file is created). Appends made while a write is in progress are written together
 * with the next write (group commit: several records, one fsync); nothing is acknowledged before its fsync.
 * The file is opened with O_APPEND and each batch goes out in one write, so several processes (a `listen`
 * and `chat send` commands) can share one store.
 *
 * Reading: `load()` reads what was appended since the last read (the whole file the first time) and
 * returns the view. Unparsable lines are skipped with a warning (`warnings`, and `onWarning`), never an
 * error. `watch(fn)` calls `fn` with new records, from this process (after their fsync) and from others
 * (fs.watch on the folder).
 */
import { EventEmitter } from 'node:events';
import { type FSWatcher, mkdirSync, watch as fsWatch } from 'node:fs';
import { type FileHandle, mkdir, open, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type LoadedMessage, type RepairRecord, type StoreRecord, asRecord, parseMessageAt, repairRecord, resourceOf } from './records.js';
import { type ThreadMessage, type ThreadSummary, ThreadView } from './view.js';

export interface ThreadStoreOptions {
  /** Called with each warning (a skipped line) as it is found. */
  onWarning?: (message: string) => void;
}

const NEWLINE = 0x0a;

/** The file of a profile's thread store. */
export function threadStorePath(dir: string, profile: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(profile)) throw new Error(`Invalid profile name for a thread store: ${JSON.stringify(profile)}`);
  return join(dir, 'threads', `${profile}.ndjson`);
}

export function openThreadStore(dir: string, profile: string, o: ThreadStoreOptions = {}): ThreadStore {
  return new ThreadStore(threadStorePath(dir, profile), profile, o);
}

interface Pending {
  data: string;
  resolve: () => void;
  reject: (e: unknown) => void;
}

async function fsyncDir(path: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(path, 'r');
    await fh.sync();
  } catch {
    /* not supported on every platform (Windows); the file's own fsync still holds */
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

export class ThreadStore {
  readonly view = new ThreadView();
  readonly warnings: string[] = [];
  private readonly events = new EventEmitter();
  /** Bytes of the file already read into the view. */
  private offset = 0;
  private lineNo = 0;
  /** The last line read (applied once the next line is read). */
  private held?: StoreRecord | LoadedMessage;
  private loaded = false;
  private reading = false;
  private requested = 0;
  private completed = 0;
  private waiters: Array<{ want: number; resolve: () => void; reject: (e: unknown) => void }> = [];
  /** An unparsable line waiting to see whether a repair record follows it. */
  private badLine?: { line: number; problem: string };

  private fh?: Promise<FileHandle>;
  private queue: Pending[] = [];
  private writing = false;
  private idle?: Promise<void>;
  private idleResolve?: () => void;
  private watcher?: FSWatcher;
  private closed = false;

  constructor(
    readonly path: string,
    readonly profile: string,
    private readonly opts: ThreadStoreOptions = {},
  ) {
    this.events.setMaxListeners(0);
  }

  // ---------------------------------------------------------------- reading

  /** Bring the view up to date with the file (all of it on the first call) and return it. */
  async load(): Promise<ThreadView> {
    await this.refresh();
    return this.view;
  }

  /** Threads newest first, with open/closed, last message and unread count (call `load()` first). */
  threadSummaries(): ThreadSummary[] {
    return this.view.threads;
  }

  /** A thread's messages in order, or undefined for an unknown thread (call `load()` first). */
  messages(thread: string): ThreadMessage[] | undefined {
    return this.view.messages(thread);
  }

  /**
   * Read what was appended since the last read into the view (new records are also emitted to watchers).
   * Calls made while a read runs are served by one more read after it, so the promise always covers
   * everything appended before the call.
   */
  refresh(): Promise<void> {
    const want = ++this.requested;
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ want, resolve, reject }));
    if (!this.reading) {
      this.reading = true;
      void this.readLoop();
    }
    return p;
  }

  private async readLoop(): Promise<void> {
    while (this.completed < this.requested) {
      const target = this.requested;
      let error: unknown;
      try {
        await this.readNew();
      } catch (e) {
        error = e;
      }
      this.completed = target;
      const ready = this.waiters.filter((w) => w.want <= target);
      this.waiters = this.waiters.filter((w) => w.want > target);
      for (const w of ready) error === undefined ? w.resolve() : w.reject(error);
    }
    this.reading = false;
  }

  private warn(message: string): void {
    const full = `thread store ${this.path}: ${message}`;
    this.warnings.push(full);
    this.opts.onWarning?.(full);
  }

  private flushBadLine(): void {
    const b = this.badLine;
    if (!b) return;
    this.badLine = undefined;
    this.warn(`line ${b.line} is not a valid record (${b.problem}); skipped.`);
  }

  private async readNew(): Promise<void> {
    const first = !this.loaded;
    this.loaded = true;
    let fh: FileHandle;
    try {
      fh = await open(this.path, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    // Records are collected for watchers only (a first load of a large store has none).
    const out: StoreRecord[] | undefined = this.events.listenerCount('records') ? [] : undefined;
    try {
      const { size } = await fh.stat();
      if (size < this.offset) {
        // The file was replaced or truncated by someone else: start over.
        this.warn('the file became shorter than what was read before; it is read again from the start.');
        this.offset = 0;
        this.lineNo = 0;
      }
      // Everything new in one read: one buffer, one string (a 100,000-message store is about 65 MB).
      const len = size - this.offset;
      const buf = Buffer.allocUnsafe(len);
      let got = 0;
      while (got < len) {
        const { bytesRead } = await fh.read(buf, got, len - got, this.offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      const end = buf.lastIndexOf(NEWLINE, got - 1);
      if (end >= 0) {
        this.parseLines(buf.toString('utf8', 0, end), out);
        this.offset += end + 1;
      }
      const carry = got > end + 1 ? buf.subarray(end + 1, got) : undefined;
      this.settle(out);
      // A last line without a newline is a write in progress in another process, or a write torn by a crash
      // (never acknowledged): it is left unread, to be read again next time, and reported on the first read
      // when it is not a whole record. The next writer ends a torn line with a repair record (records.ts).
      if (first && carry?.length) {
        let complete = false;
        try {
          JSON.parse(carry.toString('utf8'));
          complete = true;
        } catch {
          /* incomplete */
        }
        if (!complete)
          this.warn(`the last line (${this.lineNo + 1}) is incomplete, a write torn by a crash and never acknowledged; skipped.`);
      }
    } finally {
      await fh.close();
    }
    if (out?.length) this.events.emit('records', out);
  }

  /** Apply the line held back at the end of what was read (no repair record follows it). */
  private settle(out: StoreRecord[] | undefined): void {
    const held = this.held;
    this.held = undefined;
    if (held) this.accept(held, out);
    this.flushBadLine();
  }

  private accept(r: StoreRecord | LoadedMessage, out: StoreRecord[] | undefined): void {
    this.view.apply(r);
    if (out) {
      if (r.kind === 'message') resourceOf(r as LoadedMessage);
      out.push(r as StoreRecord);
    }
  }

  private parseLines(text: string, out: StoreRecord[] | undefined): void {
    let start = 0;
    while (start <= text.length) {
      let nl = text.indexOf('\n', start);
      if (nl < 0) nl = text.length;
      const from = start;
      start = nl + 1;
      this.lineNo++;
      if (nl === from) continue;
      let record: StoreRecord | RepairRecord | LoadedMessage | undefined = parseMessageAt(text, from, nl);
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
        this.badLine = undefined;
        continue;
      }
      const held = this.held;
      this.held = undefined;
      if (held) this.accept(held, out);
      this.flushBadLine();
      if (problem) this.badLine = { line: this.lineNo, problem };
      else this.held = record as StoreRecord | LoadedMessage;
    }
  }

  /** Call `fn` with every batch of new records (this process's and other processes'). Returns an unsubscribe. */
  watch(fn: (records: StoreRecord[]) => void): () => void {
    this.events.on('records', fn);
    if (!this.watcher && !this.closed) {
      const dir = dirname(this.path);
      const name = basename(this.path);
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 }); // so that a store another process creates later is seen
        this.watcher = fsWatch(dir, { persistent: false }, (_event, file) => {
          if (!file || file === name) this.refresh().catch((e) => this.warn(`cannot read: ${(e as Error).message}`));
        });
        this.watcher.on('error', () => undefined);
      } catch {
        // No folder and none can be made: this process's own appends are still reported.
      }
    }
    return () => {
      this.events.off('records', fn);
      if (this.events.listenerCount('records') === 0) {
        this.watcher?.close();
        this.watcher = undefined;
      }
    };
  }

  // ---------------------------------------------------------------- writing

  /** Create the folder and open the file for appending (done by the first append; call it early to fail early). */
  prepare(): Promise<FileHandle> {
    if (!this.fh) {
      this.fh = (async () => {
        const dir = dirname(this.path);
        await mkdir(dir, { recursive: true, mode: 0o700 });
        let existed = true;
        try {
          await stat(this.path);
        } catch {
          existed = false;
        }
        const fh = await open(this.path, 'a+', 0o600);
        if (!existed) {
          await fh.sync();
          await fsyncDir(dir);
          await fsyncDir(dirname(dir));
        }
        return fh;
      })();
      this.fh.catch(() => {
        this.fh = undefined;
      });
    }
    return this.fh;
  }

  /**
   * Append records durably: resolves once they are written and fsynced, rejects if they may not be.
   * The view and watchers see them after that.
   */
  append(records: readonly StoreRecord[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`The thread store ${this.path} is closed.`));
    if (records.length === 0) return Promise.resolve();
    const data = records.map((r) => `${JSON.stringify(r)}\n`).join('');
    const p = new Promise<void>((resolve, reject) => this.queue.push({ data, resolve, reject }));
    if (!this.writing) void this.drain();
    return p.then(() => {
      // Pick up what was just written (and anything other processes appended) for the view and watchers.
      return this.refresh().catch(() => undefined);
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    if (!this.idle) this.idle = new Promise((r) => (this.idleResolve = r));
    while (this.queue.length) {
      const batch = this.queue.splice(0);
      try {
        await this.write(batch.map((b) => b.data).join(''));
        for (const b of batch) b.resolve();
      } catch (e) {
        for (const b of batch) b.reject(e);
      }
    }
    this.writing = false;
    this.idleResolve?.();
    this.idle = undefined;
  }

  private async write(data: string): Promise<void> {
    const fh = await this.prepare();
    let prefix = '';
    const { size } = await fh.stat();
    if (size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, size - 1);
      // A torn last line (a crash mid-write): end it and say so, so the next record starts on its own line.
      if (last[0] !== NEWLINE) prefix = `\n${JSON.stringify(repairRecord())}\n`;
    }
    const buf = Buffer.from(prefix + data, 'utf8');
    let done = 0;
    while (done < buf.length) {
      const { bytesWritten } = await fh.write(buf, done, buf.length - done, null);
      done += bytesWritten;
    }
    await fh.sync();
  }

  /**
   * Make everything already in the file durable (one fsync), whoever wrote it. For an answer that relies on a
   * record the view shows (a duplicate message, an encounter already closed): the view is read from the file,
   * so it may show a record whose own writer has not finished its fsync yet.
   */
  async sync(): Promise<void> {
    if (this.closed) throw new Error(`The thread store ${this.path} is closed.`);
    const fh = await this.prepare();
    await fh.sync();
  }

  /** Wait for pending appends, stop watching, close the file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.idle) await this.idle;
    this.watcher?.close();
    this.watcher = undefined;
    this.events.removeAllListeners();
    const fh = this.fh;
    this.fh = undefined;
    if (fh) await (await fh.catch(() => undefined))?.close().catch(() => undefined);
  }
}
