/**
 * What every check verifies about one answer: the HTTP status the interface states (200 for reads, 201 for A6
 * and M3, any 2xx for the "accepted" operations), the content type (`application/fhir+json`; plain JSON is a
 * warning), the body against the interface schemas with every violation listed, and the allowed variants
 * (numeric ids and identifier values, bare Bundle entries) reported as `info` (interface.md "Allowed variants").
 */
import type * as z from '../schemas/zod.js';
import type { ApiResult } from '../client.js';
import type { CreatedId } from '../created.js';
import { type HttpError, statusLine } from '../errors.js';
import type { OpId } from '../ops.js';
import { FHIR_JSON, OPS } from '../ops.js';
import { validateAll } from '../schemas/common.js';
import type { CheckMessage } from './model.js';

/** Where messages go: a check's context, or a list a shared read keeps for every check that uses it. */
export interface MessageSink {
  add(m: CheckMessage): void;
}

export const listSink = (list: CheckMessage[]): MessageSink => ({ add: (m) => list.push(m) });

/** The statuses of docs/interface.md "Endpoints": 200 for reads, 201 for A6 and M3, else any 2xx ("accepted"). */
export function expectedStatus(op: OpId): number | '2xx' {
  if (op === 'A6' || op === 'M3') return 201;
  return OPS[op].method === 'GET' ? 200 : '2xx';
}

/** Status and content type of a successful answer (`what` prefixes the texts: `page 2: `). */
export function checkAnswer(sink: MessageSink, op: OpId, res: Pick<ApiResult, 'status' | 'headers' | 'body'>, what = ''): void {
  const want = expectedStatus(op);
  if (want !== '2xx' && res.status !== want)
    sink.add({ type: 'error', text: `${what}${op} answered HTTP ${res.status}; the interface states ${want}.` });
  if (res.body === undefined) {
    if (want !== '2xx') sink.add({ type: 'error', text: `${what}${op} answered without a body; the interface states one.`, path: '$' });
    return;
  }
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === FHIR_JSON) return;
  if (type === 'application/json' || /^application\/[\w.+-]*\+json$/.test(type))
    sink.add({ type: 'warning', text: `${what}Content-Type is ${type}; the interface sends ${FHIR_JSON}.` });
  else sink.add({ type: 'error', text: `${what}Content-Type is ${type || '(none)'} for a JSON body; the interface sends ${FHIR_JSON}.` });
}

/** Validate `value` against `schema`; every violation becomes an `error` naming its path. Returns the parsed value, if valid. */
export function checkSchema<S extends z.core.$ZodType>(
  sink: MessageSink,
  schema: S,
  value: unknown,
  prefix = '$',
  what = '',
): z.output<S> | undefined {
  const r = validateAll(schema, value, prefix);
  if (r.ok) return r.data;
  for (const i of r.issues) sink.add({ type: 'error', text: `${what}${i.message}`, path: i.path });
  return undefined;
}

/**
 * The body of an "accepted" answer (A7, C1–C5), which the interface does not describe: when there is one, it is a
 * resource, so it carries `resourceType` (decisions.md §3: the one field every resource has when read).
 */
export function checkAcceptedBody(sink: MessageSink, body: unknown): void {
  if (body === undefined) return;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    sink.add({ type: 'error', text: 'the answer body is not a resource (a JSON object)', path: '$' });
    return;
  }
  if (typeof (body as { resourceType?: unknown }).resourceType !== 'string')
    sink.add({ type: 'error', text: 'required field is missing', path: '$.resourceType' });
}

/** A variant the interface allows, found in a raw answer. */
export type VariantKind = 'numeric-id' | 'numeric-identifier' | 'bare-entry';

const VARIANT_TEXT: Record<VariantKind, (n: number) => string> = {
  'numeric-id': (n) =>
    `${n === 1 ? 'a resource carries its id' : `${n} resources carry their id`} as a number (an allowed variant, read as a string)`,
  'numeric-identifier': (n) =>
    `${n === 1 ? 'an identifier value is' : `${n} identifier values are`} a number (an allowed variant, read as a string)`,
  'bare-entry': (n) =>
    `${n === 1 ? 'a Bundle entry is' : `${n} Bundle entries are`} the resource itself, without {resource: …} (an allowed variant, as in the Schedule sample)`,
};

/** Counts and first paths of the variants seen, reported once each (not once per entry). */
export class Variants {
  private readonly seen = new Map<VariantKind, { n: number; path: string }>();

  note(kind: VariantKind, path: string): void {
    const v = this.seen.get(kind);
    if (v) v.n++;
    else this.seen.set(kind, { n: 1, path });
  }

  /** Numeric `id` and numeric `identifier[].value` of one raw resource. */
  scan(resource: unknown, at: string): void {
    if (!resource || typeof resource !== 'object') return;
    const r = resource as { id?: unknown; identifier?: unknown };
    if (typeof r.id === 'number') this.note('numeric-id', `${at}.id`);
    if (Array.isArray(r.identifier))
      r.identifier.forEach((i, k) => {
        if (typeof (i as { value?: unknown })?.value === 'number') this.note('numeric-identifier', `${at}.identifier[${k}].value`);
      });
  }

  report(sink: MessageSink): void {
    for (const [kind, v] of this.seen) sink.add({ type: 'info', text: VARIANT_TEXT[kind](v.n), path: v.path });
  }
}

/** Same instant, whatever the notation (`…T09:00:00Z` and `…T09:00:00.000Z`). */
export function sameInstant(a: string | undefined, b: string | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const x = Date.parse(a);
  return !Number.isNaN(x) && x === Date.parse(b);
}

/** An echo mismatch: `$.start is "…", but "…" was sent`. */
export function echo(sink: MessageSink, path: string, sent: unknown, got: unknown, same = (a: unknown, b: unknown) => a === b): void {
  if (same(sent, got)) return;
  const show = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v));
  sink.add({
    type: 'error',
    text: got === undefined ? `missing; ${show(sent)} was sent` : `is ${show(got)}, but ${show(sent)} was sent`,
    path,
  });
}

/** OperationOutcome issue codes that say a request was refused for a conflict with what the server holds. */
export const REFUSAL_CODES = ['conflict', 'duplicate', 'business-rule', 'lock-error'] as const;

/**
 * A refusal check's verdict on the 4xx it got: it passes only on the refusal it tests, a 409 or an OperationOutcome
 * whose issue code says so (REFUSAL_CODES); any other 4xx (a 400 about the body, a 401, a 404) is a fail naming the
 * reason, for it cannot tell the refusal tested from a request refused for something else.
 */
export function judgeRefusal(sink: MessageSink, e: HttpError, what: string): void {
  const codes = (e.outcome?.issue ?? []).map((i) => i.code).filter((x): x is string => !!x);
  const reason = e.details.filter((d) => !d.startsWith('request: ')).join('; ');
  const says = codes.find((k) => (REFUSAL_CODES as readonly string[]).includes(k));
  if (e.status === 409 || says) {
    sink.add({ type: 'info', text: `refused with ${statusLine(e.status)}${says ? ` (${says})` : ''}${reason ? `: ${reason}` : ''}.` });
    return;
  }
  sink.add({
    type: 'error',
    text: `refused with ${statusLine(e.status)}, but not as ${what}${reason ? `: ${reason}` : ''}. The check passes on 409 Conflict or an OperationOutcome saying ${REFUSAL_CODES.join(', ')}.`,
  });
}

/**
 * What a check says about the id a create's answer gave (decisions.md §16): the server's id when it is not the one
 * sent (the run follows it), and a warning when the answer named none (no body, no `Location`).
 */
export function noteServerId(sink: MessageSink, type: string, made: CreatedId, body: unknown): void {
  if (made.differs)
    sink.add({
      type: 'info',
      text: `stored as ${type}/${made.id} (named by its ${made.from === 'body' ? 'answer' : 'Location'}), not the id sent (${made.sentId}); the run follows the server's id.`,
      ...(made.from === 'body' ? { path: '$.id' } : {}),
    });
  else if (made.from === 'sent' && body === undefined)
    sink.add({
      type: 'warning',
      text: `the answer names no id (no body, no Location): ${type}/${made.id} is the id sent, which the server may not have kept.`,
    });
}
