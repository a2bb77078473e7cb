/**
 * The Chat screen's writes, each recorded in the thread store once the server acknowledged it
 * (core/threads/recorded.ts): send a message (C1 or C3), mark one read (C2), close a chat (C4). Without a
 * store nothing is sent: what the server acknowledged must be recorded. Every call runs through desk.run.
 */
import { useRef } from 'react';
import { type ChatCommunication, type EncounterClose, threadOf } from '../../../core/schemas/chat.js';
import type { ChatOp, ThreadMessage, ThreadStore } from '../../../core/threads/index.js';
import { NotRecordedError, closeRecorded, markReadRecorded, sendRecorded } from '../../../core/threads/recorded.js';
import { buildReadMarker } from '../../../core/api/chat.js';
import { useDesk } from '../../desk.js';
import { clean } from '../../format.js';

export function useChatWrites(store: ThreadStore | undefined, problem: string | undefined) {
  const desk = useDesk();
  /** The store to record in; without one nothing is sent. */
  const recordingStore = () => {
    if (!store) desk.error(`Nothing was sent: ${problem ?? 'the thread store is not open.'}`);
    return store;
  };

  /** A message on its way (sent and being recorded): a second confirmation must not send it twice. */
  const sending = useRef(false);
  /** C1 or C3; true once the server has it (recorded, or sent but not recorded: it must not be offered again). */
  const send = async (op: ChatOp, body: ChatCommunication): Promise<boolean> => {
    if (sending.current) return false;
    const st = recordingStore();
    if (!st) return false;
    sending.current = true;
    try {
      const thread = threadOf(body);
      const r = await desk.run(
        op === 'C1' ? `Sending to the practice system (C1) in ${clean(thread)}` : `Sending to the portal (C3) in ${clean(thread)}`,
        (signal) => sendRecorded(desk.client, st, op, body, { signal }),
        { sends: true },
      );
      if (!r.ok) return r.error instanceof NotRecordedError;
      // The id the server gave it, as recorded (decisions.md §16).
      const made = r.value.created;
      desk.ok(
        `Sent ${op} in ${clean(thread)} (HTTP ${r.value.status}), recorded: ${clean(r.value.message.id)}.${made.differs ? ` The server stored it under that id, not the one sent (${clean(body.id)}).` : ''}`,
      );
      return true;
    } finally {
      sending.current = false;
    }
  };

  /** C2 for a received message not yet marked read. */
  const markRead = async (m: ThreadMessage) => {
    if (m.via !== 'received') return desk.error('Only a received message can be marked read; this one was sent from here.');
    if (m.read) return desk.info(`Message ${clean(m.id)} is already marked read (${clean(m.readAt)}).`);
    let marker: ReturnType<typeof buildReadMarker>;
    try {
      marker = buildReadMarker(desk.profile);
    } catch (e) {
      return desk.error(e);
    }
    const st = recordingStore();
    if (!st) return;
    const r = await desk.run(`Marking ${clean(m.id)} read (C2)`, (signal) =>
      markReadRecorded(desk.client, st, m.id, marker, m.thread, { signal }),
    );
    if (r.ok) desk.ok(`Marked ${clean(m.id)} read (HTTP ${r.value.status}); recorded.`);
  };

  /** C4; without a body the profile's dialect builds it (under r4 the Encounter is read first and kept whole). */
  const close = async (thread: string, body: EncounterClose | undefined) => {
    const st = recordingStore();
    if (!st) return;
    const r = await desk.run(`Closing chat ${clean(thread)} (C4)`, (signal) => closeRecorded(desk.client, st, thread, body, { signal }));
    if (r.ok) desk.ok(`Closed chat ${clean(thread)} (HTTP ${r.value.status}); recorded.`);
  };

  return { send, markRead, close };
}
