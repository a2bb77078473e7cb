/**
 * Chat operations whose acknowledgement is recorded in the thread store, the one path the CLI commands and
 * the TUI's Chat screen share: send the request (C1, C3, C2, C4); only after a 2xx answer append the record
 * (fsynced by the store) and only then report the operation done. A message is stamped before it is sent, so a
 * reply pushed back at once still sorts after it.
 *
 * A message (C1, C3) is also recorded before it leaves, as `pending` (after its audit intent, just before the
 * request: CallOptions.beforeSend), so that a process killed before the answer leaves an entry whose outcome is
 * unknown; a 4xx answer records it `refused` (it was not taken), a 2xx `sent`. A 5xx or no answer leaves it
 * pending: the server may have taken it.
 */
import { closeChat, markRead, replyMessage, sendMessage } from '../api/chat.js';
import type { PdeskClient } from '../client.js';
import { ExitCode, HttpError, PdeskError, RedirectError, statusLine } from '../errors.js';

import { ChatCommunication } from '../schemas/chat.js';
import { parseBody } from '../schemas/common.js';
import { type ChatOp, type StoreRecord, closeRecord, messageRecord, readRecord } from './records.js';
import { threadOf } from '../schemas/chat.js';
import type { ThreadStore } from './store.js';

type Opts = { signal?: AbortSignal };

/** The server accepted the request but the thread store could not record it (the request did succeed). */
export class NotRecordedError extends PdeskError {}

async function keep(store: ThreadStore, status: number, rec: StoreRecord, what: string): Promise<void> {
  if (status < 200 || status > 299)
    throw new PdeskError(
      `The server answered ${statusLine(status)} to ${what}, not an acknowledgement (2xx); it is not recorded as done.`,
      ExitCode.contract,
    );
  try {
    await store.append([rec]);
  } catch (e) {
    throw new NotRecordedError(
      `The server accepted ${what}, but it could not be recorded in the thread store ${store.path}.`,
      ExitCode.unexpected,
      [String((e as NodeJS.ErrnoException).code ?? (e as Error).message)],
    );
  }
}

/**
 * C1 (portal → practice) or C3 (practice → portal), recorded as pending before it leaves, then as sent under the id
 * the server gave it (decisions.md §16: its `identifier` keeps the id pdesk sent, which settles the pending record).
 * `message` is the message as recorded.
 */
export async function sendRecorded(client: PdeskClient, store: ThreadStore, op: ChatOp, body: unknown, o: Opts = {}) {
  const sentAt = new Date().toISOString();
  const pending = parseBody(ChatCommunication, body);
  const beforeSend = async () => {
    try {
      await store.append([messageRecord(op, 'pending', pending, sentAt)]);
    } catch (e) {
      throw new PdeskError(
        `The thread store ${store.path} cannot be written (${String((e as NodeJS.ErrnoException).code ?? (e as Error).message)}); message ${pending.id} was not sent.`,
        ExitCode.config,
      );
    }
  };
  const refused = () => store.append([messageRecord(op, 'refused', pending, sentAt)]).catch(() => undefined);
  let res: Awaited<ReturnType<typeof sendMessage>>;
  try {
    res =
      op === 'C1' ? await sendMessage(client, pending, { ...o, beforeSend }) : await replyMessage(client, pending, { ...o, beforeSend });
  } catch (e) {
    // A 4xx, or a redirect (not followed for a write): the server did not take it.
    if ((e instanceof HttpError && e.status < 500) || e instanceof RedirectError) await refused();
    throw e;
  }
  if (res.status < 200 || res.status > 299) await refused();
  const id = res.created.id ?? res.message.id;
  const message = id === res.message.id ? res.message : { ...res.message, id };
  await keep(store, res.status, messageRecord(op, 'sent', message, sentAt), `message ${id}`);
  return { ...res, message, thread: threadOf(res.message) };
}

/** C2, recorded as a read marker for `communicationId` (in `thread` when known). */
export async function markReadRecorded(
  client: PdeskClient,
  store: ThreadStore,
  communicationId: string,
  body: unknown,
  thread?: string,
  o: Opts = {},
) {
  const res = await markRead(client, communicationId, body, o);
  await keep(store, res.status, readRecord('sent', communicationId, res.marker, thread), `the read marker for ${communicationId}`);
  return res;
}

/** C4, recorded as the close of `encounterId`; without a body, the profile's dialect builds it (api/chat.ts `closeChat`). */
export async function closeRecorded(client: PdeskClient, store: ThreadStore, encounterId: string, body: unknown | undefined, o: Opts = {}) {
  const res = await closeChat(client, encounterId, body, o);
  await keep(store, res.status, closeRecord('sent', encounterId, res.encounter), `the close of ${encounterId}`);
  return res;
}
