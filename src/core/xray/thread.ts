/**
 * X-ray of a chat thread, from the desk's store alone (no operation reads messages), on either engine: the
 * encounter's state (open, or closed by a C4 recorded at a time, with the Encounter as sent or received), its owner
 * on a desk that has one, and each message with its read marker (C2): read when, or unread, or, for a message pdesk
 * sent, not marked read by them.
 */
import type { DeskStore } from '../store/types.js';
import { type Xray, type XrayNode, section, xray } from './model.js';

export const ENCOUNTER_SECTION = 'Encounter (chat state)';
export const MESSAGES_SECTION = 'Messages and read markers (C1, C3, C2)';

/** What an X-ray reads of the desk's store (src/core/store/types.ts). */
export type XrayStore = Pick<DeskStore, 'thread' | 'messages' | 'threadRecords' | 'threadsNaming' | 'notifications'>;

const utc = (at: string) => `${at.slice(0, 19).replace('T', ' ')} UTC`;

export async function xrayThread(store: XrayStore, profile: string, thread: string): Promise<Xray> {
  const enc = section(ENCOUNTER_SECTION);
  const msg = section(MESSAGES_SECTION);
  const [summary, messages = [], records] = await Promise.all([
    store.thread(profile, thread),
    store.messages(profile, thread),
    store.threadRecords(profile, thread),
  ]);
  if (!summary) return xray(`Chat ${thread}`, [enc.none(`the desk's store knows no thread ${thread}`, { source: 'store' })]);
  const close = records?.close;
  const nodes: XrayNode[] = [
    close
      ? enc.found(`${thread} · closed (C4 ${close.via} ${utc(close.at)}${close.operator ? ` by ${close.operator}` : ''})`, {
          source: 'store',
          resource: close.resource,
        })
      : summary.status === 'closed'
        ? enc.found(`${thread} · closed${summary.closedAt ? ` (${utc(summary.closedAt)})` : ''}`, { source: 'store', resource: summary })
        : enc.found(`${thread} · open (no close recorded)`, { source: 'store', resource: summary }),
  ];
  if (summary.owner)
    nodes.push(enc.info(`owned by ${summary.owner}${summary.assignedAt ? ` since ${utc(summary.assignedAt)}` : ''}`, { source: 'store' }));
  const markers = new Map((records?.readMarkers ?? []).map((r) => [r.id, r]));
  const subjects = new Set<string>();
  for (const m of messages) {
    if (m.subject) subjects.add(m.subject);
    const marker = markers.get(m.id);
    const readAt = marker?.readAt ?? m.readAt;
    const state =
      m.via === 'received'
        ? readAt
          ? `read ${readAt}`
          : 'unread (no read marker)'
        : readAt
          ? `marked read ${readAt}`
          : m.via === 'pending'
            ? 'outcome unknown (sent, no answer recorded)'
            : 'no read marker recorded';
    const who = m.via !== 'received' && m.operator ? ` (${m.operator})` : '';
    nodes.push(
      msg.found(
        `${m.op} ${m.via === 'received' ? 'in ' : 'out'} ${m.at.slice(0, 16).replace('T', ' ')} ${m.sender}${who} · ${state} · ${m.text}`,
        { source: 'store', resource: m.resource },
      ),
    );
    if (marker)
      nodes.push(
        msg.found(`read marker (C2 ${marker.via}) ${marker.readAt}${marker.operator ? ` by ${marker.operator}` : ''}`, {
          source: 'store',
          resource: marker.resource,
          depth: 1,
        }),
      );
  }
  if (!messages.length) nodes.push(msg.none('no message recorded (only the close)', { source: 'store' }));
  if (subjects.size) nodes.push(section('Subject').info(`the messages are about ${[...subjects].join(', ')}`, { source: 'store' }));
  return xray(`Chat ${thread}`, nodes);
}
