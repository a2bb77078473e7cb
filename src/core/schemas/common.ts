/**
 * Building blocks shared by every resource schema (interface.md "Coding structures used throughout") and the
 * parse helpers that turn a zod failure into a ContractError (server answers, exit 6) or a BodyError (what
 * pdesk is about to send, exit 2), both naming the JSON path.
 */
import * as z from './zod.js';
import { BodyError, ContractError } from '../errors.js';

/** Ids and identifier values may arrive as numbers; they are normalised to strings (decisions.md §3). */
export const IdString = z.pipe(
  z.union([z.string().check(z.minLength(1)), z.number()]),
  z.transform((v) => String(v)),
);

export const Coding = z.looseObject({
  system: z.optional(z.string()),
  code: z.string(),
  display: z.optional(z.string()),
});
export const CodeableConcept = z.looseObject({ coding: z.optional(z.array(Coding)), text: z.optional(z.string()) });
export type CodeableConcept = z.infer<typeof CodeableConcept>;

export const Reference = z.looseObject({ reference: z.string(), display: z.optional(z.string()) });
export type Reference = z.infer<typeof Reference>;

export const Identifier = z.looseObject({ system: z.string(), value: IdString });
export type Identifier = z.infer<typeof Identifier>;

/** An ISO 8601 date-time (date, time, optional fraction, optional Z or offset). */
export const DateTime = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/, 'expected an ISO 8601 date-time'));
/** An ISO 8601 date-time in UTC with the `Z` designator (slots and appointments, decisions.md §12). */
export const UtcDateTime = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/, 'expected an ISO 8601 UTC date-time ending in Z'));
export const DateOnly = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD'));

/** `$.entry[0].resource.id` from a zod path. */
export function jsonPath(path: readonly PropertyKey[], prefix = '$'): string {
  let out = prefix;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

/**
 * A union failure (ids are string|number, the read marker is an array or one object) names the union itself;
 * descend into the branch that got furthest into the value, so the path and message name the real problem.
 */
function unwrapUnion(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  let cur = issue;
  for (let depth = 0; depth < 8 && cur.code === 'invalid_union'; depth++) {
    const branches = (cur as { errors?: z.core.$ZodIssue[][] }).errors ?? [];
    let best: z.core.$ZodIssue | undefined;
    for (const b of branches) if (b[0] && (!best || b[0].path.length > best.path.length)) best = b[0];
    if (!best) break;
    cur = { ...best, path: [...cur.path, ...best.path] } as z.core.$ZodIssue;
  }
  return cur;
}

/** One problem of a value against a schema: its JSON path and what is wrong there. */
export interface SchemaIssue {
  path: string;
  message: string;
}

function describeIssue(i: z.core.$ZodIssue): string {
  // A missing field fails as a wrong type, or as a value outside an enum or literal: `input` undefined either way.
  if ((i.code === 'invalid_type' || i.code === 'invalid_value') && (i as { input?: unknown }).input === undefined)
    return 'required field is missing';
  return i.message;
}

function issuesOfError(error: z.core.$ZodError, prefix: string): SchemaIssue[] {
  return error.issues.map(unwrapUnion).map((i) => ({ path: jsonPath(i.path, prefix), message: describeIssue(i) }));
}

/**
 * Validate and keep going: the parsed value, or every problem of `value` against `schema` (not only the first),
 * each naming its JSON path under `prefix`. What `pdesk check` reports.
 */
export function validateAll<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  prefix = '$',
): { ok: true; data: z.output<S> } | { ok: false; issues: SchemaIssue[] } {
  const r = z.safeParse(schema, value, { reportInput: true });
  return r.success ? { ok: true, data: r.data } : { ok: false, issues: issuesOfError(r.error, prefix) };
}

function firstIssue(error: z.core.$ZodError, prefix: string): { path: string; message: string; more: string[] } {
  const [head, ...rest] = issuesOfError(error, prefix);
  return {
    path: head!.path,
    message: head!.message,
    more: rest.slice(0, 4).map((i) => `also ${i.path}: ${i.message}`),
  };
}

/** Parse a server answer; a mismatch throws ContractError (exit 6) naming the JSON path. */
export function parseResponse<S extends z.core.$ZodType>(schema: S, value: unknown, prefix = '$'): z.output<S> {
  const r = z.safeParse(schema, value, { reportInput: true });
  if (r.success) return r.data;
  const { path, message, more } = firstIssue(r.error, prefix);
  throw new ContractError(path, message, more);
}

/** Validate a body pdesk is about to send; a mismatch throws BodyError (exit 2, nothing sent). */
export function parseBody<S extends z.core.$ZodType>(schema: S, value: unknown, prefix = '$'): z.output<S> {
  const r = z.safeParse(schema, value, { reportInput: true });
  if (r.success) return r.data;
  const { path, message, more } = firstIssue(r.error, prefix);
  throw new BodyError(path, message, more);
}

/** Validate a body a server received (sandbox, listen); returns the problem instead of throwing. */
export function checkBody<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
): { ok: true; data: z.output<S> } | { ok: false; path: string; message: string } {
  const r = z.safeParse(schema, value, { reportInput: true });
  if (r.success) return { ok: true, data: r.data };
  const { path, message } = firstIssue(r.error, '$');
  return { ok: false, path, message };
}
