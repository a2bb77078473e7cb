/**
 * X-ray of a chat thread, from the local thread store alone (no operation reads messages): the encounter's
 * state (open, or closed by a C4 recorded at a time, with the Encounter as sent or received) and each message
 * with its read marker (C2): read when, or unread, or, for a message pdesk sent, not marked read by them.
 */
import type { ThreadView } from '../threads/index.js';
import { type Xray, type XrayNode, section, xray } from './model.js';

export const ENCOUNTER_SECTION = 'Encounter (chat state)';
export const MESSAGES_SECTION = 'Messages and read markers (C1, C3, C2)';

export function xrayThread(view: ThreadView, thread: string): Xray {
  const enc = section(ENCOUNTER_SECTION);
  const msg = section(MESSAGES_SECTION);
  const summary = view.summary(thread);
  if (!summary) return xray(`Chat ${thread}`, [enc.none(`the thread store knows no thread ${thread}`, { source: 'store' })]);
  const close = view.closeOf(thread);
  const nodes: XrayNode[] = [
    close
      ? enc.found(`${thread} · closed (C4 ${close.via} ${close.at.slice(0, 19).replace('T', ' ')} UTC)`, {
          source: 'store',
          resource: close.resource,
        })
      : enc.found(`${thread} · open (no close recorded)`, { source: 'store', resource: summary }),
  ];
  const subjects = new Set<string>();
  const messages = view.messages(thread) ?? [];
  for (const m of messages) {
    if (m.subject) subjects.add(m.subject);
    const marker = view.readMarkerOf(m.id);
    const state =
      m.via === 'received'
        ? marker
          ? `read ${marker.readAt}`
          : 'unread (no read marker)'
        : marker
          ? `marked read ${marker.readAt}`
          : 'no read marker recorded';
    nodes.push(
      msg.found(
        `${m.op} ${m.via === 'received' ? 'in ' : 'out'} ${m.at.slice(0, 16).replace('T', ' ')} ${m.sender} · ${state} · ${m.text}`,
        {
          source: 'store',
          resource: m.resource,
        },
      ),
    );
    if (marker)
      nodes.push(msg.found(`read marker (C2 ${marker.via}) ${marker.readAt}`, { source: 'store', resource: marker.resource, depth: 1 }));
  }
  if (!messages.length) nodes.push(msg.none('no message recorded (only the close)', { source: 'store' }));
  if (subjects.size) nodes.push(section('Subject').info(`the messages are about ${[...subjects].join(', ')}`, { source: 'store' }));
  return xray(`Chat ${thread}`, nodes);
}
