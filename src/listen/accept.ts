/**
 * What a receiver of pushed operations accepts, shared by `pdesk listen` (receiver.ts) and the sandbox's portal
 * and practice sides: `Fail` (an error answered as an OperationOutcome), body reading with a size bound,
 * content types, path segments, body validation with the core schemas, and telling C3 from C5.
 */
import type { IncomingMessage } from 'node:http';
import type * as z from '../core/schemas/zod.js';
import { FHIR_JSON } from '../core/ops.js';
import { makeOutcome } from '../core/outcome.js';
import { communicationKind, EncounterClose } from '../core/schemas/chat.js';
import { checkBody } from '../core/schemas/common.js';
import type { OperationOutcome } from '../core/schemas/outcome.js';

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

export const badRequest = (diagnostics: string, expression?: string) => new Fail(400, 'invalid', diagnostics, expression);

/** Validate a received body with a core schema; a mismatch is a 400 whose diagnostics and expression name the JSON path. */
export function validate<S extends z.core.$ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const r = checkBody(schema, body);
  if (r.ok) return r.data;
  throw badRequest(`Invalid ${what} at ${r.path}: ${r.message}.`, r.path);
}

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
    throw new Fail(
      415,
      'not-supported',
      `Content-Type ${type || '(none)'} is not supported on ${method} ${path}; use ${[...allowed].join(' or ')}.`,
    );
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
