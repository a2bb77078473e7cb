/**
 * The client every face of pdesk uses to send one request. A call resolves the operation's route, headers and auth
 * (client/request.ts), then passes the layers, outermost first, each in its own module:
 *
 * 1. redirects (client/redirects.ts): a GET answered 3xx is asked again where it points, when it may follow;
 * 2. dry run (client/dry-run.ts, `dryRun`): the request is handed to the face and nothing is sent;
 * 3. read-only (client/read-only.ts, the profile's `readOnly` or `readOnly`): anything but GET is refused;
 * 4. confirmation (client/production.ts, `beforeWrite`): every write is confirmed by the face first; a production
 *    profile without a hook sends no write;
 * 5. audit (client/audit.ts, `audit`): every write recorded write-ahead in the desk's audit trail; without one,
 *    the caller's `beforeSend` still runs just before the request leaves (beforeSendLayer);
 * 6. trace (client/trace.ts, `observe`, `observeSend`): every exchange handed over, secrets redacted;
 * 7. verbose (client/verbose.ts, `log`): a line per request and per answer;
 *
 * then the transport (src/core/transport.ts: deadlines, retries of idempotent requests, the size bound). Its answer
 * is read last (client/answer.ts): the JSON body, or the HttpError or ContractError it is. A layer whose option is
 * not set is not there at all. A bulk send sends through the same layers but redirects (`dispatch`), with its own
 * request (core/bulk/sender.ts).
 */
import { type ReadBudget, responseBytes } from './bounds.js';
import { type ApiResult, readAnswer } from './client/answer.js';
import { ClientAudit, type AuditSetting } from './client/audit.js';
import { dryRunLayer } from './client/dry-run.js';
import { type Answer, type Outgoing, type RequestDescription, type Send, beforeSendLayer, compose } from './client/layer.js';
import { type ConfirmWrite, confirmationLayer } from './client/production.js';
import { readOnlyLayer, refusal } from './client/read-only.js';
import { redirectLayer } from './client/redirects.js';
import { PartyTls, requestHeaders } from './client/request.js';
import { type TraceHooks, traceLayer } from './client/trace.js';
import { verboseLayer } from './client/verbose.js';
import type { AuditTrail } from './audit.js';
import { type ConfigError, NetworkError } from './errors.js';
import { FHIR_JSON, OPS, type OpId, type Party } from './ops.js';
import { nextPageUrl } from './paging.js';
import type { Profile } from './profile/schema.js';
import { baseUrlFor, headersFor, resolveRoute } from './routes.js';
import { createTransport } from './transport-default.js';
import type { Transport } from './transport.js';

export type { ApiResult } from './client/answer.js';
export type { Outgoing, RequestDescription, WriteDescription } from './client/layer.js';
export type { Exchange, ExchangeStart } from './client/trace.js';

export interface CallOptions {
  params?: Record<string, string>;
  query?: ReadonlyArray<readonly [string, string]>;
  /** The body: sent as JSON, or as is when it is a string. */
  body?: unknown;
  /** A read a write depends on (M2 before M3): sent even under a dry run, since it changes nothing. */
  readForWrite?: boolean;
  /**
   * GET the operation's URL instead of sending its method (C4 under the r4 dialect reads the Encounter it is about to
   * replace: decisions.md §16); with `readForWrite` it is made under a dry run too.
   */
  asRead?: boolean;
  /** Headers for this request only (`If-Match`), over the profile's. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Outgoing.beforeSend: called once the write's audit intent is on disk, just before it leaves. */
  beforeSend?: () => Promise<void> | void;
}

export interface ClientOptions extends TraceHooks {
  dryRun?: boolean;
  /** In a dry run: receives each request that would have been sent (redacted), before DryRunStop is thrown. */
  onDryRun?: (request: RequestDescription) => void;
  log?: (line: string) => void;
  transport?: Transport;
  signal?: AbortSignal;
  /** Send GET only (ConfigError, exit 3, for anything else); a profile's `readOnly` does the same whatever this says. */
  readOnly?: boolean;
  /** Why the client is read-only when the profile is not (`--read-only`), for the refusal's sentence. */
  readOnlyWhy?: string;
  /** Record every write in the audit trail of the desk whose config folder is `dir` (client/audit.ts). */
  audit?: AuditSetting;
  /** The face's confirmation of a write (client/production.ts). */
  beforeWrite?: ConfirmWrite;
  /** Where the variables a profile names (tokenEnv, passwordEnv, clientSecretEnv) are read; the process's by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Connections per origin (default 64). A bulk send sets its concurrency: undici's pool otherwise opens a new
   * connection whenever a request is handed over in the instant before an answered one frees its connection.
   */
  connections?: number;
  /**
   * One read budget (bytes and pages, src/core/bounds.ts) for every list this client reads, as a `check` run has;
   * by default each list gets its own from the profile's `limits`.
   */
  readBudget?: ReadBudget;
}

export class PdeskClient {
  readonly transport: Transport;
  private readonly tls: PartyTls;
  private readonly audit?: ClientAudit;
  /** The layers below redirects around the transport, composed once, and all of them. */
  private readonly inner: Send;
  private readonly send: Send;
  /** The most bytes one answer may have: the profile's, also on a transport another client made. */
  private readonly maxResponseBytes: number;

  constructor(
    readonly profile: Profile,
    readonly opts: ClientOptions = {},
  ) {
    this.maxResponseBytes = responseBytes(profile);
    this.transport =
      opts.transport ??
      createTransport({
        connectMs: profile.timeouts?.connectMs,
        requestMs: profile.timeouts?.requestMs,
        retriesMax: profile.retries?.max,
        log: opts.log,
        connections: opts.connections,
        maxResponseBytes: this.maxResponseBytes,
      });
    this.tls = new PartyTls(profile);
    this.audit = opts.audit && new ClientAudit(profile, opts.audit, opts.env ?? process.env);
    this.inner = compose(
      [
        opts.dryRun ? dryRunLayer(opts.onDryRun) : undefined,
        this.readOnly ? readOnlyLayer(profile, opts.readOnlyWhy) : undefined,
        confirmationLayer(profile, opts.beforeWrite),
        this.audit?.layer ?? beforeSendLayer,
        traceLayer(opts),
        verboseLayer(opts.log),
      ],
      (req) => this.transmit(req),
    );
    this.send = redirectLayer(profile, opts.log)(this.inner);
  }

  /** True when only GET is sent: the profile is `readOnly`, or the client was made read-only (`--read-only`). */
  get readOnly(): boolean {
    return !!(this.opts.readOnly || this.profile.readOnly);
  }

  /** Send one interface operation and read its answer. */
  async call(opId: OpId, o: CallOptions = {}): Promise<ApiResult> {
    return this.answer(await this.request(opId, o));
  }

  /**
   * An operation's request, its route, headers and auth resolved, for `dispatch`; `withBody`: the content type of a
   * body is set (a caller that adds the body itself).
   */
  async request(opId: OpId, o: CallOptions = {}, withBody = o.body !== undefined): Promise<Outgoing> {
    const route = resolveRoute(this.profile, opId, o.params, o.query);
    const method = o.asRead ? 'GET' : route.method;
    const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    const headers = await requestHeaders(this.profile, route.party, o.headers ? { ...route.headers, ...o.headers } : route.headers, {
      contentType: withBody ? (route.contentType ?? FHIR_JSON) : undefined,
      offline: !this.willSend(method, o.readForWrite),
      tls: this.tls,
      env: this.opts.env,
    });
    return {
      op: opId,
      party: route.party,
      method,
      url: route.url,
      headers,
      ...(body === undefined ? {} : { body, json: typeof o.body !== 'string' }),
      ...(o.readForWrite ? { readForWrite: true } : {}),
      signal: o.signal ?? this.opts.signal,
      ...(o.beforeSend ? { beforeSend: o.beforeSend } : {}),
    };
  }

  /**
   * A write through every layer but redirects, and the transport, for a caller that reads its answer itself (a bulk
   * send's rows): a 3xx comes back as it is, and a write is never sent again (src/core/redirect.ts).
   */
  dispatch(req: Outgoing): Promise<Answer> {
    return this.inner(req);
  }

  /** `pdesk api`: any method and path under a party's base URL, with the profile's auth and headers. */
  async raw(method: string, party: Party, path: string, body?: unknown, o: { signal?: AbortSignal } = {}): Promise<ApiResult> {
    const url = /^https?:\/\//.test(path) ? path : `${baseUrlFor(this.profile, party)}${path.startsWith('/') ? '' : '/'}${path}`;
    const m = method.toUpperCase();
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers = await requestHeaders(this.profile, party, headersFor(this.profile, party), {
      contentType: body !== undefined ? FHIR_JSON : undefined,
      offline: !this.willSend(m),
      tls: this.tls,
      env: this.opts.env,
    });
    const req: Outgoing = {
      party,
      method: m,
      url,
      headers,
      ...(text === undefined ? {} : { body: text, json: typeof body !== 'string' }),
      signal: o.signal ?? this.opts.signal,
    };
    return this.answer(req);
  }

  /**
   * Follow a Bundle `next` link, on the API's own origin (src/core/paging.ts): a link on another origin is asked on
   * the profile's origin when `paging.rewriteOrigin` allows it, else an IncompleteListError (exit 6).
   */
  async next(opId: OpId, url: string, o: { signal?: AbortSignal } = {}): Promise<ApiResult> {
    const route = resolveRoute(this.profile, opId);
    const target = nextPageUrl(this.profile, baseUrlFor(this.profile, route.party, OPS[opId].api), route.url, url, this.opts.log);
    const headers = await requestHeaders(this.profile, route.party, route.headers, { tls: this.tls, env: this.opts.env });
    const req: Outgoing = { op: opId, party: route.party, method: 'GET', url: target, headers, signal: o.signal ?? this.opts.signal };
    return this.answer(req);
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
    return refusal(this.profile, this.opts.readOnlyWhy, op, method, url);
  }

  /** The audit trail writes are recorded in, opened now (undefined without `audit`): a bulk send writes intents ahead. */
  auditTrail(): Promise<AuditTrail> | undefined {
    return this.audit?.trail();
  }

  /** Write the audit records appended so far now, rather than at the end of the event-loop turn. */
  flushAudit(): void {
    this.audit?.flush();
  }

  async close(): Promise<void> {
    await this.transport.close();
    await this.audit?.close();
  }

  /** Whether a request will be sent (not in a dry run but for a read a write needs; not a write refused as read-only). */
  private willSend(method: string, readForWrite?: boolean): boolean {
    return (!this.opts.dryRun || (!!readForWrite && method === 'GET')) && !(this.readOnly && method !== 'GET');
  }

  /** The transport, under the profile's size bound and the party's TLS files. */
  private transmit(req: Outgoing): Promise<Answer> {
    return this.transport.request({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: req.body,
      tls: this.tls.of(req.party),
      signal: req.signal,
      maxResponseBytes: this.maxResponseBytes,
    });
  }

  /** A request through every layer, its answer read; a server that cannot be reached: what to check. */
  private async answer(req: Outgoing): Promise<ApiResult> {
    try {
      return readAnswer(req, await this.send(req));
    } catch (e) {
      if (e instanceof NetworkError && e.code !== 'ABORTED') {
        e.details.push(
          `Check that the ${req.party === 'practice' ? 'practice system' : 'portal'} is running and the ${req.party} base URL of profile "${this.profile.name}".`,
        );
        e.hint({ kind: 'profile', profile: this.profile.name, setting: `${req.party}.baseUrl` });
      }
      throw e;
    }
  }
}
