/**
 * The profile-aware client every face of pdesk uses: resolves an operation's route, adds auth and headers,
 * sends through the Transport (or describes the request for --dry-run), maps answers to typed errors
 * (HttpError with its OperationOutcome, ContractError for a non-JSON success body) and follows next links.
 */
import type { Profile } from '../profiles/schema.js';
import type { OpId, Party } from './ops.js';
import { readPemFile } from '../profiles/secrets.js';
import { authHeader } from './auth.js';
import { ContractError, ExitCode, HttpError, NetworkError, PdeskError, excerpt, statusLine } from './errors.js';
import { asOutcome } from './schemas/outcome.js';
import { isSecretHeader, redact, redactHeaders, registerSecret } from './redact.js';
import { FHIR_JSON } from './ops.js';
import { baseUrlFor, headersFor, resolveRoute } from './routes.js';
import { type Transport, retryAfterMs, type TlsFiles } from './transport.js';
import { createTransport } from './transport-default.js';

export const USER_AGENT = 'pdesk/0.1';
export const DEFAULT_LIMIT = 1000;

export interface RequestDescription {
  op?: OpId;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** Thrown instead of sending under --dry-run; carries the request that would have been sent (exit 0). */
export class DryRunResult extends PdeskError {
  readonly request: RequestDescription;
  constructor(request: RequestDescription) {
    super('dry run: nothing was sent', ExitCode.ok);
    this.request = request;
  }
}

export interface ApiResult {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the server sent none. */
  body: unknown;
}

export interface CallOptions {
  params?: Record<string, string>;
  query?: ReadonlyArray<readonly [string, string]>;
  body?: unknown;
  /** A read a write depends on (M2 before M3): sent even under --dry-run, since it changes nothing. */
  readForWrite?: boolean;
  signal?: AbortSignal;
}

export interface ClientOptions {
  dryRun?: boolean;
  log?: (line: string) => void;
  transport?: Transport;
  signal?: AbortSignal;
}

/** `content-type` → `Content-Type` for --verbose lines (curl style). */
function headerName(k: string): string {
  return k.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
}

/** Set a header, replacing any other spelling of its name. */
function setHeader(h: Record<string, string>, name: string, value: string): void {
  for (const k of Object.keys(h)) if (k.toLowerCase() === name.toLowerCase()) delete h[k];
  h[name] = value;
}

function kB(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} kB`;
}

export class PdeskClient {
  readonly transport: Transport;
  private readonly tlsCache = new Map<Party, TlsFiles | undefined>();

  constructor(
    readonly profile: Profile,
    readonly opts: ClientOptions = {},
  ) {
    this.transport =
      opts.transport ??
      createTransport({
        connectMs: profile.timeouts?.connectMs,
        requestMs: profile.timeouts?.requestMs,
        retriesMax: profile.retries?.max,
        log: opts.log,
      });
  }

  private tls(party: Party): TlsFiles | undefined {
    if (!this.tlsCache.has(party)) {
      const t = (party === 'practice' ? this.profile.practice : this.profile.portal).tls;
      this.tlsCache.set(
        party,
        t && {
          ca: t.caFile ? readPemFile(t.caFile, 'CA') : undefined,
          cert: t.certFile ? readPemFile(t.certFile, 'client certificate') : undefined,
          key: t.keyFile ? readPemFile(t.keyFile, 'client key') : undefined,
        },
      );
    }
    return this.tlsCache.get(party);
  }

  private async headers(
    party: Party,
    extra: Record<string, string>,
    contentType?: string,
    willSend = true,
  ): Promise<Record<string, string>> {
    // Header names are case-insensitive: each is set once, whatever its spelling in the profile. Profile
    // headers override the defaults; the operation's content type and the auth setting override them.
    const h: Record<string, string> = { accept: FHIR_JSON, 'user-agent': USER_AGENT };
    for (const [k, v] of Object.entries(extra)) {
      // A credential in a profile header (an API key) is a secret like a token: redacted wherever it shows.
      if (isSecretHeader(k)) registerSecret(v);
      setHeader(h, k, v);
    }
    if (contentType) setHeader(h, 'content-type', contentType);
    const auth = await authHeader((party === 'practice' ? this.profile.practice : this.profile.portal).auth, party, this.tls(party), {
      offline: !willSend,
    });
    if (auth) setHeader(h, 'authorization', auth);
    return h;
  }

  /** Send one interface operation. */
  async call(opId: OpId, o: CallOptions = {}): Promise<ApiResult> {
    const route = resolveRoute(this.profile, opId, o.params, o.query);
    const hasBody = o.body !== undefined;
    // Under --dry-run nothing is sent, not even a token request (a read a write depends on excepted).
    const willSend = !this.opts.dryRun || (!!o.readForWrite && route.method === 'GET');
    const headers = await this.headers(route.party, route.headers, hasBody ? (route.contentType ?? FHIR_JSON) : undefined, willSend);
    return this.exchange({ op: opId, party: route.party, method: route.method, url: route.url, headers, body: o.body }, o);
  }

  /** `pdesk api`: any method and path under a party's base URL, with the profile's auth and headers. */
  async raw(method: string, party: Party, path: string, body?: unknown, o: { signal?: AbortSignal } = {}): Promise<ApiResult> {
    const url = /^https?:\/\//.test(path) ? path : `${baseUrlFor(this.profile, party)}${path.startsWith('/') ? '' : '/'}${path}`;
    const headers = await this.headers(
      party,
      headersFor(this.profile, party),
      body !== undefined ? FHIR_JSON : undefined,
      !this.opts.dryRun,
    );
    return this.exchange({ party, method: method.toUpperCase(), url, headers, body }, o);
  }

  /** Follow a Bundle `next` link; only links on the same origin as the party's base URL are followed. */
  async next(opId: OpId, url: string, o: { signal?: AbortSignal } = {}): Promise<ApiResult | undefined> {
    const route = resolveRoute(this.profile, opId);
    const base = new URL(route.url);
    const abs = new URL(url, base);
    if (abs.origin !== base.origin) {
      this.opts.log?.(`not following next link to another origin: ${redact(abs.origin)}`);
      return undefined;
    }
    const headers = await this.headers(route.party, route.headers);
    return this.exchange({ op: opId, party: route.party, method: 'GET', url: abs.toString(), headers }, o);
  }

  describe(d: RequestDescription): RequestDescription {
    return { ...d, url: redact(d.url), headers: redactHeaders(d.headers) };
  }

  private async exchange(
    d: RequestDescription & { party: Party },
    o: { readForWrite?: boolean; signal?: AbortSignal },
  ): Promise<ApiResult> {
    const { party, ...desc } = d;
    if (this.opts.dryRun && !(o.readForWrite && d.method === 'GET')) throw new DryRunResult(this.describe(desc));
    const log = this.opts.log;
    const bodyText = d.body === undefined ? undefined : typeof d.body === 'string' ? d.body : JSON.stringify(d.body);
    if (log) {
      log(`→ ${d.op ? `${d.op} ` : ''}${d.method} ${redact(d.url)}${bodyText ? ` (${kB(Buffer.byteLength(bodyText))})` : ''}`);
      for (const [k, v] of Object.entries(redactHeaders(d.headers))) log(`  ${headerName(k)}: ${v}`);
    }
    let res: import('./transport.js').RawResponse;
    try {
      res = await this.transport.request({
        method: d.method,
        url: d.url,
        headers: d.headers,
        body: bodyText,
        tls: this.tls(party),
        signal: o.signal ?? this.opts.signal,
      });
    } catch (e) {
      // Say what to check: the server, and which setting of which profile points at it.
      if (e instanceof NetworkError && e.code !== 'ABORTED')
        e.details.push(
          `Check that the ${party === 'practice' ? 'practice system' : 'portal'} is running and the ${party} base URL of profile "${this.profile.name}" (pdesk profile show ${this.profile.name}).`,
        );
      throw e;
    }
    log?.(
      `← ${statusLine(res.status)} (${res.ms} ms, ${kB(Buffer.byteLength(res.text))}${res.attempts > 1 ? `, ${res.attempts} attempts` : ''})`,
    );
    let body: unknown;
    let parsed = false;
    if (res.text.trim() !== '') {
      try {
        body = JSON.parse(res.text);
        parsed = true;
      } catch {
        /* handled below */
      }
    }
    if (res.status >= 400) {
      const outcome = parsed ? asOutcome(body) : undefined;
      const err = new HttpError(res.status, {
        method: d.method,
        url: redact(d.url),
        outcome,
        bodyExcerpt: outcome ? undefined : res.text.trim() ? excerpt(redact(res.text)) : undefined,
      });
      // A Retry-After pdesk did not wait for (longer than it waits, or on a request it does not retry): say when.
      const after = retryAfterMs(res.headers['retry-after']);
      if (after !== undefined)
        err.details.splice(err.details.length - 1, 0, `The server asks to try again in ${Math.ceil(after / 1000)} s.`);
      // A server may echo a credential back ("invalid token abc…"): every line of the error is redacted here,
      // so no face of pdesk (CLI, TUI) can show it.
      for (const [i, line] of err.details.entries()) err.details[i] = redact(line);
      throw err;
    }
    if (res.text.trim() !== '' && !parsed)
      throw new ContractError('$', `the body is not JSON (content-type ${redact(res.headers['content-type'] ?? 'none')})`, [
        excerpt(redact(res.text)),
      ]);
    return { status: res.status, headers: res.headers, body };
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

/** Read every page of a list until `limit` resources (0 = no limit), parsing each page with `parsePage`. */
export async function readPages<T>(
  client: PdeskClient,
  opId: OpId,
  first: CallOptions,
  parsePage: (body: unknown) => { items: T[]; next?: string },
  limit = DEFAULT_LIMIT,
): Promise<T[]> {
  const out: T[] = [];
  let res: ApiResult | undefined = await client.call(opId, first);
  const seen = new Set<string>();
  while (res) {
    const page = parsePage(res.body);
    for (const item of page.items) {
      if (limit > 0 && out.length >= limit) return out;
      out.push(item);
    }
    if (!page.next || (limit > 0 && out.length >= limit) || seen.has(page.next)) break;
    seen.add(page.next);
    res = await client.next(opId, page.next, { signal: first.signal });
  }
  return out;
}
