/**
 * Chat operations whose acknowledgement is recorded in the desk store (src/core/store/types.ts: the local files, or
 * the team store on PostgreSQL), the one path the CLI commands and the TUI's Chat screen share: send the request
 * (C1, C3, C2, C4); only after a 2xx answer record it, and only then report the operation done. A message is stamped
 * before it is sent, so a reply pushed back at once still sorts after it.
 *
 * A message (C1, C3) is also recorded before it leaves, as `pending` (after its audit record, just before the request:
 * CallOptions.beforeSend), so that a desk that dies before the answer leaves an entry whose outcome is unknown; a 4xx
 * answer (or a redirect, never followed for a write) removes it (it was not taken), a 2xx makes it sent. A 5xx or no
 * answer leaves it pending: the server may have taken it.
 *
 * A reply (C3, `replyRecorded`) is checked first (decisions.md §17, "No double answers"): the store reads the thread
 * again and either clears it, claiming the thread for this operator's reply, or says what holds it (ReplyHeldError:
 * messages after the point the operator saw, another owner, another operator's reply being sent). The claim is
 * released once the reply is recorded or known not to have left; when its outcome is unknown it is kept until it
 * expires, so that nobody answers over a reply that may have reached the patient.
 */
import { closeChat, markRead, replyMessage, sendMessage } from '../api/chat.js';
import type { PdeskClient } from '../client.js';
import { ExitCode, HttpError, PdeskError, RedirectError, statusLine } from '../errors.js';
import { ChatCommunication, threadOf } from '../schemas/chat.js';
import { parseBody } from '../schemas/common.js';
import { type ChatOp, readAtOf } from '../threads/records.js';
import type { DeskMessage, DeskRecord, DeskStore, RecordResult, ReplyCheck, ReplyClaim } from './types.js';

type Opts = { signal?: AbortSignal };

/** Where a face records its chat operations: the desk store, the profile, and the operator sending them. */
export interface DeskTarget {
  store: DeskStore;
  profile: string;
  operator: string;
}

/** The server accepted the request but the desk store could not record it (the request did succeed). */
export class NotRecordedError extends PdeskError {}

/** What held a reply back (nothing was sent): the store's answer, for a face to word. */
export type ReplyHold = Extract<ReplyCheck, { ok: false }>;

/**
 * A reply held back by the store's check: nothing was sent. `hold` says why (the new messages, the owner, the other
 * operator's reply in flight); each face words what to do about it.
 */
export class ReplyHeldError extends PdeskError {
  constructor(
    readonly thread: string,
    readonly hold: ReplyHold,
  ) {
    super(`The reply to thread ${thread} was not sent: ${holdText(hold)}.`, ExitCode.usage);
  }
}

/** Why a reply is held, in a sentence's second half (no flag words: the faces add what to do). */
export function holdText(h: ReplyHold): string {
  const parts: string[] = [];
  if (h.newMessages.length)
    parts.push(
      `${h.newMessages.length === 1 ? 'a message' : `${h.newMessages.length} messages`} came in after the point it was written after (${newText(h.newMessages)})`,
    );
  if (h.owner !== undefined) parts.push(`the thread is ${h.owner}'s`);
  if (h.replying) parts.push(`${h.replying.operator} is sending a reply to it`);
  return parts.join('; ') || 'the store held it';
}

const newText = (ms: readonly DeskMessage[]) =>
  ms
    .slice(0, 3)
    .map((m) => (m.via === 'received' ? `received ${m.id}` : `${m.operator ?? 'another desk'} sent ${m.id}`))
    .join(', ') + (ms.length > 3 ? ', …' : '');

const code = (e: unknown) => String((e as NodeJS.ErrnoException).code ?? (e as Error).message);

/** `the thread store /…/threads/p.ndjson`, `the team store postgres://desk:***@db/pdesk`. */
export const storeName = (d: Pick<DeskTarget, 'store' | 'profile'>) =>
  `the ${d.store.engine === 'file' ? 'thread' : 'team'} store ${d.store.where(d.profile)}`;

async function keep(d: DeskTarget, status: number, what: string, record: () => Promise<RecordResult>): Promise<RecordResult> {
  if (status < 200 || status > 299)
    throw new PdeskError(
      `The server answered ${statusLine(status)} to ${what}, not an acknowledgement (2xx); it is not recorded as done.`,
      ExitCode.contract,
    );
  try {
    return await record();
  } catch (e) {
    throw new NotRecordedError(`The server accepted ${what}, but it could not be recorded in ${storeName(d)}.`, ExitCode.unexpected, [
      code(e),
    ]);
  }
}

/** A 4xx, or a redirect (not followed for a write): the server did not take it. */
const refusedBy = (e: unknown) => (e instanceof HttpError && e.status < 500) || e instanceof RedirectError;

/** The message as recorded: its op, stamp and resource. */
const messageBody = (op: ChatOp, m: ChatCommunication, at: string): Extract<DeskRecord, { kind: 'message' }> => ({
  kind: 'message',
  op,
  at,
  thread: threadOf(m),
  id: String(m.id),
  resource: m,
});

/**
 * Send a C1 or C3 with its pending record written ahead; `onLeft` is told once that record is durable (the request
 * leaves next). Records it sent (`settle`) after a 2xx, refused after a 4xx.
 */
async function sendWritingAhead(
  client: PdeskClient,
  d: DeskTarget,
  op: ChatOp,
  body: unknown,
  o: Opts,
  settle: (message: Extract<DeskRecord, { kind: 'message' }>) => Promise<RecordResult>,
  onLeft?: () => void,
) {
  const sentAt = new Date().toISOString();
  const pending = parseBody(ChatCommunication, body);
  const ahead = messageBody(op, pending, sentAt);
  const beforeSend = async () => {
    try {
      await d.store.recordPending(d.profile, ahead, d.operator);
    } catch (e) {
      const why = e instanceof PdeskError ? [e.message, ...e.details] : [];
      const name = storeName(d);
      throw new PdeskError(
        `${name[0]!.toUpperCase()}${name.slice(1)} cannot be written (${e instanceof PdeskError ? 'see below' : code(e)}); message ${pending.id} was not sent.`,
        e instanceof PdeskError ? e.exitCode : ExitCode.config,
        why,
      );
    }
    onLeft?.();
  };
  const refused = () => d.store.recordRefused(d.profile, ahead).catch(() => undefined);
  let res: Awaited<ReturnType<typeof sendMessage>>;
  try {
    res =
      op === 'C1' ? await sendMessage(client, pending, { ...o, beforeSend }) : await replyMessage(client, pending, { ...o, beforeSend });
  } catch (e) {
    if (refusedBy(e)) await refused();
    throw e;
  }
  if (res.status < 200 || res.status > 299) await refused();
  const id = res.created.id ?? res.message.id;
  const message = id === res.message.id ? res.message : { ...res.message, id };
  const recorded = await keep(d, res.status, `message ${id}`, () => settle(messageBody(op, message, sentAt)));
  return { ...res, message, thread: threadOf(res.message), recorded };
}

/**
 * C1 (portal → practice) or C3 (practice → portal) without a check: recorded pending before it leaves, then sent
 * under the id the server gave it (decisions.md §16: its `identifier` keeps the id pdesk sent, which settles the
 * pending record). A C3 sent this way still takes a thread nobody owns. `message` is the message as recorded.
 */
export function sendRecorded(client: PdeskClient, d: DeskTarget, op: ChatOp, body: unknown, o: Opts = {}) {
  return sendWritingAhead(client, d, op, body, o, (m) => d.store.recordSent(d.profile, m, d.operator));
}

export interface ReplyOptions extends Opts {
  /** The point the operator saw the thread at: its newest message's `seq` then. */
  after: number;
  /** Reply although another operator owns the thread. */
  force?: boolean;
}

/**
 * C3 checked against what changed (decisions.md §17): the store clears it and claims the thread, or it throws
 * ReplyHeldError and nothing is sent. Without a request to send (a dry run, a read-only client) there is nothing to
 * check and nothing is claimed: the client says why nothing went out.
 */
export async function replyRecorded(client: PdeskClient, d: DeskTarget, body: unknown, o: ReplyOptions) {
  if (client.opts.dryRun || client.refusalOf('C3')) return sendRecorded(client, d, 'C3', body, o);
  const thread = threadOf(parseBody(ChatCommunication, body));
  const check = await d.store.beginReply(d.profile, { thread, operator: d.operator, after: o.after, force: o.force });
  if (!check.ok) throw new ReplyHeldError(thread, check);
  const claim: ReplyClaim = check.claim;
  let left = false;
  try {
    return await sendWritingAhead(
      client,
      d,
      'C3',
      body,
      o,
      (m) => d.store.completeReply(claim, m),
      () => {
        left = true;
      },
    );
  } catch (e) {
    // Not sent (nothing left, or the server refused it): the claim goes. Sent with no answer, or answered 5xx: the
    // patient may have it, and the claim holds other operators off until it expires.
    if (!left || refusedBy(e)) await d.store.abandonReply(claim).catch(() => undefined);
    throw e;
  }
}

/** C2, recorded as a read marker for `communicationId` (in `thread` when known). */
export async function markReadRecorded(
  client: PdeskClient,
  d: DeskTarget,
  communicationId: string,
  body: unknown,
  thread?: string,
  o: Opts = {},
) {
  const at = new Date().toISOString();
  const res = await markRead(client, communicationId, body, o);
  await keep(d, res.status, `the read marker for ${communicationId}`, () =>
    d.store.recordSent(
      d.profile,
      {
        kind: 'read',
        op: 'C2',
        at,
        id: communicationId,
        readAt: readAtOf(res.marker),
        ...(thread !== undefined ? { thread } : {}),
        resource: res.marker,
      },
      d.operator,
    ),
  );
  return res;
}

/** C4, recorded as the close of `encounterId`; without a body, the profile's dialect builds it (api/chat.ts `closeChat`). */
export async function closeRecorded(client: PdeskClient, d: DeskTarget, encounterId: string, body: unknown | undefined, o: Opts = {}) {
  const at = new Date().toISOString();
  const res = await closeChat(client, encounterId, body, o);
  await keep(d, res.status, `the close of ${encounterId}`, () =>
    d.store.recordSent(d.profile, { kind: 'close', op: 'C4', at, thread: encounterId, resource: res.encounter }, d.operator),
  );
  return res;
}
