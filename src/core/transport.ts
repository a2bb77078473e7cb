/**
 * HTTP transport on undici `request()`: one keep-alive Pool per origin (and TLS setting), a connect deadline
 * and a whole-request deadline (AbortSignal, since undici's own timers tick coarsely), bounded response size,
 * and retries for idempotent methods only (429/502/503/504 and connection errors, honouring Retry-After up to
 * 10 s). A POST or PATCH is never re-sent: it may have reached the server.
 */
import { EventEmitter } from 'node:events';
import { rootCertificates } from 'node:tls';
import { Pool } from 'undici';
import { NetworkError, statusLine } from './errors.js';
import { redact } from './redact.js';

export interface TlsFiles {
  ca?: string;
  cert?: string;
  key?: string;
}

export interface TransportOptions {
  connectMs?: number;
  requestMs?: number;
  retriesMax?: number;
  /** Verbose lines (already redacted by the caller's formatter). */
  log?: (line: string) => void;
  /** For tests: replace the wait between retries. */
  sleep?: (ms: number) => Promise<void>;
  maxResponseBytes?: number;
  connections?: number;
}

export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  tls?: TlsFiles;
  /** Caller's signal (Esc in the TUI, Ctrl-C). */
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  ms: number;
  attempts: number;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
const RETRY_STATUS = new Set([429, 502, 503, 504]);
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);
export const MAX_RETRY_AFTER_MS = 10_000;
const BASE_BACKOFF_MS = 200;

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/** Retry-After as milliseconds (delta-seconds or HTTP date), or undefined. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  // Only an HTTP date (every form starts with a day name): Date.parse also reads "1.5" or "-1" as dates in 2001.
  if (!/^[A-Za-z]{3,9},? /.test(value.trim())) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeNetwork(code: string | undefined, e: unknown): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connect time-out';
    case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
      return 'response too large';
    default:
      return redact((e as Error)?.message ?? String(e));
  }
}

/**
 * A request deadline undici takes as its `signal` (an EventEmitter with `aborted`): its listeners cost far
 * less than an AbortController's EventTarget ones (~15 µs a request, measurable at bulk rates).
 */
class Deadline extends EventEmitter {
  aborted = false;
  reason?: unknown;
  private controller?: AbortController;
  abort(): void {
    this.aborted = true;
    this.reason = new DOMException('The request timed out.', 'TimeoutError');
    this.controller?.abort(this.reason);
    this.emit('abort');
  }
  /** As an AbortSignal, to combine with a caller's signal. */
  signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }
}

/** undici `connect` options for a party's TLS files: the extra CA beside the default roots, the client certificate. */
export function tlsConnectOptions(tls: TlsFiles | undefined): { ca?: string[]; cert?: string; key?: string } {
  return {
    ...(tls?.ca ? { ca: [...rootCertificates, tls.ca] } : {}),
    ...(tls?.cert ? { cert: tls.cert } : {}),
    ...(tls?.key ? { key: tls.key } : {}),
  };
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Transport {
  private readonly pools = new Map<string, Pool>();
  readonly opts: Required<Omit<TransportOptions, 'log'>> & Pick<TransportOptions, 'log'>;

  constructor(opts: TransportOptions = {}) {
    this.opts = {
      connectMs: opts.connectMs ?? 5_000,
      requestMs: opts.requestMs ?? 30_000,
      retriesMax: opts.retriesMax ?? 2,
      log: opts.log,
      sleep: opts.sleep ?? defaultSleep,
      maxResponseBytes: opts.maxResponseBytes ?? 64 * 1024 * 1024,
      connections: opts.connections ?? 64,
    };
  }

  private pool(origin: string, tls?: TlsFiles): Pool {
    const key = `${origin}|${tls?.ca ?? ''}|${tls?.cert ?? ''}`;
    let p = this.pools.get(key);
    if (!p) {
      p = new Pool(origin, {
        connections: this.opts.connections,
        pipelining: 1,
        keepAliveTimeout: 10_000,
        maxResponseSize: this.opts.maxResponseBytes,
        connect: { timeout: this.opts.connectMs, ...tlsConnectOptions(tls) },
      });
      this.pools.set(key, p);
    }
    return p;
  }

  async request(req: RawRequest): Promise<RawResponse> {
    const url = new URL(req.url);
    const idempotent = isIdempotent(req.method);
    const max = idempotent ? this.opts.retriesMax : 0;
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      // A cleared timer rather than AbortSignal.timeout(): those stay in memory until they fire (~1 kB each for
      // requestMs), which grows the heap by tens of MB during a bulk send of thousands of requests a second.
      const deadline = new Deadline();
      const timer = setTimeout(() => deadline.abort(), this.opts.requestMs);
      const signal = req.signal ? AbortSignal.any([deadline.signal(), req.signal]) : deadline;
      let status: number;
      let headers: Record<string, string>;
      let text: string;
      try {
        const res = await this.pool(url.origin, req.tls).request({
          path: url.pathname + url.search,
          method: req.method as 'GET',
          headers: req.headers,
          body: req.body,
          signal,
        });
        status = res.statusCode;
        headers = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        text = await res.body.text();
      } catch (e) {
        if (req.signal?.aborted) throw new NetworkError('The request was abandoned.', [`${req.method} ${redact(req.url)}`], 'ABORTED', e);
        if (deadline.aborted)
          throw new NetworkError(
            `No answer from ${url.origin} within ${this.opts.requestMs} ms.`,
            [`${req.method} ${redact(req.url)}`],
            'TIMEOUT',
            e,
          );
        const code = errorCode(e);
        if (code && CONNECTION_CODES.has(code) && attempt < max) {
          const wait = BASE_BACKOFF_MS * 2 ** attempt;
          this.opts.log?.(`retry ${attempt + 1}/${max} in ${wait} ms: ${describeNetwork(code, e)}`);
          await this.opts.sleep(wait);
          continue;
        }
        const why = describeNetwork(code, e);
        const details = [`${req.method} ${redact(req.url)}`];
        if (!idempotent && code && CONNECTION_CODES.has(code) && code !== 'ECONNREFUSED')
          details.push('The request may have reached the server: check before sending it again.');
        throw new NetworkError(`Cannot reach ${url.origin} (${why}).`, details, code, e);
      } finally {
        clearTimeout(timer);
      }
      if (RETRY_STATUS.has(status) && attempt < max) {
        const after = retryAfterMs(headers['retry-after']);
        if (after === undefined || after <= MAX_RETRY_AFTER_MS) {
          const wait = after ?? BASE_BACKOFF_MS * 2 ** attempt;
          this.opts.log?.(`retry ${attempt + 1}/${max} in ${wait} ms: ${statusLine(status)}`);
          await this.opts.sleep(wait);
          continue;
        }
        this.opts.log?.(`not retrying: Retry-After ${headers['retry-after']} is longer than ${MAX_RETRY_AFTER_MS / 1000} s`);
      }
      return { status, headers, text, ms: Date.now() - started, attempts: attempt + 1 };
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close().catch(() => undefined)));
    this.pools.clear();
  }
}
