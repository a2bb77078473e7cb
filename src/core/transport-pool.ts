/**
 * The transport for long-running work (bulk sends, listen, the sandbox's pushes, the TUI): one keep-alive undici
 * Pool per origin (and TLS setting). An answer is read by a dispatch handler (`AnswerReader`) rather than
 * `request()`, which makes a body stream and an async resource per response: a bulk send reads thousands of answers
 * a second (figures: docs/performance.md). Of undici only its Pool
 * module is loaded (undici-pool.d.ts), when a pool transport is made and after the turn that made it, so a process that
 * never makes one never loads it.
 */
import type { Dispatcher, Pool } from 'undici';
import { BodyDecoder } from './decode.js';
import {
  type Answer,
  type Deadline,
  type RawRequest,
  RetryingTransport,
  type TlsFiles,
  answerText,
  type TransportOptions,
  connectionKey,
  tlsConnectOptions,
  tooLargeError,
} from './transport.js';

type PoolClass = typeof Pool;
let poolClass: PoolClass | undefined;
let loading: Promise<PoolClass> | undefined;

/**
 * undici's Pool and what it needs (its HTTP/1.1 client, the connector, the parser), not undici's index, which
 * loads fetch, WebSocket, the cache, the mock agents and a dozen more of node's modules for them, none of which
 * pdesk uses (DEVELOPERS.md, "Stack notes").
 */
async function loadUndici(): Promise<PoolClass> {
  const m = await import('undici/lib/dispatcher/pool.js');
  // A CommonJS module whose module.exports is the class: `default` both in the bundle and in node's import.
  return m.default;
}

/**
 * undici's answer headers as one string per name (a repeated header joined with ", "). They are taken as they are
 * when every value is one string already, as almost always: a bulk send gets thousands of answers a second.
 */
function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  let flat = true;
  for (const k in h) {
    if (typeof h[k] !== 'string') {
      flat = false;
      break;
    }
  }
  if (flat) return h as Record<string, string>;
  const headers: Record<string, string> = {};
  for (const k in h) {
    const v = h[k];
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return headers;
}

/**
 * Reads one answer whole, as `request()` and `body.text()` would: the final status and headers (1xx answers are
 * skipped), the body as UTF-8 with a byte order mark skipped. The response size bound, a body shorter or longer than
 * its Content-Length and connection errors are undici's, raised by its parser whatever the handler. A deadline or
 * caller abort ends the request (waiting for a connection, or on one); listeners are removed when it ends.
 */
class AnswerReader implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private status = 0;
  private headers: Record<string, string> = {};
  private chunks: Buffer[] = [];
  private length = 0;
  private ended = false;
  /** Decodes a compressed body as it arrives, bounded by the decoded size (src/core/decode.ts). */
  private decoder?: BodyDecoder;

  constructor(
    private readonly resolve: (a: Answer) => void,
    private readonly reject: (e: unknown) => void,
    private readonly deadline: Deadline,
    private readonly signal: AbortSignal | undefined,
    private readonly maxBytes: number,
  ) {
    deadline.watch(signal, this.abort); // end() unwatches
  }

  /** The reason of whichever ended the request (the caller's signal, or the shared deadline), or undefined. */
  private reason(): Error | undefined {
    if (this.signal?.aborted) return (this.signal.reason as Error | undefined) ?? new Error('aborted');
    if (this.deadline.aborted) return (this.deadline.reason as Error | undefined) ?? new Error('timed out');
    return undefined;
  }

  /** Ends the request with the reason of whichever fired; also called for one that was ended before it was dispatched. */
  readonly abort = () => {
    const reason = this.reason();
    if (!reason) return;
    if (this.controller) this.controller.abort(reason);
    // Still waiting for a connection: it ends now, and onRequestStart aborts it before anything is written.
    else if (this.end()) this.reject(reason);
  };

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Also called again when a request at the head of a pipeline is started anew: begin afresh.
    this.controller = controller;
    this.status = 0;
    this.chunks = [];
    this.length = 0;
    this.decoder?.destroy();
    this.decoder = undefined;
    const reason = this.reason();
    if (reason) controller.abort(reason);
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>): void {
    if (status < 200) return; // an informational answer (100 Continue, 103 Early Hints): the real one follows
    this.status = status;
    this.headers = flatHeaders(headers);
    const encoding = this.headers['content-encoding'];
    if (encoding) this.decoder = BodyDecoder.for(encoding, this.maxBytes, this.decoded, this.undecodable);
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.decoder) {
      this.decoder.write(chunk);
      return;
    }
    this.chunks.push(chunk);
    this.length += chunk.length;
    // The request's own bound (the pool's is the transport's: a transport shared by clients of several profiles).
    if (this.length > this.maxBytes) this.undecodable(tooLargeError());
  }

  onResponseEnd(): void {
    if (this.decoder) this.decoder.end();
    else this.decoded(this.chunks, this.length);
  }

  onResponseError(_c: Dispatcher.DispatchController | undefined, error: Error): void {
    this.decoder?.destroy();
    if (this.end()) this.reject(error);
  }

  private readonly decoded = (chunks: Buffer[], length: number): void => {
    if (this.end()) this.resolve({ status: this.status, headers: this.headers, text: answerText(chunks, length) });
  };

  /** Decoding failed (past the bound, corrupt data): the request ends with that error, whatever undici is doing. */
  private readonly undecodable = (e: Error): void => {
    if (this.ended) return;
    // Still reading: aborting ends the request and undici reports the error through onResponseError.
    if (this.controller && !this.controller.aborted) this.controller.abort(e);
    if (this.end()) this.reject(e);
  };

  /** The first end only (an error after the end, or a second error, is not reported twice). */
  private end(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.deadline.unwatch(this.signal, this.abort);
    return true;
  }
}

export class PoolTransport extends RetryingTransport {
  private readonly pools = new Map<string, Pool>();

  constructor(opts: TransportOptions = {}) {
    super(opts);
    // Start loading undici once the current turn is done (the TUI draws its first frame first), so the first
    // request does not wait for it.
    if (!poolClass && !loading)
      setImmediate(() => {
        loading ??= loadUndici();
        loading.catch(() => undefined); // a failure is reported by the request that needs it
      }).unref();
  }

  /** The pool of the last request's URL and TLS files: a bulk send asks for the same one thousands of times a second. */
  private last?: { url: URL; tls?: TlsFiles; pool: Pool };

  private pool(PoolCtor: PoolClass, url: URL, tls?: TlsFiles): Pool {
    const last = this.last;
    if (last && last.url === url && last.tls === tls) return last.pool;
    const key = connectionKey(url.origin, tls);
    let p = this.pools.get(key);
    if (!p) {
      p = new PoolCtor(url.origin, {
        connections: this.opts.connections,
        pipelining: 1,
        keepAliveTimeout: 10_000,
        // The request deadline (RetryingTransport) is the only one: undici's own header and body timers (300 s, on a
        // one-second clock) would cut a longer requestMs short, and cost a timer per request.
        headersTimeout: 0,
        bodyTimeout: 0,
        maxResponseSize: this.opts.maxResponseBytes,
        connect: { timeout: this.opts.connectMs, ...tlsConnectOptions(tls) },
      });
      this.pools.set(key, p);
    }
    this.last = { url, tls, pool: p };
    return p;
  }

  protected send(url: URL, req: RawRequest, deadline: Deadline, path: string): Promise<Answer> {
    if (poolClass) return this.dispatch(poolClass, url, req, deadline, path);
    loading ??= loadUndici();
    return loading.then((loaded) => {
      poolClass = loaded;
      return this.dispatch(loaded, url, req, deadline, path);
    });
  }

  private dispatch(PoolCtor: PoolClass, url: URL, req: RawRequest, deadline: Deadline, path: string): Promise<Answer> {
    const pool = this.pool(PoolCtor, url, req.tls);
    return new Promise<Answer>((resolve, reject) => {
      const reader = new AnswerReader(resolve, reject, deadline, req.signal, this.maxBytes(req));
      if (deadline.aborted || req.signal?.aborted) reader.abort();
      else pool.dispatch({ path, method: req.method as 'GET', headers: req.headers, body: req.body }, reader);
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close().catch(() => undefined)));
    this.pools.clear();
    this.last = undefined;
  }
}
