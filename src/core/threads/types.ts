/**
 * The thread store's interface: what the TUI, the chat commands, `pdesk listen` and the sandbox use, whatever
 * keeps the records. One engine today, files in the config folder (file-store.ts; layout: segments.ts; record
 * format: records.ts).
 *
 * Two ways to read it:
 * - `load()` reads every record into `view` (threads, messages, unread counts: what a screen or `chat show`
 *   shows), and `refresh()`/`watch()` keep it current;
 * - `loadIndex()` reads only what a receiver asks before it writes (`hasMessage`, `threadOfMessage`,
 *   `isClosed`), from an index, without the history; `view` stays empty. A store that is only written to
 *   (`chat send`) reads nothing at all.
 *
 * Every engine keeps the same promises: `append(records)` resolves only once the records are durable (a crash
 * right after loses none of them), and rejects if they may not be; a record is never acknowledged before that.
 */
import type { AnyRecord, StoreRecord } from './records.js';
import type { ThreadMessage, ThreadSummary, ThreadView } from './view.js';

/** One named check of `GET /healthz` (and of anything else that asks whether a part works). */
export interface HealthCheck {
  name: string;
  ok: boolean;
  /** One short sentence, no secrets and no paths. */
  detail?: string;
}

export interface ThreadStoreOptions {
  /** Called with each warning (a skipped line) as it is found. */
  onWarning?: (message: string) => void;
  /** The file engine starts a new segment once the last one holds this many bytes (default SEGMENT_BYTES). */
  segmentBytes?: number;
}

export interface ThreadStore {
  /** Where the store is, for messages (the file engine: its first file). */
  readonly path: string;
  readonly profile: string;
  /** Every record read so far, by thread: filled by `load()`, empty until then. */
  readonly view: ThreadView;
  /** Problems found while reading (skipped lines), one sentence each. */
  readonly warnings: readonly string[];

  /** Bring the view up to date with the store (all of it on the first call) and return it. */
  load(): Promise<ThreadView>;
  /**
   * Bring the view up to date with what was appended since the last read (all of it the first time, also after
   * `loadIndex()`). The promise covers everything appended before the call.
   */
  refresh(): Promise<void>;
  /** Threads newest first, with open/closed, last message and unread count (call `load()` first). */
  threadSummaries(): ThreadSummary[];
  /** A thread's messages in order, or undefined for an unknown thread (call `load()` first). */
  messages(thread: string): ThreadMessage[] | undefined;
  /** Call `fn` with every batch of new records, this process's and other processes'. Returns an unsubscribe. */
  watch(fn: (records: StoreRecord[]) => void): () => void;
  /** `watch`, with the desk's own records (owners) too. */
  watchAll(fn: (records: AnyRecord[]) => void): () => void;

  /** Read the receiver's index (quick, whatever the history's size); appends and `watch()` keep it current. */
  loadIndex(): Promise<void>;
  /** A message of this id is stored. */
  hasMessage(id: string): Promise<boolean>;
  /** The thread of a stored message. */
  threadOfMessage(id: string): Promise<string | undefined>;
  /** A close of this thread is stored. */
  isClosed(thread: string): Promise<boolean>;
  /** A read marker of this message is stored (the index knows those read after its summaries). */
  hasRead(id: string): Promise<boolean>;
  /** A notification of this id is stored (the index knows those read after its summaries). */
  hasNotification(id: string): Promise<boolean>;
  /** Read what was appended since the last read: into the view once loaded, else into the index. */
  catchUp(): Promise<void>;

  /** Get ready to write (create what is missing, open it): call it early to fail early. */
  prepare(): Promise<void>;
  /** Append records durably: resolves once they are durable, rejects if they may not be. */
  append(records: readonly AnyRecord[]): Promise<void>;
  /**
   * Make everything already stored durable, whoever wrote it: before an answer that relies on a record the
   * store shows but whose own writer may not have finished making it durable (a duplicate message, a thread
   * already closed).
   */
  sync(): Promise<void>;
  /** Whether the store can take writes now: named checks, for `GET /healthz`. */
  health(): Promise<HealthCheck[]>;
  /** Wait for pending appends, stop watching, release what is open. */
  close(): Promise<void>;
}
