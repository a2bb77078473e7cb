/**
 * The trace layer: each exchange, answered or not, handed to `observe` with every secret redacted (URL, headers,
 * bodies): a trace file records them (src/core/trace.ts), `pdesk check` attaches them to the check that made them.
 * A write is also handed to `observeSend` as it leaves, before its answer (inside the audit layer: after its
 * intent is on disk), so a run killed in flight leaves its line.
 */
import type { OpId, Party } from '../ops.js';
import { redact, redactHeaders } from '../redact.js';
import { type Layer, type Outgoing, errorOf, isWrite } from './layer.js';

/** One HTTP exchange as the client saw it, every secret redacted: what `observe` gets. */
export interface Exchange {
  op?: OpId;
  party: Party;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** ISO 8601 instant the request started. */
  startedAt: string;
  /** Whole time, retries included. */
  ms: number;
  /** Requests sent, retries included (unknown after a network error). */
  attempts?: number;
  /** The answer; absent when there was none (network error, time-out, abandoned). */
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** Why there is no answer. */
  error?: { name: string; message: string; code?: string };
  /** A write as it left, written before its answer (`observeSend`); the exchange line follows when it ends. */
  sending?: true;
}

/** What `observeSend` gets: the request half of an Exchange, before its request leaves. */
export type ExchangeStart = Pick<Exchange, 'op' | 'party' | 'method' | 'url' | 'requestHeaders' | 'requestBody' | 'startedAt'>;

export interface TraceHooks {
  /** Called once per HTTP exchange (answered or not), secrets redacted. */
  observe?: (e: Exchange) => void;
  /** Called with each write just before its request leaves. */
  observeSend?: (e: ExchangeStart) => void;
}

/** The request half of an Exchange, redacted. */
function requestHalf(req: Outgoing, started: number): ExchangeStart {
  return {
    ...(req.op ? { op: req.op } : {}),
    party: req.party,
    method: req.method,
    url: redact(req.url),
    requestHeaders: redactHeaders(req.headers),
    ...(req.body === undefined ? {} : { requestBody: redact(req.body) }),
    startedAt: new Date(started).toISOString(),
  };
}

/** The layer, or undefined when there is nothing to tell (nothing is built then). */
export function traceLayer({ observe, observeSend }: TraceHooks): Layer | undefined {
  if (!observe && !observeSend) return undefined;
  return (next) => async (req) => {
    const started = Date.now();
    if (observeSend && isWrite(req.method)) observeSend(requestHalf(req, started));
    if (!observe) return next(req);
    let res: Awaited<ReturnType<typeof next>>;
    try {
      res = await next(req);
    } catch (e) {
      observe({ ...requestHalf(req, started), ms: Date.now() - started, error: errorOf(e) });
      throw e;
    }
    observe({
      ...requestHalf(req, started),
      ms: res.ms,
      attempts: res.attempts,
      status: res.status,
      responseHeaders: redactHeaders(res.headers),
      responseBody: redact(res.text),
    });
    return res;
  };
}
