/**
 * The audit layer: every write (any method but GET, HEAD, OPTIONS) is recorded in the desk's audit trail
 * (src/core/audit.ts: its file, or the team store's table), write-ahead (decisions.md §15). The trail is opened at
 * the first write (a trail that cannot be opened sends nothing); the write's intent is on disk before the request
 * leaves (then the caller's `beforeSend`), and is completed with the answer's status (a 3xx as not done; a create's
 * record with the id the server gave it, decisions.md §16) or the error of none, before the request returns, or
 * handed to the caller (`audited`).
 */
import type { AuditIntentLike, AuditTrail } from '../audit.js';
import { answeredId } from '../created.js';
import { ExitCode, PdeskError, statusLine } from '../errors.js';
import type { Profile } from '../profile/schema.js';
import { redact } from '../redact.js';
import { isRedirect } from '../redirect.js';
import type { DeskStore } from '../store/types.js';
import { type Layer, type Outgoing, errorOf, isWrite } from './layer.js';

/** Where a client records its writes: the desk whose config folder is `dir` (`store`: the desk store a face opened). */
export interface AuditSetting {
  dir: string;
  store?: () => Promise<DeskStore>;
}

/** A write's outcome as its record completes it. */
type Ended = { ms: number; status?: number; error?: { name: string; message: string; code?: string } };

/** The audit record of a write answered 3xx: its status, and why it was not done. */
function redirectRecord(res: { ms: number; status: number; headers: Record<string, string> }): Ended {
  const to = res.headers.location;
  return {
    ms: res.ms,
    status: res.status,
    error: { name: 'RedirectError', code: 'REDIRECT', message: `redirected${to ? ` to ${redact(to)}` : ''}; not sent again, not done` },
  };
}

/** A client's audit trail, opened at its first write, and the layer that records every write in it. */
export class ClientAudit {
  private opening?: Promise<AuditTrail>;
  /** The trail once open: later writes skip the awaits (a bulk send writes thousands a second). */
  private opened?: AuditTrail;

  constructor(
    private readonly profile: Profile,
    private readonly setting: AuditSetting,
    private readonly env: Readonly<Record<string, string | undefined>>,
  ) {}

  /** The trail, opened (and ready) on first use; one that cannot be opened fails this write and is tried again by the next. */
  async trail(): Promise<AuditTrail> {
    if (this.opened) return this.opened;
    const { dir, store } = this.setting;
    // Loaded on the first write only: read commands never load it.
    this.opening ??= import('../store/audit.js').then(({ openAuditTrail }) => openAuditTrail(dir, this.profile, this.env, store));
    const opening = this.opening;
    let trail: AuditTrail | undefined;
    try {
      trail = await opening;
      await trail.ready();
      this.opened = trail;
      return trail;
    } catch (e) {
      if (this.opening === opening) this.opening = undefined;
      await trail?.close().catch(() => undefined);
      throw e;
    }
  }

  /** Write the records appended so far now, rather than at the end of the event-loop turn. */
  flush(): void {
    this.opened?.flush();
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    this.opened = undefined;
    if (opening) await (await opening.catch(() => undefined))?.close();
  }

  readonly layer: Layer = (next) => async (req) => {
    if (!isWrite(req.method)) return next(req);
    const trail = this.opened ?? (await this.trail());
    const started = Date.now();
    const ahead = writeAhead(trail, req, started);
    const intent = ahead instanceof Promise ? await ahead : ahead;
    if (req.beforeSend)
      try {
        await req.beforeSend();
      } catch (e) {
        await trail.withdraw(intent).catch(() => undefined);
        throw e;
      }
    let res: Awaited<ReturnType<typeof next>>;
    try {
      res = await next(req);
    } catch (e) {
      // A write that got no answer (or was abandoned) is completed too, with the error.
      await complete(trail, intent, req, { error: errorOf(e), ms: Date.now() - started })?.catch((ae: unknown) => {
        if (e instanceof PdeskError) e.details.push(`It could not be recorded in the audit trail: ${(ae as Error).message}`);
      });
      throw e;
    }
    // try/catch rather than .catch(): no handler made per answered write.
    try {
      const durable = isRedirect(res.status)
        ? complete(trail, intent, req, redirectRecord(res))
        : complete(trail, intent, req, res, answeredId(req.method, res, !req.statusOnly));
      if (durable) await durable;
    } catch (ae) {
      throw new PdeskError(
        `${req.op ? `${req.op} was sent` : 'The request was sent'} and answered ${statusLine(res.status)}, but it could not be recorded in the audit trail.`,
        ExitCode.unexpected,
        [(ae as Error).message, `request: ${req.method} ${redact(req.url)}`],
      );
    }
    return res;
  };
}

/**
 * A write's audit intent, on disk before its request leaves: the caller's (written ahead), or one written now. A
 * trail that cannot take it stops the write: nothing is sent.
 */
function writeAhead(trail: AuditTrail, req: Outgoing, startedAt: number): AuditIntentLike | Promise<AuditIntentLike> {
  let intent: AuditIntentLike;
  try {
    intent =
      req.intent ??
      trail.begin({
        op: req.op,
        method: req.method,
        url: req.url,
        headers: req.headers,
        bodyText: req.body,
        bodyIsJson: !!req.json,
        startedAt,
      });
  } catch (e) {
    throw notWritten(trail, req, e);
  }
  // On disk already (a bulk row's intent, written ahead): no promise.
  if (intent.done) return intent;
  return intent.durable.then(
    () => intent,
    (e: unknown) => {
      throw notWritten(trail, req, e);
    },
  );
}

/** A trail that could not take a write's intent: a new error (the trail's own failure is shared by every write). */
function notWritten(trail: AuditTrail, req: Outgoing, e: unknown): PdeskError {
  const notSent = `${req.op ? `${req.op} was` : 'The request was'} not sent: every write is recorded in the audit trail before it is sent.`;
  if (e instanceof PdeskError) return new PdeskError(e.message, e.exitCode, [...e.details, notSent], { cause: e });
  return new PdeskError(`Cannot write the audit trail ${trail.path} (${(e as Error).message}).`, ExitCode.unexpected, [notSent]);
}

/**
 * Complete a write's intent with its outcome: on disk before the request returns, or handed to `req.audited` (then
 * this returns nothing to wait for). `ended` is the answer itself (no object made per answered write), or the error.
 */
function complete(trail: AuditTrail, intent: AuditIntentLike, req: Outgoing, ended: Ended, created?: string): Promise<void> | undefined {
  const durable = trail.complete(intent, ended, created);
  if (!req.audited) return durable;
  req.audited(durable);
  return undefined;
}
