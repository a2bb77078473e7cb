/**
 * How a bulk send's rows reach the wire: one operation without parameters (C5), sent again and again with another
 * body, through the client's layers (read-only, confirmation, audit, trace, verbose: src/core/client.ts) and its
 * transport, without the work a single call does per request that a row does not need:
 *
 * - the request (route, headers, auth) is resolved once, and again per row only for an OAuth2 token, which expires;
 * - what a confirmation is told is built only if the face reads it, and where it goes once (`PendingWrite`): the
 *   CLI's hook reads nothing once the run is confirmed;
 * - the rows' audit intents are written ahead, with their journal lines (`intents`), and each row's completion is
 *   handed over at its answer (`audited`), so the request slot is free before the record is on disk;
 * - a success answer is not parsed: its status is all a row records (an error's body is read for its
 *   OperationOutcome).
 */
import type { AuditIntentLike } from '../audit.js';
import type { PdeskClient } from '../client.js';
import { httpError, notJson } from '../client/answer.js';
import { describeRequest, splitUrl, what } from '../client/describe.js';
import type { Outgoing, RequestDescription, WriteDescription } from '../client/layer.js';
import type { OpId } from '../ops.js';
import { RedirectError } from '../errors.js';
import { redact } from '../redact.js';
import { followRedirect, isRedirect } from '../redirect.js';

/** Empty, or an object or array by its first and last characters: JSON as far as a status-only reader checks. */
function looksLikeJson(text: string): boolean {
  const t = text.trim();
  if (t === '') return true;
  const a = t[0];
  const z = t[t.length - 1];
  return (a === '{' && z === '}') || (a === '[' && z === ']');
}

/**
 * A row's write as a confirmation sees it, built when read: `what` and `target` are the run's, made once. Getters on
 * the class, not on each object: an object literal with getters of its own, made per row, outlives V8's young
 * generation.
 */
class PendingWrite implements WriteDescription {
  constructor(
    private readonly req: Outgoing,
    readonly what: string,
    readonly target: string,
  ) {}
  get request(): RequestDescription {
    return describeRequest(this.req);
  }
  get signal(): AbortSignal | undefined {
    return this.req.signal;
  }
}

export class BulkSender {
  private constructor(
    private readonly client: PdeskClient,
    private readonly op: OpId,
    /** The request without its body; resolved again per row when its auth cannot be kept (an OAuth2 token). */
    private readonly kept: Outgoing | undefined,
    private readonly what: string,
    private readonly target: string,
  ) {}

  /** A sender of `op` through `client`; the request is resolved now (which may read a token). */
  static async open(client: PdeskClient, op: OpId): Promise<BulkSender> {
    const req = await client.request(op, {}, true);
    const auth = (req.party === 'practice' ? client.profile.practice : client.profile.portal).auth;
    const keep = auth?.type !== 'oauth2-client-credentials';
    return new BulkSender(
      client,
      op,
      keep ? req : undefined,
      what(client.profile, op, req.method, req.url),
      splitUrl(client.profile, req.url).base,
    );
  }

  /**
   * Send one row's body (JSON text); throws as the client does (HttpError, NetworkError, RedirectError…). `audited`
   * receives the durability of its audit record; `intent` is its intent written ahead (`intents`).
   */
  async send(json: string, audited: (durable: Promise<void>) => void, intent?: AuditIntentLike): Promise<{ status: number }> {
    const base = this.kept ?? (await this.client.request(this.op, {}, true));
    // Every field written out, in one shape for every row (a spread per row costs more than the rest of this).
    const req: Outgoing = {
      op: base.op,
      party: base.party,
      method: base.method,
      url: base.url,
      headers: base.headers,
      body: json,
      json: true,
      signal: base.signal,
      intent,
      audited,
      statusOnly: true,
      write: undefined,
    };
    req.write = new PendingWrite(req, this.what, this.target);
    const res = await this.client.dispatch(req);
    if (isRedirect(res.status)) {
      // A write is never sent again (followRedirect throws for any method but GET); its audit record says so.
      followRedirect(this.client.profile, req, res, [], (op, method, url) => what(this.client.profile, op, method, url));
      throw new RedirectError(`${this.what} was redirected: a bulk send follows no redirect.`, res.status, res.headers.location);
    }
    if (res.status >= 400) throw httpError(req, res);
    if (!looksLikeJson(res.text)) throw notJson(res, { op: this.op, method: req.method, url: redact(req.url) });
    return { status: res.status };
  }

  /**
   * The audit intents of this run's requests, written ahead (a function making the intent of a row's body), or
   * undefined without an audit trail. The trail is opened now and shares its fsyncs from now on (group commit).
   */
  async intents(): Promise<((json: string) => AuditIntentLike) | undefined> {
    const opened = this.client.auditTrail();
    if (!opened) return undefined;
    const trail = await opened;
    trail.groupCommit();
    const req = this.kept ?? (await this.client.request(this.op, {}, true));
    return (json) =>
      trail.begin(
        { op: this.op, method: req.method, url: req.url, headers: req.headers, bodyText: json, bodyIsJson: true, startedAt: Date.now() },
        { ahead: true },
      );
  }

  /** Write the audit records appended so far now: before each journal write, so no row's outcome precedes its record. */
  flushAudit(): void {
    this.client.flushAudit();
  }
}
