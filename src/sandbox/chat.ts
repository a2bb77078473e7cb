/**
 * Sandbox handlers of the chat API, both sides (decisions.md §6–§8):
 * practice side C1 receive a message (then an automatic C3 reply is pushed) · C2 mark read (by id, or the
 * conditional form `PATCH /Communication?identifier=<system>|<value>`);
 * portal side C3 receive a message · C4 close a chat. `POST /portal/Communication` is shared with C5 and is
 * told apart by its category code.
 */
import { ChatCommunication, ReadMarker, threadOf } from '../core/schemas/chat.js';
import { badRequest, portalCommunicationKind, validate, validateClose } from '../listen/accept.js';
import { conflict, type Handler, notFound, nowIso, unprocessable, type World } from './http.js';
import { receiveNotification } from './notifications.js';
import type { SandboxState } from './state.js';
import { parseToken, tokenMatches } from '../core/tokens.js';

/** Refuse a message to a closed thread (409); open a thread for an unseen encounter. */
function admitToThread(state: SandboxState, m: ChatCommunication): void {
  const id = threadOf(m);
  const enc = state.encounters.get(id);
  if (enc?.status === 'finished') throw conflict(`Chat ${id} is closed: it accepts no new messages.`, '$.encounter.identifier[0].value');
  if (!enc) state.encounters.set(id, { id, status: 'in-progress', updatedAt: nowIso() });
}

/** C1: `POST /practice/Communication`. Duplicate id → 200 with the stored message (nothing stored twice). */
export const receiveMessage: Handler = (w, req) => {
  const m = validate(ChatCommunication, req.body, 'Communication');
  const known = w.state.messages.get(m.id);
  if (known) return { status: 200, body: known };
  admitToThread(w.state, m);
  w.state.messages.set(m.id, m);
  w.pushes.scheduleReply(m);
  return { status: 201, body: m, headers: { location: `Communication/${encodeURIComponent(m.id)}` } };
};

const EXTENSION_PATH = /^\/recipient\/(\d+)\/extension(\/-)?$/;

function findByIdentifier(state: SandboxState, token: string): ChatCommunication | undefined {
  const t = parseToken(token);
  for (const map of [state.messages, state.portalMessages])
    for (const m of map.values()) if (m.identifier.some((i) => tokenMatches(t, i.system, String(i.value)))) return m;
  return undefined;
}

/**
 * C2: `PATCH /practice/Communication/{id}` or `PATCH /practice/Communication?identifier=<system>|<value>`.
 * `add` at `/recipient/<n>/extension` appends the extension object; `/recipient/<n>/extension/-` too.
 */
export const markRead: Handler = (w, req) => {
  const state = w.state;
  let m: ChatCommunication | undefined;
  let what: string;
  if (req.params.id !== undefined) {
    what = `Communication ${req.params.id}`;
    m = state.messages.get(req.params.id) ?? state.portalMessages.get(req.params.id);
  } else {
    const token = req.query.get('identifier');
    if (!token) throw badRequest('A conditional patch needs the search parameter identifier=<system>|<value>.', 'identifier');
    what = `Communication with identifier ${token}`;
    m = findByIdentifier(state, token);
  }
  const ops = validate(ReadMarker, req.body, 'read marker');
  if (!m) throw notFound(what);
  const msg = m;
  // Check every operation before changing anything.
  const plan = ops.map((op, i) => {
    const match = EXTENSION_PATH.exec(op.path);
    if (!match) throw unprocessable(`Only add at /recipient/<n>/extension is supported, not ${op.path}.`, `$[${i}].path`);
    const index = Number(match[1]);
    if (index >= msg.recipient.length)
      throw unprocessable(`The message has no recipient ${index} (it has ${msg.recipient.length}).`, `$[${i}].path`);
    return { index, value: op.value };
  });
  const at = nowIso();
  for (const { index, value } of plan) {
    const r = msg.recipient[index] as { extension?: unknown[] };
    r.extension = [...(Array.isArray(r.extension) ? r.extension : []), value];
    state.readMarkers.push({ communicationId: msg.id, recipientIndex: index, url: value.url, valueDateTime: value.valueDateTime, at });
  }
  return { status: 200, body: msg };
};

/** C3: a chat message at the portal. Closed thread → 409; duplicate id → 200 with the stored one. */
export function receiveAtPortal(w: World, body: unknown) {
  const m = validate(ChatCommunication, body, 'Communication');
  const known = w.state.portalMessages.get(m.id);
  if (known) return { status: 200, body: known };
  admitToThread(w.state, m);
  w.state.portalMessages.set(m.id, m);
  return { status: 201, body: m, headers: { location: `Communication/${encodeURIComponent(m.id)}` } };
}

/** `POST /portal/Communication`: category `chat` → C3, `notification` → C5. */
export const receivePortalCommunication: Handler = (w, req) => {
  return portalCommunicationKind(req.body) === 'notification' ? receiveNotification(w, req.body) : receiveAtPortal(w, req.body);
};

/** C4: `PUT /portal/Encounter/{id}` with status finished; the thread is recorded closed (also when unseen). */
export const closeChat: Handler = (w, req) => {
  const id = req.params.id!;
  const enc = validateClose(req.body, id);
  w.state.encounters.set(id, { id, status: 'finished', updatedAt: nowIso(), closedBy: enc });
  return { status: 200, body: enc };
};
