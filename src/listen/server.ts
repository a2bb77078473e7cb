/**
 * The HTTP(S) side of `pdesk listen` as a service: the server with its limits (connections, time to send the
 * headers and the whole request, silence on a connection), request bodies read within a size bound and a bound
 * on the bytes all requests hold at once, and a stop that finishes requests in progress for at most a deadline.
 * What is received, and what is answered, is receiver.ts's.
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { Fail } from './accept.js';

export interface ListenLimits {
  /** Connections open at once; one more is closed as soon as it is accepted. */
  maxConnections: number;
  /** A request's headers must have arrived this long after it began (else 408 and the connection closed). */
  headersTimeoutMs: number;
  /** A whole request, body included, must have arrived this long after it began (else 408, closed). */
  requestTimeoutMs: number;
  /** A connection silent this long while a request is being received or answered is closed. */
  idleTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Largest request body (413 past it, the connection closed; one that says it is larger is not read). */
  maxBodyBytes: number;
  /** Body bytes all requests together may hold at once (503 past it, closed). */
  maxBufferedBytes: number;
}

export const DEFAULT_LIMITS: ListenLimits = {
  maxConnections: 100,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  idleTimeoutMs: 15_000,
  keepAliveTimeoutMs: 10_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxBufferedBytes: 64 * 1024 * 1024,
};

/** How long a stop waits for requests in progress (`pdesk listen --shutdown-timeout`), in seconds. */
export const DEFAULT_SHUTDOWN_SECONDS = 10;

export interface TlsFiles {
  cert: string | Buffer;
  key: string | Buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => void;

/**
 * An HTTP server, or HTTPS with `tls`, with `limits` applied. `handler` gets every request; a request that
 * sent `Expect: 100-continue` gets it too, with `expectsContinue` (the handler calls `res.writeContinue()` once
 * it wants the body), so that a body refused before it is sent is never sent at all.
 */
export async function createListenServer(limits: ListenLimits, handler: Handler, tls?: TlsFiles): Promise<Server> {
  const options: ServerOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often node looks for requests past headersTimeout/requestTimeout (default 30 s: far too coarse).
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
  let server: Server;
  if (tls) {
    const { createServer: createHttpsServer } = await import('node:https');
    server = createHttpsServer({
      ...options,
      cert: tls.cert,
      key: tls.key,
      handshakeTimeout: limits.headersTimeoutMs,
    }) as unknown as Server;
  } else server = createServer(options);
  server.on('request', (req, res) => handler(req, res, false));
  server.on('checkContinue', (req, res) => handler(req, res, true));
  server.maxConnections = limits.maxConnections;
  // Without a 'timeout' listener node closes the silent connection (a stalled upload).
  server.setTimeout(limits.idleTimeoutMs);
  return server;
}

/** The client went away before its request was whole: nothing to answer. */
export class Gone extends Error {}

/** The body bytes all requests hold at once. */
export class BodyBudget {
  held = 0;
  constructor(readonly max: number) {}
}

/**
 * The request body, read within `limits.maxBodyBytes` (413) and the bytes `budget` still allows (503). A refusal
 * stops reading at once: its answer closes the connection. (A Content-Length past the bound is refused before
 * this is called.)
 */
export function readBoundedBody(req: IncomingMessage, limits: ListenLimits, budget: BodyBudget): Promise<Buffer> {
  const tooLarge = () => new Fail(413, 'too-costly', `The request body is larger than ${limits.maxBodyBytes} bytes.`);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (e?: Error) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      budget.held -= size;
      if (e) {
        req.pause();
        reject(e);
      } else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (c: Buffer) => {
      if (size + c.length > limits.maxBodyBytes) return done(tooLarge());
      if (budget.held + c.length > budget.max)
        return done(new Fail(503, 'transient', 'This receiver is holding as many request bodies as it may; send it again shortly.'));
      size += c.length;
      budget.held += c.length;
      chunks.push(c);
    };
    const onEnd = () => done();
    const onError = () => done(new Gone());
    const onClose = () => {
      if (!req.complete) done(new Gone());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Stop: accept no more connections, close idle ones, let requests in progress (`inflight`, which may still grow
 * by requests on connections already open) finish for at most `graceMs`, then close every connection left: a
 * request cut off was never acknowledged. Resolves with the number of requests cut off.
 */
export async function stopServer(server: Server, inflight: Set<Promise<void>>, graceMs: number): Promise<number> {
  server.close();
  server.closeIdleConnections();
  const until = Date.now() + Math.max(0, graceMs);
  while (inflight.size && Date.now() < until) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...inflight]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, until - Date.now());
      }),
    ]);
    clearTimeout(timer);
  }
  const cut = inflight.size;
  server.closeAllConnections();
  return cut;
}
