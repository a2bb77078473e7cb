/**
 * Chat API: C1 send to the practice system · C2 mark read · C3 send to the portal · C4 close a chat.
 * Bodies per decisions.md §6–§7.
 */
import type { Profile } from '../profile/schema.js';
import type { CallOptions, PdeskClient } from '../client.js';
import { answerOf } from '../client/answer.js';
import { createdId } from '../created.js';
import { localNoOffset } from '../dates.js';
import { ContractError, FieldError } from '../errors.js';
import { isFhirId } from '../ids.js';
import { ChatCommunication, EncounterClose, EncounterFinished, ReadMarker } from '../schemas/chat.js';
import { IdString, parseBody, parseResponse } from '../schemas/common.js';
import * as z from '../schemas/zod.js';
import { chatWire, dialectOf, readMarkerWire } from './dialect.js';
import { nodeCrypto } from '../builtins.js';

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
  const id = m.id ?? nodeCrypto().randomUUID();
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

/** FHIR R4's `class` of a chat: a virtual encounter (ActCode VR). */
const VIRTUAL = { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'VR', display: 'virtual' };

/**
 * The C4 Encounter of decisions.md §7. `class` is not in the interface, but FHIR R4 requires it on an Encounter and a
 * portal built on a FHIR server may refuse a close without it; a chat is a virtual encounter (ActCode VR).
 */
export function buildEncounterClose(profile: Profile, encounterId: string): EncounterClose {
  return parseBody(EncounterClose, {
    resourceType: 'Encounter',
    id: encounterId,
    status: 'finished',
    class: VIRTUAL,
    identifier: [{ system: encounterIdSystem(profile), value: encounterId }],
  });
}

type Opts = Pick<CallOptions, 'signal' | 'beforeSend'>;

/** C1 or C3 in the profile's dialect; `created` is the server's id of the message (decisions.md §16). */
async function sendChat(client: PdeskClient, op: 'C1' | 'C3', body: unknown, o: Opts) {
  const valid = parseBody(ChatCommunication, body);
  const res = await client.call(op, { body: chatWire(dialectOf(client.profile), valid), signal: o.signal, beforeSend: o.beforeSend });
  return { status: res.status, body: res.body, message: valid, created: createdId(res, 'Communication', valid.id) };
}

/** C1: portal → practice system. */
export function sendMessage(client: PdeskClient, body: unknown, o: Opts = {}) {
  return sendChat(client, 'C1', body, o);
}

/** C3: practice system → portal. */
export function replyMessage(client: PdeskClient, body: unknown, o: Opts = {}) {
  return sendChat(client, 'C3', body, o);
}

/** C2: mark a received message as read, the marker in the profile's dialect. */
export async function markRead(client: PdeskClient, communicationId: string, body: unknown, o: Opts = {}) {
  const valid = parseBody(ReadMarker, body);
  const res = await client.call('C2', {
    params: { communicationId },
    body: readMarkerWire(dialectOf(client.profile), valid),
    signal: o.signal,
  });
  return { status: res.status, body: res.body, marker: valid };
}

/** An Encounter as a server holds it: what the r4 close reads back before it replaces it. */
const StoredEncounter = z.looseObject({ resourceType: z.literal('Encounter'), id: IdString, status: z.optional(z.string()) });

/**
 * The C4 body under the r4 dialect: the Encounter as the portal holds it now, `status` finished, everything else
 * kept (a PUT replaces the whole resource, and an R4 Encounter carries its subject, class, period…). `meta`'s
 * version and time are the server's to set. FHIR R4 requires `class`: a chat is a virtual encounter when it has none.
 */
export function finishedEncounter(stored: unknown, encounterId: string): EncounterClose {
  const current = parseResponse(StoredEncounter, stored);
  if (current.id !== encounterId)
    throw new ContractError('$.id', `is ${current.id}, but Encounter ${encounterId} was read (its close would replace another one)`);
  const { meta, ...rest } = current as typeof current & { meta?: Record<string, unknown> };
  const { versionId: _v, lastUpdated: _l, ...keptMeta } = meta ?? {};
  return {
    ...rest,
    ...(meta && Object.keys(keptMeta).length ? { meta: keptMeta } : {}),
    status: 'finished',
    ...(rest.class === undefined ? { class: VIRTUAL } : {}),
  } as EncounterClose;
}

/**
 * C4: close a chat. A body given is validated and sent as it is. Otherwise the profile's dialect decides:
 * `interface` sends decisions.md §7's Encounter; `r4` reads the Encounter first (GET at C4's URL, made under
 * --dry-run too) and puts it back with `status` finished and every other field kept, `If-Match` its ETag when the
 * server gave one (a change made in between is refused, 412, not overwritten): decisions.md §16.
 */
export async function closeChat(client: PdeskClient, encounterId: string, body: unknown | undefined, o: Opts = {}) {
  const params = { encounterId };
  if (body !== undefined || dialectOf(client.profile) === 'interface') {
    const valid =
      body === undefined
        ? buildEncounterClose(client.profile, encounterId)
        : dialectOf(client.profile) === 'r4'
          ? (parseBody(EncounterFinished, body) as EncounterClose)
          : parseBody(EncounterClose, body);
    const res = await client.call('C4', { params, body: valid, signal: o.signal });
    return { status: res.status, headers: res.headers, body: res.body, encounter: valid };
  }
  const read = await client.call('C4', { params, asRead: true, readForWrite: true, signal: o.signal });
  const encounter = answerOf(read, (b) => finishedEncounter(b, encounterId));
  const etag = read.headers.etag;
  const res = await client.call('C4', { params, body: encounter, headers: etag ? { 'if-match': etag } : undefined, signal: o.signal });
  return { status: res.status, headers: res.headers, body: res.body, encounter };
}
