/**
 * The HTTP transport contract and what every transport shares: a connect deadline and a whole-request deadline
 * (our own cleared timer), a bounded response size, and retries for idempotent methods only (429/502/503/504 and
 * connection errors, honouring Retry-After up to 10 s). A POST or PATCH is never re-sent: it may have reached
 * the server. The retry loop, the deadlines and the error messages live here once; a transport only sends one
 * attempt (`RetryingTransport.send`).
 *
 * Two transports keep this contract: `PoolTransport` (transport-pool.ts, undici keep-alive pools) for
 * long-running work, and `HttpTransport` (transport-http.ts, node:http/https) for one-shot commands, which
 * then never load undici. `createTransport` (transport-default.ts) gives the one this process chose.
 */
import { EventEmitter } from 'node:events';
import { ContractError, NetworkError, TooLargeError, megabytes, statusLine } from './errors.js';
import { redact } from './redact.js';
import { tlsFailure } from './tls-failure.js';
import { nodeTls } from './builtins.js';

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
  /** The most bytes one answer's body may have, decoded (a compressed answer is counted as it is inflated). */
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
  /** The most bytes this answer's body may have, decoded (the profile's), within the transport's own bound. */
  maxResponseBytes?: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  ms: number;
  attempts: number;
}

/** What the core sends requests through (PdeskClient, OAuth2 token requests). */
export interface Transport {
  request(req: RawRequest): Promise<RawResponse>;
  /** Close idle connections; the transport is not used afterwards. */
  close(): Promise<void>;
}

/** One attempt's whole answer, before the retry decision. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
const RETRY_STATUS = new Set([429, 502, 503, 504]);
/**
 * Error codes of a connection that failed or broke. Both transports report with these codes: node's own
 * (ECONNRESET…) and undici's (UND_ERR_*), which the node:http transport uses too for the cases node has no
 * code for (a connect time-out, a response over the size bound), so every message and code is the same.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);
export const CONNECT_TIMEOUT_CODE = 'UND_ERR_CONNECT_TIMEOUT';
export const TOO_LARGE_CODE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
/** An answer whose body cannot be decoded (an unknown Content-Encoding, corrupt compressed data): src/core/decode.ts. */
export const DECODE_CODE = 'PDESK_BAD_ENCODING';
/** An error with a code, as node's and undici's network errors carry them. */
export function codeError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** An answer past its size bound, as undici's parser reports it. */
export function tooLargeError(): Error {
  return codeError('Response content exceeded max size', TOO_LARGE_CODE);
}

/** The default bound on one answer's body (decoded): the profile's `limits.responseMB`. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
export const MAX_RETRY_AFTER_MS = 10_000;
const BASE_BACKOFF_MS = 200;

/** An answer's body as text: UTF-8 with a leading byte order mark skipped, as undici's `body.text()` reads it. */
export function answerText(chunks: Buffer[], length: number): string {
  if (length === 0) return '';
  const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  const start = buf.length > 2 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  return buf.toString('utf8', start);
}

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
    case CONNECT_TIMEOUT_CODE:
      return 'connect time-out';
    case TOO_LARGE_CODE:
      return 'response too large';
    default:
      return redact((e as Error)?.message ?? String(e));
  }
}

/**
 * A request deadline: an EventEmitter with `aborted` that both transports listen to. Its listeners cost far less
 * than an AbortController's EventTarget ones, which a bulk send would add and remove for every request.
 */
export class Deadline extends EventEmitter {
  aborted = false;
  reason?: unknown;
  abort(): void {
    this.aborted = true;
    this.reason = new DOMException('The request timed out.', 'TimeoutError');
    this.emit('abort');
  }

  /**
   * Calls `fn` when this deadline or the caller's signal fires, until `unwatch` with the same arguments. `on`, not
   * `once`: `once` makes a wrapper per request, and every request ends with `unwatch`.
   */
  watch(signal: AbortSignal | undefined, fn: () => void): void {
    this.on('abort', fn);
    signal?.addEventListener('abort', fn);
  }

  unwatch(signal: AbortSignal | undefined, fn: () => void): void {
    this.removeListener('abort', fn);
    signal?.removeEventListener('abort', fn);
  }
}

/**
 * Milliseconds on a monotonic clock. Not `performance.now()`: its first use loads node:perf_hooks and eight modules
 * of its own, which every one-shot command would pay at its start.
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * The deadlines of requests, shared by those that start within one slice of time (a tenth of the request time-out,
 * at most 250 ms): a request started in a slice gets the deadline that fires `ms` after the slice ends, so it is never
 * cut before `ms` and at most a slice later: one EventEmitter and one timer per slice rather than per request, which
 * a bulk send would make thousands of a second (docs/performance.md). The timers are unref'd: a request in flight keeps the process alive by its socket, and an idle process is not held
 * for a deadline nobody waits on.
 */
export class DeadlineClock {
  readonly sliceMs: number;
  private current?: { until: number; deadline: Deadline };

  constructor(readonly ms: number) {
    this.sliceMs = Math.max(1, Math.min(250, Math.floor(ms / 10)));
  }

  /** The deadline of a request starting now. */
  now(): Deadline {
    const now = monotonicMs(); // a clock set back cannot hand out a deadline that has fired
    const c = this.current;
    if (c && now < c.until && !c.deadline.aborted) return c.deadline;
    const until = (Math.floor(now / this.sliceMs) + 1) * this.sliceMs;
    const deadline = new Deadline();
    deadline.setMaxListeners(0); // one listener per request in flight of the slice
    setTimeout(() => deadline.abort(), until - now + this.ms).unref();
    this.current = { until, deadline };
    return deadline;
  }
}

/** TLS `connect` options for a party's TLS files: the extra CA beside the default roots, the client certificate. */
export function tlsConnectOptions(tls: TlsFiles | undefined): { ca?: string[]; cert?: string; key?: string } {
  // `ca` *replaces* the default roots (DEVELOPERS.md, "Stack notes"), hence the system roots beside it. node:tls
  // is loaded only when a CA is given (the getter builds the root list on first use).
  return {
    ...(tls?.ca ? { ca: [...tlsRootCertificates(), tls.ca] } : {}),
    ...(tls?.cert ? { cert: tls.cert } : {}),
    ...(tls?.key ? { key: tls.key } : {}),
  };
}

function tlsRootCertificates(): readonly string[] {
  return nodeTls().rootCertificates;
}

/** The key of a connection setting: an origin and the TLS files its connections use. */
export function connectionKey(origin: string, tls?: TlsFiles): string {
  return `${origin}|${tls?.ca ?? ''}|${tls?.cert ?? ''}`;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export type ResolvedOptions = Required<Omit<TransportOptions, 'log'>> & Pick<TransportOptions, 'log'>;

/** The retry loop, deadlines and error mapping every transport shares; subclasses send one attempt. */
export abstract class RetryingTransport implements Transport {
  readonly opts: ResolvedOptions;
  private readonly deadlines: DeadlineClock;

  constructor(opts: TransportOptions = {}) {
    this.opts = {
      connectMs: opts.connectMs ?? 5_000,
      requestMs: opts.requestMs ?? 30_000,
      retriesMax: opts.retriesMax ?? 2,
      log: opts.log,
      sleep: opts.sleep ?? defaultSleep,
      maxResponseBytes: opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      connections: opts.connections ?? 64,
    };
    this.deadlines = new DeadlineClock(this.opts.requestMs);
  }

  /**
   * Send one attempt and read the whole answer; `path` is the URL's path and query, as the request line has them.
   * Throws on a connection error (with its code), when `deadline` fires, or when the caller's `req.signal` aborts;
   * `request` words the error.
   */
  protected abstract send(url: URL, req: RawRequest, deadline: Deadline, path: string): Promise<Answer>;

  abstract close(): Promise<void>;

  /** The last URL parsed: a bulk send posts to the same URL thousands of times a second. */
  private lastUrl?: { text: string; url: URL; path: string };

  async request(req: RawRequest): Promise<RawResponse> {
    let last = this.lastUrl;
    if (last?.text !== req.url) {
      const url = new URL(req.url);
      last = this.lastUrl = { text: req.url, url, path: url.pathname + url.search };
    }
    const url = last.url;
    const idempotent = isIdempotent(req.method);
    const max = idempotent ? this.opts.retriesMax : 0;
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      // A deadline shared by the requests of its slice of time (DeadlineClock), rather than AbortSignal.timeout(),
      // which stays in memory until it fires: a bulk send would hold one per request for the whole time-out.
      const deadline = this.deadlines.now();
      let answer: Answer;
      try {
        answer = await this.send(url, req, deadline, last.path);
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
        // An answer came, but pdesk does not read it: not a connection problem (decisions.md §3, "Bounds").
        if (code === TOO_LARGE_CODE) throw this.tooLarge(url, req, e);
        if (code === DECODE_CODE) throw new ContractError('$', (e as Error).message, [`request: ${req.method} ${redact(req.url)}`]);
        // A failed TLS handshake in one plain sentence, never OpenSSL's text (tls-failure.ts).
        const tlsProblem = await tlsFailure(e, code, url, req.tls, this.opts.connectMs);
        if (tlsProblem) throw new NetworkError(tlsProblem, [`${req.method} ${redact(req.url)}`], code, e);
        const why = describeNetwork(code, e);
        const details = [`${req.method} ${redact(req.url)}`];
        if (!idempotent && code && CONNECTION_CODES.has(code) && code !== 'ECONNREFUSED')
          details.push('The request may have reached the server: check before sending it again.');
        throw new NetworkError(`Cannot reach ${url.origin} (${why}).`, details, code, e);
      }
      const { status, headers } = answer;
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
      return { status, headers, text: answer.text, ms: Date.now() - started, attempts: attempt + 1 };
    }
  }

  /** The bound on `req`'s answer: the request's (its client's profile), within the transport's own. */
  protected maxBytes(req: RawRequest): number {
    return Math.min(req.maxResponseBytes ?? Number.POSITIVE_INFINITY, this.opts.maxResponseBytes);
  }

  /** An answer over the size bound, naming the bound and the profile setting that sets it. */
  private tooLarge(url: URL, req: RawRequest, cause: unknown): TooLargeError {
    const details = [`request: ${req.method} ${redact(req.url)}`];
    if (!isIdempotent(req.method)) details.push('The request was sent and answered: check before sending it again.');
    details.push('If answers this large are expected, raise limits.responseMB in the profile.');
    return new TooLargeError(
      `The answer from ${url.origin} is larger than ${megabytes(this.maxBytes(req))}, the most pdesk reads in one answer (limits.responseMB).`,
      details,
      cause,
    );
  }
}
