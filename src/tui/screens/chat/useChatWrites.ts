/**
 * The Chat screen's writes, each recorded in the desk store once the server acknowledged it (core/store/recorded.ts):
 * send a message (C1; a C3 is a reply, checked against what changed since the operator saw the thread and held when
 * something did), mark one read (C2), close a chat (C4); and take a thread (`a`: no request, the store's owner changed
 * against the owner shown). Without a store nothing is sent: what the server acknowledged must be recorded. Every
 * call runs through desk.run.
 */
import { useRef } from 'react';
import { buildReadMarker } from '../../../core/api/chat.js';
import { type ChatCommunication, type EncounterClose, threadOf } from '../../../core/schemas/chat.js';
import {
  type DeskTarget,
  NotRecordedError,
  ReplyHeldError,
  type ReplyHold,
  closeRecorded,
  markReadRecorded,
  replyRecorded,
  sendRecorded,
} from '../../../core/store/recorded.js';
import type { ChatOp, DeskMessage } from '../../../core/store/types.js';
import { useDesk } from '../../desk.js';
import { clean } from '../../format.js';
import type { ThreadsHandle } from '../../hooks/useDeskThreads.js';

/** How a send ended: sent (the server has it), held (nothing sent: what changed), or not sent. */
export type SendResult = { sent: true } | { sent: false; held?: ReplyHold };

/** A reply's check: the point the operator saw the thread at, and whether another operator's thread was accepted. */
export interface ReplyPoint {
  after: number;
  force: boolean;
}

const whose = (owner: string | undefined) => (owner === undefined ? 'unassigned' : `${owner}'s`);

export function useChatWrites(threads: ThreadsHandle) {
  const desk = useDesk();
  /** Where to record; without a store nothing is sent. */
  const target = (): DeskTarget | undefined => {
    if (!threads.store) {
      desk.error(`Nothing was sent: ${threads.problem ?? 'there is no thread store.'}`);
      return undefined;
    }
    return { store: threads.store, profile: desk.profile.name, operator: desk.operator };
  };

  /** A message on its way (sent and being recorded): a second confirmation must not send it twice. */
  const sending = useRef(false);
  /**
   * C1, or C3 (checked with `point` when given): sent once the server has it (recorded, or sent but not recorded: it
   * must not be offered again); held when the store's check found something the operator has not seen.
   */
  const send = async (op: ChatOp, body: ChatCommunication, point?: ReplyPoint): Promise<SendResult> => {
    if (sending.current) return { sent: false };
    const d = target();
    if (!d) return { sent: false };
    sending.current = true;
    try {
      const thread = threadOf(body);
      const r = await desk.run(
        op === 'C1' ? `Sending to the practice system (C1) in ${clean(thread)}` : `Sending to the portal (C3) in ${clean(thread)}`,
        (signal) =>
          op === 'C3' && point
            ? replyRecorded(desk.client, d, body, { ...point, signal })
            : sendRecorded(desk.client, d, op, body, { signal }),
        { sends: true },
      );
      if (!r.ok) {
        if (r.error instanceof ReplyHeldError) return { sent: false, held: r.error.hold };
        return { sent: r.error instanceof NotRecordedError };
      }
      threads.reload([thread]);
      // The id the server gave it, as recorded (decisions.md §16).
      const made = r.value.created;
      desk.ok(
        `Sent ${op} in ${clean(thread)} (HTTP ${r.value.status}), recorded: ${clean(r.value.message.id)}.${made.differs ? ` The server stored it under that id, not the one sent (${clean(body.id)}).` : ''}${r.value.recorded.assigned ? ' The thread is yours now.' : ''}`,
      );
      return { sent: true };
    } finally {
      sending.current = false;
    }
  };

  /** C2 for a received message not yet marked read. */
  const markRead = async (m: DeskMessage) => {
    if (m.via !== 'received') return desk.error('Only a received message can be marked read; this one was sent from here.');
    if (m.read) return desk.info(`Message ${clean(m.id)} is already marked read (${clean(m.readAt)}).`);
    let marker: ReturnType<typeof buildReadMarker>;
    try {
      marker = buildReadMarker(desk.profile);
    } catch (e) {
      return desk.error(e);
    }
    const d = target();
    if (!d) return;
    const r = await desk.run(`Marking ${clean(m.id)} read (C2)`, (signal) =>
      markReadRecorded(desk.client, d, m.id, marker, m.thread, { signal }),
    );
    if (r.ok) desk.ok(`Marked ${clean(m.id)} read (HTTP ${r.value.status}); recorded.`);
  };

  /** C4; without a body the profile's dialect builds it (under r4 the Encounter is read first and kept whole). */
  const close = async (thread: string, body: EncounterClose | undefined) => {
    const d = target();
    if (!d) return;
    const r = await desk.run(`Closing chat ${clean(thread)} (C4)`, (signal) => closeRecorded(desk.client, d, thread, body, { signal }));
    if (r.ok) desk.ok(`Closed chat ${clean(thread)} (HTTP ${r.value.status}); recorded.`);
  };

  /** Make `thread` this operator's, if its owner is still `shown` (else nothing changes and the status says who has it). */
  const take = async (thread: string, shown: string | undefined) => {
    const d = target();
    if (!d) return;
    const r = await desk.run(
      `Taking thread ${clean(thread)}`,
      () => d.store.assign(d.profile, thread, { to: d.operator, by: d.operator, expect: shown ?? null }),
      { connection: () => undefined },
    );
    if (!r.ok) return;
    threads.reload([thread]);
    const a = r.value;
    if (a.outcome === 'conflict')
      desk.error(`Not taken: thread ${clean(thread)} is ${clean(whose(a.owner))} now, not ${clean(whose(shown))} as shown. Look again.`);
    else if (a.outcome === 'unchanged') desk.info(`Thread ${clean(thread)} is yours already.`);
    else if (a.outcome === 'unknown') desk.error(`There is no thread ${clean(thread)} in the store.`);
    else desk.ok(`Thread ${clean(thread)} is yours now${a.previous !== undefined ? ` (it was ${clean(a.previous)}'s)` : ''}.`);
  };

  return { send, markRead, close, take };
}
