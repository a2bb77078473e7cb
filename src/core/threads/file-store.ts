/**
 * The file engine of the thread store: append-only NDJSON segments in the config folder (layout and summaries:
 * segments.ts; record format: records.ts).
 *
 * Writing: `append(records)` resolves only after the records are written and fsynced (a file's folder is
 * fsynced too when the file is created). Appends made while a write is in progress are written together with
 * the next write (group commit: several records, one fsync); nothing is acknowledged before its fsync. The
 * last segment is opened with O_APPEND and each batch goes out in one write, so several processes (a `listen`
 * and `chat send` commands) can share one store. A batch that finds the last segment full starts the next one
 * first (the one that creates it wins; the others follow), and the full segment's summary is written after it.
 *
 * Reading: `load()` reads every segment into the view. `loadIndex()` reads each segment's summary and only
 * the bytes after it (after a summary, a segment grows only by a write that raced its sealing), into a
 * MessageIndex. Unparsable lines are skipped with a warning, never an error. `watch(fn)` calls `fn` with new
 * records, from this process (after their fsync) and from others (fs.watch on the folders). Once read, a
 * segment before the last two is not read again by the same store: none is written to any more.
 */
import { EventEmitter } from 'node:events';
import { type FSWatcher, existsSync, mkdirSync, watch as fsWatch } from 'node:fs';
import { type FileHandle, mkdir, open, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { MessageIndex } from './message-index.js';
import { type AnyRecord, type StoreRecord, type LoadedMessage, repairRecord, resourceOf } from './records.js';
import {
  type ReadRecord,
  type SegmentSummary,
  type SummaryTable,
  SEGMENT_BYTES,
  SegmentCursor,
  addToSummary,
  laterSegments,
  newSummary,
  readSegment,
  readSummary,
  segmentPath,
  segmentsFolder,
  summarize,
  writeSummary,
} from './segments.js';
import type { HealthCheck, ThreadStore, ThreadStoreOptions } from './types.js';
import { type ThreadMessage, type ThreadSummary, ThreadView } from './view.js';

const NEWLINE = 0x0a;
/** Summaries read at once when an index starts. */
const SUMMARIES_AT_ONCE = 4;

interface Pending {
  data: string;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** The segment being appended to. */
interface Active {
  n: number;
  path: string;
  fh: FileHandle;
}

/** fsync a folder (that a file in it was created) or a file by its path. */
async function fsyncPath(path: string): Promise<void> {
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

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

export class FileThreadStore implements ThreadStore {
  readonly view = new ThreadView();
  readonly warnings: string[] = [];
  private readonly events = new EventEmitter();
  private readonly segmentBytes: number;

  /** What has been read: nothing yet, the receiver's index, or every record into the view. */
  private mode: 'none' | 'index' | 'full' = 'none';
  private index = new MessageIndex();
  private cursors = new Map<number, SegmentCursor>();
  private reading = false;
  private requested = 0;
  private completed = 0;
  private waiters: Array<{ want: number; resolve: () => void; reject: (e: unknown) => void }> = [];

  private active?: Promise<Active>;
  private queue: Pending[] = [];
  private writing = false;
  private idle?: Promise<void>;
  private idleResolve?: () => void;
  /** Why the last write failed (cleared by the next that succeeds). */
  private writeError?: string;
  /** Summaries being written in the background. */
  private readonly chores = new Set<Promise<void>>();
  private watchers = new Map<string, FSWatcher>();
  private closed = false;

  constructor(
    readonly path: string,
    readonly profile: string,
    private readonly opts: ThreadStoreOptions = {},
  ) {
    this.events.setMaxListeners(0);
    this.segmentBytes = opts.segmentBytes ?? SEGMENT_BYTES;
  }

  // ---------------------------------------------------------------- reading

  async load(): Promise<ThreadView> {
    if (this.mode !== 'full') {
      if (this.mode === 'index') {
        // Read again from the start, everything this time (the index read only part of each segment); the view
        // answers what the index did.
        this.cursors = new Map();
        this.index = new MessageIndex();
      }
      this.mode = 'full';
    }
    await this.readMore();
    return this.view;
  }

  async loadIndex(): Promise<void> {
    if (this.mode === 'none') this.mode = 'index';
    await this.readMore();
  }

  threadSummaries(): ThreadSummary[] {
    return this.view.threads;
  }

  messages(thread: string): ThreadMessage[] | undefined {
    return this.view.messages(thread);
  }

  /** The view once loaded answers what the index would. */
  private get lookup(): MessageIndex | ThreadView {
    return this.mode === 'full' ? this.view : this.index;
  }

  async hasMessage(id: string): Promise<boolean> {
    if (this.mode === 'none') await this.loadIndex();
    return this.lookup.hasMessage(id);
  }

  async threadOfMessage(id: string): Promise<string | undefined> {
    if (this.mode === 'none') await this.loadIndex();
    return this.lookup.threadOfMessage(id);
  }

  async isClosed(thread: string): Promise<boolean> {
    if (this.mode === 'none') await this.loadIndex();
    return this.lookup.isClosed(thread);
  }

  /** A read marker of this message is stored (from the index: one read after its summaries). */
  async hasRead(id: string): Promise<boolean> {
    if (this.mode === 'none') await this.loadIndex();
    return this.lookup.isRead(id);
  }

  /** A notification of this id is stored (from the index: one read after its summaries). */
  async hasNotification(id: string): Promise<boolean> {
    if (this.mode === 'none') await this.loadIndex();
    return this.lookup.hasNotification(id);
  }

  /** Read what was appended since the last read (into the index, or the view once loaded). */
  catchUp(): Promise<void> {
    return this.mode === 'full' ? this.refresh() : this.loadIndex();
  }

  async refresh(): Promise<void> {
    if (this.mode !== 'full') await this.load();
    else await this.readMore();
  }

  /** Read what was appended since the last read, errors aside (they reach the next reader that asks). */
  private refreshQuietly(): Promise<void> {
    return (this.mode === 'index' ? this.readMore() : this.refresh()).catch(() => undefined);
  }

  /**
   * Read what was appended since the last read, into the view or the index. Calls made while a read runs are
   * served by one more read after it, so the promise always covers everything appended before the call.
   */
  private readMore(): Promise<void> {
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

  private warn(path: string, message: string): void {
    const full = `thread store ${path}: ${message}`;
    this.warnings.push(full);
    this.opts.onWarning?.(full);
  }

  /** One pass over the segments: each new one whole (or its summary and what follows it), then the last two's new bytes. */
  private async readNew(): Promise<void> {
    if (this.mode === 'none') this.mode = 'full'; // a watcher of a store not read yet: it reads it all, as load()
    const full = this.mode === 'full';
    // Records are collected for watchers only (a first load of a large store has none).
    const out: AnyRecord[] | undefined = this.events.listenerCount('records') ? [] : undefined;
    const numbers = [1, ...laterSegments(this.path)];
    const last = numbers[numbers.length - 1]!;
    if (last > 1) this.watchSegments();
    const fresh = numbers.filter((n) => !this.cursors.has(n));
    // The index starts from the summaries of the segments not read yet, a few read at a time (each is a few
    // file operations: waiting for them one by one was most of a start-up).
    for (let i = 0; !full && i < fresh.length; i += SUMMARIES_AT_ONCE) {
      const batch = fresh.slice(i, i + SUMMARIES_AT_ONCE);
      const read = await Promise.all(batch.map((n) => readSummary(this.path, n)));
      // Added in segment order: the first record of an id counts.
      batch.forEach((n, j) => {
        if (read[j]) this.fromSummary(n, read[j]);
      });
    }
    for (const n of numbers) {
      let cursor = this.cursors.get(n);
      if (cursor && n < last - 1 && cursor.seen) continue;
      let building: SegmentSummary | undefined;
      if (!cursor) {
        cursor = new SegmentCursor(n, segmentPath(this.path, n));
        this.cursors.set(n, cursor);
        // A segment without a summary, read by a store that writes: write one once the segment is sealed or
        // full (the last file of a store from before segments may be far larger than a segment).
        if (!full && this.active) building = newSummary();
      }
      const path = cursor.path;
      await readSegment(
        cursor,
        (r) => {
          this.apply(r, out);
          if (building) addToSummary(building, r);
        },
        (w) => {
          this.warn(path, w);
          building?.warnings.push(w);
        },
      );
      if (building && (n < last || cursor.offset >= this.segmentBytes)) {
        building.bytes = cursor.offset;
        building.lines = cursor.lineNo;
        const s = building;
        this.chore(() => writeSummary(this.path, n, s));
      }
    }
    if (out?.length) this.events.emit('records', out);
  }

  /** Start reading segment `n` after its summary: the segment itself is read only if it grew past it. */
  private fromSummary(n: number, s: SummaryTable): void {
    const cursor = new SegmentCursor(n, segmentPath(this.path, n));
    this.cursors.set(n, cursor);
    this.index.addSummary(s);
    cursor.offset = s.bytes;
    cursor.lineNo = s.lines;
    if (s.size === s.bytes) cursor.seen = true; // nothing after it: no need to open the segment now
    for (const w of s.warnings) this.warn(cursor.path, w);
  }

  private apply(r: ReadRecord, out: AnyRecord[] | undefined): void {
    if (this.mode === 'full') this.view.apply(r);
    else this.index.apply(r);
    if (out) {
      if (r.kind === 'message') resourceOf(r as LoadedMessage);
      out.push(r as AnyRecord);
    }
  }

  watch(fn: (records: StoreRecord[]) => void): () => void {
    return this.watchAll((records) => {
      const chat = records.filter((r): r is StoreRecord => r.kind !== 'assign');
      if (chat.length) fn(chat);
    });
  }

  /** `watch`, with the desk's own records (owners) too. */
  watchAll(fn: (records: AnyRecord[]) => void): () => void {
    this.events.on('records', fn);
    if (!this.closed) {
      const dir = dirname(this.path);
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 }); // so that a store another process creates later is seen
      } catch {
        // No folder and none can be made: this process's own appends are still reported.
      }
      this.watchFolder(dir);
      this.watchSegments();
    }
    return () => {
      this.events.off('records', fn);
      if (this.events.listenerCount('records') === 0) this.unwatchAll();
    };
  }

  /** Once the folder of the later segments exists, watch it too (and read, for what was written before). */
  private watchSegments(): void {
    const folder = segmentsFolder(this.path);
    if (this.watchers.has(folder) || !existsSync(folder)) return;
    if (this.watchFolder(folder)) this.readMore().catch((e) => this.warn(this.path, `cannot read: ${(e as Error).message}`));
  }

  /** Read again when a file of this store changes in `dir` (the first file's folder, or the later segments'). */
  private watchFolder(dir: string): boolean {
    if (this.closed || this.watchers.has(dir) || this.events.listenerCount('records') === 0) return false;
    const first = basename(this.path);
    const folder = basename(segmentsFolder(this.path));
    const inSegments = dir === segmentsFolder(this.path);
    try {
      const w = fsWatch(dir, { persistent: false }, (_event, file) => {
        if (!inSegments && file === folder) this.watchSegments();
        if (!file || inSegments || file === first || file === folder)
          this.readMore().catch((e) => this.warn(this.path, `cannot read: ${(e as Error).message}`));
      });
      w.on('error', () => undefined);
      this.watchers.set(dir, w);
      return true;
    } catch {
      return false; // the folder is not there (yet): the next read looks again
    }
  }

  private unwatchAll(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  // ---------------------------------------------------------------- writing

  async prepare(): Promise<void> {
    await this.activeSegment();
  }

  /** The last segment, open for appending (the first call creates what is missing). */
  private activeSegment(): Promise<Active> {
    if (!this.active) {
      const later = laterSegments(this.path);
      this.active = this.openSegment(later.length ? later[later.length - 1]! : 1, false);
      this.active.catch(() => {
        this.active = undefined;
      });
    }
    return this.active;
  }

  /**
   * Open segment `n` for appending, creating it (and its folders) if missing; a new file's folder is fsynced so
   * that the file itself survives a crash. `exclusive`: it is being started as the next segment, and another
   * process may be starting it at the same time (either way, both end up appending to it).
   */
  private async openSegment(n: number, exclusive: boolean): Promise<Active> {
    const path = segmentPath(this.path, n);
    const dir = dirname(path);
    const folderExisted = await exists(dir);
    if (!folderExisted) await mkdir(dir, { recursive: true, mode: 0o700 });
    let created = false;
    let fh: FileHandle;
    if (exclusive) {
      try {
        fh = await open(path, 'ax+', 0o600);
        created = true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        fh = await open(path, 'a+', 0o600);
      }
    } else {
      created = !(await exists(path));
      fh = await open(path, 'a+', 0o600);
    }
    if (created) {
      await fh.sync();
      await fsyncPath(dir);
      if (!folderExisted) await fsyncPath(dirname(dir));
    }
    return { n, path, fh };
  }

  append(records: readonly AnyRecord[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`The thread store ${this.path} is closed.`));
    if (records.length === 0) return Promise.resolve();
    const data = records.map((r) => `${JSON.stringify(r)}\n`).join('');
    const p = new Promise<void>((resolve, reject) => this.queue.push({ data, resolve, reject }));
    if (!this.writing) void this.drain();
    return p.then(() => {
      // A store that shows something, or has watchers, picks up what was just written (and anything other
      // processes appended); one that is only written to reads nothing.
      if (this.mode !== 'none' || this.events.listenerCount('records') > 0) return this.refreshQuietly();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    if (!this.idle) this.idle = new Promise((r) => (this.idleResolve = r));
    while (this.queue.length) {
      const batch = this.queue.splice(0);
      try {
        await this.write(batch.map((b) => b.data).join(''));
        this.writeError = undefined;
        for (const b of batch) b.resolve();
      } catch (e) {
        this.writeError = String((e as NodeJS.ErrnoException).code ?? (e as Error).message);
        for (const b of batch) b.reject(e);
      }
    }
    this.writing = false;
    this.idleResolve?.();
    this.idle = undefined;
  }

  private async write(data: string): Promise<void> {
    let seg = await this.activeSegment();
    if (existsSync(segmentPath(this.path, seg.n + 1))) seg = await this.follow(seg);
    let { size } = await seg.fh.stat();
    if (size >= this.segmentBytes) {
      seg = await this.roll(seg, size);
      size = 0;
    }
    const prefix = (await this.endsTorn(seg.fh, size)) ? `\n${JSON.stringify(repairRecord())}\n` : '';
    const buf = Buffer.from(prefix + data, 'utf8');
    let done = 0;
    while (done < buf.length) {
      const { bytesWritten } = await seg.fh.write(buf, done, buf.length - done, null);
      done += bytesWritten;
    }
    await seg.fh.sync();
  }

  /** The file does not end with a newline: a write torn by a crash (it is then ended with a repair record). */
  private async endsTorn(fh: FileHandle, size: number): Promise<boolean> {
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await fh.read(last, 0, 1, size - 1);
    return last[0] !== NEWLINE;
  }

  /** Another process started a later segment: append to the last one from now on. */
  private async follow(seg: Active): Promise<Active> {
    const later = laterSegments(this.path);
    const next = await this.openSegment(later[later.length - 1] ?? seg.n + 1, false);
    this.active = Promise.resolve(next);
    await seg.fh.close().catch(() => undefined);
    return next;
  }

  /** Seal the full segment `seg` and start the next; its summary is written afterwards, off the write path. */
  private async roll(seg: Active, size: number): Promise<Active> {
    // A torn last line is ended now, while this segment is still the one written to: no writer comes back to it.
    if (await this.endsTorn(seg.fh, size)) {
      await seg.fh.write(`\n${JSON.stringify(repairRecord())}\n`, null, 'utf8');
      await seg.fh.sync();
    }
    const next = await this.openSegment(seg.n + 1, true);
    this.active = Promise.resolve(next);
    await seg.fh.close().catch(() => undefined);
    const first = this.path;
    const n = seg.n;
    this.chore(async () => {
      const known = await readSummary(first, n);
      if (known && known.bytes === known.size) return; // one written while it was the last covers only part of it
      const s = await summarize(first, n);
      if (s) await writeSummary(first, n, s);
    });
    return next;
  }

  /** Background work whose failure loses nothing (a summary is a cache); close() waits for it. */
  private chore(fn: () => Promise<void>): void {
    const p: Promise<void> = fn()
      .catch(() => undefined)
      .finally(() => this.chores.delete(p));
    this.chores.add(p);
  }

  async sync(): Promise<void> {
    if (this.closed) throw new Error(`The thread store ${this.path} is closed.`);
    const seg = await this.activeSegment();
    await seg.fh.sync();
    // The record relied on may be the last of the segment before, written just before it was sealed.
    if (seg.n > 1) await fsyncPath(segmentPath(this.path, seg.n - 1));
  }

  async health(): Promise<HealthCheck[]> {
    const check = (ok: boolean, detail: string): HealthCheck[] => [{ name: 'store', ok, detail }];
    if (this.closed) return check(false, 'the thread store is closed');
    let seg: Active;
    try {
      seg = await this.activeSegment();
    } catch (e) {
      return check(false, `the thread store cannot be opened for writing (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    try {
      const [open, named] = await Promise.all([seg.fh.stat(), stat(seg.path)]);
      if (open.ino !== named.ino || open.dev !== named.dev) return check(false, 'the file written to was removed or replaced');
    } catch (e) {
      return check(false, `the file written to cannot be found (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (this.writeError) return check(false, `the last write failed (${this.writeError})`);
    return check(true, `writable, files: ${seg.n}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    while (this.idle) await this.idle;
    while (this.chores.size) await Promise.all([...this.chores]);
    this.unwatchAll();
    this.events.removeAllListeners();
    const active = this.active;
    this.active = undefined;
    if (active) await (await active.catch(() => undefined))?.fh.close().catch(() => undefined);
  }
}
