/**
 * The team store on PostgreSQL: the DeskStore (src/core/store/types.ts) over the schema of migrations.ts.
 *
 * Every write is one transaction that notifies its change (notify.ts) and resolves after its commit, so what a
 * listener acknowledges is durable. A thread's row is the lock of everything in it: a message, a read marker, a
 * close, an assignment or a reply check takes it first (`lockThread`), so what they read of the thread cannot
 * change under them, and the thread's summary (counts, newest message) is recomputed from its rows in the same
 * transaction (`pdesk.refresh_thread`). A message and a read marker of the same Communication id also take a lock
 * on that id first, so the two in flight at once count unread exactly, whichever commits first.
 *
 * No double answers: `beginReply` re-reads the thread under its lock and either says what changed since the
 * reply form was opened (new messages, another owner, another operator's reply in flight) or records a claim that
 * holds every other operator's reply until `completeReply` or `abandonReply` (or its expiry, after a crash). The
 * request is sent between the two, outside any transaction: a push to the thread is never held up by a reply.
 */
import { randomUUID } from 'node:crypto';
import { ExitCode, FieldError, PdeskError } from '../../errors.js';
import { redact } from '../../redact.js';
import type { CloseRecord, ReadRecord } from '../../threads/records.js';
import { messageOf, names, notificationOf, textOf } from '../../threads/view.js';
import { redactStoreUrl } from '../select.js';
import { PRESENCE_FORGET_MS, PRESENCE_TTL_MS, REPLY_HOLD_MS } from '../timing.js';
import type {
  AssignRequest,
  AssignResult,
  Assignment,
  AuditOutcome,
  AuditQuery,
  AuditStart,
  DeskAuditRecord,
  DeskEvent,
  DeskMessage,
  DeskMessageRecord,
  DeskRecord,
  DeskStore,
  DeskThread,
  HealthCheck,
  NotificationEntry,
  PresenceSession,
  RecordResult,
  ReplyCheck,
  ReplyClaim,
  ReplyRequest,
  SubscribeOptions,
  Subscription,
  ThreadQuery,
  ThreadRecords,
  Via,
  Viewer,
} from '../types.js';
import { type ConnectOptions, type Sql, StoreError, type Tx, connect, storeError } from './connect.js';
import { checkUsable, migrate, schemaState } from './migrate.js';
import { notify, subscribe } from './notify.js';

/** How long `health()` waits for the database's answer. */
export const HEALTH_TIMEOUT_MS = 2_000;

type MessageRecord = DeskMessageRecord;

/**
 * The longest id (Communication, encounter) the store takes: PostgreSQL's indexes take keys of ~2,700 bytes at most,
 * and FHIR ids are 64 characters at most.
 */
export const MAX_ID_LENGTH = 1024;
function checkId(field: 'id' | 'thread', value: string): void {
  if (value.length > MAX_ID_LENGTH) throw new FieldError(field, `is longer than ${MAX_ID_LENGTH} characters`);
  // PostgreSQL's text holds no NUL character (the resources themselves are kept as JSON, where it is escaped).
  if (value.includes('\u0000')) throw new FieldError(field, 'holds a NUL character');
}

/** Text for a text column: without NUL characters, which PostgreSQL's text cannot hold. */
const noNul = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);

const iso = (d: Date | null | undefined): string | undefined => (d ? d.toISOString() : undefined);

interface ThreadRow {
  thread: string;
  status: 'open' | 'closed';
  closed_at: Date | null;
  owner: string | null;
  assigned_at: Date | null;
  messages: number;
  unread: number;
  last_seq: string;
  last_at: Date | null;
  last_text: string | null;
  last_from: 'portal' | 'practice' | null;
  rev: string;
}

function deskThread(r: ThreadRow): DeskThread {
  return {
    thread: r.thread,
    status: r.status,
    ...(r.closed_at ? { closedAt: iso(r.closed_at) } : {}),
    messages: r.messages,
    unread: r.unread,
    ...(r.last_at ? { lastAt: iso(r.last_at), lastText: r.last_text ?? '', lastFrom: r.last_from ?? undefined } : {}),
    ...(r.owner !== null ? { owner: r.owner, ...(r.assigned_at ? { assignedAt: iso(r.assigned_at) } : {}) } : {}),
    lastSeq: Number(r.last_seq),
    rev: Number(r.rev),
  };
}

type CloseResource = CloseRecord['resource'];
type ReadResource = ReadRecord['resource'];

interface MessageRow {
  seq: string;
  id: string;
  thread: string;
  op: 'C1' | 'C3';
  via: Via;
  at: Date;
  operator: string | null;
  resource: DeskMessage['resource'];
  read_at: string | null;
}

const toMessage = (r: MessageRow): DeskMessage => ({
  ...messageOf({ ...r, at: r.at.toISOString() }, r.resource, r.read_at ?? undefined),
  seq: Number(r.seq),
  ...(r.operator !== null ? { operator: r.operator } : {}),
});

export interface OpenOptions extends ConnectOptions {
  /** Apply pending migrations on first use (default true); false: a schema that is behind is an error. */
  migrate?: boolean;
  /** Recorded as who applied a migration. */
  operator?: string;
}

export class PgDeskStore implements DeskStore {
  readonly engine = 'postgres' as const;
  private ready?: Promise<void>;

  constructor(
    readonly sql: Sql,
    /** The URL, for error messages (always shown redacted). */
    private readonly url: string,
    private readonly o: OpenOptions = {},
  ) {}

  where(_profile: string): string {
    return redactStoreUrl(this.url);
  }

  prepare(_profile: string): Promise<void> {
    return this.open();
  }

  /**
   * `database`: a round trip to the server within HEALTH_TIMEOUT_MS (a pool whose connections are all busy waits
   * for one: a database too slow to answer in time is not taking pushes either).
   */
  async health(): Promise<HealthCheck[]> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${HEALTH_TIMEOUT_MS / 1000} s`)), HEALTH_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.open().then(() => this.sql`select 1`), late]);
      return [{ name: 'database', ok: true, detail: 'reachable' }];
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      const why =
        e instanceof PdeskError && (e.cause as { code?: unknown } | undefined)?.code
          ? String((e.cause as { code: unknown }).code)
          : typeof code === 'string'
            ? code
            : (e as Error).message;
      return [{ name: 'database', ok: false, detail: `the database cannot be reached (${why})` }];
    } finally {
      clearTimeout(timer);
    }
  }

  /** Connect, check the schema and apply what is pending (once; every operation waits for it). */
  open(): Promise<void> {
    this.ready ??= (async () => {
      const state = await schemaState(this.sql);
      checkUsable(state);
      if (state.pending.length === 0) return;
      if (this.o.migrate === false)
        throw new StoreError(
          `The team store at ${redactStoreUrl(this.url)} has schema version ${state.version}; this pdesk needs ${state.latest}.`,
          ExitCode.config,
        ).hint({ kind: 'store-migrate' });
      await migrate(this.sql, this.o.operator ?? 'pdesk');
    })().catch((e) => {
      this.ready = undefined;
      throw storeError(e, this.url);
    });
    return this.ready;
  }

  /** Run `fn` once the store is open; a driver error becomes a StoreError naming the store. */
  private async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.open();
    try {
      return await fn();
    } catch (e) {
      throw storeError(e, this.url);
    }
  }

  /** Run `fn` in one transaction once the store is open; a driver error becomes a StoreError naming the store. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.run(() => this.sql.begin(fn) as Promise<T>);
  }

  private tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction(fn);
  }

  // ---------------------------------------------------------------- recording

  recordReceived(profile: string, record: DeskRecord): Promise<RecordResult> {
    return this.record(profile, record, 'received');
  }

  recordSent(profile: string, record: DeskRecord, operator: string): Promise<RecordResult> {
    return this.record(profile, record, 'sent', operator);
  }

  private async record(profile: string, r: DeskRecord, via: Via, operator?: string): Promise<RecordResult> {
    if ('id' in r) checkId('id', r.id);
    if ('thread' in r && r.thread !== undefined) checkId('thread', r.thread);
    return this.tx(async (tx) => {
      switch (r.kind) {
        case 'message':
          return this.insertMessage(tx, profile, r, via, operator);
        case 'read':
          return this.insertRead(tx, profile, r, via, operator);
        case 'close':
          return this.insertClose(tx, profile, r, via, operator);
        case 'notification':
          return this.insertNotification(tx, profile, r, via, operator);
      }
    });
  }

  /** Lock the Communication id against a concurrent message or read marker of the same id. */
  private async lockId(tx: Tx, profile: string, id: string): Promise<void> {
    await tx`select pg_advisory_xact_lock(hashtext(${profile}), hashtext(${id}))`;
  }

  /** Create the thread's row if need be, lock it, and return its state. */
  private async lockThread(tx: Tx, profile: string, thread: string) {
    await tx`insert into pdesk.threads (profile, thread) values (${profile}, ${thread}) on conflict do nothing`;
    const [row] = await tx<
      [
        {
          status: 'open' | 'closed';
          owner: string | null;
          replying_operator: string | null;
          replying_since: Date | null;
          replying_live: boolean;
        },
      ]
    >`select status, owner, replying_operator, replying_since, coalesce(replying_until > now(), false) as replying_live
      from pdesk.threads where profile = ${profile} and thread = ${thread} for update`;
    return row;
  }

  private async refresh(tx: Tx, profile: string, thread: string): Promise<number> {
    const [row] = await tx<[{ rev: string }]>`select pdesk.refresh_thread(${profile}, ${thread}) as rev`;
    return Number(row.rev);
  }

  /** The ids a sent message may have been recorded pending under: the ids its `identifier` keeps (decisions.md §16). */
  private async settlePendingOf(tx: Tx, profile: string, r: MessageRecord): Promise<void> {
    const sentIds = (r.resource.identifier ?? []).map((k) => k.value).filter((v): v is string => typeof v === 'string' && v !== r.id);
    if (!sentIds.length) return;
    await tx`delete from pdesk.messages where profile = ${profile} and via = 'pending' and thread = ${r.thread}
      and id in ${tx(sentIds.map(noNul))}`;
  }

  private async insertMessage(tx: Tx, profile: string, r: MessageRecord, via: Via, operator?: string, claimToken?: string) {
    await this.lockId(tx, profile, r.id);
    const t = await this.lockThread(tx, profile, r.thread);
    // A message sent under another id than its pending record's (the server's): that record is settled by this one.
    if (via === 'sent') await this.settlePendingOf(tx, profile, r);
    // A receiver refuses a message to a closed thread (decisions.md §6); one the server acknowledged is kept.
    if (via === 'received' && t.status === 'closed') {
      const [known] = await tx`select 1 from pdesk.messages where profile = ${profile} and id = ${r.id}`;
      return { outcome: known ? 'duplicate' : 'closed' } satisfies RecordResult;
    }
    const inserted = await tx`
      insert into pdesk.messages (profile, id, thread, op, via, at, operator, text, resource)
      values (${profile}, ${r.id}, ${r.thread}, ${r.op}, ${via}, ${r.at}::timestamptz, ${operator ?? null}, ${noNul(textOf(r.resource))},
              ${tx.json(r.resource as never)})
      on conflict (profile, id) do nothing returning seq`;
    if (claimToken !== undefined)
      await tx`update pdesk.threads set replying_operator = null, replying_session = null, replying_since = null, replying_until = null
        where profile = ${profile} and thread = ${r.thread} and replying_session = ${claimToken}`;
    // Recorded pending before it left: now sent (stored as new: it takes an unowned thread as any first reply).
    const settled =
      inserted.length === 0 && via === 'sent'
        ? await tx`update pdesk.messages set via = 'sent', operator = ${operator ?? null}, at = ${r.at}::timestamptz,
            text = ${noNul(textOf(r.resource))}, resource = ${tx.json(r.resource as never)}
          where profile = ${profile} and id = ${r.id} and via = 'pending' returning seq`
        : [];
    if (inserted.length === 0 && settled.length === 0) {
      // Stored before. A message this desk sent that also came back to it as a push (its own listener) is its own.
      if (via === 'sent') {
        const upgraded = await tx`update pdesk.messages set via = 'sent', operator = ${operator ?? null}
          where profile = ${profile} and id = ${r.id} and via = 'received' returning thread`;
        if (upgraded.length) {
          const rev = await this.refresh(tx, profile, upgraded[0]!.thread);
          await notify(tx, { kind: 'message', profile, thread: upgraded[0]!.thread, rev, id: r.id });
        }
      }
      return { outcome: 'duplicate' } satisfies RecordResult;
    }
    let assigned: string | undefined;
    // The first operator who replies to a thread nobody owns takes it (once the server took the reply).
    if (via === 'sent' && r.op === 'C3' && operator && t.owner === null) {
      await this.setOwner(tx, profile, r.thread, operator, null, operator, 'first-reply');
      assigned = operator;
    }
    const rev = await this.refresh(tx, profile, r.thread);
    await notify(tx, { kind: 'message', profile, thread: r.thread, rev, id: r.id });
    return { outcome: 'stored', ...(assigned ? { assigned } : {}) } satisfies RecordResult;
  }

  recordPending(profile: string, r: MessageRecord, operator: string): Promise<void> {
    checkId('id', r.id);
    checkId('thread', r.thread);
    return this.tx(async (tx) => {
      await this.lockId(tx, profile, r.id);
      await this.lockThread(tx, profile, r.thread);
      const inserted = await tx`
        insert into pdesk.messages (profile, id, thread, op, via, at, operator, text, resource)
        values (${profile}, ${r.id}, ${r.thread}, ${r.op}, 'pending', ${r.at}::timestamptz, ${operator}, ${noNul(textOf(r.resource))},
                ${tx.json(r.resource as never)})
        on conflict (profile, id) do nothing returning seq`;
      if (inserted.length === 0) return;
      const rev = await this.refresh(tx, profile, r.thread);
      await notify(tx, { kind: 'message', profile, thread: r.thread, rev, id: r.id });
    });
  }

  recordRefused(profile: string, r: MessageRecord): Promise<void> {
    return this.tx(async (tx) => {
      await this.lockId(tx, profile, r.id);
      await this.lockThread(tx, profile, r.thread);
      const gone = await tx`delete from pdesk.messages where profile = ${profile} and id = ${r.id} and via = 'pending' returning seq`;
      if (gone.length === 0) return;
      // A thread that only this message opened goes with it (as in the file store's view).
      const rev = (await this.dropIfEmpty(tx, profile, r.thread)) ?? (await this.refresh(tx, profile, r.thread));
      await notify(tx, { kind: 'message', profile, thread: r.thread, rev, id: r.id });
    });
  }

  private async insertRead(tx: Tx, profile: string, r: Extract<DeskRecord, { kind: 'read' }>, via: Via, operator?: string) {
    await this.lockId(tx, profile, r.id);
    const [msg] = await tx<[{ thread: string }?]>`select thread from pdesk.messages where profile = ${profile} and id = ${r.id}`;
    const thread = msg?.thread ?? r.thread;
    // Lock the thread (when it is one the store holds) before the marker changes its unread count.
    if (thread !== undefined) await tx`select 1 from pdesk.threads where profile = ${profile} and thread = ${thread} for update`;
    const inserted = await tx`
      insert into pdesk.read_markers (profile, id, thread, read_at, via, at, operator, resource)
      values (${profile}, ${r.id}, ${thread ?? null}, ${r.readAt}, ${via}, ${r.at}::timestamptz, ${operator ?? null}, ${tx.json(r.resource as never)})
      on conflict (profile, id) do nothing returning id`;
    if (inserted.length === 0) return { outcome: 'duplicate' } satisfies RecordResult;
    if (thread !== undefined) {
      const [exists] = await tx`select 1 from pdesk.threads where profile = ${profile} and thread = ${thread}`;
      if (exists) {
        const rev = await this.refresh(tx, profile, thread);
        await notify(tx, { kind: 'read', profile, thread, rev, id: r.id });
      }
    }
    return { outcome: 'stored', ...(thread !== undefined ? { thread } : {}) } satisfies RecordResult;
  }

  private async insertClose(tx: Tx, profile: string, r: Extract<DeskRecord, { kind: 'close' }>, via: Via, operator?: string) {
    const t = await this.lockThread(tx, profile, r.thread);
    if (t.status === 'closed') return { outcome: 'duplicate' } satisfies RecordResult;
    await tx`update pdesk.threads set status = 'closed', closed_at = ${r.at}::timestamptz, close_via = ${via},
      close_operator = ${operator ?? null}, close_resource = ${tx.json(r.resource as never)}
      where profile = ${profile} and thread = ${r.thread}`;
    const rev = await this.refresh(tx, profile, r.thread);
    await notify(tx, { kind: 'close', profile, thread: r.thread, rev });
    return { outcome: 'stored' } satisfies RecordResult;
  }

  private async insertNotification(tx: Tx, profile: string, r: Extract<DeskRecord, { kind: 'notification' }>, via: Via, operator?: string) {
    const id = (r.resource as { id?: unknown }).id;
    const inserted = await tx`
      insert into pdesk.notifications (profile, id, via, at, operator, resource)
      values (${profile}, ${id === undefined || id === null ? null : String(id)}, ${via}, ${r.at}::timestamptz, ${operator ?? null},
              ${tx.json(r.resource as never)})
      on conflict (profile, id) where id is not null do nothing returning seq`;
    if (inserted.length === 0) return { outcome: 'duplicate' } satisfies RecordResult;
    await notify(tx, { kind: 'notification', profile });
    return { outcome: 'stored' } satisfies RecordResult;
  }

  // ---------------------------------------------------------------- reading

  async listThreads(profile: string, q: ThreadQuery = {}): Promise<DeskThread[]> {
    const filter = q.filter ?? 'all';
    if (filter === 'mine' && !q.operator) throw new Error('listThreads: the filter "mine" needs the operator');
    return this.run(async () => {
      const s = this.sql;
      const rows = await s<ThreadRow[]>`
        select thread, status, closed_at, owner, assigned_at, messages, unread, last_seq::text, last_at, last_text, last_from, rev::text
        from pdesk.threads
        where profile = ${profile}
          ${filter === 'mine' ? s`and owner = ${q.operator!}` : filter === 'unassigned' ? s`and owner is null` : s``}
          ${q.changedSince !== undefined ? s`and rev > ${q.changedSince}::bigint` : s``}
        order by sort_at desc nulls last, thread
        ${q.limit !== undefined ? s`limit ${q.limit}::bigint` : s``}`;
      return rows.map(deskThread);
    });
  }

  thread(profile: string, thread: string): Promise<DeskThread | undefined> {
    return this.run(async () => {
      const [row] = await this.sql<ThreadRow[]>`
        select thread, status, closed_at, owner, assigned_at, messages, unread, last_seq::text, last_at, last_text, last_from, rev::text
        from pdesk.threads where profile = ${profile} and thread = ${thread}`;
      return row ? deskThread(row) : undefined;
    });
  }

  private async readMessages(s: Sql | Tx, profile: string, thread: string, afterSeq?: number): Promise<DeskMessage[]> {
    const rows = await s<MessageRow[]>`
      select m.seq::text, m.id, m.thread, m.op, m.via, m.at, m.operator, m.resource, r.read_at
      from pdesk.messages m left join pdesk.read_markers r on r.profile = m.profile and r.id = m.id
      where m.profile = ${profile} and m.thread = ${thread}
        ${afterSeq !== undefined ? s`and m.seq > ${afterSeq}::bigint` : s``}
      order by m.at, m.seq`;
    return rows.map(toMessage);
  }

  messages(profile: string, thread: string): Promise<DeskMessage[] | undefined> {
    return this.run(async () => {
      const list = await this.readMessages(this.sql, profile, thread);
      if (list.length) return list;
      const [known] = await this.sql`select 1 from pdesk.threads where profile = ${profile} and thread = ${thread}`;
      return known ? [] : undefined;
    });
  }

  notifications(profile: string): Promise<NotificationEntry[]> {
    return this.run(async () => {
      const rows = await this.sql<Array<{ via: Via; at: Date; operator: string | null; resource: NotificationEntry['resource'] }>>`
        select via, at, operator, resource from pdesk.notifications where profile = ${profile} order by seq`;
      return rows.map((r) =>
        notificationOf({
          via: r.via,
          at: r.at.toISOString(),
          resource: r.resource,
          ...(r.operator !== null ? { operator: r.operator } : {}),
        }),
      );
    });
  }

  threadRecords(profile: string, thread: string): Promise<ThreadRecords | undefined> {
    return this.run(async () => {
      const s = this.sql;
      const [t] = await s<
        Array<{ close_via: Via | null; closed_at: Date | null; close_operator: string | null; close_resource: CloseResource | null }>
      >`select close_via, closed_at, close_operator, close_resource from pdesk.threads where profile = ${profile} and thread = ${thread}`;
      if (!t) return undefined;
      const markers = await s<
        Array<{ id: string; read_at: string; via: Via; at: Date; operator: string | null; resource: ReadResource }>
      >`select r.id, r.read_at, r.via, r.at, r.operator, r.resource
        from pdesk.read_markers r join pdesk.messages m on m.profile = r.profile and m.id = r.id
        where r.profile = ${profile} and m.thread = ${thread}
        order by m.at, m.seq`;
      const close =
        t.close_via && t.closed_at && t.close_resource
          ? {
              close: {
                via: t.close_via,
                at: t.closed_at.toISOString(),
                ...(t.close_operator !== null ? { operator: t.close_operator } : {}),
                resource: t.close_resource,
              },
            }
          : {};
      return {
        ...close,
        readMarkers: markers.map((r) => ({
          id: r.id,
          readAt: r.read_at,
          via: r.via,
          at: r.at.toISOString(),
          ...(r.operator !== null ? { operator: r.operator } : {}),
          resource: r.resource,
        })),
      };
    });
  }

  threadsNaming(profile: string, reference: string): Promise<DeskThread[]> {
    return this.run(async () => {
      const s = this.sql;
      // The messages whose JSON holds the reference as a string (as stored: JSON.stringify's text), each then read as
      // a message and asked whether it names it as subject, sender or recipient.
      const rows = await s<MessageRow[]>`
        select m.seq::text, m.id, m.thread, m.op, m.via, m.at, m.operator, m.resource, null as read_at
        from pdesk.messages m
        where m.profile = ${profile} and strpos(m.resource::text, ${JSON.stringify(reference)}) > 0`;
      const threads = [
        ...new Set(
          rows
            .map(toMessage)
            .filter((m) => names(m, reference))
            .map((m) => m.thread),
        ),
      ];
      if (!threads.length) return [];
      const list = await s<ThreadRow[]>`
        select thread, status, closed_at, owner, assigned_at, messages, unread, last_seq::text, last_at, last_text, last_from, rev::text
        from pdesk.threads
        where profile = ${profile} and thread in ${s(threads)}
        order by sort_at desc nulls last, thread`;
      return list.map(deskThread);
    });
  }

  // ---------------------------------------------------------------- assignment

  private async setOwner(
    tx: Tx,
    profile: string,
    thread: string,
    owner: string | null,
    previous: string | null,
    by: string,
    reason: Assignment['reason'],
  ): Promise<void> {
    await tx`update pdesk.threads set owner = ${owner}, assigned_at = ${owner === null ? null : tx`now()`}
      where profile = ${profile} and thread = ${thread}`;
    await tx`insert into pdesk.assignments (profile, thread, owner, previous, by_operator, reason)
      values (${profile}, ${thread}, ${owner}, ${previous}, ${by}, ${reason})`;
  }

  assign(profile: string, thread: string, r: AssignRequest): Promise<AssignResult> {
    return this.tx(async (tx) => {
      const [row] = await tx<[{ owner: string | null }?]>`
        select owner from pdesk.threads where profile = ${profile} and thread = ${thread} for update`;
      if (!row) return { outcome: 'unknown' };
      const current = row.owner;
      const prev = current !== null ? { previous: current } : {};
      if (r.expect !== undefined && r.expect !== current) return { outcome: 'conflict', ...(current !== null ? { owner: current } : {}) };
      if (current === r.to) return { outcome: 'unchanged', ...(current !== null ? { owner: current } : {}) };
      await this.setOwner(tx, profile, thread, r.to, current, r.by, r.to === null ? 'unassign' : 'assign');
      const [{ rev }] = await tx<[{ rev: string }]>`update pdesk.threads set rev = nextval('pdesk.rev')
        where profile = ${profile} and thread = ${thread} returning rev::text`;
      await notify(tx, { kind: 'assignment', profile, thread, rev: Number(rev) });
      return r.to === null ? { outcome: 'unassigned', ...prev } : { outcome: 'assigned', owner: r.to, ...prev };
    });
  }

  assignments(profile: string, thread: string): Promise<Assignment[]> {
    return this.run(async () => {
      const rows = await this.sql<
        Array<{
          thread: string;
          owner: string | null;
          previous: string | null;
          by_operator: string;
          reason: Assignment['reason'];
          at: Date;
        }>
      >`select thread, owner, previous, by_operator, reason, at from pdesk.assignments
        where profile = ${profile} and thread = ${thread} order by seq`;
      return rows.map((a) => ({
        thread: a.thread,
        ...(a.owner !== null ? { owner: a.owner } : {}),
        ...(a.previous !== null ? { previous: a.previous } : {}),
        by: a.by_operator,
        reason: a.reason,
        at: a.at.toISOString(),
      }));
    });
  }

  // ---------------------------------------------------------------- replies

  async beginReply(profile: string, r: ReplyRequest): Promise<ReplyCheck> {
    checkId('thread', r.thread);
    return this.tx(async (tx) => {
      const t = await this.lockThread(tx, profile, r.thread);
      const newer = (await this.readMessages(tx, profile, r.thread, r.after)).filter(
        (m) => m.via === 'received' || m.operator !== r.operator,
      );
      const owner = t.owner !== null && t.owner !== r.operator && !r.force ? t.owner : undefined;
      const replying =
        t.replying_live && t.replying_operator !== null && t.replying_operator !== r.operator
          ? { operator: t.replying_operator, since: iso(t.replying_since)! }
          : undefined;
      if (newer.length || owner !== undefined || replying)
        return { ok: false, newMessages: newer, ...(owner !== undefined ? { owner } : {}), ...(replying ? { replying } : {}) };
      const token = randomUUID();
      const holdMs = r.holdMs ?? REPLY_HOLD_MS;
      const [row] = await tx<[{ until: Date }]>`
        update pdesk.threads set replying_operator = ${r.operator}, replying_session = ${token}, replying_since = now(),
          replying_until = now() + ${holdMs / 1000} * interval '1 second'
        where profile = ${profile} and thread = ${r.thread} returning replying_until as until`;
      const [{ rev }] = await tx<[{ rev: string }]>`update pdesk.threads set rev = nextval('pdesk.rev')
        where profile = ${profile} and thread = ${r.thread} returning rev::text`;
      await notify(tx, { kind: 'reply', profile, thread: r.thread, rev: Number(rev) });
      return { ok: true, claim: { profile, thread: r.thread, operator: r.operator, token, until: row.until.toISOString() } };
    });
  }

  completeReply(claim: ReplyClaim, record: MessageRecord): Promise<RecordResult> {
    return this.tx((tx) => this.insertMessage(tx, claim.profile, record, 'sent', claim.operator, claim.token));
  }

  abandonReply(claim: ReplyClaim): Promise<void> {
    return this.tx(async (tx) => {
      const released = await tx`update pdesk.threads set replying_operator = null, replying_session = null,
          replying_since = null, replying_until = null, rev = nextval('pdesk.rev')
        where profile = ${claim.profile} and thread = ${claim.thread} and replying_session = ${claim.token} returning rev::text`;
      if (!released.length) return;
      // A first reply to a thread the store did not know opened its row: nothing was sent, so the row goes.
      const rev = (await this.dropIfEmpty(tx, claim.profile, claim.thread)) ?? Number(released[0]!.rev);
      await notify(tx, { kind: 'reply', profile: claim.profile, thread: claim.thread, rev });
    });
  }

  /**
   * Delete a thread that holds nothing (open, no message, no owner, never assigned), in the transaction that
   * emptied it; returns the new rev when it went.
   */
  private async dropIfEmpty(tx: Tx, profile: string, thread: string): Promise<number | undefined> {
    const dropped = await tx`delete from pdesk.threads t where profile = ${profile} and thread = ${thread} and status = 'open'
      and owner is null
      and not exists (select 1 from pdesk.messages m where m.profile = t.profile and m.thread = t.thread)
      and not exists (select 1 from pdesk.assignments a where a.profile = t.profile and a.thread = t.thread)
      returning thread`;
    if (!dropped.length) return undefined;
    return Number((await tx<[{ rev: string }]>`select nextval('pdesk.rev')::text as rev`)[0].rev);
  }

  // ---------------------------------------------------------------- audit

  auditBegin(a: AuditStart): Promise<void> {
    return this.run(async () => {
      await this.sql`
        insert into pdesk.audit (profile, key, environment, operator, at, op, method, url, body_sha256, body, outcome)
        values (${a.profile}, ${a.key}, ${a.environment ?? null}, ${a.operator}, ${a.at}::timestamptz, ${a.op ?? null}, ${a.method},
                ${redact(a.url)}, ${a.bodySha256 ?? null}, ${a.body === undefined ? null : this.sql.json(a.body as never)},
                ${a.ahead ? 'ahead' : 'unknown'})
        on conflict (profile, key) where key is not null do nothing`;
    });
  }

  auditStart(profile: string, key: string, at: string): Promise<void> {
    return this.run(async () => {
      await this.sql`update pdesk.audit set outcome = 'unknown', at = ${at}::timestamptz
        where profile = ${profile} and key = ${key} and outcome = 'ahead'`;
    });
  }

  auditComplete(profile: string, key: string, o: AuditOutcome): Promise<void> {
    return this.run(async () => {
      const error = o.error ? { ...o.error, message: redact(o.error.message) } : null;
      await this.sql`update pdesk.audit set outcome = ${o.status !== undefined ? 'answered' : 'no-answer'},
          status = ${o.status ?? null}, created = ${o.created ?? null}, error = ${error === null ? null : this.sql.json(error)},
          ms = ${o.ms}, completed_at = now()
        where profile = ${profile} and key = ${key} and outcome in ('ahead', 'unknown')`;
    });
  }

  auditWithdraw(profile: string, key: string): Promise<void> {
    return this.run(async () => {
      await this.sql`delete from pdesk.audit where profile = ${profile} and key = ${key} and outcome in ('ahead', 'unknown')`;
    });
  }

  auditList(profile: string, q: AuditQuery = {}): Promise<DeskAuditRecord[]> {
    return this.run(async () => {
      const s = this.sql;
      const rows = await s<
        Array<{
          key: string;
          profile: string;
          environment: string | null;
          operator: string;
          at: Date;
          op: string | null;
          method: string;
          url: string;
          outcome: 'unknown' | 'answered' | 'no-answer';
          status: number | null;
          created: string | null;
          error: DeskAuditRecord['error'] | null;
          ms: number | null;
          body_sha256: string | null;
          body: unknown;
        }>
      >`select coalesce(key, id::text) as key, profile, environment, operator, at, op, method, url, outcome, status, created, error, ms,
               body_sha256, body
        from pdesk.audit where profile = ${profile} and outcome <> 'ahead'
          ${q.since ? s`and at >= ${q.since.toISOString()}::timestamptz` : s``}
          ${q.ops?.length ? s`and op in ${s(q.ops)}` : s``}
        order by at, id`;
      // In the order and shape of the file trail's records (AuditRecord), with the key.
      return rows.map((r) => ({
        at: r.at.toISOString(),
        user: r.operator,
        profile: r.profile,
        ...(r.environment !== null ? { environment: r.environment } : {}),
        ...(r.op !== null ? { op: r.op as DeskAuditRecord['op'] } : {}),
        method: r.method,
        url: r.url,
        ...(r.status !== null ? { status: r.status } : {}),
        ...(r.created !== null ? { id: r.created } : {}),
        ...(r.error !== null ? { error: r.error } : {}),
        ...(r.outcome === 'unknown' ? { outcome: 'unknown' as const } : {}),
        ...(r.ms !== null ? { ms: r.ms } : {}),
        ...(r.body_sha256 !== null ? { bodySha256: r.body_sha256 } : {}),
        ...(r.body !== null ? { body: r.body } : {}),
        key: r.key,
      }));
    });
  }

  // ---------------------------------------------------------------- presence

  heartbeat(profile: string, thread: string, p: PresenceSession): Promise<void> {
    return this.tx(async (tx) => {
      // The database's clock, not the desks': operators' machines need not agree on the time.
      const [row] = await tx<[{ fresh: boolean }]>`
        insert into pdesk.presence (profile, thread, session, operator) values (${profile}, ${thread}, ${p.session}, ${p.operator})
        on conflict (profile, thread, session) do update set seen_at = now(), operator = excluded.operator
        returning (xmax = 0) as fresh`;
      if (row.fresh) {
        await notify(tx, { kind: 'presence', profile, thread });
        await tx`delete from pdesk.presence where seen_at < now() - ${PRESENCE_FORGET_MS / 1000} * interval '1 second'`;
      }
    });
  }

  leave(profile: string, p: PresenceSession, thread?: string): Promise<void> {
    return this.tx(async (tx) => {
      const gone = await tx<Array<{ thread: string }>>`delete from pdesk.presence
        where profile = ${profile} and session = ${p.session} ${thread !== undefined ? tx`and thread = ${thread}` : tx``}
        returning thread`;
      for (const t of new Set(gone.map((g) => g.thread))) await notify(tx, { kind: 'presence', profile, thread: t });
    });
  }

  viewers(profile: string, thread: string, except?: PresenceSession): Promise<Viewer[]> {
    return this.run(async () => {
      const rows = await this.sql<Array<{ operator: string; seen_at: Date }>>`
        select operator, max(seen_at) as seen_at from pdesk.presence
        where profile = ${profile} and thread = ${thread} and session <> ${except?.session ?? ''}
          and seen_at > now() - ${PRESENCE_TTL_MS / 1000} * interval '1 second'
        group by operator order by operator`;
      return rows.map((r) => ({ operator: r.operator, seenAt: r.seen_at.toISOString() }));
    });
  }

  // ---------------------------------------------------------------- events

  subscribe(profile: string | undefined, onEvent: (e: DeskEvent) => void, o?: SubscribeOptions): Promise<Subscription> {
    return this.run(() => subscribe(this.sql, profile, onEvent, o));
  }

  private ended?: Promise<void>;

  close(): Promise<void> {
    this.ended ??= this.sql.end({ timeout: 5 });
    return this.ended;
  }
}

/** The team store at `url`, migrated on first use (unless `migrate: false`). Nothing connects until it is used. */
export function openPgStore(url: string, o: OpenOptions = {}): PgDeskStore {
  return new PgDeskStore(connect(url, o), url, o);
}
