/**
 * The in-memory view of a thread store: threads keyed by encounter id, their messages in store order, read
 * markers by message id, closes, owners, and notifications. Built record by record (`apply`), so the store can
 * feed it the whole file once and then only what was appended since.
 *
 * Positions: every record applied counts (`count`); a message's `seq` is the count it was applied at (its order
 * of arrival), a thread's `rev` the count of its last change. Reading the same files gives the same positions
 * in every process.
 *
 * The shapes shown here are also the desk store's (src/core/store/types.ts): `DeskThread` and `DeskMessage` add
 * what a team needs (owner, positions, operator) to `ThreadSummary` and `ThreadMessage`, and `messageOf` builds a
 * message for either engine.
 */
import type {
  AnyRecord,
  AssignRecord,
  ChatOp,
  CloseRecord,
  LoadedMessage,
  MessageRecord,
  NotificationRecord,
  Party,
  ReadRecord,
  Via,
} from './records.js';
import { directionOf, resourceOf } from './records.js';

export interface ThreadMessage {
  id: string;
  thread: string;
  op: ChatOp;
  via: Via;
  /** The party that sent it (portal for C1, practice for C3) and the one it went to. */
  from: Party;
  to: Party;
  /** When pdesk sent it (taken before the request) or received it (ISO 8601 UTC); messages are in this order. */
  at: string;
  /** The Communication's own `sent`, when it has one. */
  sent?: string;
  sender: string;
  senderDisplay?: string;
  recipient: string;
  recipientDisplay?: string;
  subject: string;
  text: string;
  topic?: string;
  attachment?: { contentType: string; title: string };
  /** A read marker names this message. */
  read: boolean;
  /** The marker's valueDateTime (local time without offset). */
  readAt?: string;
  /** Received and no read marker recorded. */
  unread: boolean;
  resource: MessageRecord['resource'];
}

/** Whether a message is about, from or to `reference` (`Patient/pat-1`). */
export function names(m: ThreadMessage, reference: string): boolean {
  return m.subject === reference || m.sender === reference || m.recipient === reference;
}

/** A message as the desk store shows it: with its position and who sent it. */
export interface DeskMessage extends ThreadMessage {
  /** Order of arrival in the store. */
  seq: number;
  /** Who sent it (sent messages, when recorded). */
  operator?: string;
}

export interface ThreadSummary {
  thread: string;
  status: 'open' | 'closed';
  /** When the close was recorded. */
  closedAt?: string;
  messages: number;
  unread: number;
  /** The newest message: when recorded, its text, and who sent it. */
  lastAt?: string;
  lastText?: string;
  lastFrom?: Party;
}

/** One thread in the desk store's list: its summary, owner and positions. */
export interface DeskThread extends ThreadSummary {
  /** The operator who owns the thread; absent: unassigned. */
  owner?: string;
  assignedAt?: string;
  /** The position of its newest message (0 when it has none): a reply form holds it as `after`. */
  lastSeq: number;
  /** Grows at every change of the thread. */
  rev: number;
}

export interface NotificationEntry {
  via: Via;
  at: string;
  /** Who sent it (sent notifications, when recorded). */
  operator?: string;
  email?: string;
  topic?: string;
  text: string;
  resource: NotificationRecord['resource'];
}

interface ThreadState {
  messages: LoadedMessage[];
  closedAt?: string;
  /** The first close recorded (what the X-ray shows). */
  close?: CloseRecord;
  owner?: string;
  assignedAt?: string;
  /** Changes of owner, oldest first. */
  assignments?: AssignRecord[];
  /** The view's count at the thread's last change. */
  rev: number;
}

export class ThreadView {
  private readonly threadMap = new Map<string, ThreadState>();
  private readonly byId = new Map<string, LoadedMessage>();
  /** Messages recorded as pending and not settled yet, by id. */
  private readonly pending = new Map<string, LoadedMessage>();
  private readonly reads = new Map<string, string>();
  /** The first read marker recorded per message id (what the X-ray shows). */
  private readonly markers = new Map<string, ReadRecord>();
  private readonly notes: NotificationRecord[] = [];
  /** Ids of the notifications kept (one with an id is kept once). */
  private readonly noteIds = new Set<string>();
  /** Records applied (duplicates included): the position of the last one. */
  count = 0;

  apply(r: AnyRecord | LoadedMessage): void {
    const seq = ++this.count;
    switch (r.kind) {
      case 'message': {
        const known = this.byId.get(r.id);
        if (known) {
          // The same message recorded twice is shown once. When this desk both sent it and received it (a
          // profile whose portal is this desk's own listener), it is the desk's own message: never unread. A
          // pending message is settled by its later record: sent, or refused (then it was never taken).
          if (r.via === 'sent') {
            if (known.via !== 'sent') {
              known.via = 'sent';
              if (r.operator !== undefined) known.operator = r.operator;
              this.touch(known.thread, seq);
            }
            this.pending.delete(r.id);
          } else if (r.via === 'refused' && known.via === 'pending') {
            this.drop(known);
            this.touch(known.thread, seq);
          }
          return;
        }
        if (r.via === 'refused') return;
        // Sent under another id than pdesk gave it (the server's, decisions.md §16): its identifier keeps the id
        // sent, which is the pending record's; that one is settled by this.
        if (r.via === 'sent' && this.pending.size > 0)
          for (const k of resourceOf(r).identifier ?? []) {
            const sent = k.value === undefined ? undefined : this.pending.get(k.value);
            if (sent) this.drop(sent);
          }
        if (r.via === 'pending') this.pending.set(r.id, r);
        (r as LoadedMessage).seq = seq;
        this.byId.set(r.id, r);
        // In order of `at` (records mostly arrive in that order; a reply pushed before the command that sent
        // the question recorded it is put after the question).
        const t = this.thread(r.thread);
        const list = t.messages;
        let i = list.length;
        while (i > 0 && list[i - 1]!.at > r.at) i--;
        if (i === list.length) list.push(r);
        else list.splice(i, 0, r);
        t.rev = seq;
        return;
      }
      case 'read':
        if (!this.reads.has(r.id)) {
          this.reads.set(r.id, r.readAt);
          this.markers.set(r.id, r);
          const thread = this.byId.get(r.id)?.thread ?? r.thread;
          if (thread !== undefined) this.touch(thread, seq);
        }
        return;
      case 'close': {
        const t = this.thread(r.thread);
        if (t.closedAt === undefined) {
          t.closedAt = r.at;
          t.close = r;
          t.rev = seq;
        }
        return;
      }
      case 'notification': {
        const id = r.resource.id;
        if (typeof id === 'string') {
          if (this.noteIds.has(id)) return;
          this.noteIds.add(id);
        }
        this.notes.push(r);
        return;
      }
      case 'assign': {
        const t = this.threadMap.get(r.thread);
        if (!t) return; // an owner of a thread the store does not hold (its records archived): nothing to show
        if (r.owner === null) {
          t.owner = undefined;
          t.assignedAt = undefined;
        } else {
          t.owner = r.owner;
          t.assignedAt = r.at;
        }
        t.assignments = [...(t.assignments ?? []), r];
        t.rev = seq;
        return;
      }
    }
  }

  /** A change of a thread the view already holds. */
  private touch(thread: string, seq: number): void {
    const t = this.threadMap.get(thread);
    if (t) t.rev = seq;
  }

  /** A pending message the server refused: it leaves its thread (a thread it alone opened goes too). */
  private drop(m: LoadedMessage): void {
    this.byId.delete(m.id);
    this.pending.delete(m.id);
    const t = this.threadMap.get(m.thread);
    if (!t) return;
    const i = t.messages.indexOf(m);
    if (i >= 0) t.messages.splice(i, 1);
    if (t.messages.length === 0 && t.closedAt === undefined) this.threadMap.delete(m.thread);
  }

  private thread(id: string): ThreadState {
    let t = this.threadMap.get(id);
    if (!t) {
      t = { messages: [], rev: this.count };
      this.threadMap.set(id, t);
    }
    return t;
  }

  hasThread(thread: string): boolean {
    return this.threadMap.has(thread);
  }

  isClosed(thread: string): boolean {
    return this.threadMap.get(thread)?.closedAt !== undefined;
  }

  hasMessage(id: string): boolean {
    return this.byId.has(id);
  }

  /** How a stored message came (sent by this desk, or received), if it is stored. */
  viaOf(id: string): Via | undefined {
    return this.byId.get(id)?.via;
  }

  /** The thread a message belongs to, if the message is in the store. */
  threadOfMessage(id: string): string | undefined {
    return this.byId.get(id)?.thread;
  }

  /** The close record of a thread, if one was recorded. */
  closeOf(thread: string): CloseRecord | undefined {
    return this.threadMap.get(thread)?.close;
  }

  /** The read marker recorded for a message, if any. */
  readMarkerOf(id: string): ReadRecord | undefined {
    return this.markers.get(id);
  }

  isRead(id: string): boolean {
    return this.reads.has(id);
  }

  /** A notification of this id is held. */
  hasNotification(id: string): boolean {
    return this.noteIds.has(id);
  }

  private isUnread(m: LoadedMessage): boolean {
    return m.via === 'received' && !this.reads.has(m.id);
  }

  summary(thread: string): ThreadSummary | undefined {
    const t = this.threadMap.get(thread);
    return t && summaryOf(thread, t, (m) => this.isUnread(m));
  }

  /** The thread as the desk store lists it: its summary, owner and positions. */
  deskThread(thread: string): DeskThread | undefined {
    const t = this.threadMap.get(thread);
    if (!t) return undefined;
    const last = t.messages.reduce((max, m) => Math.max(max, m.seq ?? 0), 0);
    return {
      ...summaryOf(thread, t, (m) => this.isUnread(m)),
      ...(t.owner !== undefined ? { owner: t.owner, ...(t.assignedAt !== undefined ? { assignedAt: t.assignedAt } : {}) } : {}),
      lastSeq: last,
      rev: t.rev,
    };
  }

  /** Who owns a thread (undefined: nobody, or no such thread). */
  ownerOf(thread: string): string | undefined {
    return this.threadMap.get(thread)?.owner;
  }

  /** The changes of a thread's owner, oldest first. */
  assignmentsOf(thread: string): readonly AssignRecord[] {
    return this.threadMap.get(thread)?.assignments ?? [];
  }

  /** Every thread, newest first (by the last message's time, else the close time), then by thread id. */
  get threads(): ThreadSummary[] {
    return this.sorted((id) => this.summary(id)!);
  }

  /** Every thread as the desk store lists it, in the order of `threads`. */
  deskThreads(): DeskThread[] {
    return this.sorted((id) => this.deskThread(id)!);
  }

  private sorted<T extends ThreadSummary>(row: (id: string) => T): T[] {
    const out: T[] = [];
    for (const id of this.threadMap.keys()) out.push(row(id));
    const key = (s: ThreadSummary) => s.lastAt ?? s.closedAt ?? '';
    return out.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka !== kb) return ka < kb ? 1 : -1;
      return a.thread < b.thread ? -1 : a.thread > b.thread ? 1 : 0;
    });
  }

  /** The messages of a thread in time order (`at`), or undefined for a thread the store does not know. */
  messages(thread: string): ThreadMessage[] | undefined {
    const t = this.threadMap.get(thread);
    if (!t) return undefined;
    return t.messages.map((m) => messageOf(m, resourceOf(m), this.reads.get(m.id)));
  }

  /** The messages of a thread as the desk store shows them (with positions and operators). */
  deskMessages(thread: string): DeskMessage[] | undefined {
    const t = this.threadMap.get(thread);
    if (!t) return undefined;
    return t.messages.map((m) => ({
      ...messageOf(m, resourceOf(m), this.reads.get(m.id)),
      seq: m.seq ?? 0,
      ...(m.operator !== undefined ? { operator: m.operator } : {}),
    }));
  }

  /** C5 notifications, in store order (one with an id once). */
  get notifications(): NotificationEntry[] {
    return this.notes.map(notificationOf);
  }
}

/** A C5 notification as it is shown (both engines): its recipient's email, topic and text. */
export function notificationOf(r: Pick<NotificationRecord, 'via' | 'at' | 'resource' | 'operator'>): NotificationEntry {
  const n = r.resource;
  const target = n.recipient?.[0]?.reference?.replace(/^#/, '');
  const patient = n.contained?.find((p) => p.id === target) ?? n.contained?.[0];
  return {
    via: r.via,
    at: r.at,
    ...(r.operator !== undefined ? { operator: r.operator } : {}),
    ...(patient?.telecom?.[0]?.value ? { email: patient.telecom[0].value } : {}),
    ...(n.topic?.text ? { topic: n.topic.text } : {}),
    text: (n.payload ?? []).map((p) => p.contentString).join('\n'),
    resource: n,
  };
}

/** The text of a chat message: its payloads' strings, one per line. */
export function textOf(c: Pick<MessageRecord['resource'], 'payload'>): string {
  return (c.payload ?? []).map((p) => p.contentString ?? '').join('\n');
}

function summaryOf(thread: string, t: ThreadState, isUnread: (m: LoadedMessage) => boolean): ThreadSummary {
  let unread = 0;
  for (const m of t.messages) if (isUnread(m)) unread++;
  const last = t.messages[t.messages.length - 1];
  return {
    thread,
    status: t.closedAt === undefined ? 'open' : 'closed',
    ...(t.closedAt !== undefined ? { closedAt: t.closedAt } : {}),
    messages: t.messages.length,
    unread,
    ...(last ? { lastAt: last.at, lastText: textOf(resourceOf(last)), lastFrom: directionOf(last.op).from } : {}),
  };
}

/**
 * A chat message as it is shown, from what the store knows of it (`m`), its Communication and its read marker's
 * time: the one shape of both engines (src/core/store/pg/store.ts builds its messages with it too).
 */
export function messageOf(
  m: Pick<MessageRecord, 'id' | 'thread' | 'op' | 'via' | 'at'>,
  c: MessageRecord['resource'],
  readAt: string | undefined,
): ThreadMessage {
  const { from, to } = directionOf(m.op);
  const attachment = c.payload?.find((p) => p.contentAttachment)?.contentAttachment;
  return {
    id: m.id,
    thread: m.thread,
    op: m.op,
    via: m.via,
    from,
    to,
    at: m.at,
    ...(c.sent ? { sent: c.sent } : {}),
    sender: c.sender?.[0]?.reference ?? '',
    ...(c.sender?.[0]?.display ? { senderDisplay: c.sender[0].display } : {}),
    recipient: c.recipient?.[0]?.reference ?? '',
    ...(c.recipient?.[0]?.display ? { recipientDisplay: c.recipient[0].display } : {}),
    subject: c.subject?.[0]?.reference ?? '',
    text: textOf(c),
    ...(c.topic?.text ? { topic: c.topic.text } : {}),
    ...(attachment ? { attachment: { contentType: attachment.contentType, title: attachment.title } } : {}),
    read: readAt !== undefined,
    ...(readAt !== undefined ? { readAt } : {}),
    unread: m.via === 'received' && readAt === undefined,
    resource: c,
  };
}
