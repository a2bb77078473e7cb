/**
 * The transport for long-running work (bulk sends, listen, the sandbox's pushes, the TUI): undici `request()`
 * on one keep-alive Pool per origin (and TLS setting), about 2.7 times fetch's throughput (DEVELOPERS.md,
 * "Stack notes"). undici (about 1 MB of code and a WebAssembly parser) is imported when a pool transport is
 * made, after the turn that made it, so a process that never makes one never loads it.
 */
import type { Pool } from 'undici';
import {
  type Answer,
  type Deadline,
  type RawRequest,
  RetryingTransport,
  type TlsFiles,
  type TransportOptions,
  connectionKey,
  tlsConnectOptions,
} from './transport.js';

type Undici = typeof import('undici');
let undici: Undici | undefined;
let loading: Promise<Undici> | undefined;

async function loadUndici(): Promise<Undici> {
  const m = await import('undici');
  // In the bundle undici (CommonJS) is a chunk whose only export is `default`, its module.exports; unbundled
  // (tests), node's import gives the named exports too.
  return (m as Undici & { default?: Undici }).default ?? m;
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

export class PoolTransport extends RetryingTransport {
  private readonly pools = new Map<string, Pool>();

  constructor(opts: TransportOptions = {}) {
    super(opts);
    // Start loading undici once the current turn is done (the TUI draws its first frame first), so the first
    // request does not wait for it.
    if (!undici && !loading)
      setImmediate(() => {
        loading ??= loadUndici();
        loading.catch(() => undefined); // a failure is reported by the request that needs it
      }).unref();
  }

  private pool(u: Undici, origin: string, tls?: TlsFiles): Pool {
    const key = connectionKey(origin, tls);
    let p = this.pools.get(key);
    if (!p) {
      p = new u.Pool(origin, {
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

  protected async send(url: URL, req: RawRequest, deadline: Deadline, path: string): Promise<Answer> {
    if (!undici) {
      loading ??= loadUndici();
      undici = await loading;
    }
    const u = undici;
    // undici takes the Deadline itself as its signal (cheap listeners); a caller's signal is combined with it.
    const signal = req.signal ? AbortSignal.any([deadline.signal(), req.signal]) : deadline;
    const res = await this.pool(u, url.origin, req.tls).request({
      path,
      method: req.method as 'GET',
      headers: req.headers,
      body: req.body,
      signal,
    });
    return { status: res.statusCode, headers: flatHeaders(res.headers), text: await res.body.text() };
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close().catch(() => undefined)));
    this.pools.clear();
  }
}
