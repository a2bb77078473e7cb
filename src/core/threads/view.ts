/**
 * The in-memory view of a thread store: threads keyed by encounter id, their messages in store order, read
 * markers by message id, closes, and notifications. Built record by record (`apply`), so the store can feed
 * it the whole file once and then only what was appended since.
 */
import type {
  ChatOp,
  CloseRecord,
  LoadedMessage,
  MessageRecord,
  NotificationRecord,
  Party,
  ReadRecord,
  StoreRecord,
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

export interface NotificationEntry {
  via: Via;
  at: string;
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
  /** Records applied (duplicates included). */
  count = 0;

  apply(r: StoreRecord | LoadedMessage): void {
    this.count++;
    switch (r.kind) {
      case 'message': {
        const known = this.byId.get(r.id);
        if (known) {
          // The same message recorded twice is shown once. When this desk both sent it and received it (a
          // profile whose portal is this desk's own listener), it is the desk's own message: never unread. A
          // pending message is settled by its later record: sent, or refused (then it was never taken).
          if (r.via === 'sent') {
            known.via = 'sent';
            this.pending.delete(r.id);
          } else if (r.via === 'refused' && known.via === 'pending') this.drop(known);
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
        this.byId.set(r.id, r);
        // In order of `at` (records mostly arrive in that order; a reply pushed before the command that sent
        // the question recorded it is put after the question).
        const list = this.thread(r.thread).messages;
        let i = list.length;
        while (i > 0 && list[i - 1]!.at > r.at) i--;
        if (i === list.length) list.push(r);
        else list.splice(i, 0, r);
        return;
      }
      case 'read':
        if (!this.reads.has(r.id)) {
          this.reads.set(r.id, r.readAt);
          this.markers.set(r.id, r);
        }
        return;
      case 'close': {
        const t = this.thread(r.thread);
        if (t.closedAt === undefined) {
          t.closedAt = r.at;
          t.close = r;
        }
        return;
      }
      case 'notification':
        this.notes.push(r);
        return;
    }
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
      t = { messages: [] };
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

  private isUnread(m: LoadedMessage): boolean {
    return m.via === 'received' && !this.reads.has(m.id);
  }

  summary(thread: string): ThreadSummary | undefined {
    const t = this.threadMap.get(thread);
    if (!t) return undefined;
    let unread = 0;
    for (const m of t.messages) if (this.isUnread(m)) unread++;
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

  /** Every thread, newest first (by the last message's time, else the close time), then by thread id. */
  get threads(): ThreadSummary[] {
    const out: ThreadSummary[] = [];
    for (const id of this.threadMap.keys()) out.push(this.summary(id)!);
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
    return t.messages.map((m) => this.message(m));
  }

  private message(m: LoadedMessage): ThreadMessage {
    const c = resourceOf(m);
    const { from, to } = directionOf(m.op);
    const readAt = this.reads.get(m.id);
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

  /** C5 notifications, in store order. */
  get notifications(): NotificationEntry[] {
    return this.notes.map((r) => {
      const n = r.resource;
      const target = n.recipient?.[0]?.reference?.replace(/^#/, '');
      const patient = n.contained?.find((p) => p.id === target) ?? n.contained?.[0];
      return {
        via: r.via,
        at: r.at,
        ...(patient?.telecom?.[0]?.value ? { email: patient.telecom[0].value } : {}),
        ...(n.topic?.text ? { topic: n.topic.text } : {}),
        text: (n.payload ?? []).map((p) => p.contentString).join('\n'),
        resource: n,
      };
    });
  }
}

/** The text of a chat message: its payloads' strings, one per line. */
export function textOf(c: MessageRecord['resource']): string {
  return (c.payload ?? []).map((p) => p.contentString ?? '').join('\n');
}
