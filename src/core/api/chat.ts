/**
 * Chat API: C1 send to the practice system · C2 mark read · C3 send to the portal · C4 close a chat.
 * Bodies per decisions.md §6–§7.
 */
import type { Profile } from '../../profiles/schema.js';
import type { CallOptions, PdeskClient } from '../client.js';
import { localNoOffset } from '../dates.js';
import { FieldError } from '../errors.js';
import { isFhirId } from '../ids.js';
import { ChatCommunication, EncounterClose, ReadMarker } from '../schemas/chat.js';
import { parseBody } from '../schemas/common.js';

export interface ChatInput {
  thread: string;
  text: string;
  sender: string;
  recipient: string;
  subject: string;
  topic?: string;
  /** `contentType:title`, split at the first `:`. */
  attachment?: string;
  id?: string;
}

export const communicationIdSystem = (p: Profile) => `${p.namespaces.portal}.communication-id`;
export const communicationTypeSystem = (p: Profile) => `${p.namespaces.portal}.communication-type`;
export const encounterIdSystem = (p: Profile) => `${p.namespaces.practice}.encounter-id`;
export const seenAtUrl = (p: Profile) => `${p.namespaces.portal}.ResourceSeenAt`;

/** A chat participant: `Type/<id>` (a FHIR id) or a contained `#id`. */
function checkRef(value: string, field: string): string {
  const slash = value.indexOf('/');
  const ok = /^#.+$/.test(value) || (slash > 0 && /^[A-Za-z]+$/.test(value.slice(0, slash)) && isFhirId(value.slice(slash + 1)));
  if (!ok) throw new FieldError(field, `must be a reference like PractitionerRole/<id> or Patient/<id>, not "${value}"`);
  return value;
}

export function parseAttachment(value: string): { contentType: string; title: string } {
  const i = value.indexOf(':');
  if (i <= 0 || i === value.length - 1) throw new FieldError('attachment', `must be <contentType>:<title>, not "${value}"`);
  return { contentType: value.slice(0, i), title: value.slice(i + 1) };
}

/** The C1/C3 Communication of decisions.md §6. */
export function buildChatMessage(profile: Profile, m: ChatInput): ChatCommunication {
  const id = m.id ?? process.getBuiltinModule('node:crypto').randomUUID();
  return parseBody(ChatCommunication, {
    resourceType: 'Communication',
    id,
    identifier: [{ system: communicationIdSystem(profile), value: id }],
    ...(m.topic ? { topic: { text: m.topic } } : {}),
    status: 'completed',
    payload: [{ contentString: m.text, ...(m.attachment ? { contentAttachment: parseAttachment(m.attachment) } : {}) }],
    encounter: { identifier: [{ system: encounterIdSystem(profile), value: m.thread }] },
    recipient: [{ reference: checkRef(m.recipient, 'recipient') }],
    sender: [{ reference: checkRef(m.sender, 'sender') }],
    subject: [{ reference: checkRef(m.subject, 'subject') }],
    category: [{ coding: [{ system: communicationTypeSystem(profile), code: 'chat' }] }],
  });
}

/** The C2 JSON Patch of decisions.md §6; `valueDateTime` is local time without offset. */
export function buildReadMarker(profile: Profile, at: Date = new Date()): ReadMarker {
  return parseBody(ReadMarker, [
    { op: 'add', path: '/recipient/0/extension', value: { url: seenAtUrl(profile), valueDateTime: localNoOffset(at) } },
  ]);
}

/**
 * The C4 Encounter of decisions.md §7. `class` is not in the interface, but FHIR R4 requires it on an Encounter and a
 * portal built on a FHIR server may refuse a close without it; a chat is a virtual encounter (ActCode VR).
 */
export function buildEncounterClose(profile: Profile, encounterId: string): EncounterClose {
  return parseBody(EncounterClose, {
    resourceType: 'Encounter',
    id: encounterId,
    status: 'finished',
    class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'VR', display: 'virtual' },
    identifier: [{ system: encounterIdSystem(profile), value: encounterId }],
  });
}

type Opts = Pick<CallOptions, 'signal' | 'beforeSend'>;

/** C1: portal → practice system. */
export async function sendMessage(client: PdeskClient, body: unknown, o: Opts = {}) {
  const valid = parseBody(ChatCommunication, body);
  const res = await client.call('C1', { body: valid, signal: o.signal, beforeSend: o.beforeSend });
  return { status: res.status, body: res.body, message: valid };
}

/** C3: practice system → portal. */
export async function replyMessage(client: PdeskClient, body: unknown, o: Opts = {}) {
  const valid = parseBody(ChatCommunication, body);
  const res = await client.call('C3', { body: valid, signal: o.signal, beforeSend: o.beforeSend });
  return { status: res.status, body: res.body, message: valid };
}

/** C2: mark a received message as read. */
export async function markRead(client: PdeskClient, communicationId: string, body: unknown, o: Opts = {}) {
  const valid = parseBody(ReadMarker, body);
  const res = await client.call('C2', { params: { communicationId }, body: valid, signal: o.signal });
  return { status: res.status, body: res.body, marker: valid };
}

/** C4: close a chat. */
export async function closeChat(client: PdeskClient, encounterId: string, body: unknown, o: Opts = {}) {
  const valid = parseBody(EncounterClose, body);
  const res = await client.call('C4', { params: { encounterId }, body: valid, signal: o.signal });
  return { status: res.status, body: res.body, encounter: valid };
}
