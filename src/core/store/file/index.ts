/**
 * The file engine of the desk store (docs/decisions.md §17, "Without a team store"): the DeskStore interface over
 * the local thread store of src/core/threads/ (one store per profile in the config folder: fsynced appends,
 * segments, summaries for receivers), so a desk with nothing installed works as it always did and every face asks
 * both engines the same questions.
 *
 * On one machine a team is the operators who use its config folder (usually one; `PDESK_OPERATOR` may name
 * others). What PostgreSQL keeps in tables is kept here as follows:
 * - messages, read markers, closes, notifications: records of the thread store, as before; what pdesk sent names
 *   its operator. A record is durable (fsynced) when the call resolves.
 * - owners: `assign` records in the same store, so the history of a thread's owners is read with its messages.
 * - positions: a message's `seq` and a thread's `rev` are counts of the records read from the store's first byte,
 *   the same in every process that reads the same files.
 * - reply claims: a file per claimed thread in `desk/<profile>/replies/`, and a lock file per thread
 *   (`desk/<profile>/locks/`) that every change of an owner and every reply check holds, so two processes of one
 *   machine check and claim in turn.
 * - presence: a file per desk session in `desk/<profile>/presence/` (presence.ts).
 * - change events: the thread store's watch (this process's appends after their fsync, others' through fs.watch),
 *   and fs.watch on the claim and presence folders.
 * - the audit trail: `audit/<profile>.ndjson`, the write-ahead trail of src/core/audit.ts (a client writes it
 *   through its AuditLog directly; these calls write the same lines).
 *
 * Received pushes are checked against the store's index (what a receiver needs, without the history), read up to
 * date before each check: a push already stored is acknowledged again without a second copy, one to a closed thread
 * is refused. Pushes of the same id, or closes of the same thread, arriving together in this process are stored
 * once. Several processes receiving into one file store at once are not supported (that is the team store's job):
 * a push arriving at two of them at the same instant may be stored twice, and is shown once.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type FSWatcher, mkdirSync, readdirSync, watch as fsWatch } from 'node:fs';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AuditLog, auditPath, readAuditKeyed } from '../../audit.js';
import { type AnyRecord, type StoreRecord, type Via, assignRecord, storeRecord } from '../../threads/records.js';
import { openThreadStore, threadStorePath } from '../../threads/store.js';
import type { HealthCheck, ThreadStore, ThreadStoreOptions } from '../../threads/types.js';
import { type ThreadView, names } from '../../threads/view.js';
import { REPLY_HOLD_MS } from '../timing.js';
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
  NotificationEntry,
  PresenceSession,
  RecordResult,
  ReplyCheck,
  ReplyClaim,
  ReplyRequest,
  StoredRecord,
  SubscribeOptions,
  Subscription,
  ThreadQuery,
  ThreadRecords,
  Viewer,
} from '../types.js';
import { withLock } from './lock.js';
import { FilePresence, readSessionFile } from './presence.js';

const STORED: RecordResult = { outcome: 'stored' };
const DUPLICATE: RecordResult = { outcome: 'duplicate' };

/** The key under which pushes of the same thing arriving together are stored once. */
function onceKey(profile: string, r: DeskRecord, via: Via): string | undefined {
  switch (r.kind) {
    case 'message':
      return `${via}\u0000${profile}\u0000m\u0000${r.id}`;
    case 'read':
      return `${via}\u0000${profile}\u0000r\u0000${r.id}`;
    case 'close':
      return `${via}\u0000${profile}\u0000c\u0000${r.thread}`;
    case 'notification':
      return typeof r.resource.id === 'string' ? `${via}\u0000${profile}\u0000n\u0000${r.resource.id}` : undefined;
  }
}

const hashName = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** A reply claim as its file holds it (times in ms since 1970). */
interface ClaimFile {
  thread: string;
  operator: string;
  token: string;
  since: number;
  until: number;
}

async function readClaimFile(path: string): Promise<ClaimFile | undefined> {
  try {
    const c = JSON.parse(await readFile(path, 'utf8')) as ClaimFile;
    return c && typeof c.thread === 'string' && typeof c.token === 'string' && typeof c.until === 'number' ? c : undefined;
  } catch {
    return undefined;
  }
}

interface FileSubscription {
  deliver(e: DeskEvent): void;
}

export class FileDeskStore implements DeskStore {
  readonly engine = 'file' as const;
  private readonly stores = new Map<string, ThreadStore>();
  /** Stores handed in by their owner (`over`): used, never closed here. */
  private readonly adopted = new Set<ThreadStore>();
  private readonly inflight = new Map<string, Promise<RecordResult>>();
  /** Per profile, threads whose close is being written: a message to them is refused already. */
  private readonly closing = new Map<string, Set<string>>();
  private readonly presence: FilePresence;
  private readonly subscriptions = new Set<FileSubscription>();
  private readonly cleanups = new Set<() => void>();
  private readonly audits = new Map<string, AuditLog>();
  private closed = false;

  constructor(
    /** The config folder. */
    readonly dir: string,
    private readonly o: ThreadStoreOptions = {},
  ) {
    this.presence = new FilePresence((p) => join(this.deskFolder(p), 'presence'));
  }

  /** A desk store over a thread store its owner opened (the TUI's, a test's): it reads and writes through it. */
  static over(store: ThreadStore, o: ThreadStoreOptions = {}): FileDeskStore {
    const desk = new FileDeskStore(dirname(dirname(store.path)), o);
    desk.stores.set(store.profile, store);
    desk.adopted.add(store);
    return desk;
  }

  where(profile: string): string {
    return threadStorePath(this.dir, profile);
  }

  /** `desk/<profile>` in the config folder: reply claims, locks and presence. */
  private deskFolder(profile: string): string {
    threadStorePath(this.dir, profile); // the same names as the thread store's
    return join(this.dir, 'desk', profile);
  }

  private store(profile: string): ThreadStore {
    let s = this.stores.get(profile);
    if (!s) {
      if (this.closed) throw new Error(`The desk store in ${this.dir} is closed.`);
      s = openThreadStore(this.dir, profile, this.o);
      this.stores.set(profile, s);
    }
    return s;
  }

  /** The profile's view with everything stored so far. */
  private async view(profile: string): Promise<ThreadView> {
    return this.store(profile).load();
  }

  async prepare(profile: string): Promise<void> {
    const s = this.store(profile);
    await s.prepare();
    await s.loadIndex();
  }

  async health(): Promise<HealthCheck[]> {
    if (this.closed) return [{ name: 'store', ok: false, detail: 'the thread store is closed' }];
    const checks: HealthCheck[] = [];
    for (const s of this.stores.values()) checks.push(...(await s.health()));
    return checks.length ? checks : [{ name: 'store', ok: true, detail: 'no thread store opened yet' }];
  }

  // ---------------------------------------------------------------- recording

  /**
   * Run `fn` unless the same record is being stored in this process already: then wait for that one, and answer
   * what it did (a second copy of a stored record is a duplicate).
   */
  private once(key: string | undefined, fn: () => Promise<RecordResult>): Promise<RecordResult> {
    if (key === undefined) return fn();
    const prior = this.inflight.get(key);
    const p = (async () => {
      if (prior) {
        const r = await prior.catch(() => undefined);
        if (r) return r.outcome === 'stored' ? DUPLICATE : r;
      }
      return fn();
    })();
    this.inflight.set(key, p);
    const forget = () => {
      if (this.inflight.get(key) === p) this.inflight.delete(key);
    };
    p.then(forget, forget);
    return p;
  }

  /** Something already stored: made durable first (its own writer may still be on its way to the disk). */
  private async already(s: ThreadStore): Promise<RecordResult> {
    await s.sync();
    return DUPLICATE;
  }

  private closingOf(profile: string): Set<string> {
    let c = this.closing.get(profile);
    if (!c) {
      c = new Set();
      this.closing.set(profile, c);
    }
    return c;
  }

  /** Append a close, refusing messages to its thread while it is written. */
  private async appendClose(profile: string, s: ThreadStore, thread: string, record: StoreRecord): Promise<RecordResult> {
    const closing = this.closingOf(profile);
    closing.add(thread);
    try {
      await s.append([record]);
    } finally {
      closing.delete(thread);
    }
    return STORED;
  }

  async recordReceived(profile: string, r: DeskRecord): Promise<RecordResult> {
    const s = this.store(profile);
    return this.once(onceKey(profile, r, 'received'), async () => {
      // The index, read up to what other processes (chat send, chat close, a TUI) appended.
      await s.catchUp();
      switch (r.kind) {
        case 'message':
          if (await s.hasMessage(r.id)) return this.already(s);
          if ((await s.isClosed(r.thread)) || this.closingOf(profile).has(r.thread)) return { outcome: 'closed' };
          await s.append([storeRecord(r, 'received')]);
          return STORED;
        case 'read': {
          if (await s.hasRead(r.id)) return this.already(s);
          const thread = (await s.threadOfMessage(r.id)) ?? r.thread;
          await s.append([storeRecord({ ...r, ...(thread !== undefined ? { thread } : {}) }, 'received')]);
          return thread !== undefined ? { outcome: 'stored', thread } : STORED;
        }
        case 'close':
          if (await s.isClosed(r.thread)) return this.already(s);
          return this.appendClose(profile, s, r.thread, storeRecord(r, 'received'));
        case 'notification': {
          const id = r.resource.id;
          if (typeof id === 'string' && (await s.hasNotification(id))) return this.already(s);
          await s.append([storeRecord(r, 'received')]);
          return STORED;
        }
      }
    });
  }

  async recordSent(profile: string, r: DeskRecord, operator: string): Promise<RecordResult> {
    return this.once(onceKey(profile, r, 'sent'), () =>
      // A reply may make its operator the thread's owner: checked and written under the thread's lock.
      r.kind === 'message' && r.op === 'C3'
        ? this.underThread(profile, r.thread, () => this.sent(profile, r, operator))
        : this.sent(profile, r, operator),
    );
  }

  async recordPending(profile: string, r: DeskMessageRecord, operator: string): Promise<void> {
    // Appended as it is: the view shows a message stored already once, whatever follows it.
    await this.store(profile).append([storeRecord(r, 'pending', operator)]);
  }

  async recordRefused(profile: string, r: DeskMessageRecord): Promise<void> {
    // The view settles a pending message by it and ignores it for any other.
    await this.store(profile).append([storeRecord(r, 'refused')]);
  }

  /** Record what the server acknowledged (the thread's lock held for a reply). */
  private async sent(profile: string, r: DeskRecord, operator: string): Promise<RecordResult> {
    const s = this.store(profile);
    const v = await this.view(profile);
    switch (r.kind) {
      case 'message': {
        const via = v.viaOf(r.id);
        if (via === 'sent') return this.already(s);
        // Stored before as received: a message this desk sent that came back to it as a push (its own listener).
        if (via === 'received') {
          await s.append([storeRecord(r, 'sent', operator)]);
          return DUPLICATE;
        }
        const records: AnyRecord[] = [storeRecord(r, 'sent', operator)];
        // The first operator who replies to a thread nobody owns takes it.
        const takes = r.op === 'C3' && v.ownerOf(r.thread) === undefined;
        if (takes) records.push(assignRecord(r.thread, operator, operator, 'first-reply'));
        await s.append(records);
        return takes ? { outcome: 'stored', assigned: operator } : STORED;
      }
      case 'read': {
        if (v.isRead(r.id)) return this.already(s);
        const thread = v.threadOfMessage(r.id) ?? r.thread;
        await s.append([storeRecord({ ...r, ...(thread !== undefined ? { thread } : {}) }, 'sent', operator)]);
        return thread !== undefined ? { outcome: 'stored', thread } : STORED;
      }
      case 'close':
        if (v.isClosed(r.thread)) return this.already(s);
        return this.appendClose(profile, s, r.thread, storeRecord(r, 'sent', operator));
      case 'notification': {
        const id = r.resource.id;
        if (typeof id === 'string' && v.hasNotification(id)) return this.already(s);
        await s.append([storeRecord(r, 'sent', operator)]);
        return STORED;
      }
    }
  }

  // ---------------------------------------------------------------- reading

  async listThreads(profile: string, q: ThreadQuery = {}): Promise<DeskThread[]> {
    const filter = q.filter ?? 'all';
    if (filter === 'mine' && !q.operator) throw new Error('listThreads: the filter "mine" needs the operator');
    const v = await this.view(profile);
    let list = v.deskThreads();
    if (filter === 'mine') list = list.filter((t) => t.owner === q.operator);
    else if (filter === 'unassigned') list = list.filter((t) => t.owner === undefined);
    if (q.changedSince !== undefined) list = list.filter((t) => t.rev > q.changedSince!);
    return q.limit !== undefined ? list.slice(0, q.limit) : list;
  }

  async thread(profile: string, thread: string): Promise<DeskThread | undefined> {
    return (await this.view(profile)).deskThread(thread);
  }

  async messages(profile: string, thread: string): Promise<DeskMessage[] | undefined> {
    return (await this.view(profile)).deskMessages(thread);
  }

  async notifications(profile: string): Promise<NotificationEntry[]> {
    return (await this.view(profile)).notifications;
  }

  async threadRecords(profile: string, thread: string): Promise<ThreadRecords | undefined> {
    const v = await this.view(profile);
    const messages = v.deskMessages(thread);
    if (!messages) return undefined;
    const stored = <R>(r: { via: Via; at: string; operator?: string; resource: R }): StoredRecord<R> => ({
      via: r.via,
      at: r.at,
      ...(r.operator !== undefined ? { operator: r.operator } : {}),
      resource: r.resource,
    });
    const close = v.closeOf(thread);
    const readMarkers: ThreadRecords['readMarkers'] = [];
    for (const m of messages) {
      const r = v.readMarkerOf(m.id);
      if (r) readMarkers.push({ id: r.id, readAt: r.readAt, ...stored(r) });
    }
    return { ...(close ? { close: stored(close) } : {}), readMarkers };
  }

  async threadsNaming(profile: string, reference: string): Promise<DeskThread[]> {
    const v = await this.view(profile);
    return v.deskThreads().filter((t) => (v.deskMessages(t.thread) ?? []).some((m) => names(m, reference)));
  }

  // ---------------------------------------------------------------- owners and replies

  /** Run `fn` holding the thread's lock (this process's turn, then the lock file other processes take too). */
  private async underThread<T>(profile: string, thread: string, fn: () => Promise<T>): Promise<T> {
    const folder = join(this.deskFolder(profile), 'locks');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    return withLock(join(folder, `${hashName(thread)}.lock`), fn);
  }

  assign(profile: string, thread: string, r: AssignRequest): Promise<AssignResult> {
    return this.underThread(profile, thread, async () => {
      const v = await this.view(profile);
      if (!v.hasThread(thread)) return { outcome: 'unknown' };
      const current = v.ownerOf(thread) ?? null;
      const prev = current !== null ? { previous: current } : {};
      const owner = current !== null ? { owner: current } : {};
      if (r.expect !== undefined && r.expect !== current) return { outcome: 'conflict', ...owner };
      if (current === r.to) return { outcome: 'unchanged', ...owner };
      await this.store(profile).append([assignRecord(thread, r.to, r.by, r.to === null ? 'unassign' : 'assign', current ?? undefined)]);
      return r.to === null ? { outcome: 'unassigned', ...prev } : { outcome: 'assigned', owner: r.to, ...prev };
    });
  }

  async assignments(profile: string, thread: string): Promise<Assignment[]> {
    return (await this.view(profile)).assignmentsOf(thread).map((a) => ({
      thread: a.thread,
      ...(a.owner !== null ? { owner: a.owner } : {}),
      ...(a.previous !== undefined ? { previous: a.previous } : {}),
      by: a.by,
      reason: a.reason,
      at: a.at,
    }));
  }

  private claimPath(profile: string, thread: string): string {
    return join(this.deskFolder(profile), 'replies', `${hashName(thread)}.json`);
  }

  beginReply(profile: string, r: ReplyRequest): Promise<ReplyCheck> {
    return this.underThread(profile, r.thread, async () => {
      const v = await this.view(profile);
      const newMessages = (v.deskMessages(r.thread) ?? []).filter(
        (m) => m.seq > r.after && (m.via === 'received' || m.operator !== r.operator),
      );
      const current = v.ownerOf(r.thread);
      const owner = current !== undefined && current !== r.operator && !r.force ? current : undefined;
      const path = this.claimPath(profile, r.thread);
      const held = await readClaimFile(path);
      const now = Date.now();
      const replying =
        held && held.until > now && held.operator !== r.operator
          ? { operator: held.operator, since: new Date(held.since).toISOString() }
          : undefined;
      if (newMessages.length || owner !== undefined || replying)
        return { ok: false, newMessages, ...(owner !== undefined ? { owner } : {}), ...(replying ? { replying } : {}) };
      const claim: ClaimFile = {
        thread: r.thread,
        operator: r.operator,
        token: randomUUID(),
        since: now,
        until: now + (r.holdMs ?? REPLY_HOLD_MS),
      };
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(claim), { mode: 0o600 });
      await rename(tmp, path);
      return {
        ok: true,
        claim: { profile, thread: r.thread, operator: r.operator, token: claim.token, until: new Date(claim.until).toISOString() },
      };
    });
  }

  /** Remove the claim of `thread` when it is still the one of `token` (the thread's lock held). */
  private async release(claim: ReplyClaim): Promise<void> {
    const path = this.claimPath(claim.profile, claim.thread);
    const held = await readClaimFile(path);
    if (held?.token === claim.token) await unlink(path).catch(() => undefined);
  }

  completeReply(claim: ReplyClaim, record: DeskMessageRecord): Promise<RecordResult> {
    return this.underThread(claim.profile, claim.thread, async () => {
      const r = await this.sent(claim.profile, record, claim.operator);
      await this.release(claim);
      return r;
    });
  }

  abandonReply(claim: ReplyClaim): Promise<void> {
    return this.underThread(claim.profile, claim.thread, () => this.release(claim));
  }

  // ---------------------------------------------------------------- audit

  /** The profile's audit trail (`audit/<profile>.ndjson`), open for writing. */
  private async auditLog(profile: string): Promise<AuditLog> {
    let log = this.audits.get(profile);
    if (!log) {
      log = new AuditLog(this.dir, { name: profile });
      this.audits.set(profile, log);
    }
    await log.ready();
    return log;
  }

  async auditBegin(start: AuditStart): Promise<void> {
    await (await this.auditLog(start.profile)).beginStart(start).durable;
  }

  async auditStart(profile: string, key: string, at: string): Promise<void> {
    // As a bulk send's own `started` line: written with this turn's lines, not waited for (decisions.md §15).
    (await this.auditLog(profile)).noteStarted(key, at);
  }

  async auditComplete(profile: string, key: string, o: AuditOutcome): Promise<void> {
    await (await this.auditLog(profile)).complete({ id: key }, o, o.created);
  }

  async auditWithdraw(profile: string, key: string): Promise<void> {
    await (await this.auditLog(profile)).withdraw({ id: key });
  }

  async auditList(profile: string, q: AuditQuery = {}): Promise<DeskAuditRecord[]> {
    const { records, warnings } = readAuditKeyed(auditPath(this.dir, profile));
    for (const w of warnings) this.o.onWarning?.(w);
    const since = q.since?.getTime();
    return (
      records
        .filter(
          ({ record: r }) =>
            (since === undefined || Date.parse(r.at) >= since) && (!q.ops?.length || (r.op !== undefined && q.ops.includes(r.op))),
        )
        .map(({ key, record }) => ({ ...record, key }))
        // Oldest first by the request's start, as the team store lists them; lines written together keep their order.
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    );
  }

  // ---------------------------------------------------------------- presence

  async heartbeat(profile: string, thread: string, s: PresenceSession): Promise<void> {
    await this.presence.heartbeat(profile, thread, s);
  }

  async leave(profile: string, s: PresenceSession, thread?: string): Promise<void> {
    await this.presence.leave(profile, s, thread);
  }

  async viewers(profile: string, thread: string, except?: PresenceSession): Promise<Viewer[]> {
    return this.presence.viewers(profile, thread, except);
  }

  // ---------------------------------------------------------------- events

  /** The profiles with a thread store in the config folder. */
  private profilesOnDisk(): string[] {
    try {
      return readdirSync(join(this.dir, 'threads'))
        .filter((n) => n.endsWith('.ndjson'))
        .map((n) => n.slice(0, -'.ndjson'.length))
        .filter((p) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(p));
    } catch {
      return [];
    }
  }

  async subscribe(profile: string | undefined, onEvent: (e: DeskEvent) => void, o: SubscribeOptions = {}): Promise<Subscription> {
    let open = true;
    const sub: FileSubscription = {
      deliver: (e) => {
        if (!open) return;
        try {
          onEvent(e);
        } catch (err) {
          o.onError?.(err);
        }
      },
    };
    const stops: Array<() => void> = [];
    const profiles = profile !== undefined ? [profile] : this.profilesOnDisk();
    for (const p of profiles) stops.push(await this.watchProfile(p, sub, o));
    this.subscriptions.add(sub);
    const close = async () => {
      if (!open) return;
      open = false;
      this.subscriptions.delete(sub);
      for (const stop of stops) stop();
      this.cleanups.delete(close);
    };
    this.cleanups.add(close);
    return {
      poll: async () => {
        // Watching the folders is the live path; a poll reads what a missed file event would have told.
        for (const p of profiles) await this.store(p).refresh();
      },
      close,
    };
  }

  /** Events of one profile: its thread store's records, its claims and its presence. */
  private async watchProfile(profile: string, sub: FileSubscription, o: SubscribeOptions): Promise<() => void> {
    const s = this.store(profile);
    const v = await s.load();
    const revOf = (thread: string) => v.deskThread(thread)?.rev ?? v.count;
    const unwatch = s.watchAll((records) => {
      for (const r of records) {
        const e = eventOf(profile, r, v, revOf);
        if (e) sub.deliver(e);
      }
    });
    const folder = this.deskFolder(profile);
    const watchers: FSWatcher[] = [];
    const watchFolder = (name: string, onFile: (file: string) => void) => {
      const dir = join(folder, name);
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const w = fsWatch(dir, { persistent: false }, (_event, file) => {
          if (typeof file === 'string' && file.endsWith('.json')) onFile(join(dir, file));
        });
        w.on('error', (err) => o.onError?.(err));
        watchers.push(w);
      } catch (err) {
        o.onError?.(err);
      }
    };
    // A claim's file names its thread; a claim removed is known by the thread its file named when it was seen.
    const claims = new Map<string, string>();
    watchFolder('replies', (path) => {
      void readClaimFile(path).then((c) => {
        const thread = c?.thread ?? claims.get(path);
        if (c) claims.set(path, c.thread);
        else claims.delete(path);
        if (thread !== undefined) sub.deliver({ kind: 'reply', profile, thread, rev: revOf(thread) });
      });
    });
    // A session's threads: an event for each thread it opened or left (not for each heartbeat).
    const sessions = new Map<string, Set<string>>();
    for (const { file, s: f } of await this.presence.sessions(profile))
      sessions.set(join(folder, 'presence', file), new Set(Object.keys(f.threads)));
    watchFolder('presence', (path) => {
      void readSessionFile(path).then((f) => {
        const before = sessions.get(path) ?? new Set<string>();
        const after = new Set(f ? Object.keys(f.threads) : []);
        if (f) sessions.set(path, after);
        else sessions.delete(path);
        for (const t of after) if (!before.has(t)) sub.deliver({ kind: 'presence', profile, thread: t });
        for (const t of before) if (!after.has(t)) sub.deliver({ kind: 'presence', profile, thread: t });
      });
    });
    return () => {
      unwatch();
      for (const w of watchers) w.close();
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of [...this.cleanups]) c();
    for (const s of this.stores.values()) if (!this.adopted.has(s)) await s.close();
    this.stores.clear();
    for (const log of this.audits.values()) await log.close();
    this.audits.clear();
  }
}

/** The change event of a record read from the store (undefined for a read marker of a message it does not hold). */
function eventOf(profile: string, r: AnyRecord, v: ThreadView, revOf: (thread: string) => number): DeskEvent | undefined {
  switch (r.kind) {
    case 'message':
      return { kind: 'message', profile, thread: r.thread, rev: revOf(r.thread), id: r.id };
    case 'read': {
      const thread = v.threadOfMessage(r.id) ?? r.thread;
      return thread !== undefined && v.hasThread(thread) ? { kind: 'read', profile, thread, rev: revOf(thread), id: r.id } : undefined;
    }
    case 'close':
      return { kind: 'close', profile, thread: r.thread, rev: revOf(r.thread) };
    case 'notification':
      return { kind: 'notification', profile };
    case 'assign':
      return { kind: 'assignment', profile, thread: r.thread, rev: revOf(r.thread) };
  }
}

/** The desk store of a config folder's local files. */
export function openFileStore(dir: string, o: ThreadStoreOptions = {}): FileDeskStore {
  return new FileDeskStore(dir, o);
}
