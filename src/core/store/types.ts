/**
 * The desk store: what every face asks of the store that holds a desk's chat threads and audit trail, whichever
 * engine holds it: the embedded file store (src/core/store/file/, over the thread store of src/core/threads/ and the
 * audit trail of src/core/audit.ts), or the team store on PostgreSQL (src/core/store/pg/). open.ts opens the one a
 * selection names (select.ts); test/core/store/contract.test.ts holds both to this contract. Its words are the file
 * store's (records, threads, messages, read markers, via sent/received) plus what a team needs: operators, owners, a
 * reply checked against what changed, presence and change events (docs/decisions.md §17).
 *
 * Every call names the profile: one store may hold the threads of several practice systems. Every call's promise
 * rejects rather than throws.
 */
import type { AuditOutcome, AuditRecord, AuditStart } from '../audit.js';
import type { AssignReason, CloseRecord, MessageBody, ReadRecord, RecordBody, Via } from '../threads/records.js';
import type { HealthCheck } from '../threads/types.js';
import type { DeskMessage, DeskThread, NotificationEntry } from '../threads/view.js';

export type { ChatOp, Party, Via } from '../threads/records.js';
export type { AuditOutcome, AuditStart, DeskMessage, DeskThread, HealthCheck, NotificationEntry };

/**
 * What is recorded: the file store's record kinds (src/core/threads/records.ts) without the file format's version;
 * `via` is the call's (recordReceived or recordSent), and so is the operator. `at` is ISO 8601 UTC: when pdesk
 * sent it (taken before the request) or received it.
 */
export type DeskRecord = RecordBody;
export type DeskMessageRecord = MessageBody;

export interface RecordResult {
  /**
   * `stored`: new, and durable when the promise resolves; `duplicate`: already stored (a repeated push, a second
   * read marker or close), nothing changed; `closed`: a received message to a closed thread, not stored.
   */
  outcome: 'stored' | 'duplicate' | 'closed';
  /** A sent reply (C3) to a thread nobody owned made its operator the owner. */
  assigned?: string;
  /** A read marker stored: the thread of the message it names, when the store holds that message. */
  thread?: string;
}

export type ThreadFilter = 'all' | 'mine' | 'unassigned';

export interface ThreadQuery {
  /** Default `all`; `mine` needs `operator`. */
  filter?: ThreadFilter;
  operator?: string;
  /** At most this many threads (newest first); default all. */
  limit?: number;
  /** Only threads changed after this `rev` (a list kept current from change events). */
  changedSince?: number;
}

export interface AssignRequest {
  /** The new owner; null unassigns. */
  to: string | null;
  /** Who does it (recorded in the history). */
  by: string;
  /**
   * The owner the operator saw (null: unassigned): when the thread's owner is another by now, nothing changes and
   * the result is a conflict naming the owner. Undefined: assign whoever owns it.
   */
  expect?: string | null;
}

export interface AssignResult {
  /** `unknown`: no such thread; `unchanged`: it already had that owner; `conflict`: the owner was not `expect`. */
  outcome: 'assigned' | 'unassigned' | 'unchanged' | 'conflict' | 'unknown';
  owner?: string;
  previous?: string;
}

export interface Assignment {
  thread: string;
  owner?: string;
  previous?: string;
  by: string;
  reason: AssignReason;
  at: string;
}

export interface ReplyRequest {
  thread: string;
  operator: string;
  /** The thread's `lastSeq` when the operator opened the reply (the point after which anything new holds it). */
  after: number;
  /** Reply although another operator owns the thread. */
  force?: boolean;
  /** How long the claim holds off other operators' replies (the request's deadline and a margin). */
  holdMs?: number;
}

/** A reply cleared to be sent: other operators' replies to the thread are held until it completes or expires. */
export interface ReplyClaim {
  profile: string;
  thread: string;
  operator: string;
  token: string;
  until: string;
}

export type ReplyCheck =
  | { ok: true; claim: ReplyClaim }
  | {
      ok: false;
      /** Messages that arrived, or other operators sent, after `after` (oldest first). */
      newMessages: DeskMessage[];
      /** Another operator owns the thread (and `force` was not given). */
      owner?: string;
      /** Another operator's reply to the thread is being sent. */
      replying?: { operator: string; since: string };
    };

/** A write in the store's audit trail, as `pdesk audit` shows it (decisions.md §15), with its key in the store. */
export interface DeskAuditRecord extends AuditRecord {
  key: string;
}

export interface AuditQuery {
  since?: Date;
  ops?: string[];
}

export interface PresenceSession {
  operator: string;
  /** One per open TUI (a random id). */
  session: string;
}

export interface Viewer {
  operator: string;
  /** The last heartbeat (ISO 8601). */
  seenAt: string;
}

export type DeskEvent =
  | { kind: 'message' | 'read' | 'close' | 'assignment' | 'reply'; profile: string; thread: string; rev: number; id?: string }
  | { kind: 'presence'; profile: string; thread: string }
  | { kind: 'notification'; profile: string }
  /** Something may have changed that no event told: reload what is shown. */
  | { kind: 'resync'; why: 'reconnected' | 'poll' | 'overflow' };

export interface SubscribeOptions {
  /** The fall-back poll's period (never below a minute). */
  pollMs?: number;
  /** A poll or listen that failed (the subscription keeps trying). */
  onError?: (e: unknown) => void;
}

export interface Subscription {
  /** Run the fall-back poll now (what the timer does every minute). */
  poll(): Promise<void>;
  close(): Promise<void>;
}

/** A record of a thread besides its messages, as stored: who recorded it and when, and the resource sent or received. */
export interface StoredRecord<R> {
  via: Via;
  /** When pdesk sent or received it (ISO 8601 UTC). */
  at: string;
  operator?: string;
  resource: R;
}

/** What an X-ray of a thread shows besides its messages: the close (C4) and each message's read marker (C2). */
export interface ThreadRecords {
  /** The close recorded first, if the thread is closed. */
  close?: StoredRecord<CloseRecord['resource']>;
  /** The read markers of the thread's messages, each naming its message by `id`. */
  readMarkers: Array<StoredRecord<ReadRecord['resource']> & { id: string; readAt: string }>;
}

export interface DeskStore {
  readonly engine: 'file' | 'postgres';
  /** Where a profile's records are, for messages: its thread store's first file, or the database's URL (password hidden). */
  where(profile: string): string;

  /** Get ready to write the profile's records (open, create, migrate what is missing): call it early to fail early. */
  prepare(profile: string): Promise<void>;
  /** Whether the store can take writes now: named checks (`store`; `database` for PostgreSQL), for `GET /healthz`. */
  health(): Promise<HealthCheck[]>;

  /** A push the listener accepted; resolves once durable, before it is acknowledged. */
  recordReceived(profile: string, record: DeskRecord): Promise<RecordResult>;
  /**
   * A request the server acknowledged (a sent message names its operator). A message recorded pending before it left
   * (recordPending) is settled by it: under the same id, or under the id the server gave it (its `identifier` keeps
   * the id sent).
   */
  recordSent(profile: string, record: DeskRecord, operator: string): Promise<RecordResult>;
  /**
   * A message (C1, C3) about to be sent: recorded `pending`, written ahead of its request (after its audit record),
   * so that a desk that dies before the answer leaves it; one never settled has an unknown outcome (`via: pending`).
   * Resolves once durable. A message of this id stored already changes nothing.
   */
  recordPending(profile: string, record: DeskMessageRecord, operator: string): Promise<void>;
  /** A pending message the server refused (4xx, a redirect): it was not taken and leaves its thread. */
  recordRefused(profile: string, record: DeskMessageRecord): Promise<void>;

  listThreads(profile: string, q?: ThreadQuery): Promise<DeskThread[]>;
  thread(profile: string, thread: string): Promise<DeskThread | undefined>;
  /** A thread's messages in time order with their read state; undefined for a thread the store does not know. */
  messages(profile: string, thread: string): Promise<DeskMessage[] | undefined>;
  /** C5 notifications in store order (one with an id once). */
  notifications(profile: string): Promise<NotificationEntry[]>;
  /** A thread's close and read markers as recorded (undefined: no such thread). */
  threadRecords(profile: string, thread: string): Promise<ThreadRecords | undefined>;
  /**
   * The threads with a message whose subject, sender or recipient is `reference` (`Patient/pat-1`), in the order of
   * listThreads (newest first).
   */
  threadsNaming(profile: string, reference: string): Promise<DeskThread[]>;

  assign(profile: string, thread: string, r: AssignRequest): Promise<AssignResult>;
  assignments(profile: string, thread: string): Promise<Assignment[]>;

  /** Re-read the thread and clear a reply, or say what changed since `after`. */
  beginReply(profile: string, r: ReplyRequest): Promise<ReplyCheck>;
  /** Record the reply the server acknowledged (assigning the thread to its operator if nobody owns it). */
  completeReply(claim: ReplyClaim, record: DeskMessageRecord): Promise<RecordResult>;
  /** The reply was not sent: release the claim. */
  abandonReply(claim: ReplyClaim): Promise<void>;

  /**
   * Record a write before it is sent (its outcome unknown from then on; a write begun `ahead` counts only once
   * started); resolves once durable. A key recorded already changes nothing.
   */
  auditBegin(start: AuditStart): Promise<void>;
  /** A write begun ahead (a bulk row) is about to be sent, at `at`: its outcome is unknown until completed. */
  auditStart(profile: string, key: string, at: string): Promise<void>;
  /** Record the write's outcome (once: a second call changes nothing); resolves once durable. */
  auditComplete(profile: string, key: string, outcome: AuditOutcome): Promise<void>;
  /** The write was not sent after all: it leaves the trail. */
  auditWithdraw(profile: string, key: string): Promise<void>;
  /** The profile's trail, oldest first: what `pdesk audit` shows. */
  auditList(profile: string, q?: AuditQuery): Promise<DeskAuditRecord[]>;

  heartbeat(profile: string, thread: string, s: PresenceSession): Promise<void>;
  leave(profile: string, s: PresenceSession, thread?: string): Promise<void>;
  /** Who else has the thread open (heartbeat within the last few seconds), one entry per operator. */
  viewers(profile: string, thread: string, except?: PresenceSession): Promise<Viewer[]>;

  /** Change events of the profile (all profiles when undefined), live. */
  subscribe(profile: string | undefined, onEvent: (e: DeskEvent) => void, o?: SubscribeOptions): Promise<Subscription>;

  close(): Promise<void>;
}
