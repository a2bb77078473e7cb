/**
 * What the sandbox's handlers share: the request they get, the answer they give, `Fail` (an error answered as
 * an OperationOutcome), body validation with the core schemas, and search-Bundle paging (`_count`, `_offset`,
 * absolute `next` links).
 */
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { makeOutcome } from '../core/outcome.js';
import { EncounterClose, communicationKind } from '../core/schemas/chat.js';
import { checkBody } from '../core/schemas/common.js';
import type { OperationOutcome } from '../core/schemas/outcome.js';
import type { SandboxState } from './state.js';

export interface SandboxRequest {
  method: string;
  /** `/practice/Slot` */
  path: string;
  /** Path parameters of the matched route. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body (undefined when none). */
  body: unknown;
  /** `http://host:port`, from the Host header: next links are absolute on the origin the client used. */
  origin: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Side effects handlers may start (outgoing pushes); implemented by pushes.ts. */
export interface PushPort {
  /** Send the automatic C3 reply to a C1, after the reply delay. */
  scheduleReply(message: import('../core/schemas/chat.js').ChatCommunication): void;
}

export interface World {
  state: SandboxState;
  pushes: PushPort;
}

export type Handler = (w: World, req: SandboxRequest) => Reply | Promise<Reply>;

/** An error answer: status plus one OperationOutcome issue. */
export class Fail extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly diagnostics: string,
    readonly expression?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(diagnostics);
  }
  get outcome(): OperationOutcome {
    return makeOutcome(this.code, this.diagnostics, 'error', this.expression);
  }
}

export const notFound = (what: string, expression?: string) => new Fail(404, 'not-found', `${what} was not found.`, expression);
export const conflict = (diagnostics: string, expression?: string) => new Fail(409, 'conflict', diagnostics, expression);
export const unprocessable = (diagnostics: string, expression?: string) => new Fail(422, 'business-rule', diagnostics, expression);
export const badRequest = (diagnostics: string, expression?: string) => new Fail(400, 'invalid', diagnostics, expression);

/** Validate a received body with a core schema; a mismatch is a 400 whose diagnostics and expression name the JSON path. */
export function validate<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const r = checkBody(schema, body);
  if (r.ok) return r.data;
  throw badRequest(`Invalid ${what} at ${r.path}: ${r.message}.`, r.path);
}

// ------------------------------------------------ shared with the push receiver of `pdesk listen` (receiver.ts)

export const FHIR_JSON = 'application/fhir+json';
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
const BODY_TYPES = new Set([FHIR_JSON, 'application/json']);
const PATCH_TYPES = new Set(['application/json-patch+json', FHIR_JSON, 'application/json']);

/** The whole request body, or 'too-large' past MAX_BODY_BYTES (read to the end either way). */
export function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too-large' : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A percent-encoded path segment, decoded; bad encoding is a 400. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`The path segment "${segment}" is not valid percent-encoding.`);
  }
}

/** 415 unless the Content-Type suits the method (JSON Patch types on PATCH, FHIR JSON or JSON otherwise). */
export function checkContentType(method: string, path: string, header: string | undefined): void {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  const allowed = method === 'PATCH' ? PATCH_TYPES : BODY_TYPES;
  if (!allowed.has(type))
    throw new Fail(415, 'not-supported', `Content-Type ${type || '(none)'} is not supported on ${method} ${path}; use ${[...allowed].join(' or ')}.`);
}

/** `POST /portal/Communication`: a chat message (C3) or a notification (C5), told apart by category; else 400. */
export function portalCommunicationKind(body: unknown): 'chat' | 'notification' {
  const kind = communicationKind(body);
  if (kind) return kind;
  const hasCategory = Array.isArray((body as { category?: unknown })?.category);
  throw badRequest(
    `Invalid Communication at $.category: ${hasCategory ? 'no coding with code chat or notification' : 'required field is missing'}.`,
    '$.category',
  );
}

/** C4 body: a finished Encounter whose id is the one in the path (400 otherwise). */
export function validateClose(body: unknown, id: string): EncounterClose {
  const enc = validate(EncounterClose, body, 'Encounter');
  if (enc.id !== id) throw badRequest(`The Encounter id ${enc.id} differs from the id in the path (${id}).`, '$.id');
  return enc;
}

export const DEFAULT_PAGE_SIZE = 50;

/** `_count` and `_offset` of a search; bad values are a 400 naming the parameter. */
export function paging(query: URLSearchParams): { count: number; offset: number } {
  const num = (name: string, fallback: number) => {
    const v = query.get(name);
    if (v === null || v === '') return fallback;
    if (!/^\d+$/.test(v)) throw badRequest(`Search parameter ${name} must be a non-negative whole number, not "${v}".`, name);
    return Number(v);
  };
  return { count: num('_count', DEFAULT_PAGE_SIZE), offset: num('_offset', 0) };
}

/** The page of `all` the request asks for, with `total`, a `self` link and a `next` link while more remain. */
export function page<T>(req: SandboxRequest, all: readonly T[]): { items: T[]; total: number; link: Array<{ relation: string; url: string }> } {
  const { count, offset } = paging(req.query);
  const items = all.slice(offset, offset + count);
  const link = [{ relation: 'self', url: `${req.origin}${req.path}${req.query.size ? `?${req.query}` : ''}` }];
  if (count > 0 && offset + count < all.length) {
    const q = new URLSearchParams(req.query);
    q.set('_offset', String(offset + count));
    if (req.query.has('_count')) q.set('_count', String(count));
    link.push({ relation: 'next', url: `${req.origin}${req.path}?${q}` });
  }
  return { items, total: all.length, link };
}

/** A search-set Bundle of `all` (paged); `wrap` false serves bare entries (the Schedule sample). */
export function searchset(req: SandboxRequest, all: readonly unknown[], wrap = true): Reply {
  const p = page(req, all);
  return {
    status: 200,
    body: {
      resourceType: 'Bundle',
      type: 'searchset',
      total: p.total,
      link: p.link,
      entry: wrap ? p.items.map((resource) => ({ resource })) : p.items,
    },
  };
}

/** `system|code` or a bare code: does a CodeableConcept list hold a matching coding? */
export function matchesToken(concepts: ReadonlyArray<{ coding?: ReadonlyArray<{ system?: string; code: string }> }>, token: string): boolean {
  const bar = token.indexOf('|');
  const system = bar < 0 ? undefined : token.slice(0, bar);
  const code = bar < 0 ? token : token.slice(bar + 1);
  return concepts.some((c) => (c.coding ?? []).some((k) => k.code === code && (!system || k.system === system)));
}

/** A comma list of a query parameter, repeated parameters joined, blanks dropped. */
export function listParam(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

export const nowIso = () => new Date().toISOString();
