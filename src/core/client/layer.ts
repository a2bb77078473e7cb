/**
 * What the client's layers share: the request on its way to the transport, its answer on the way back, and the
 * shape of a layer (after undici's interceptors and Medplum's client: one dispatch, cross-cutting work composed
 * around it). A layer gets the next step and returns its own: it may refuse the request, act before and after
 * the next step, or send again (a redirect). The client composes them once, outermost first (src/core/client.ts).
 */
import type { AuditIntentLike } from '../audit.js';
import type { OpId, Party } from '../ops.js';
import { redact } from '../redact.js';
import type { Hop } from '../redirect.js';
import type { RawResponse } from '../transport.js';

/** One request as the layers see it: its route, headers and auth resolved, its body as the text sent. */
export interface Outgoing {
  op?: OpId;
  party: Party;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as sent. */
  body?: string;
  /** `body` is JSON text (the audit trail embeds it; a dry run and a confirmation show it parsed). */
  json?: boolean;
  /** A read a write depends on (M2 before M3, C4's read of its Encounter): sent even in a dry run. */
  readForWrite?: boolean;
  signal?: AbortSignal;
  /** The write's audit intent, written ahead by the caller (a bulk send's rows): the audit layer completes it. */
  intent?: AuditIntentLike;
  /**
   * The durability of the write's audit completion, handed over instead of awaited: the request returns at its
   * answer, and the caller awaits `durable` before it reports the write done. Called before the request returns.
   */
  audited?: (durable: Promise<void>) => void;
  /**
   * Called once the write's audit intent is on disk, just before the request leaves (the thread store's pending
   * entry of a chat message). Throwing stops it: nothing is sent, the intent is withdrawn.
   */
  beforeSend?: () => Promise<void> | void;
  /** The caller reads the answer's status only: no layer parses its body (a create's id comes from `Location`). */
  statusOnly?: boolean;
  /** How a confirmation describes this write; built from the request when absent (describe.ts). */
  write?: WriteDescription;
}

/** An answer as the layers return it: the transport's, with the redirects a GET followed to get it. */
export interface Answer extends RawResponse {
  redirects?: Hop[];
}

/** One step of a request: the transport, or a layer around the steps inside it. */
export type Send = (req: Outgoing) => Promise<Answer>;

/** A layer: given the next step, the step that does its work around it. */
export type Layer = (next: Send) => Send;

/** The steps of `layers` (outermost first) around `last`; a layer left undefined is not there at all. */
export function compose(layers: ReadonlyArray<Layer | undefined>, last: Send): Send {
  let send = last;
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i];
    if (layer) send = layer(send);
  }
  return send;
}

/**
 * Where no audit trail is kept, the caller's `beforeSend` is still called just before the request leaves (the
 * audit layer calls it after its intent when there is one): a chat message's pending record is written ahead either way.
 */
export const beforeSendLayer: Layer = (next) => async (req) => {
  if (req.beforeSend) await req.beforeSend();
  return next(req);
};

/** A request as a dry run prints it and a confirmation shows it: redacted, a JSON body parsed. */
export interface RequestDescription {
  op?: OpId;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** A write about to be sent, for a confirmation: `what` is `A6 (POST /Appointment)`, `target` its base URL. */
export interface WriteDescription {
  request: RequestDescription;
  what: string;
  target: string;
  /** The request's abort signal: which of the face's tasks sends it (the TUI knows the tasks the operator confirmed). */
  signal?: AbortSignal;
}

/** Why a request got no answer, as a trace and the audit trail record it (the message redacted). */
export function errorOf(e: unknown): { name: string; message: string; code?: string } {
  const err = e as { name?: string; message?: string; code?: unknown };
  return {
    name: err?.name ?? 'Error',
    message: redact(err?.message ?? String(e)),
    ...(typeof err?.code === 'string' ? { code: err.code } : {}),
  };
}

/** Methods that change nothing: not audited, and not asked about on production. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request with this method is a write (audited; confirmed on production). */
export function isWrite(method: string): boolean {
  return !SAFE_METHODS.has(method) && !SAFE_METHODS.has(method.toUpperCase());
}
