/**
 * The write audit trail: every request pdesk sends other than GET, HEAD and OPTIONS (A6, A7, C1–C5, M3, `pdesk api`
 * writes, bulk sends, `check --write`), one NDJSON record per request in `audit/<profile>.ndjson` in the config
 * folder (mode 0600, folder 0700), appended by the client where it sends (src/core/client.ts), so every face is
 * covered. A record is written and fsynced before the call returns to its caller, whatever the outcome: the
 * HTTP status, or the error when there was no answer (network error, time-out, abandoned); a bulk send takes the
 * durability over (CallOptions.audited) and counts the row once it is on disk. The records made in one event-loop
 * turn go out at its end in one O_APPEND write (a killed process keeps them), so several processes (a TUI and a
 * command) can share the file; records share fsyncs (group commit: the bulk journal's writer,
 * src/core/bulk/journal.ts). A crash mid-write leaves a torn last line: readers skip it with a warning
 * (src/core/ndjson.ts), and the next writer ends it first.
 *
 * A record: time (the request's start), operating-system user, profile, environment, operation id, method, URL,
 * status or error, duration, a SHA-256 of the exact bytes sent, and the body with secrets redacted (the
 * registered secrets of src/core/redact.ts and the credential headers of the request); the profile's
 * `audit.bodies: false` leaves the body out (the hash stays).
 */
import { hash } from 'node:crypto';
import { appendFileSync, closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { Profile } from '../profiles/schema.js';
import { JournalWriter } from './bulk/journal.js';
import { ConfigError } from './errors.js';
import { isoTime } from './iso-time.js';
import { readNdjson } from './ndjson.js';
import type { OpId } from './ops.js';
import { REDACTED, isSecretHeader, redact } from './redact.js';

export interface AuditRecord {
  /** ISO 8601 instant the request started. */
  at: string;
  /** The operating-system user who ran pdesk. */
  user: string;
  profile: string;
  environment?: string;
  op?: OpId;
  method: string;
  /** Secrets redacted. */
  url: string;
  /** The answer's status; absent when there was none (see `error`). */
  status?: number;
  /** The id the server gave what a POST created (its answer's body, else its `Location`): decisions.md §16. */
  id?: string;
  /** Why there is no answer: a network error, a time-out, the operator abandoned it. */
  error?: { name: string; message: string; code?: string };
  /** Whole time, retries included. */
  ms: number;
  /** SHA-256 (hex) of the body's bytes as sent; absent when no body was sent. */
  bodySha256?: string;
  /** The body sent, secrets redacted (JSON as sent, else text); absent under `audit.bodies: false`. */
  body?: unknown;
}

/** What the client knows of one write when it records it. */
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
  ms: number;
  status?: number;
  /** The id the answer names for what a POST created. */
  id?: string;
  error?: { name: string; message: string; code?: string };
}

/**
 * Least time between two fsyncs of an audit trail (ms); a lone write is synced at once. A bulk row counts as sent
 * once its audit record is on disk, but its request slot is free and its journal line written at the answer, so
 * this pause costs no throughput, only a little time before the row is counted; and each fsync costs the event
 * loop a hand-off to the thread pool (~80–250 µs on a busy 2-core machine: measured). 10 → 50 ms: ~5% less CPU a
 * row in a bulk send (bench/notifications.mjs).
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
let fixed: { profile: Profile; user: string; op?: OpId; method: string; url: string; text: string } | undefined;
function fixedPart(profile: Profile, user: string, op: OpId | undefined, method: string, url: string): string {
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
 * One record as its NDJSON line (without the newline), keys in AuditRecord's order. Built by hand: a bulk send
 * writes one per row, and the part that is the same for every row of a run is stringified once.
 */
export function auditLine(profile: Profile, e: AuditEntry, o: { bodies: boolean; user?: string }): string {
  let line = `{"at":"${isoTime(e.startedAt)}",${fixedPart(profile, o.user ?? osUser(), e.op, e.method, redact(e.url))}`;
  if (e.status !== undefined) line += `,"status":${num(e.status)}`;
  if (e.id !== undefined) line += `,"id":${JSON.stringify(e.id)}`;
  if (e.error) line += `,"error":${JSON.stringify({ ...e.error, message: redact(e.error.message) })}`;
  line += `,"ms":${num(e.ms)}`;
  if (e.bodyText === undefined) return `${line}}`;
  // crypto.hash: one call, a fifth of createHash's cost; a string is hashed as its UTF-8 bytes, as it was sent.
  line += `,"bodySha256":"${hash('sha256', e.bodyText)}"`;
  if (!o.bodies) return `${line}}`;
  const text = redactBody(e.bodyText, e.headers);
  // JSON pdesk stringified is one line (JSON.stringify writes no line break) and stays JSON when a secret inside a
  // string is replaced: embedded as is (no second parse per row in a bulk send). Anything else is checked, and
  // kept as a string if it is not JSON.
  let body: string;
  if (e.bodyIsJson && (text === e.bodyText || isJson(text))) body = text;
  else body = isJson(text) ? JSON.stringify(JSON.parse(text)) : JSON.stringify(text);
  return `${line},"body":${body}}`;
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
}

/** The audit trail a client writes to: opened before the first write is sent, so a failure sends nothing. */
export class AuditLog {
  readonly path: string;
  private readonly bodies: boolean;
  private writer?: Promise<JournalWriter>;

  constructor(
    dir: string,
    readonly profile: Profile,
    o: AuditLogOptions = {},
  ) {
    this.path = auditPath(dir, profile.name);
    this.bodies = o.bodies ?? profile.audit?.bodies !== false;
  }

  /** Create the folder and open the file (once); a trail that cannot be written is a ConfigError: nothing is sent. */
  ready(): Promise<JournalWriter> {
    this.writer ??= (async () => {
      try {
        mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
        sealTornTail(this.path);
      } catch (e) {
        throw this.cannotOpen(e as NodeJS.ErrnoException);
      }
      const w = await JournalWriter.open(this.path, undefined, { what: 'audit trail', openError: (e) => this.cannotOpen(e) });
      // Group commit: a lone write (a command, a TUI key) is synced at once; during a bulk send the records of
      // AUDIT_SYNC_INTERVAL_MS share one fsync (each costs the event loop ~80 µs on a busy machine: measured).
      w.minSyncIntervalMs = AUDIT_SYNC_INTERVAL_MS;
      this.opened = w;
      return w;
    })();
    return this.writer;
  }

  private cannotOpen(e: NodeJS.ErrnoException): ConfigError {
    return new ConfigError(`The audit trail ${this.path} cannot be opened for writing (${e.code ?? e.message}); nothing was sent.`, [
      'Every write pdesk sends is recorded there first: fix the folder (or PDESK_CONFIG_DIR) and try again.',
    ]);
  }

  /**
   * Append one write's record; resolves once it is on disk (fsync), rejects when it cannot be written. The line is
   * written at the end of the event-loop turn, with the other records of that turn in one write (or sooner, by
   * `flush`), so a process killed after that has the record even when its fsync was still to come.
   */
  record(e: AuditEntry): Promise<void> {
    try {
      const line = auditLine(this.profile, e, { bodies: this.bodies });
      if (this.opened) return this.opened.append(line);
      return this.ready().then((w) => w.append(line));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private opened?: JournalWriter;

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

/** The records of an audit trail, torn or unreadable lines skipped with a warning each. */
export function readAudit(path: string): { records: AuditRecord[]; warnings: string[] } {
  const r = readNdjson<AuditRecord>(path, `the audit trail ${path}`);
  return { records: r.records.map((x) => x.value), warnings: r.warnings };
}
