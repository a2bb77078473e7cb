/**
 * Reading an answer, once the layers are done with it: a success is its JSON body (bounded, src/core/json.ts), an
 * error status is an HttpError with its OperationOutcome, a body that breaks the interface a ContractError naming
 * the request (for every face).
 */
import { ContractError, HttpError, excerpt } from '../errors.js';
import { describeJsonProblem, readJson } from '../json.js';
import type { OpId } from '../ops.js';
import type { Hop } from '../redirect.js';
import { redact } from '../redact.js';
import { asOutcome } from '../schemas/outcome.js';
import { retryAfterMs } from '../transport.js';
import type { Answer, Outgoing } from './layer.js';

/** The request an answer came from, as errors name it: `A4 GET https://…/Slot?…` (redacted). */
export interface AnsweredRequest {
  op?: OpId;
  method: string;
  url: string;
}

export interface ApiResult {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the server sent none. */
  body: unknown;
  /** The body's size in bytes, decoded. */
  bytes: number;
  /** The redirects a GET followed to get this answer (decisions.md §3, "Redirects"). */
  redirects?: Hop[];
  /** What was asked: a parser of the body names it in a ContractError (`answerOf`). */
  request: AnsweredRequest;
}

/** `request: A4 GET https://…/Slot?…`: the detail line that names a request. */
export function requestLine(r: AnsweredRequest, page?: number): string {
  return `request: ${r.op ? `${r.op} ` : ''}${r.method} ${r.url}${page && page > 1 ? ` (page ${page})` : ''}`;
}

/** A success answer whose body is not JSON. */
export function notJson(res: { text: string; headers: Record<string, string> }, request: AnsweredRequest): ContractError {
  return new ContractError('$', `the body is not JSON (content-type ${redact(res.headers['content-type'] ?? 'none')})`, [
    excerpt(redact(res.text)),
    requestLine(request),
  ]);
}

/** The HttpError of an answer with an error status: its OperationOutcome (or an excerpt), Retry-After, the request. */
export function httpError(req: Outgoing, res: Answer): HttpError {
  const read = res.text.trim() !== '' ? readJson(res.text) : undefined;
  const outcome = read?.ok === true ? asOutcome(read.value) : undefined;
  const err = new HttpError(res.status, {
    op: req.op,
    method: req.method,
    url: redact(req.url),
    outcome,
    bodyExcerpt: outcome ? undefined : res.text.trim() ? excerpt(redact(res.text)) : undefined,
  });
  // A Retry-After pdesk did not wait for (longer than it waits, or on a request it does not retry): say when.
  const after = retryAfterMs(res.headers['retry-after']);
  err.retryAfterMs = after;
  if (after !== undefined) err.details.splice(err.details.length - 1, 0, `The server asks to try again in ${Math.ceil(after / 1000)} s.`);
  // A server may echo a credential back ("invalid token abc…"): every line of the error is redacted here, so no
  // face of pdesk can show it.
  for (const [i, line] of err.details.entries()) err.details[i] = redact(line);
  return err;
}

/** An answer as the caller gets it: its JSON body, or the error it is. */
export function readAnswer(asked: Outgoing, res: Answer): ApiResult {
  // Named as it was answered: the last URL a GET was redirected to.
  const req = res.redirects?.length ? { ...asked, url: res.redirects[res.redirects.length - 1]!.to } : asked;
  if (res.status >= 400) throw httpError(req, res);
  const request = { ...(req.op ? { op: req.op } : {}), method: req.method, url: redact(req.url) };
  // Bounded (src/core/json.ts): nested at most MAX_READ_DEPTH levels, integers beyond 2^53 kept as their digits.
  const read = res.text.trim() !== '' ? readJson(res.text) : undefined;
  if (read && !read.ok) {
    if (read.problem.kind === 'syntax') throw notJson(res, request);
    throw new ContractError(read.problem.path, describeJsonProblem(read.problem), [requestLine(request)]);
  }
  const result: ApiResult = { status: res.status, headers: res.headers, body: read?.value, bytes: Buffer.byteLength(res.text), request };
  if (res.redirects?.length) result.redirects = res.redirects;
  return result;
}

/**
 * What `parse` makes of an answer's body; a ContractError it throws names the request it came from, as the
 * client's own do (every face shows it; a list reader adds the page).
 */
export function answerOf<T>(res: Pick<ApiResult, 'body' | 'request'>, parse: (body: unknown) => T, page?: number): T {
  try {
    return parse(res.body);
  } catch (e) {
    if (e instanceof ContractError && !e.details.some((d) => d.startsWith('request: '))) e.details.push(requestLine(res.request, page));
    throw e;
  }
}
