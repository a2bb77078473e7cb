/**
 * Thread store records. The file engine keeps them in append-only NDJSON files per profile, starting with
 * `<config dir>/threads/<profile>.ndjson` (segments.ts: the later segments and their summaries), mode 0600, one
 * JSON record per line, UTF-8. Every record has:
 *
 *   v      1 (format version; a record with a higher version is skipped with a warning)
 *   kind   'message' | 'read' | 'close' | 'notification' | 'repair'
 *   op     'C1' | 'C3' (message), 'C2' (read), 'C4' (close), 'C5' (notification)
 *   via    'sent' (pdesk sent it and the server acknowledged it) | 'received' (a push `pdesk listen` accepted)
 *          | 'pending' (a message pdesk is about to send: written before its request leaves, so a process killed
 *          before the answer leaves it; a later 'sent' or 'refused' record of the same id settles it, and one left
 *          pending has an unknown outcome) | 'refused' (the server answered a pending message 4xx: not taken)
 *   at     ISO 8601 UTC with milliseconds: when pdesk sent it (taken just before the request; the record is
 *          written after the acknowledgement) or received it. Messages of a thread are shown in this order.
 *
 * and per kind:
 *
 *   message       thread (encounter id), id (Communication id), operator (who sent it, on a message pdesk sent;
 *                 absent in stores written before operators were recorded), resource (the chat Communication as
 *                 sent or received). C1 goes portal → practice system, C3 practice system → portal.
 *   read          id (the Communication marked read), readAt (the marker's valueDateTime, local time without
 *                 offset), thread when known at write time (else resolved from the message when loading),
 *                 resource (the JSON Patch body).
 *   close         thread, resource (the Encounter with status finished).
 *   notification  resource (the C5 Communication); notifications belong to no thread.
 *   assign        a change of a thread's owner (decisions.md §17): thread, owner (null: unassigned), previous, by
 *                 (the operator who made it), reason ('assign', 'unassign', 'first-reply'). No op and no via.
 *   repair        written by a writer that found the file not ending in a newline (a torn write after a crash,
 *                 never acknowledged): the torn fragment before it is then skipped without a warning.
 *
 * read, close and notification records pdesk sent carry `operator` too. A pdesk older than operators skips an
 * assign record with a warning and ignores `operator`.
 *
 * A thread is open until a close record names it. A message is unread when it was received and no read
 * marker names its id. Lines that are not valid records are skipped with a warning (a torn last line is
 * the expected case after a crash); they never stop pdesk from starting.
 */
import { type ChatCommunication, type EncounterClose, type ReadMarker, threadOf } from '../schemas/chat.js';
import type { Notification } from '../schemas/notification.js';

export const RECORD_VERSION = 1;

export type Via = 'sent' | 'received' | 'pending' | 'refused';
export type ChatOp = 'C1' | 'C3';
export type Party = 'portal' | 'practice';

interface RecordBase {
  v: typeof RECORD_VERSION;
  via: Via;
  at: string;
  /** Who sent it (records of what pdesk sent): decisions.md §17. */
  operator?: string;
}

export interface MessageRecord extends RecordBase {
  kind: 'message';
  op: ChatOp;
  thread: string;
  id: string;
  resource: ChatCommunication;
}

export interface ReadRecord extends RecordBase {
  kind: 'read';
  op: 'C2';
  id: string;
  readAt: string;
  thread?: string;
  resource: ReadMarker;
}

export interface CloseRecord extends RecordBase {
  kind: 'close';
  op: 'C4';
  thread: string;
  resource: EncounterClose;
}

export interface NotificationRecord extends RecordBase {
  kind: 'notification';
  op: 'C5';
  resource: Notification;
}

export type AssignReason = 'assign' | 'unassign' | 'first-reply';

/** A change of a thread's owner. */
export interface AssignRecord {
  v: typeof RECORD_VERSION;
  kind: 'assign';
  at: string;
  thread: string;
  /** The new owner; null: nobody. */
  owner: string | null;
  previous?: string;
  by: string;
  reason: AssignReason;
}

export interface RepairRecord {
  v: typeof RECORD_VERSION;
  kind: 'repair';
  at: string;
  note: string;
}

/** The chat records: what is sent and received (C1–C5). */
export type StoreRecord = MessageRecord | ReadRecord | CloseRecord | NotificationRecord;
/** Every record a caller appends: the chat records and the desk's own (owners). */
export type AnyRecord = StoreRecord | AssignRecord;

/** A chat record without the file format's version, `via` and `operator`: what the desk store's calls take. */
type Bare<R> = Omit<R, 'v' | 'via' | 'operator'>;
export type RecordBody = Bare<MessageRecord> | Bare<ReadRecord> | Bare<CloseRecord> | Bare<NotificationRecord>;
export type MessageBody = Bare<MessageRecord>;

const now = () => new Date().toISOString();
const isStr = (v: unknown): v is string => typeof v === 'string';

/** Which party sent a message of this operation, and to whom. */
export function directionOf(op: ChatOp): { from: Party; to: Party } {
  return op === 'C1' ? { from: 'portal', to: 'practice' } : { from: 'practice', to: 'portal' };
}

/**
 * A message record; its keys stay in this order (`operator` just before `resource`, `resource` last): the loader's
 * fast path relies on it.
 */
export function messageRecord(op: ChatOp, via: Via, resource: ChatCommunication, at = now(), operator?: string): MessageRecord {
  return {
    v: RECORD_VERSION,
    kind: 'message',
    op,
    via,
    at,
    thread: threadOf(resource),
    id: String(resource.id),
    ...(operator !== undefined ? { operator } : {}),
    resource,
  };
}

/** The `valueDateTime` of a read marker (the operation whose url ends in ResourceSeenAt, else the first). */
export function readAtOf(marker: ReadMarker): string {
  const op = marker.find((o) => o.value.url.endsWith('ResourceSeenAt')) ?? marker[0]!;
  return op.value.valueDateTime;
}

const by = (operator: string | undefined) => (operator !== undefined ? { operator } : {});

export function readRecord(
  via: Via,
  communicationId: string,
  resource: ReadMarker,
  thread?: string,
  at = now(),
  operator?: string,
): ReadRecord {
  return {
    v: RECORD_VERSION,
    kind: 'read',
    op: 'C2',
    via,
    at,
    id: communicationId,
    readAt: readAtOf(resource),
    ...(thread !== undefined ? { thread } : {}),
    resource,
    ...by(operator),
  };
}

export function closeRecord(via: Via, encounterId: string, resource: EncounterClose, at = now(), operator?: string): CloseRecord {
  return { v: RECORD_VERSION, kind: 'close', op: 'C4', via, at, thread: encounterId, resource, ...by(operator) };
}

export function notificationRecord(via: Via, resource: Notification, at = now(), operator?: string): NotificationRecord {
  return { v: RECORD_VERSION, kind: 'notification', op: 'C5', via, at, resource, ...by(operator) };
}

export function assignRecord(
  thread: string,
  owner: string | null,
  by: string,
  reason: AssignReason,
  previous?: string,
  at = now(),
): AssignRecord {
  return { v: RECORD_VERSION, kind: 'assign', at, thread, owner, ...(previous !== undefined ? { previous } : {}), by, reason };
}

/**
 * A record as the thread store keeps it, from its body as the desk store takes it (`via` and `operator` are the
 * call's); a message's keys in messageRecord's order (the loader's fast path).
 */
export function storeRecord(r: RecordBody, via: Via, operator?: string): StoreRecord {
  const by = operator !== undefined ? { operator } : {};
  switch (r.kind) {
    case 'message':
      return { v: RECORD_VERSION, kind: 'message', op: r.op, via, at: r.at, thread: r.thread, id: r.id, ...by, resource: r.resource };
    case 'read':
      return {
        v: RECORD_VERSION,
        kind: 'read',
        op: 'C2',
        via,
        at: r.at,
        id: r.id,
        readAt: r.readAt,
        ...(r.thread !== undefined ? { thread: r.thread } : {}),
        resource: r.resource,
        ...by,
      };
    case 'close':
      return { v: RECORD_VERSION, kind: 'close', op: 'C4', via, at: r.at, thread: r.thread, resource: r.resource, ...by };
    case 'notification':
      return { v: RECORD_VERSION, kind: 'notification', op: 'C5', via, at: r.at, resource: r.resource, ...by };
  }
}

export function repairRecord(at = now()): RepairRecord {
  return { v: RECORD_VERSION, kind: 'repair', at, note: 'the line before this one is a torn write (never acknowledged) and is skipped' };
}

/**
 * A message record as the loader keeps it: to read a large store fast, only the fields before `resource`
 * are parsed, and the resource's JSON text is kept in `raw` until something needs it (`resourceOf`).
 */
export interface LoadedMessage extends Omit<MessageRecord, 'resource'> {
  resource?: ChatCommunication;
  raw?: string;
  /** Its position in the store (the view's count of records when it was applied): the order of arrival. */
  seq?: number;
}

/** The Communication of a loaded message, parsed on first use. */
export function resourceOf(m: LoadedMessage): ChatCommunication {
  if (!m.resource) {
    try {
      m.resource = JSON.parse(m.raw ?? 'null') as ChatCommunication;
    } catch {
      m.resource = undefined;
    }
    if (!m.resource || typeof m.resource !== 'object')
      m.resource = { payload: [{ contentString: '(unreadable record)' }] } as ChatCommunication;
    m.raw = undefined;
  }
  return m.resource;
}

/** The head of a message line as `messageRecord` writes it (keys in that order, `resource` last). */
const MESSAGE_HEAD =
  /\{"v":1,"kind":"message","op":"(C1|C3)","via":"(sent|received)","at":"([^"\\\n]*)","thread":"((?:[^"\\\n]|\\.)*)","id":"((?:[^"\\\n]|\\.)*)",(?:"operator":"((?:[^"\\\n]|\\.)*)",)?"resource":\{/y;

const unescapeJson = (s: string) => (s.includes('\\') ? (JSON.parse(`"${s}"`) as string) : s);

/**
 * Fast path for the line `text[start, end)` when it is a message written by `messageRecord`: only its head
 * is parsed (a sticky regular expression, no JSON.parse), and the resource's JSON text is kept for later.
 * Returns undefined for any other line (the caller then parses it whole).
 */
export function parseMessageAt(text: string, start: number, end: number): LoadedMessage | undefined {
  if (text.charCodeAt(end - 1) !== 0x7d) return undefined;
  MESSAGE_HEAD.lastIndex = start;
  const m = MESSAGE_HEAD.exec(text);
  if (!m || MESSAGE_HEAD.lastIndex > end) return undefined;
  try {
    return {
      v: RECORD_VERSION,
      kind: 'message',
      op: m[1] as ChatOp,
      via: m[2] as Via,
      at: m[3]!,
      thread: unescapeJson(m[4]!),
      id: unescapeJson(m[5]!),
      ...(m[6] !== undefined ? { operator: unescapeJson(m[6]) } : {}),
      raw: text.slice(MESSAGE_HEAD.lastIndex - 1, end - 1),
    };
  } catch {
    return undefined;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Structural check of a parsed line (fast: no zod, the store may hold 100,000 records). Returns the record,
 * or a reason it is not one.
 */
export function asRecord(value: unknown): { record: AnyRecord | RepairRecord } | { problem: string } {
  if (!isObj(value)) return { problem: 'not a JSON object' };
  if (value.v !== RECORD_VERSION) {
    return typeof value.v === 'number' && value.v > RECORD_VERSION
      ? { problem: `record version ${value.v} was written by a newer pdesk` }
      : { problem: 'no record version' };
  }
  if (!isStr(value.at)) return { problem: 'no "at" time' };
  const via = value.via;
  const viaOk = via === 'sent' || via === 'received' || via === 'pending' || via === 'refused';
  switch (value.kind) {
    case 'message': {
      const r = value.resource;
      if (
        (value.op === 'C1' || value.op === 'C3') &&
        viaOk &&
        isStr(value.thread) &&
        isStr(value.id) &&
        isObj(r) &&
        Array.isArray(r.payload)
      )
        return { record: value as unknown as MessageRecord };
      return { problem: 'incomplete message record' };
    }
    case 'read':
      if (value.op === 'C2' && viaOk && isStr(value.id) && isStr(value.readAt) && (value.thread === undefined || isStr(value.thread)))
        return { record: value as unknown as ReadRecord };
      return { problem: 'incomplete read record' };
    case 'close':
      if (value.op === 'C4' && viaOk && isStr(value.thread)) return { record: value as unknown as CloseRecord };
      return { problem: 'incomplete close record' };
    case 'notification':
      if (value.op === 'C5' && viaOk && isObj(value.resource)) return { record: value as unknown as NotificationRecord };
      return { problem: 'incomplete notification record' };
    case 'assign':
      if (
        isStr(value.thread) &&
        (value.owner === null || isStr(value.owner)) &&
        isStr(value.by) &&
        (value.reason === 'assign' || value.reason === 'unassign' || value.reason === 'first-reply')
      )
        return { record: value as unknown as AssignRecord };
      return { problem: 'incomplete assign record' };
    case 'repair':
      return { record: value as unknown as RepairRecord };
    default:
      return { problem: `unknown record kind ${JSON.stringify(value.kind)}` };
  }
}
