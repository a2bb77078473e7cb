/**
 * Records for desk store tests (src/core/store/types.ts), written out by hand: a chat message (C1 or C3), a read
 * marker, a close and a notification, each at a fixed second of 2026-03-01.
 */
import type { ChatCommunication } from '../../src/core/schemas/chat.js';
import type { DeskRecord } from '../../src/core/store/types.js';
import { chatMessage } from './chat.js';

export const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 10, 0, s)).toISOString();

export function msg(
  id: string,
  thread: string,
  text: string,
  second: number,
  op: 'C1' | 'C3' = 'C1',
): Extract<DeskRecord, { kind: 'message' }> {
  const resource: ChatCommunication =
    op === 'C1'
      ? chatMessage(id, thread, text, 'Patient/pat-1', 'PractitionerRole/1001')
      : chatMessage(id, thread, text, 'PractitionerRole/1001', 'Patient/pat-1');
  return { kind: 'message', op, at: at(second), thread, id, resource };
}

export function read(id: string, second: number, thread?: string): Extract<DeskRecord, { kind: 'read' }> {
  const readAt = '2026-03-01T11:00:00';
  return {
    kind: 'read',
    op: 'C2',
    at: at(second),
    id,
    readAt,
    ...(thread ? { thread } : {}),
    resource: [{ op: 'add', path: '/recipient/0/extension', value: { url: 'urn:x.ResourceSeenAt', valueDateTime: readAt } }],
  };
}

export function close(thread: string, second: number): Extract<DeskRecord, { kind: 'close' }> {
  return {
    kind: 'close',
    op: 'C4',
    at: at(second),
    thread,
    resource: { resourceType: 'Encounter', id: thread, status: 'finished', identifier: [{ system: 'urn:x', value: thread }] },
  };
}

export function note(second: number, id?: string, text = 'x'): Extract<DeskRecord, { kind: 'notification' }> {
  return {
    kind: 'notification',
    op: 'C5',
    at: at(second),
    resource: {
      resourceType: 'Communication',
      ...(id ? { id } : {}),
      contained: [{ resourceType: 'Patient', id: 'p1', telecom: [{ system: 'email', value: 'a@example.org' }] }],
      topic: { text: 'T' },
      status: 'completed',
      category: [{ coding: [{ code: 'notification' }] }],
      payload: [{ contentString: text }],
      recipient: [{ reference: '#p1' }],
    },
  } as Extract<DeskRecord, { kind: 'notification' }>;
}
