/**
 * The write audit trail: every request pdesk sends other than GET, HEAD and OPTIONS (A6, A7, C1–C5, M3, `pdesk api`
 * writes, bulk sends, `check --write`), in `audit/<profile>.ndjson` in the config folder (mode 0600, folder 0700),
 * written by the client where it sends (src/core/client.ts), so every face is covered.
 *
 * Write-ahead (decisions.md §15): a write's record is written and fsynced *before* its request leaves (its
 * intent: time, user, profile, operation, method, URL, body hash and body), and completed after it with a second
 * line naming the same record id (the status, or the error when there was no answer, and the duration), fsynced
 * before the call returns to its caller. A process killed in between leaves an intent without its completion,
 * which `readAudit` reports as `outcome: "unknown"` (`pdesk audit`: "outcome unknown"): the request may or may not
 * have reached the server.
 *
 * A bulk send writes its rows' intents ahead, with the rows' `sending` journal lines (group commit, off the request
 * path), marked `ahead`; each gets a `started` line in the write that precedes its request (src/core/bulk/). An
 * ahead intent with neither `started` nor completion was never sent when it was written since the machine last
 * booted (a killed process loses nothing it wrote; its run line names the boot), and is left out; from an earlier
 * boot its outcome is unknown. A process opens the trail with a run line (`run`, `boot`, `pid`), and record ids are
 * `<run>.<n>`.
 *
 * Lines go out at the end of the event-loop turn, in one O_APPEND write with the others of that turn, so several
 * processes (a TUI and a command) can share the file; fsyncs are shared (group commit: src/core/durable-log.ts, the
 * bulk journal's log too). A crash mid-write leaves a torn last line: readers skip it with a warning
 * (src/core/ndjson.ts), and the next writer ends it first. Records written before write-ahead (one line, no id)
 * are read as they are.
 *
 * A record: time (the request's start), the operator (src/core/operator.ts), profile, environment, operation id,
 * method, URL, status or error, duration, a SHA-256 of the exact bytes sent, and the body with secrets redacted
 * (the registered secrets of src/core/redact.ts and the credential headers of the request); the profile's
 * `audit.bodies: false` leaves the body out (the hash stays).
 *
 * With a team store (decisions.md §17) the same records go to its `audit` table instead, through the same
 * interface (`AuditTrail`; src/core/store/audit.ts): `openAuditTrail` there picks the one the desk uses.
 */
import { hash, randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { Profile } from './profile/schema.js';
import { type Batch, DurableLog, bootId } from './durable-log.js';
import { ConfigError } from './errors.js';
import { isoTime } from './iso-time.js';
import { readNdjson } from './ndjson.js';
import type { OpId } from './ops.js';
import { REDACTED, isSecretHeader, redact } from './redact.js';

export interface AuditRecord {
  /** ISO 8601 instant the request started. */
  at: string;
  /** The operator who sent it: PDESK_OPERATOR, else `operator` in config.json, else the login name. */
  user: string;
  profile: string;
  environment?: string;
  op?: OpId;
  method: string;
  /** Secrets redacted. */
  url: string;
  /** The answer's status; absent when there was none (see `error`) or the outcome is unknown. */
  status?: number;
  /** The id the server gave what a POST created (its answer's body, else its `Location`): decisions.md §16. */
  id?: string;
  /** Why there is no answer: a network error, a time-out, the operator abandoned it. */
  error?: { name: string; message: string; code?: string };
  /**
   * `unknown`: the record was written before the request left, and nothing after it: the process ended while the
   * request was (or was about to be) on its way, and it may or may not have reached the server.
   */
  outcome?: 'unknown';
  /** Whole time, retries included; absent when the outcome is unknown. */
  ms?: number;
  /** SHA-256 (hex) of the body's bytes as sent; absent when no body was sent. */
  bodySha256?: string;
  /** The body sent, secrets redacted (JSON as sent, else text); absent under `audit.bodies: false`. */
  body?: unknown;
}

/** What the client knows of one write before it sends it: its intent. */
export interface AuditEntry {
  op?: OpId;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The exact text sent, if any. */
  bodyText?: string;
  /** True when `bodyText` is JSON.stringify output (one line): embedded as is, not parsed again. */
  bodyIsJson?: boolean;
  startedAt: number;
}

/** How a write ended: its answer's status, or the error of none, and how long it took. */
export interface AuditEnd {
  ms: number;
  status?: number;
  error?: { name: string; message: string; code?: string };
}

/** A write's intent as a desk store records it (src/core/store/types.ts): the fields of an intent line, as values. */
export interface AuditStart {
  /** The record's key: `<run>.<n>`, unique to the process that began it. */
  key: string;
  profile: string;
  environment?: string;
  /** Who sends it (the record's `user`). */
  operator: string;
  op?: OpId;
  method: string;
  /** Secrets redacted. */
  url: string;
  /** When the request started (ISO 8601). */
  at: string;
  bodySha256?: string;
  /** The body sent, secrets redacted. */
  body?: unknown;
  /** Written ahead of its request (a bulk row): it counts as sent only once started. */
  ahead?: boolean;
}

/** How a write recorded by a desk store ended, with the id a create's answer named (decisions.md §16). */
export interface AuditOutcome extends AuditEnd {
  created?: string;
}

/** What a profile's audit trail needs of the profile. */
export type AuditProfile = Pick<Profile, 'name' | 'environment' | 'audit'>;

/** A write's intent in a trail, until its completion. */
export interface AuditIntentLike {
  readonly id: string;
  /** Resolves once the intent is durable: the request may leave then. */
  readonly durable: Promise<void>;
  /** True once durable (no promise needed). */
  readonly done: boolean;
  readonly ahead: boolean;
  /** A write begun ahead (a bulk row) is about to be sent; a promise when the caller must wait for the mark. */
  start(): void | Promise<void>;
}

/**
 * Where a client records its writes: the config folder's file (`AuditLog`), or the team store's table
 * (src/core/store/audit.ts). Opened before the first write is sent: a trail that cannot be written sends nothing.
 */
export interface AuditTrail {
  /** Where it is, for messages (a file, or the store's URL with its password hidden). */
  readonly path: string;
  readonly isOpen: boolean;
  ready(): Promise<unknown>;
  /** A write's intent, before its request (after `ready()`); throws when the trail has already failed. */
  begin(e: AuditEntry, o?: { ahead?: boolean }): AuditIntentLike;
  /** Complete an intent with its outcome; resolves once durable. */
  complete(intent: AuditIntentLike, end: AuditEnd, created?: string): Promise<void>;
  /** An intent whose request was not sent after all. */
  withdraw(intent: AuditIntentLike): Promise<void>;
  /** A bulk send: records may share their durability (group commit). */
  groupCommit(): void;
  /** Write what was appended so far now. */
  flush(): void;
  close(): Promise<void>;
}

/**
 * Least time between two fsyncs of an audit trail during a bulk send (ms); a command's or the TUI's writes are
 * synced at once. A bulk row's intent is written ahead, within the send's look-ahead (LOOKAHEAD_FACTOR covers this
 * pause), and its completion counts it once on disk while its request slot is already free, so the pause costs no
 * throughput; and each fsync costs the event loop a hand-off to the thread pool (docs/performance.md).
 */
export const AUDIT_SYNC_INTERVAL_MS = 50;

/** The audit trail of a profile in a config folder. */
export function auditPath(dir: string, profile: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(profile)) throw new Error(`Invalid profile name for an audit trail: ${JSON.stringify(profile)}`);
  return join(dir, 'audit', `${profile}.ndjson`);
}

let userCache: string | undefined;
/** The operating-system user: os.userInfo(), else USER / USERNAME, else "unknown". */
export function osUser(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (userCache === undefined) {
    try {
      userCache = userInfo().username;
    } catch {
      userCache = env.USER || env.USERNAME || 'unknown';
    }
  }
  return userCache;
}

/** isSecretHeader, remembered per header name (a bulk send asks it for the same few names on every row). */
const secretHeaders = new Map<string, boolean>();
function secretHeader(name: string): boolean {
  let secret = secretHeaders.get(name);
  if (secret === undefined) {
    secret = isSecretHeader(name);
    if (secretHeaders.size < 256) secretHeaders.set(name, secret);
  }
  return secret;
}

/**
 * A body with secrets replaced: the registered ones, and the credentials of this request's own headers
 * (`Authorization: Bearer <token>` → the token), which are registered as well when pdesk resolved them.
 */
export function redactBody(text: string, headers: Record<string, string>): string {
  let out = redact(text);
  for (const k in headers) {
    if (!secretHeader(k)) continue;
    const v = headers[k]!;
    const value = v.replace(/^\w+\s+/, '');
    if (value.length >= 4 && value !== REDACTED && out.includes(value)) out = out.split(value).join(REDACTED);
  }
  return out;
}

/** The part of a record that is the same for every write of one request line: user, profile, operation, URL. */
let fixed: { profile: AuditProfile; user: string; op?: OpId; method: string; url: string; text: string } | undefined;
function fixedPart(profile: AuditProfile, user: string, op: OpId | undefined, method: string, url: string): string {
  const f = fixed;
  if (f && f.profile === profile && f.user === user && f.op === op && f.method === method && f.url === url) return f.text;
  const text = JSON.stringify({
    user,
    profile: profile.name,
    ...(profile.environment ? { environment: profile.environment } : {}),
    ...(op ? { op } : {}),
    method,
    url,
  }).slice(1, -1);
  fixed = { profile, user, op, method, url, text };
  return text;
}

/** A number as JSON.stringify writes it. */
const num = (n: number) => (Number.isFinite(n) ? String(n) : 'null');

/**
 * The body part of a write's record: the SHA-256 of the exact text sent, and (unless `bodies` is false) the body
 * with secrets redacted as JSON text, ready to embed in a line.
 */
export function bodyParts(e: AuditEntry, bodies: boolean): { bodySha256?: string; json?: string } {
  if (e.bodyText === undefined) return {};
  // crypto.hash: one call, a fifth of createHash's cost; a string is hashed as its UTF-8 bytes, as it was sent.
  const bodySha256 = hash('sha256', e.bodyText);
  if (!bodies) return { bodySha256 };
  const text = redactBody(e.bodyText, e.headers);
  // JSON pdesk stringified is one line (JSON.stringify writes no line break) and stays JSON when a secret inside a
  // string is replaced: embedded as is (no second parse per row in a bulk send). Anything else is checked, and
  // kept as a string if it is not JSON.
  if (e.bodyIsJson && (text === e.bodyText || isJson(text))) return { bodySha256, json: text };
  return { bodySha256, json: isJson(text) ? JSON.stringify(JSON.parse(text)) : JSON.stringify(text) };
}

/**
 * A write's intent as its NDJSON line (without the newline): the record's fields known before it is sent, in
 * AuditRecord's order, with its `id` (and `ahead` for a bulk row's intent written ahead). Built by hand: a bulk send
 * writes one per row, and the part that is the same for every row of a run is stringified once.
 */
export function intentLine(
  profile: AuditProfile,
  e: AuditEntry,
  o: { bodies: boolean; id: string; ahead?: boolean; user?: string },
): string {
  let line = `{"at":"${isoTime(e.startedAt)}",${fixedPart(profile, o.user ?? osUser(), e.op, e.method, redact(e.url))},"id":"${o.id}"`;
  if (o.ahead) line += ',"ahead":true';
  const { bodySha256, json } = bodyParts(e, o.bodies);
  if (bodySha256 !== undefined) line += `,"bodySha256":"${bodySha256}"`;
  if (json !== undefined) line += `,"body":${json}`;
  return `${line}}`;
}

/** An intent line from a desk store's AuditStart (the same fields as intentLine's, in the same order). */
export function startLine(s: AuditStart): string {
  return JSON.stringify({
    at: s.at,
    user: s.operator,
    profile: s.profile,
    ...(s.environment ? { environment: s.environment } : {}),
    ...(s.op ? { op: s.op } : {}),
    method: s.method,
    url: redact(s.url),
    id: s.key,
    ...(s.ahead ? { ahead: true } : {}),
    ...(s.bodySha256 !== undefined ? { bodySha256: s.bodySha256 } : {}),
    ...(s.body !== undefined ? { body: s.body } : {}),
  });
}

/** A write's completion as its NDJSON line: the intent's id, then the status or the error, and the duration. */
export function completionLine(id: string, end: AuditEnd, created?: string): string {
  let line = `{"id":"${id}"`;
  if (end.status !== undefined) line += `,"status":${num(end.status)}`;
  // The id a create's answer names (decisions.md §16): `created`, as a trail line's `id` is the record's own.
  if (created !== undefined) line += `,"created":${JSON.stringify(created)}`;
  if (end.error) line += `,"error":${JSON.stringify({ ...end.error, message: redact(end.error.message) })}`;
  return `${line},"ms":${num(end.ms)}}`;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** End a torn last line (a crash mid-write) so that the next record starts on a line of its own. */
function sealTornTail(path: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return;
  }
  if (size === 0) return;
  const fd = openSync(path, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) appendFileSync(path, '\n');
  } finally {
    closeSync(fd);
  }
}

export interface AuditLogOptions {
  /** `audit.bodies` of the profile by default. */
  bodies?: boolean;
  /** The records' `user`: the operator (default: the operating-system user). */
  user?: string;
}

/**
 * A write's intent in the trail, until its completion: `durable` resolves once the intent is on disk (the request
 * may leave then), `done` says so without a promise.
 */
export class AuditIntent implements AuditIntentLike {
  constructor(
    private readonly log: AuditLog,
    readonly id: string,
    private readonly batch: Batch,
    /** Written ahead of its request (a bulk row): `start()` marks the moment it leaves. */
    readonly ahead: boolean,
  ) {}

  get durable(): Promise<void> {
    return this.batch.promise;
  }

  get done(): boolean {
    return this.batch.done;
  }

  /** A bulk row's request is about to leave: its `started` line goes out with this turn's write, not waited for. */
  start(): void {
    this.log.noteStarted(this.id);
  }
}

/** The audit trail a client writes to: opened before the first write is sent, so a failure sends nothing. */
export class AuditLog implements AuditTrail {
  readonly path: string;
  private readonly bodies: boolean;
  private readonly user?: string;
  private writer?: Promise<DurableLog>;
  private opened?: DurableLog;
  /** This process's run id (its run line names the boot) and the last record number. */
  private readonly run = randomBytes(6).toString('base64url');
  private seq = 0;

  constructor(
    dir: string,
    readonly profile: AuditProfile,
    o: AuditLogOptions = {},
  ) {
    this.path = auditPath(dir, profile.name);
    this.bodies = o.bodies ?? profile.audit?.bodies !== false;
    this.user = o.user;
  }

  /** Create the folder and open the file (once); a trail that cannot be written is a ConfigError: nothing is sent. */
  ready(): Promise<DurableLog> {
    this.writer ??= (async () => {
      try {
        mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
        sealTornTail(this.path);
      } catch (e) {
        throw this.cannotOpen(e as NodeJS.ErrnoException);
      }
      const w = await DurableLog.open(this.path, { what: 'audit trail', openError: (e) => this.cannotOpen(e) });
      // The run line goes out with the first intent, and is on disk with it.
      w.note(JSON.stringify({ run: this.run, boot: bootId(), pid: process.pid, at: isoTime(Date.now()) }));
      this.opened = w;
      return w;
    })();
    return this.writer;
  }

  /**
   * Group commit for a bulk send: the records of AUDIT_SYNC_INTERVAL_MS share one fsync. A command's or the TUI's
   * writes are synced at once (an intent and its completion: two fsyncs a write).
   */
  groupCommit(): void {
    if (this.opened) this.opened.minSyncIntervalMs = AUDIT_SYNC_INTERVAL_MS;
  }

  private cannotOpen(e: NodeJS.ErrnoException): ConfigError {
    return new ConfigError(`The audit trail ${this.path} cannot be opened for writing (${e.code ?? e.message}); nothing was sent.`, [
      'Every write pdesk sends is recorded there first: fix the folder (or PDESK_CONFIG_DIR) and try again.',
    ]);
  }

  /**
   * Write a write's intent, before its request (call `ready()` first). The line is written at the end of the
   * event-loop turn (or sooner, by `flush`); `durable` resolves once it is on disk, and rejects when it cannot be
   * written. Throws when the trail has already failed.
   */
  begin(e: AuditEntry, o: { ahead?: boolean } = {}): AuditIntent {
    const w = this.opened;
    if (!w) throw new Error('AuditLog.begin before ready()');
    const id = `${this.run}.${++this.seq}`;
    const line = intentLine(this.profile, e, { bodies: this.bodies, id, ahead: o.ahead, user: this.user });
    return new AuditIntent(this, id, w.appendInBatch(line), !!o.ahead);
  }

  /** Runs of keys handed to beginStart whose run line this trail wrote. */
  private readonly announced = new Set<string>();

  /**
   * Write an intent a desk store was handed (src/core/store/file/: the file engine's auditBegin), under its key
   * (`<run>.<n>`); the first intent of a run is preceded by its run line, which names this boot.
   */
  beginStart(s: AuditStart): AuditIntent {
    const w = this.opened;
    if (!w) throw new Error('AuditLog.beginStart before ready()');
    const run = s.key.slice(0, Math.max(0, s.key.lastIndexOf('.')));
    if (run && run !== this.run && !this.announced.has(run)) {
      this.announced.add(run);
      w.note(JSON.stringify({ run, boot: bootId(), pid: process.pid, at: isoTime(Date.now()) }));
    }
    return new AuditIntent(this, s.key, w.appendInBatch(startLine(s)), !!s.ahead);
  }

  /** The `started` line of an intent written ahead (AuditIntent.start), at `at` (default: now). */
  noteStarted(id: string, at = isoTime(Date.now())): void {
    this.opened?.note(`{"id":${JSON.stringify(id)},"started":"${at}"}`);
  }

  /** Complete an intent with its outcome; resolves once the completion is on disk, rejects when it cannot be written. */
  complete(intent: Pick<AuditIntentLike, 'id'>, end: AuditEnd, created?: string): Promise<void> {
    const w = this.opened;
    if (!w) return Promise.reject(new Error('AuditLog.complete before ready()'));
    return w.append(completionLine(intent.id, end, created));
  }

  /** An intent whose request was not sent after all (the caller's own record failed first): left out by readers. */
  withdraw(intent: Pick<AuditIntentLike, 'id'>): Promise<void> {
    const w = this.opened;
    if (!w) return Promise.reject(new Error('AuditLog.withdraw before ready()'));
    return w.append(`{"id":"${intent.id}","sent":false}`);
  }

  /** True once `ready()` has opened the file. */
  get isOpen(): boolean {
    return this.opened !== undefined;
  }

  /** Write the records appended so far now, rather than at the end of the turn. */
  flush(): void {
    this.opened?.flush();
  }

  async close(): Promise<void> {
    const w = this.writer;
    this.writer = undefined;
    this.opened = undefined;
    if (w) await (await w.catch(() => undefined))?.close();
  }
}

/** One line of the trail, as written. */
interface TrailLine {
  id?: string;
  method?: string;
  run?: string;
  boot?: string | null;
  started?: string;
  ahead?: boolean;
  status?: number;
  error?: AuditRecord['error'];
  created?: string;
  ms?: number;
  at?: string;
  sent?: boolean;
}

/**
 * The records of an audit trail with their keys (an intent's id; a hash for a record from before write-ahead), oldest
 * first, each intent joined with its completion: one without a completion is
 * `outcome: "unknown"`, except a bulk row's intent written ahead that never started in a run of this boot (it was
 * never sent, and is left out). Torn or unreadable lines are skipped with a warning; records written before
 * write-ahead (one line, no id) are read as they are.
 */
export function readAuditKeyed(path: string): { records: Array<{ key: string; record: AuditRecord }>; warnings: string[] } {
  const r = readNdjson<TrailLine>(path, `the audit trail ${path}`);
  const boots = new Map<string, string | null | undefined>();
  const intents = new Map<string, { record: AuditRecord; ahead: boolean; started?: string; done: boolean; withdrawn?: boolean }>();
  const out: Array<{ legacy: AuditRecord } | { id: string }> = [];
  for (const { value: l } of r.records) {
    if (typeof l.run === 'string') boots.set(l.run, l.boot);
    else if (typeof l.method === 'string') {
      if (typeof l.id !== 'string') out.push({ legacy: l as unknown as AuditRecord });
      else {
        const { id: _, ahead, ...record } = l as TrailLine & AuditRecord;
        intents.set(l.id, { record, ahead: ahead === true, done: false });
        out.push({ id: l.id });
      }
    } else if (typeof l.id === 'string') {
      const i = intents.get(l.id);
      if (!i) continue;
      if (typeof l.started === 'string') i.started = l.started;
      else if (l.sent === false) i.withdrawn = true;
      else {
        i.done = true;
        if (l.status !== undefined) i.record.status = l.status;
        if (l.created !== undefined) i.record.id = l.created;
        if (l.error !== undefined) i.record.error = l.error;
        if (l.ms !== undefined) i.record.ms = l.ms;
      }
    }
  }
  const boot = bootId();
  const records: Array<{ key: string; record: AuditRecord }> = [];
  for (const x of out) {
    if ('legacy' in x) {
      // A record from before write-ahead has no id: its key is a hash of what it holds (the same in every read).
      records.push({ key: `h.${hash('sha256', JSON.stringify(x.legacy)).slice(0, 32)}`, record: x.legacy });
      continue;
    }
    const i = intents.get(x.id)!;
    if (i.withdrawn) continue;
    if (i.started) i.record.at = i.started;
    if (!i.done) {
      // Written ahead and never started, in a run of this boot: it never left.
      const run = x.id.slice(0, x.id.lastIndexOf('.'));
      if (i.ahead && !i.started && boot !== null && boots.get(run) === boot) continue;
      i.record.outcome = 'unknown';
    }
    records.push({ key: x.id, record: orderedRecord(i.record) });
  }
  return { records, warnings: r.warnings };
}

/** The records of an audit trail (readAuditKeyed without the keys). */
export function readAudit(path: string): { records: AuditRecord[]; warnings: string[] } {
  const r = readAuditKeyed(path);
  return { records: r.records.map((x) => x.record), warnings: r.warnings };
}

/** A record's keys in AuditRecord's order (a joined record gets its completion's fields last otherwise). */
function orderedRecord(r: AuditRecord): AuditRecord {
  const { at, user, profile, environment, op, method, url, status, id, error, outcome, ms, bodySha256, body } = r;
  return {
    at,
    user,
    profile,
    ...(environment !== undefined ? { environment } : {}),
    ...(op !== undefined ? { op } : {}),
    method,
    url,
    ...(status !== undefined ? { status } : {}),
    ...(id !== undefined ? { id } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(outcome !== undefined ? { outcome } : {}),
    ...(ms !== undefined ? { ms } : {}),
    ...(bodySha256 !== undefined ? { bodySha256 } : {}),
    ...(body !== undefined ? { body } : {}),
  };
}
