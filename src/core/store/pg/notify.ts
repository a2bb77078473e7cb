/**
 * Change events of the team store over PostgreSQL's LISTEN/NOTIFY. Every change is notified on one channel in the
 * transaction that makes it, so the event is delivered when (and only if) it commits. A payload names what changed
 * (the profile, the kind, the thread, the message id and the thread's new rev), never the content: a subscriber reads
 * the rows it shows. Payloads stay under PostgreSQL's 8,000 bytes: one that would not (a huge id) is sent as a
 * `resync`, which tells subscribers to reload.
 *
 * A subscription listens on a connection of its own. The driver reconnects it with a back-off when it drops and
 * listens again; events sent meanwhile are lost, so every reconnection is reported as a `resync`. A poll once a
 * minute (never faster) compares the newest rev with what the events told, and reports a `resync` when something
 * changed that no event told (a connection that died without anyone noticing).
 */
import type { DeskEvent, SubscribeOptions, Subscription } from '../types.js';
import type { Sql, Tx } from './connect.js';

export const CHANNEL = 'pdesk';
/** PostgreSQL refuses payloads of 8,000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7999;
/** The fall-back poll's period, and its floor. */
export const POLL_MS = 60_000;

type Change = Exclude<DeskEvent, { kind: 'resync' }>;

/** The NOTIFY payload of an event (short keys: it travels to every listening desk). */
export function encodeEvent(e: Change): string {
  const short: Record<string, unknown> = { k: e.kind, p: e.profile };
  if ('thread' in e) short.t = e.thread;
  if ('rev' in e) short.r = e.rev;
  if ('id' in e && e.id !== undefined) short.i = e.id;
  const text = JSON.stringify(short);
  return Buffer.byteLength(text) <= MAX_PAYLOAD_BYTES ? text : JSON.stringify({ k: 'resync' });
}

const str = (v: unknown): v is string => typeof v === 'string';

/** The event of a payload, or undefined for one this pdesk does not understand (a newer pdesk's). */
export function decodeEvent(payload: string): DeskEvent | undefined {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object') return undefined;
  const { k, p, t, r, i } = v;
  if (k === 'resync') return { kind: 'resync', why: 'overflow' };
  if (!str(p)) return undefined;
  if (k === 'notification') return { kind: 'notification', profile: p };
  if (!str(t)) return undefined;
  if (k === 'presence') return { kind: 'presence', profile: p, thread: t };
  if ((k === 'message' || k === 'read' || k === 'close' || k === 'assignment' || k === 'reply') && typeof r === 'number')
    return { kind: k, profile: p, thread: t, rev: r, ...(str(i) ? { id: i } : {}) };
  return undefined;
}

/** Notify an event from inside the transaction that made the change (delivered at its commit). */
export async function notify(tx: Tx | Sql, e: Change): Promise<void> {
  await tx`select pg_notify(${CHANNEL}, ${encodeEvent(e)})`;
}

/** The newest rev of the profile's threads (of every profile when undefined). */
async function newestRev(sql: Sql, profile: string | undefined): Promise<number> {
  const [row] =
    profile === undefined
      ? await sql<[{ rev: string | null }]>`select max(rev)::text as rev from pdesk.threads`
      : await sql<[{ rev: string | null }]>`select max(rev)::text as rev from pdesk.threads where profile = ${profile}`;
  return Number(row?.rev ?? 0);
}

/** Listen for the change events of `profile` (every profile when undefined). */
export async function subscribe(
  sql: Sql,
  profile: string | undefined,
  onEvent: (e: DeskEvent) => void,
  o: SubscribeOptions = {},
): Promise<Subscription> {
  let seen = await newestRev(sql, profile);
  let listening = false;
  let closed = false;
  const deliver = (e: DeskEvent) => {
    if (closed) return;
    try {
      onEvent(e);
    } catch (err) {
      o.onError?.(err);
    }
  };
  const listener = await sql.listen(
    CHANNEL,
    (payload) => {
      const e = decodeEvent(payload);
      if (!e) return;
      if (e.kind !== 'resync' && profile !== undefined && e.profile !== profile) return;
      if ('rev' in e) seen = Math.max(seen, e.rev);
      deliver(e);
    },
    () => {
      // Called when LISTEN is in place: at the start, and again after every reconnection, when events may have
      // been missed.
      if (listening) deliver({ kind: 'resync', why: 'reconnected' });
      listening = true;
    },
  );
  const poll = async () => {
    if (closed) return;
    const rev = await newestRev(sql, profile);
    if (rev > seen) {
      seen = rev;
      deliver({ kind: 'resync', why: 'poll' });
    }
  };
  const timer = setInterval(() => void poll().catch((e) => o.onError?.(e)), Math.max(POLL_MS, o.pollMs ?? POLL_MS));
  timer.unref();
  return {
    poll,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await listener.unlisten().catch(() => undefined);
    },
  };
}
