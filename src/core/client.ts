/**
 * The profile-aware client every face of pdesk uses: resolves an operation's route, adds auth and headers,
 * sends through the Transport (or describes the request for --dry-run), maps answers to typed errors
 * (HttpError with its OperationOutcome, ContractError for a non-JSON success body) and follows next links.
 */
import { type Profile, isProduction } from './profile/schema.js';
import type { OpId, Party } from './ops.js';
import { readPemFile } from './profile/secrets.js';
import { authHeader } from './auth.js';
import {
  ConfigError,
  ContractError,
  ExitCode,
  HttpError,
  IncompleteListError,
  NetworkError,
  PdeskError,
  UsageError,
  excerpt,
  statusLine,
} from './errors.js';
import { describeJsonProblem, readJson } from './json.js';
import { asOutcome } from './schemas/outcome.js';
import { isSecretHeader, redact, redactHeaders, registerSecret } from './redact.js';
import { FHIR_JSON, OPS } from './ops.js';
import { baseUrlFor, headersFor, resolveRoute } from './routes.js';
import { type Transport, retryAfterMs, type TlsFiles } from './transport.js';
import { answeredId } from './created.js';
import { createTransport } from './transport-default.js';
import { DEFAULT_LIMITS, ReadBudget, responseBytes } from './bounds.js';
import { ACCEPT_ENCODING } from './decode.js';
import { nextPageUrl } from './paging.js';
import { type Hop, followRedirect, isRedirect } from './redirect.js';

export const USER_AGENT = 'pdesk/0.1';
export const DEFAULT_LIMIT = 1000;

export interface RequestDescription {
  op?: OpId;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** A write about to be sent, for a confirmation: `what` is `A6 (POST /Appointment)`, `target` its base URL. */
export interface WriteDescription {
  request: RequestDescription;
  what: string;
  target: string;
  /** The call's abort signal: which of the face's tasks sends it (the TUI knows the tasks the operator confirmed). */
  signal?: AbortSignal;
}

/** A request as the client sends it: the operation's description and the party it goes to. */
type Outgoing = RequestDescription & { party: Party };

/**
 * A WriteDescription built when read: the hook of a bulk send reads nothing once the operator has confirmed (or need
 * not), and each field costs redaction and strings per row. The getters are on the class, not on each object: an
 * object literal with its own getter, made per request, was kept by V8 past its young generation (a bulk send
 * promoted ~1.7 kB a row more, 14 MB more at its peak).
 */
class PendingWrite implements WriteDescription {
  constructor(
    private readonly client: PdeskClient,
    private readonly d: Outgoing,
    private readonly json: string | undefined,
    readonly signal: AbortSignal | undefined,
  ) {}
  get request(): RequestDescription {
    return this.client.describeOutgoing(this.d, this.json);
  }
  get what(): string {
    return this.client.what(this.d.op, this.d.method, this.d.url);
  }
  get target(): string {
    return this.client.splitUrl(this.d.url).base;
  }
}

/**
 * Control flow, not an error: under --dry-run the client hands the request it would have sent to
 * `ClientOptions.onDryRun`, then throws this to stop the command before anything is sent or printed as done.
 * The entry point ends the run with exit 0 when it sees it; the request rides along for callers without a sink.
 */
export class DryRunStop {
  constructor(readonly request: RequestDescription) {}
}

export interface ApiResult {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the server sent none. */
  body: unknown;
  /** The body's size in bytes, decoded (not counted for a status-only call). */
  bytes?: number;
  /** The redirects a GET followed to get this answer (decisions.md §3, "Redirects"). */
  redirects?: Hop[];
}

export interface CallOptions {
  params?: Record<string, string>;
  query?: ReadonlyArray<readonly [string, string]>;
  body?: unknown;
  /**
   * The body as JSON text already, sent as is instead of `body` (a bulk send writes each row's text from one
   * validated shape). It must be JSON: the audit trail embeds it as JSON, a dry run parses it to print it.
   */
  json?: string;
  /**
   * The caller needs the status only (a bulk send): a success body is not parsed (JSON.parse of a created resource
   * costs more than the rest of the client), only checked to look like JSON (an object or array, or nothing), and
   * `body` is undefined. An error answer is parsed as ever, for its OperationOutcome.
   */
  statusOnly?: boolean;
  /** A read a write depends on (M2 before M3): sent even under --dry-run, since it changes nothing. */
  readForWrite?: boolean;
  /**
   * GET the operation's URL instead of sending its method (C4 under the r4 dialect reads the Encounter it is about to
   * replace: decisions.md §16); with `readForWrite` it is made under --dry-run too.
   */
  asRead?: boolean;
  /** Headers for this request only (`If-Match`), over the profile's. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * A write's audit record, handed over instead of awaited: the call returns at the answer, and the caller must
   * await `durable` before it reports the write done (a bulk send frees its request slot at the answer and
   * records the row's outcome once the audit record is on disk). Called before the call returns or throws.
   */
  audited?: (durable: Promise<void>) => void;
  /**
   * The write's audit intent, written ahead by the caller (`aheadIntents`: a bulk send journals its rows' intents
   * with their `sending` lines); the client completes it instead of writing one.
   */
  intent?: import('./audit.js').AuditIntentLike;
  /**
   * Called after the write's audit intent is on disk and just before its request leaves (the thread store's
   * pending entry of a chat message). Throwing stops it: nothing is sent, the intent is withdrawn.
   */
  beforeSend?: () => Promise<void> | void;
}

/** What `observeSend` gets: the request half of an Exchange, before its request leaves. */
export type ExchangeStart = Pick<Exchange, 'op' | 'party' | 'method' | 'url' | 'requestHeaders' | 'requestBody' | 'startedAt'>;

/**
 * One HTTP exchange as the client saw it, every secret redacted (URL, headers, bodies): what `observe` gets.
 * `pdesk check` attaches these to the check that made them; a trace file records them.
 */
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

export interface ClientOptions {
  dryRun?: boolean;
  /** Under dryRun: receives each request that would have been sent (redacted), before DryRunStop is thrown. */
  onDryRun?: (request: RequestDescription) => void;
  log?: (line: string) => void;
  transport?: Transport;
  signal?: AbortSignal;
  /** Called once per HTTP exchange (answered or not), secrets redacted. Nothing is built when unset. */
  observe?: (e: Exchange) => void;
  /**
   * Called with each write just before its request leaves, after its audit intent is on disk (a trace's line
   * written ahead: a process killed before the answer still leaves it). `observe` follows when the exchange ends.
   */
  observeSend?: (e: ExchangeStart) => void;
  /**
   * Send GET only: any other method is refused before it is sent (ConfigError, exit 3). A profile's `readOnly`
   * does the same whatever this says: the client is the one place it is enforced, below every face.
   */
  readOnly?: boolean;
  /** Why the client is read-only when the profile is not (`--read-only`), for the refusal's sentence. */
  readOnlyWhy?: string;
  /**
   * Record every write (any method but GET, HEAD, OPTIONS) in the audit trail of the desk whose config folder is
   * `dir`: its file (src/core/audit.ts), or the team store when one is configured (src/core/store/audit.ts; `store`:
   * the desk store the face opened already, else the client opens one). Opened before the first write is sent,
   * each record durable before the call returns.
   */
  audit?: { dir: string; store?: () => Promise<import('./store/types.js').DeskStore> };
  /**
   * Called before each write is sent, after the read-only check: the face's confirmation on a production
   * profile (the CLI's typed name or --yes, the TUI's typed name). Throwing stops it: nothing is sent, nothing
   * audited. A production profile's client without one sends no write at all (UsageError, exit 2): no face
   * can skip the confirmation.
   */
  beforeWrite?: (write: WriteDescription) => Promise<void> | void;
  /** Where the variables a profile names (tokenEnv, passwordEnv, clientSecretEnv) are read; the process's by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Connections per origin (default 64). A bulk send sets its concurrency: undici's pool otherwise opens a new
   * connection whenever a request is handed over in the instant before an answered one frees its connection, and
   * ends up with twice as many sockets as requests in flight, which costs both sides CPU.
   */
  connections?: number;
  /**
   * One read budget (bytes and pages, src/core/bounds.ts) for every list this client reads, as a `check` run has;
   * by default each list gets its own from the profile's `limits`.
   */
  readBudget?: ReadBudget;
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

/** Methods that change nothing: not audited, and not asked about on production. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request with this method is a write (audited; confirmed on production). */
export function isWrite(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** Empty, or an object or array by its first and last characters: JSON as far as a status-only caller checks. */
function looksLikeJson(text: string): boolean {
  const t = text.trim();
  if (t === '') return true;
  const a = t[0];
  const z = t[t.length - 1];
  return (a === '{' && z === '}') || (a === '[' && z === ']');
}

/** A success answer whose body is not JSON. */
function notJson(res: { text: string; headers: Record<string, string> }): ContractError {
  return new ContractError('$', `the body is not JSON (content-type ${redact(res.headers['content-type'] ?? 'none')})`, [
    excerpt(redact(res.text)),
  ]);
}

/** The audit record of a write answered 3xx: its status, and why it was not done. */
function redirectRecord(res: { ms: number; status: number; headers: Record<string, string> }) {
  const to = res.headers.location;
  return {
    ms: res.ms,
    status: res.status,
    error: {
      name: 'RedirectError',
      code: 'REDIRECT',
      message: `redirected${to ? ` to ${redact(to)}` : ''}; not sent again, not done`,
    },
  };
}

function kB(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} kB`;
}

export class PdeskClient {
  readonly transport: Transport;
  private readonly tlsCache = new Map<Party, TlsFiles | undefined>();
  private auditLog?: Promise<import('./audit.js').AuditTrail>;
  private auditOpened?: import('./audit.js').AuditTrail;

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
        connections: opts.connections,
        maxResponseBytes: responseBytes(profile),
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
    const h: Record<string, string> = { accept: FHIR_JSON, 'accept-encoding': ACCEPT_ENCODING, 'user-agent': USER_AGENT };
    for (const [k, v] of Object.entries(extra)) {
      // A credential in a profile header (an API key) is a secret like a token: redacted wherever it shows.
      if (isSecretHeader(k)) registerSecret(v);
      setHeader(h, k, v);
    }
    if (contentType) setHeader(h, 'content-type', contentType);
    const auth = await authHeader((party === 'practice' ? this.profile.practice : this.profile.portal).auth, party, this.tls(party), {
      offline: !willSend,
      env: this.opts.env,
    });
    if (auth) setHeader(h, 'authorization', auth);
    return h;
  }

  /** Send one interface operation. */
  call(opId: OpId, o: CallOptions = {}): Promise<ApiResult> {
    // An operation without parameters has the same request (but its body) every time while its auth header cannot
    // change (anything but an OAuth2 token, which expires): kept, and sent with no await of its own, for a bulk send
    // calls it per row.
    const keep = !o.params && !o.query && !o.readForWrite && !o.asRead && !o.headers;
    const slot = o.body !== undefined || o.json !== undefined ? 1 : 0;
    const kept = keep ? this.fixedCalls.get(opId)?.[slot] : undefined;
    if (kept) return this.send(kept, o);
    return this.outgoing(opId, o, keep, slot).then((d) => this.send(d, o));
  }

  /**
   * The request of an operation: its route and headers, without the body; kept in `fixedCalls[opId][slot]` when
   * `keep` allows it (slot 1: with a body, 0: without).
   */
  private async outgoing(opId: OpId, o: CallOptions, keep: boolean, slot: 0 | 1): Promise<Outgoing> {
    const route = resolveRoute(this.profile, opId, o.params, o.query);
    const method = o.asRead ? 'GET' : route.method;
    // Under --dry-run nothing is sent, not even a token request (a read a write depends on excepted); nor for a
    // write refused under read-only.
    const willSend = (!this.opts.dryRun || (!!o.readForWrite && method === 'GET')) && !(this.readOnly && method !== 'GET');
    const extra = o.headers ? { ...route.headers, ...o.headers } : route.headers;
    const headers = await this.headers(route.party, extra, slot ? (route.contentType ?? FHIR_JSON) : undefined, willSend);
    const d: Outgoing = { op: opId, party: route.party, method, url: route.url, headers };
    const auth = (route.party === 'practice' ? this.profile.practice : this.profile.portal).auth;
    if (keep && willSend && auth?.type !== 'oauth2-client-credentials') {
      const kept = this.fixedCalls.get(opId) ?? [];
      kept[slot] = d;
      this.fixedCalls.set(opId, kept);
    }
    return d;
  }

  /** Send an operation's request with the call's body. */
  private send(d: Outgoing, o: CallOptions): Promise<ApiResult> {
    return this.exchange(o.body === undefined ? d : { ...d, body: o.body }, o);
  }

  /** Kept requests of operations without parameters, without (0) and with (1) a body; never holds the body. */
  private readonly fixedCalls = new Map<OpId, Outgoing[]>();

  /** `pdesk api`: any method and path under a party's base URL, with the profile's auth and headers. */
  async raw(method: string, party: Party, path: string, body?: unknown, o: { signal?: AbortSignal } = {}): Promise<ApiResult> {
    const url = /^https?:\/\//.test(path) ? path : `${baseUrlFor(this.profile, party)}${path.startsWith('/') ? '' : '/'}${path}`;
    const headers = await this.headers(
      party,
      headersFor(this.profile, party),
      body !== undefined ? FHIR_JSON : undefined,
      !this.opts.dryRun && !(this.readOnly && method.toUpperCase() !== 'GET'),
    );
    return this.exchange({ party, method: method.toUpperCase(), url, headers, body }, o);
  }

  /**
   * Follow a Bundle `next` link, on the API's own origin (src/core/paging.ts): a link on another origin is asked on
   * the profile's origin when `paging.rewriteOrigin` allows it, else an IncompleteListError (exit 6).
   */
  async next(opId: OpId, url: string, o: { signal?: AbortSignal } = {}): Promise<ApiResult> {
    const route = resolveRoute(this.profile, opId);
    const target = nextPageUrl(this.profile, baseUrlFor(this.profile, route.party, OPS[opId].api), route.url, url, this.opts.log);
    const headers = await this.headers(route.party, route.headers);
    return this.exchange({ op: opId, party: route.party, method: 'GET', url: target, headers }, o);
  }

  /** The last request answered (its operation, method and URL): what an answer that breaks the interface came from. */
  get lastAnswered(): { op?: OpId; method: string; url: string } | undefined {
    const d = this.answered;
    return d && { op: d.op, method: d.method, url: redact(d.url) };
  }

  private answered?: Outgoing;

  /** True when only GET is sent: the profile is `readOnly`, or the client was made read-only (`--read-only`). */
  get readOnly(): boolean {
    return !!(this.opts.readOnly || this.profile.readOnly);
  }

  /**
   * A URL as the profile's base URL it is under (the longest that fits) and the rest: `/Appointment` under
   * `https://practice.example/fhir`. A URL under none is its origin and path. Redacted.
   */
  splitUrl(url: string): { base: string; path: string } {
    // A bulk send asks this twice per row for the same URL: the split is remembered (unredacted, as secrets may be
    // registered later), the redaction done each time.
    const memo = this.lastSplit;
    if (memo?.url === url) return { base: redact(memo.base), path: redact(memo.path) };
    const raw = this.splitRaw(url);
    this.lastSplit = { url, ...raw };
    return { base: redact(raw.base), path: redact(raw.path) };
  }

  private lastSplit?: { url: string; base: string; path: string };

  private splitRaw(url: string): { base: string; path: string } {
    const p = this.profile;
    const bases = [
      baseUrlFor(p, 'practice'),
      baseUrlFor(p, 'portal'),
      ...(['appointment', 'chat', 'medication'] as const).map((api) => baseUrlFor(p, 'practice', api)),
      baseUrlFor(p, 'portal', 'chat'),
    ].sort((a, b) => b.length - a.length);
    const base = bases.find((b) => url.startsWith(`${b}/`) || url.startsWith(`${b}?`));
    if (base) return { base, path: url.slice(base.length) };
    try {
      const u = new URL(url);
      return { base: u.origin, path: url.slice(u.origin.length) || '/' };
    } catch {
      return { base: '', path: url };
    }
  }

  /** `A6 (POST /Appointment)`: a request as the operator knows it. */
  what(op: OpId | undefined, method: string, url: string): string {
    const w = `${method} ${this.splitUrl(url).path}`;
    return op ? `${op} (${w})` : w;
  }

  /** The refusal of a request under read-only: one sentence naming the profile and the operation. */
  private refusal(op: OpId | undefined, method: string, url: string): ConfigError {
    const who = this.profile.readOnly
      ? `Profile "${this.profile.name}" is read-only`
      : `Profile "${this.profile.name}" is read-only ${this.opts.readOnlyWhy ? `(${this.opts.readOnlyWhy})` : 'here'}`;
    return new ConfigError(`${who}: ${this.what(op, method, url)} was not sent.`);
  }

  /**
   * The refusal `op` would get under read-only, or undefined when it may be sent: a bulk send asks before it
   * journals anything, the TUI before it opens a form.
   */
  refusalOf(op: OpId, params?: Record<string, string>): ConfigError | undefined {
    if (!this.readOnly) return undefined;
    const def = OPS[op];
    const method = this.profile.routes?.[op]?.method ?? def.method;
    if (method === 'GET') return undefined;
    let url: string;
    try {
      url = resolveRoute(this.profile, op, params).url;
    } catch {
      // Parameters not known yet (a key, before its form): the path template as the profile has it.
      const template =
        this.profile.routes?.[op]?.path ?? (typeof def.path === 'function' ? def.path(this.profile.appointmentApi) : def.path);
      url = `${baseUrlFor(this.profile, def.party, def.api)}${template}`;
    }
    return this.refusal(op, method, url);
  }

  /** The audit trail writes are recorded in (opened on the first write; undefined without `audit`). */
  private audit(): Promise<import('./audit.js').AuditTrail> | undefined {
    const a = this.opts.audit;
    if (!a) return undefined;
    // Loaded on the first write only: read commands never load it.
    this.auditLog ??= import('./store/audit.js')
      .then(({ openAuditTrail }) => openAuditTrail(a.dir, this.profile, this.opts.env ?? process.env, a.store))
      .then((trail) => {
        this.auditOpened = trail;
        return trail;
      });
    // A trail that cannot be opened (a settings file that is wrong) fails this write, and is tried again by the next.
    this.auditLog.catch(() => {
      this.auditLog = undefined;
    });
    return this.auditLog;
  }

  /**
   * Write the audit records of the writes answered so far now, rather than at the end of the event-loop turn: a
   * bulk send calls it before each write of its journal, so that no row's outcome is on disk before its audit record.
   */
  flushAudit(): void {
    this.auditOpened?.flush();
  }

  describe(d: RequestDescription): RequestDescription {
    return { ...d, url: redact(d.url), headers: redactHeaders(d.headers) };
  }

  /** A request as --dry-run and a confirmation show it: redacted, without its party, a JSON text body parsed. */
  describeOutgoing(d: Outgoing, json: string | undefined): RequestDescription {
    const { party: _, ...desc } = d;
    if (json !== undefined) desc.body = JSON.parse(json);
    return this.describe(desc);
  }

  private async exchange(
    d: Outgoing,
    o: Pick<CallOptions, 'readForWrite' | 'signal' | 'audited' | 'json' | 'statusOnly' | 'intent' | 'beforeSend'> & {
      /** The redirects followed so far to get here (a GET's). */
      hops?: Hop[];
    },
  ): Promise<ApiResult> {
    const party = d.party;
    // --dry-run first: the request is printed even where it would be refused.
    if (this.opts.dryRun && !(o.readForWrite && d.method === 'GET')) {
      const request = this.describeOutgoing(d, o.json);
      this.opts.onDryRun?.(request);
      throw new DryRunStop(request);
    }
    if (this.readOnly && d.method !== 'GET') throw this.refusal(d.op, d.method, d.url);
    const write = isWrite(d.method);
    if (write && !this.opts.beforeWrite && isProduction(this.profile))
      throw new UsageError(
        `Profile "${this.profile.name}" is a production profile: ${this.what(d.op, d.method, d.url)} was not sent, as nothing here can confirm it.`,
      );
    // A write's audit trail is opened before it is sent (a trail that cannot be written sends nothing), and the
    // operator confirms a write on production (the face's beforeWrite) before anything goes out.
    // Opened once; later writes skip the awaits (a bulk send writes thousands a second).
    const audit = write ? (this.auditOpened ?? (await this.audit())) : undefined;
    if (audit && !audit.isOpen) await audit.ready();
    if (write && this.opts.beforeWrite) {
      // What the hook is told is built only if it reads it (a bulk send asks the hook for every row).
      const asked = this.opts.beforeWrite(new PendingWrite(this, d, o.json, o.signal ?? this.opts.signal));
      if (asked) await asked;
    }
    const log = this.opts.log;
    const bodyText = o.json ?? (d.body === undefined ? undefined : typeof d.body === 'string' ? d.body : JSON.stringify(d.body));
    if (log) {
      log(`→ ${d.op ? `${d.op} ` : ''}${d.method} ${redact(d.url)}${bodyText ? ` (${kB(Buffer.byteLength(bodyText))})` : ''}`);
      for (const [k, v] of Object.entries(redactHeaders(d.headers))) log(`  ${headerName(k)}: ${v}`);
    }
    const observe = this.opts.observe;
    const started = observe || audit ? Date.now() : 0;
    // Write-ahead (decisions.md §15): the audit intent on disk, then the caller's own record (beforeSend), then
    // the trace's line, and only then the request.
    const intent = audit ? await this.writeAhead(audit, d, o, bodyText, started) : undefined;
    if (o.beforeSend)
      try {
        await o.beforeSend();
      } catch (e) {
        if (audit && intent) await audit.withdraw(intent).catch(() => undefined);
        throw e;
      }
    if (write && this.opts.observeSend) this.opts.observeSend(this.exchangeRequest(d, bodyText, started));
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
      const err = e as { name?: string; message?: string; code?: unknown };
      const error = {
        name: err?.name ?? 'Error',
        message: redact(err?.message ?? String(e)),
        ...(typeof err?.code === 'string' ? { code: err.code } : {}),
      };
      if (observe) observe({ ...this.exchangeRequest(d, bodyText, started), ms: Date.now() - started, error });
      // Say what to check: the server, and which setting of which profile points at it.
      if (e instanceof NetworkError && e.code !== 'ABORTED') {
        e.details.push(
          `Check that the ${party === 'practice' ? 'practice system' : 'portal'} is running and the ${party} base URL of profile "${this.profile.name}".`,
        );
        e.hint({ kind: 'profile', profile: this.profile.name, setting: `${party}.baseUrl` });
      }
      // A write that got no answer (or was abandoned) is completed too, with the error.
      if (audit && intent)
        await this.complete(audit, intent, o, { error, ms: Date.now() - started })?.catch((ae: unknown) => {
          if (e instanceof PdeskError) e.details.push(`It could not be recorded in the audit trail: ${(ae as Error).message}`);
        });
      throw e;
    }
    if (audit && intent) {
      // try/catch rather than .catch(): no handler made per answered write (a bulk send makes thousands a second).
      try {
        // A write answered 3xx was not done: its record says so beside the status (decisions.md §15); a create's
        // record names the id the server gave it (decisions.md §16).
        const durable = isRedirect(res.status)
          ? this.complete(audit, intent, o, redirectRecord(res))
          : this.complete(audit, intent, o, res, answeredId(d.method, res, !o.statusOnly));
        if (durable) await durable;
      } catch (ae) {
        throw new PdeskError(
          `${d.op ? `${d.op} was sent` : 'The request was sent'} and answered ${statusLine(res.status)}, but it could not be recorded in the audit trail.`,
          ExitCode.unexpected,
          [(ae as Error).message, `request: ${d.method} ${redact(d.url)}`],
        );
      }
    }
    if (observe)
      observe({
        ...this.exchangeRequest(d, bodyText, started),
        ms: res.ms,
        attempts: res.attempts,
        status: res.status,
        responseHeaders: redactHeaders(res.headers),
        responseBody: redact(res.text),
      });
    log?.(
      `← ${statusLine(res.status)} (${res.ms} ms, ${kB(Buffer.byteLength(res.text))}${res.attempts > 1 ? `, ${res.attempts} attempts` : ''})`,
    );
    this.answered = d;
    // A redirect is never the answer: a GET may follow it (src/core/redirect.ts), anything else stops here.
    if (isRedirect(res.status)) return this.redirected(d, res, o);
    if (o.statusOnly && res.status < 400) {
      if (!looksLikeJson(res.text)) throw notJson(res);
      return { status: res.status, headers: res.headers, body: undefined };
    }
    // Bounded (src/core/json.ts): nested at most MAX_READ_DEPTH levels, integers beyond 2^53 kept as their digits.
    const read = res.text.trim() !== '' ? readJson(res.text) : undefined;
    const parsed = read?.ok === true;
    const body = parsed ? read.value : undefined;
    if (res.status >= 400) {
      const outcome = parsed ? asOutcome(body) : undefined;
      const err = new HttpError(res.status, {
        op: d.op,
        method: d.method,
        url: redact(d.url),
        outcome,
        bodyExcerpt: outcome ? undefined : res.text.trim() ? excerpt(redact(res.text)) : undefined,
      });
      // A Retry-After pdesk did not wait for (longer than it waits, or on a request it does not retry): say when.
      const after = retryAfterMs(res.headers['retry-after']);
      err.retryAfterMs = after;
      if (after !== undefined)
        err.details.splice(err.details.length - 1, 0, `The server asks to try again in ${Math.ceil(after / 1000)} s.`);
      // A server may echo a credential back ("invalid token abc…"): every line of the error is redacted here,
      // so no face of pdesk (CLI, TUI) can show it.
      for (const [i, line] of err.details.entries()) err.details[i] = redact(line);
      throw err;
    }
    if (read && !read.ok) {
      if (read.problem.kind === 'syntax') throw notJson(res);
      throw new ContractError(read.problem.path, describeJsonProblem(read.problem), [
        `request: ${d.op ? `${d.op} ` : ''}${d.method} ${redact(d.url)}`,
      ]);
    }
    const result: ApiResult = { status: res.status, headers: res.headers, body, bytes: Buffer.byteLength(res.text) };
    if (o.hops?.length) result.redirects = o.hops;
    return result;
  }

  /** A 3xx: the next request of a GET that may follow it, or the RedirectError that ends the call. */
  private redirected(
    d: Outgoing,
    res: import('./transport.js').RawResponse,
    o: Parameters<PdeskClient['exchange']>[1],
  ): Promise<ApiResult> {
    const hops = o.hops ?? [];
    const next = followRedirect(this.profile, d, res, hops, (op, method, url) => this.what(op, method, url));
    this.opts.log?.(`↪ following ${statusLine(res.status)} to ${redact(next.url)}`);
    return this.exchange({ ...d, url: next.url, headers: next.headers }, { ...o, hops: [...hops, next.hop] });
  }

  /**
   * A write's audit intent, on disk before its request leaves: the caller's (written ahead), or one written now. A
   * trail that cannot take it stops the write: nothing is sent.
   */
  private async writeAhead(
    audit: import('./audit.js').AuditTrail,
    d: Outgoing,
    o: Pick<CallOptions, 'intent' | 'json'>,
    bodyText: string | undefined,
    startedAt: number,
  ): Promise<import('./audit.js').AuditIntentLike> {
    try {
      const intent =
        o.intent ??
        audit.begin({
          op: d.op,
          method: d.method,
          url: d.url,
          headers: d.headers,
          bodyText,
          bodyIsJson: o.json !== undefined || typeof d.body !== 'string',
          startedAt,
        });
      if (!intent.done) await intent.durable;
      return intent;
    } catch (e) {
      // A new error: the trail's own failure is shared by every write that meets it.
      const notSent = `${d.op ? `${d.op} was` : 'The request was'} not sent: every write is recorded in the audit trail before it is sent.`;
      if (e instanceof PdeskError) throw new PdeskError(e.message, e.exitCode, [...e.details, notSent], { cause: e });
      throw new PdeskError(`Cannot write the audit trail ${audit.path} (${(e as Error).message}).`, ExitCode.unexpected, [notSent]);
    }
  }

  /**
   * Complete a write's audit intent with its outcome (an answer's status, or the error of none): on disk before the
   * call returns, or handed to `o.audited` (then this returns nothing to wait for). `ended` is the answer itself
   * (no object made per answered write), or the error of none.
   */
  private complete(
    audit: import('./audit.js').AuditTrail,
    intent: import('./audit.js').AuditIntentLike,
    o: Pick<CallOptions, 'audited'>,
    ended: { ms: number; status?: number; error?: Exchange['error'] },
    created?: string,
  ): Promise<void> | undefined {
    const durable = audit.complete(intent, ended, created);
    if (!o.audited) return durable;
    o.audited(durable);
    return undefined;
  }

  /**
   * Write ahead the audit intents of a bulk send's requests of `opId` (sent later with `call(opId, {json, intent})`):
   * a function making the intent of a request with that body, or undefined without an audit trail. The trail is
   * opened now and shares fsyncs from now on (AuditLog.groupCommit).
   */
  async aheadIntents(opId: OpId): Promise<((json: string) => import('./audit.js').AuditIntentLike) | undefined> {
    const opened = this.audit();
    if (!opened) return undefined;
    const audit = await opened;
    await audit.ready();
    audit.groupCommit();
    const d = await this.outgoing(opId, { json: '' }, true, 1);
    return (json) =>
      audit.begin(
        { op: opId, method: d.method, url: d.url, headers: d.headers, bodyText: json, bodyIsJson: true, startedAt: Date.now() },
        { ahead: true },
      );
  }

  /** The request half of an Exchange, redacted. */
  private exchangeRequest(d: Outgoing, bodyText: string | undefined, started: number) {
    return {
      ...(d.op ? { op: d.op } : {}),
      party: d.party,
      method: d.method,
      url: redact(d.url),
      requestHeaders: redactHeaders(d.headers),
      ...(bodyText === undefined ? {} : { requestBody: redact(bodyText) }),
      startedAt: new Date(started).toISOString(),
    };
  }

  async close(): Promise<void> {
    await this.transport.close();
    const audit = this.auditLog;
    this.auditLog = undefined;
    this.auditOpened = undefined;
    if (audit) await (await audit.catch(() => undefined))?.close();
  }
}

/** The most pages one list reads by default (the profile's `limits.pages`), whatever --limit says. */
export const MAX_PAGES = DEFAULT_LIMITS.pages;
/** Empty pages in a row, each with a `next` link, after which a server is taken to page without end (exit 6). */
export const MAX_EMPTY_PAGES = 10;

export interface PageBounds {
  maxPages?: number;
  maxEmptyPages?: number;
}

/** `12 resources read on 2 pages`. */
function readSoFar(resources: number, pages: number): string {
  return `${resources} resource${resources === 1 ? '' : 's'} read on ${pages} page${pages === 1 ? '' : 's'}`;
}

/**
 * Read every page of a list until `limit` resources (0 = no limit), parsing each page with `parsePage`. Pages are
 * bounded as well as resources: a `next` link seen before ends the list; a server that keeps sending `next` links
 * (empty pages) is a ContractError naming how many pages it sent; the profile's read bounds (`limits.pages`,
 * `limits.readMB`, src/core/bounds.ts) and a `next` link pdesk may not follow (src/core/paging.ts) are an
 * IncompleteListError. An answer that breaks the interface names the request of its page.
 */
export async function readPages<T>(
  client: PdeskClient,
  opId: OpId,
  first: CallOptions,
  parsePage: (body: unknown) => { items: T[]; next?: string },
  limit = DEFAULT_LIMIT,
  bounds: PageBounds = {},
): Promise<T[]> {
  const maxEmpty = bounds.maxEmptyPages ?? MAX_EMPTY_PAGES;
  const budget = client.opts?.readBudget ?? ReadBudget.of(client.profile, { maxPages: bounds.maxPages });
  const out: T[] = [];
  let res: ApiResult | undefined = await client.call(opId, first);
  const seen = new Set<string>();
  let pages = 0;
  let emptyInARow = 0;
  while (res) {
    pages += 1;
    budget.count(res.bytes);
    let page: { items: T[]; next?: string };
    try {
      page = parsePage(res.body);
    } catch (e) {
      const at = client.lastAnswered;
      if (e instanceof ContractError && at)
        e.details.push(`request: ${at.op ? `${at.op} ` : ''}${at.method} ${at.url}${pages > 1 ? ` (page ${pages})` : ''}`);
      throw e;
    }
    for (const item of page.items) {
      if (limit > 0 && out.length >= limit) return out;
      out.push(item);
    }
    if (!page.next || (limit > 0 && out.length >= limit) || seen.has(page.next)) break;
    emptyInARow = page.items.length ? 0 : emptyInARow + 1;
    if (emptyInARow >= maxEmpty)
      throw new ContractError(
        '$.link',
        `the server sent ${emptyInARow} empty pages in a row, each with a new next link (it pages without end)`,
        [`${pages} pages read; ${out.length} resources so far. Nothing more was asked for.`],
      );
    budget.next(readSoFar(out.length, pages));
    seen.add(page.next);
    try {
      res = await client.next(opId, page.next, { signal: first.signal });
    } catch (e) {
      if (e instanceof IncompleteListError) e.details.unshift(`${readSoFar(out.length, pages)}; the rest were not asked for.`);
      throw e;
    }
  }
  return out;
}
