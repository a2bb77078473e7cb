/**
 * What the sandbox's handlers share: the request they get, the answer they give, the error answers they use
 * (built on `Fail` of ../listen/accept.ts, which also holds body reading and validation), and search-Bundle
 * paging (`_count`, `_offset`, absolute `next` links).
 */
import { badRequest, Fail } from '../listen/accept.js';
import type { SandboxState } from './state.js';
import { parseToken, tokenMatches } from '../core/tokens.js';

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

export const notFound = (what: string, expression?: string) => new Fail(404, 'not-found', `${what} was not found.`, expression);
export const conflict = (diagnostics: string, expression?: string) => new Fail(409, 'conflict', diagnostics, expression);
export const unprocessable = (diagnostics: string, expression?: string) => new Fail(422, 'business-rule', diagnostics, expression);

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
export function page<T>(
  req: SandboxRequest,
  all: readonly T[],
): { items: T[]; total: number; link: Array<{ relation: string; url: string }> } {
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
export function matchesToken(
  concepts: ReadonlyArray<{ coding?: ReadonlyArray<{ system?: string; code: string }> }>,
  token: string,
): boolean {
  const t = parseToken(token);
  return concepts.some((c) => (c.coding ?? []).some((k) => tokenMatches(t, k.system, k.code)));
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
