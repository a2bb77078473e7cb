/**
 * Bulk notifications (C5 per CSV row), resumable without sending anything twice:
 *
 * - The CSV is streamed (csv-parse), never held whole; `{column}` placeholders of the text and topic and the
 *   email column are checked against the header before anything is sent.
 * - Each row is journaled: `sending` is made durable before its POST may start, a `started` line is written
 *   just before it starts, the outcome after the answer; a row counts as done once its outcome is on disk.
 *   Records go out in groups, one fsync per group (at most every SYNC_INTERVAL_MS), and `sending` records are
 *   made durable up to LOOKAHEAD_FACTOR × concurrency rows ahead, so the fsync is off the request path.
 * - On a rerun, acknowledged rows are skipped, rows with a definite failure are sent again, and rows whose
 *   outcome is unknown are not resent unless `resendUncertain`: `started` with no outcome (the process died
 *   mid-request), a connection lost after the request went out, or any `sending` with no outcome written
 *   before the machine last booted (a crash may have lost its `started` line). A `sending` written since the
 *   last boot with no `started` line never left (a killed process loses nothing it wrote): it is sent again.
 * - A changed CSV (row hash) or template (header hash) is refused before anything is sent.
 * - `stop()` (Ctrl-C) starts no new rows; in-flight ones finish and are recorded.
 * - `rate` caps requests per second across the run (rate.ts); a 429 pauses and slows the whole run instead of
 *   failing the row: it is journaled `throttled` (the server did not take it) and sent again after the pause.
 * - Write-ahead audit (src/core/audit.ts): each row's audit intent is written with its `sending` line, ahead, and
 *   the row is ready to send once both are on disk (the same look-ahead keeps the fsyncs off the request path). Its
 *   `started` line goes out with the journal's, before the request; the client completes the intent at the answer
 *   and hands that completion's durability over (`audited`), so the request slot is free at the answer. Audit lines
 *   are written before every journal write (`flushAudit`), so no outcome is on disk without its audit record, and
 *   no `started` journal line without the audit's; a process killed at any point leaves at most `concurrency` rows
 *   without an outcome, whose audit records read as outcome unknown.
 *
 * Core-level: no commander, no terminal output. The caller gives the send function and a warning sink.
 */
import { createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import type { Profile } from '../profile/schema.js';
import { buildNotification } from '../api/notifications.js';
import {
  BodyError,
  ContractError,
  ExitCode,
  HttpError,
  NetworkError,
  PdeskError,
  RedirectError,
  TooLargeError,
  FieldError,
} from '../errors.js';
import { sanitize } from '../sanitize.js';
import { type Notification, isEmailAddress } from '../schemas/notification.js';
import {
  type Delimiter,
  type RecordStep,
  SEND_CHUNK_BYTES,
  csvLine,
  describeCsvError,
  detectFileDelimiter,
  eachRecord,
  openCsv,
  readHeader,
} from './csv.js';
import {
  JOURNAL_KIND,
  JOURNAL_VERSION,
  RowState,
  isUncertain,
  loadJournal,
  lockJournal,
  openJournal,
  rowHash,
  shortHash,
  type JournalHeader,
  type RowRecord,
  type RowTable,
} from './journal.js';
import type { AuditIntentLike as AuditIntent } from '../audit.js';
import { bootId } from '../durable-log.js';
import { RateLimiter, type RateState } from './rate.js';
import { compileTemplate, type Template } from './template.js';

export const DEFAULT_CONCURRENCY = 8;
/**
 * Rows whose `sending` record (and audit intent) may be made durable ahead of their request, per request slot. It
 * keeps the fsyncs off the request path even on a slow disk: a row is ready once both files' group fsyncs covered
 * it, the audit trail's at most every AUDIT_SYNC_INTERVAL_MS, so the look-ahead must hold more rows than a full-speed
 * send starts in that time. A killed process leaves them re-sendable (no `started` line), a machine crash leaves
 * them uncertain.
 */
export const LOOKAHEAD_FACTOR = 96;
/** Stop when this many × concurrency requests in a row could not connect (the portal is down). */
export const UNREACHABLE_STOP = 3;
/**
 * Least time between journal fsyncs during a run (ms); the look-ahead covers it. Each fsync costs the event loop a
 * hand-off to the thread pool, so fewer, larger groups (docs/performance.md).
 */
export const SYNC_INTERVAL_MS = 10;
/** A row answered 429 this many times in a run fails with that answer (resent by a rerun). */
export const MAX_THROTTLED_ATTEMPTS = 10;

export interface BulkInput {
  csv: string;
  /** Default `<csv>.journal.ndjson`; the CLI passes `defaultJournalPath(...)` (in the config folder). */
  journal?: string;
  text: string;
  topic: string;
  /** Default `email`. */
  emailColumn?: string;
  concurrency?: number;
  resendUncertain?: boolean;
  /** Count the rows first (for an ETA); done anyway when the journal has records to check. */
  countRows?: boolean;
  /** Dry run: read the journal without locking or repairing it; `run()` is not allowed. */
  readOnly?: boolean;
  /** At most this many requests per second (rate.ts); none: as fast as the concurrency allows. */
  rate?: number;
}

export interface BulkDeps {
  profile: Profile;
  /**
   * Send one notification, given as its JSON text (CallOptions.json); throws HttpError / NetworkError as the core
   * client does. `audited` receives the durability of the request's audit record (CallOptions.audited), which
   * the run awaits before the row counts.
   */
  send: (json: string, audited: (durable: Promise<void>) => void, intent?: AuditIntent) => Promise<{ status: number }>;
  /**
   * The audit intents of the run's requests, written ahead (PdeskClient.aheadIntents): asked once when the run
   * starts (after the operator confirmed it); none without an audit trail.
   */
  intents?: () => Promise<((json: string) => AuditIntent) | undefined>;
  /**
   * Write the audit trail's pending records now (PdeskClient.flushAudit). Called before every write of the
   * journal, so that a row's outcome line is never on disk before its request's audit record.
   */
  flushAudit?: () => void;
  warn: (line: string) => void;
}

export interface BulkCounters {
  /** Data rows in the CSV, when counted. */
  total?: number;
  /** Rows looked at so far (every outcome below, plus rows in flight). */
  seen: number;
  sent: number;
  skipped: number;
  failed: number;
  /** Failures that were 5xx or network errors (exit 5 rather than 4). */
  failedServer: number;
  uncertain: number;
  inFlight: number;
  /** 429 answers: each paused the run, and its row was sent again. */
  throttled: number;
  startedAt: number;
}

export interface BulkSummary {
  sent: number;
  skipped: number;
  failed: number;
  uncertain: number;
  journal: string;
  failedCsv?: string;
  total: number;
  interrupted?: boolean;
  /** Exit code of cli.md for this outcome (130 when interrupted). */
  exitCode: number;
  /** A fatal problem that stopped the run early (changed CSV, unreadable CSV, journal write failure). */
  error?: PdeskError;
}

/** Why a row whose outcome is unknown was not sent again, in the failed rows' CSV. */
const NOT_RESENT = 'not resent — check the portal; a rerun sends it only when told to resend uncertain rows';

/** A CSV file that cannot be parsed. */
function notCsv(name: string, e: unknown, details: string[] = []): FieldError {
  return new FieldError('csv', `names ${name}, which is not valid CSV: ${describeCsvError(e)}`, details);
}

/** Network failures where the request cannot have reached the server. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

interface Outcome {
  state: 'ok' | 'failed' | 'unknown';
  status?: number;
  reason?: string;
  server?: boolean;
  /** No connection could be made: the request never left. */
  unreachable?: boolean;
  /** Stops the whole run (a configuration problem every row would hit). */
  fatal?: PdeskError;
  /** The answer's Retry-After (a 429). */
  retryAfterMs?: number;
}

function oneLine(text: string, max = 300): string {
  const flat = sanitize(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function classify(e: unknown): Outcome {
  // A redirect answers no request: the row was not done, and a rerun sends it (not resent to the new place, and
  // the run stops: every row would be redirected the same way until the profile is changed).
  if (e instanceof RedirectError) return { state: 'failed', status: e.status, reason: oneLine(e.message), server: true, fatal: e };
  if (e instanceof HttpError) {
    const issue = e.details.find((d) => !d.startsWith('request: '));
    return {
      state: 'failed',
      status: e.status,
      reason: oneLine(issue ? `${e.message}: ${issue}` : e.message),
      server: e.status >= 500,
      ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
    };
  }
  if (e instanceof NetworkError) {
    if (e.code && NOT_SENT_CODES.has(e.code)) return { state: 'failed', reason: oneLine(e.message), server: true, unreachable: true };
    return { state: 'unknown', reason: oneLine(`${e.message} The request may have reached the server.`), server: true };
  }
  if (e instanceof ContractError) return { state: 'ok', reason: oneLine(`accepted, but ${e.message}`) };
  // Answered, but too large to read: whether it was done is not known.
  if (e instanceof TooLargeError) return { state: 'unknown', reason: oneLine(e.message), server: true };
  if (e instanceof PdeskError && (e.exitCode === ExitCode.config || e.exitCode === ExitCode.usage))
    return { state: 'failed', reason: oneLine(e.message), fatal: e };
  return { state: 'unknown', reason: oneLine(`unexpected error: ${(e as Error)?.message ?? String(e)}`), server: true };
}

/**
 * The default journal of a bulk send (cli.md: journals live in the config folder, PDESK_CONFIG_DIR):
 * `<configDir>/journals/<profile>/<csv name>-<hash of the CSV's absolute path>.journal.ndjson`, so a rerun of
 * the same file with the same profile finds its journal, and the same file sent through another profile (another
 * portal) does not.
 */
export function defaultJournalPath(configDir: string, profile: string, csv: string): string {
  const id = createHash('sha256').update(resolve(csv)).digest('hex').slice(0, 12);
  return join(configDir, 'journals', profile, `${basename(csv)}-${id}.journal.ndjson`);
}

/** `<name>.journal.ndjson` → `<name>.failed.csv`; any other journal name → `<journal>.failed.csv`. */
export function failedCsvPath(journal: string): string {
  return journal.endsWith('.journal.ndjson') ? `${journal.slice(0, -'.journal.ndjson'.length)}.failed.csv` : `${journal}.failed.csv`;
}

/** Stand-ins for the three strings of a row, each found once in the stringified shape. */
const SLOTS = ['\u0000pdesk:email\u0000', '\u0000pdesk:topic\u0000', '\u0000pdesk:text\u0000'] as const;

/**
 * A notification's JSON text in four pieces around its address, topic and text: `frame[0] + JSON.stringify(email)
 * + frame[1] + …` is JSON.stringify of the same notification with those three strings.
 */
export function frameOf(n: Notification): string[] {
  const patient = n.contained[0]!;
  const text = JSON.stringify({
    ...n,
    contained: [{ ...patient, telecom: [{ ...patient.telecom[0]!, value: SLOTS[0] }] }],
    topic: { text: SLOTS[1] },
    payload: [{ contentString: SLOTS[2] }],
  });
  const frame: string[] = [];
  let from = 0;
  for (const slot of SLOTS) {
    const quoted = JSON.stringify(slot);
    const at = text.indexOf(quoted, from);
    if (at < 0 || text.indexOf(quoted, at + 1) >= 0) throw new Error(`frameOf: ${quoted} not found once in order`);
    frame.push(text.slice(from, at));
    from = at + quoted.length;
  }
  frame.push(text.slice(from));
  return frame;
}

/** A row to send, from the CSV reader to a request slot. */
class QueuedRow {
  /** A row that fails its checks: it holds its place in the look-ahead until its outcome is recorded. */
  problem = false;
  /** Its request's audit intent, written ahead with its `sending` line. */
  intent?: AuditIntent;
  constructor(
    readonly n: number,
    readonly hash: string,
    readonly fields: string[],
  ) {}
}

/**
 * Rows whose outcome lines went into the same journal write and whose requests' audit records into the same audit
 * write (the answers of one event-loop turn): they are on disk together, and counted together.
 */
class SettleGroup {
  readonly rows: QueuedRow[] = [];
  readonly outcomes: Outcome[] = [];
  constructor(
    readonly recorded: Promise<void>,
    readonly audited: Promise<void> | undefined,
  ) {}
}

export class BulkSend {
  readonly csvPath: string;
  readonly journalPath: string;
  readonly failedCsvPath: string;
  readonly counters: BulkCounters;
  private stopping = false;
  private fatal?: PdeskError;
  private unlock?: () => void;
  private readonly limiter: RateLimiter;

  private constructor(
    private readonly input: Required<Omit<BulkInput, 'journal' | 'rate'>> & { journal: string; rate?: number },
    private readonly deps: BulkDeps,
    private readonly delimiter: Delimiter,
    readonly header: string[],
    private readonly emailIndex: number,
    private readonly textT: Template,
    private readonly topicT: Template,
    private readonly templateHash: string,
    private readonly rows: RowTable,
    private readonly journalHeader: JournalHeader | undefined,
  ) {
    this.csvPath = input.csv;
    this.journalPath = input.journal;
    this.failedCsvPath = failedCsvPath(input.journal);
    this.counters = {
      seen: 0,
      sent: 0,
      skipped: 0,
      failed: 0,
      failedServer: 0,
      uncertain: 0,
      inFlight: 0,
      throttled: 0,
      startedAt: Date.now(),
    };
    this.limiter = new RateLimiter(input.rate);
  }

  /** The pace now: requests started in the last second, the limit (lowered after a 429), a pause under way. */
  rate(): RateState {
    return this.limiter.state();
  }

  /** Check the CSV header, templates and journal; nothing is sent. Throws a FieldError (exit 2) on a problem. */
  static async prepare(input: BulkInput, deps: BulkDeps): Promise<BulkSend> {
    const csv = resolve(input.csv);
    const journal = resolve(input.journal ?? `${input.csv}.journal.ndjson`);
    const emailColumn = input.emailColumn ?? 'email';
    const concurrency = input.concurrency ?? DEFAULT_CONCURRENCY;
    const name = basename(csv);
    if (journal === csv) throw new FieldError('journal', 'must not be the CSV file itself');
    const delimiter = detectFileDelimiter(csv);
    let header: string[] | undefined;
    try {
      header = await readHeader(csv, delimiter);
    } catch (e) {
      throw notCsv(name, e);
    }
    if (!header || header.every((h) => h.trim() === ''))
      throw new FieldError('csv', `names ${name}, which has no header line; its first line must name the columns`);
    header = header.map((h) => h.trim());
    const emailIndex = header.indexOf(emailColumn);
    if (emailIndex < 0)
      throw new FieldError(
        input.emailColumn ? 'emailColumn' : 'csv',
        input.emailColumn
          ? `is "${emailColumn}", but ${name} has no column of that name`
          : `names ${name}, which has no column "${emailColumn}" for the email address; name the address column with {{emailColumn}}`,
        [`columns: ${header.map((h) => JSON.stringify(h)).join(', ')}`],
      );
    const textT = compileTemplate(input.text, header, 'text', name);
    const topicT = compileTemplate(input.topic, header, 'topic', name);
    const templateHash = shortHash(JSON.stringify({ text: input.text, topic: input.topic, emailColumn }));
    const full = {
      csv,
      journal,
      text: input.text,
      topic: input.topic,
      emailColumn,
      concurrency,
      resendUncertain: !!input.resendUncertain,
      countRows: !!input.countRows,
      readOnly: !!input.readOnly,
      rate: input.rate,
    };
    const unlock = input.readOnly ? undefined : lockJournal(journal);
    try {
      const loaded = await loadJournal({
        path: journal,
        templateHash,
        emailColumn,
        csvPath: csv,
        warn: deps.warn,
        readOnly: input.readOnly,
      });
      const job = new BulkSend(full, deps, delimiter, header, emailIndex, textT, topicT, templateHash, loaded.rows, loaded.header);
      job.unlock = unlock;
      if (loaded.rows.count > 0 || input.countRows) await job.verify();
      return job;
    } catch (e) {
      unlock?.();
      throw e;
    }
  }

  /**
   * Call `f` with each data row of the CSV and its number (1 = the first row after the header), in order, until it
   * returns false (eachRecord: no promise per row unless `f` waits); the parser is closed after. The file is read
   * `chunkBytes` at a time (csv.ts: a send reads in small pieces).
   */
  private eachRow(f: (n: number, fields: string[]) => RecordStep, chunkBytes?: number): Promise<void> {
    let n = -1;
    return eachRecord(openCsv(this.csvPath, this.delimiter, chunkBytes), (rec) => (++n > 0 ? f(n, rec) : undefined));
  }

  /** Count the data rows and check every journaled row against the CSV (row hash). */
  private async verify(): Promise<void> {
    const name = basename(this.csvPath);
    let total = 0;
    try {
      await this.eachRow((n, rec) => {
        total = n;
        if (this.rows.state(n) !== RowState.none && !this.rows.hashMatches(n, rowHash(rec))) throw this.changed(n);
        return undefined;
      });
    } catch (e) {
      if (e instanceof PdeskError) throw e;
      throw notCsv(name, e);
    }
    if (this.rows.maxRow > total)
      throw new FieldError(
        'csv',
        `names ${name}, which changed since the journal was written: it has ${total} rows, the journal records row ${this.rows.maxRow}`,
        [`journal: ${this.journalPath}`, 'Restore the CSV, or give {{journal}} a new file to start a separate send.'],
      );
    this.counters.total = total;
  }

  private changed(row: number): FieldError {
    return new FieldError(
      'csv',
      `names ${basename(this.csvPath)}, which changed since the journal was written: row ${row} differs from the row that was journaled`,
      [
        `journal: ${this.journalPath}`,
        'Restore the CSV, or give {{journal}} a new file to start a separate send (rows already sent would be sent again).',
      ],
    );
  }

  /** Stop starting rows; in-flight rows finish and are recorded. */
  stop(): void {
    this.stopping = true;
    this.limiter.stop();
    this.wake?.();
  }

  /** Give the journal back without running (the operator did not confirm). */
  abandon(): void {
    this.unlock?.();
    this.unlock = undefined;
  }

  get stopped(): boolean {
    return this.stopping;
  }

  /** Wakes the run's waiting reader and request slots (stop): each then sees the stop flag. */
  private wake?: () => void;

  /**
   * The first row's body, built and validated by the core builder, as JSON text cut around the three strings that
   * differ from row to row (address, topic, text): every row's body is that text with its own three strings put in,
   * the same bytes JSON.stringify would write for the same shape with those strings.
   */
  private frame?: string[];

  /**
   * Why a row cannot be sent, or undefined when it can: its address gets the schema's own check, and the rest of
   * the body is the first row's validated shape (a full zod parse per row costs more than the rest of the row).
   */
  private problem(fields: string[]): string | undefined {
    if (fields.length !== this.header.length) return `the row has ${fields.length} fields, the header has ${this.header.length}`;
    const email = (fields[this.emailIndex] ?? '').trim();
    if (!email) return `no email address in column "${this.input.emailColumn}"`;
    // Worded only for a row that has the problem (sanitizing every row's address cost more than checking it).
    const bad = () => `"${oneLine(email, 100)}" in column "${this.input.emailColumn}" is not an email address`;
    if (!this.frame) {
      try {
        this.frame = frameOf(
          buildNotification(this.deps.profile, { email, topic: this.topicT.render(fields), text: this.textT.render(fields) }),
        );
      } catch (e) {
        if (e instanceof BodyError && /telecom/.test(e.path)) return bad();
        if (e instanceof PdeskError) return oneLine(e.message);
        throw e;
      }
      return undefined;
    }
    return isEmailAddress(email) ? undefined : bad();
  }

  /**
   * The JSON text of a row that has no problem. Made just before its request, not when the row is read ahead: the
   * text is then short-lived, and dies in V8's young generation instead of being promoted with the rows ahead.
   */
  private json(fields: string[]): string {
    const f = this.frame!;
    const email = fields[this.emailIndex]!.trim();
    return (
      f[0]! +
      JSON.stringify(email) +
      f[1]! +
      JSON.stringify(this.topicT.render(fields)) +
      f[2]! +
      JSON.stringify(this.textT.render(fields)) +
      f[3]!
    );
  }

  /** Dry run: the body of the first row that a run would send, or undefined when there is none. */
  async firstBody(): Promise<{ row: number; body: Notification } | undefined> {
    let first: { row: number; body: Notification } | undefined;
    try {
      await this.eachRow((n, rec) => {
        const st = this.rows.state(n);
        if (st === RowState.ok || (isUncertain(st) && !this.input.resendUncertain) || this.problem(rec) !== undefined) return undefined;
        first = { row: n, body: JSON.parse(this.json(rec)) as Notification };
        return false;
      });
    } finally {
      this.unlock?.();
    }
    return first;
  }

  /** Send every row not yet acknowledged. Resolves with the summary (never throws for row failures). */
  async run(): Promise<BulkSummary> {
    if (this.input.readOnly) throw new Error('BulkSend.run() on a read-only job');
    const c = this.counters;
    c.startedAt = Date.now();
    const lookahead = LOOKAHEAD_FACTOR * this.input.concurrency;
    let failedOut: WriteStream | undefined;
    const failedCols = ['pdesk_row', 'pdesk_status', 'pdesk_reason'];
    rmSync(this.failedCsvPath, { force: true });
    const writeFailed = (row: number, fields: readonly string[], status: number | undefined, reason: string) => {
      if (!failedOut) {
        failedOut = createWriteStream(this.failedCsvPath, { mode: 0o600 });
        failedOut.on('error', (e) =>
          this.deps.warn(`warning: cannot write ${this.failedCsvPath} (${(e as NodeJS.ErrnoException).code ?? e}).`),
        );
        failedOut.write(csvLine([...failedCols, ...this.header], this.delimiter));
      }
      failedOut.write(csvLine([String(row), status === undefined ? '' : String(status), reason, ...fields], this.delimiter));
    };

    const writer = await openJournal(
      this.journalPath,
      this.journalHeader
        ? undefined
        : {
            journal: JOURNAL_KIND,
            version: JOURNAL_VERSION,
            template: this.templateHash,
            emailColumn: this.input.emailColumn,
            csv: this.csvPath,
            created: new Date().toISOString(),
          },
    );

    await writer.append(JSON.stringify({ run: new Date().toISOString(), boot: bootId(), pid: process.pid }));
    writer.minSyncIntervalMs = SYNC_INTERVAL_MS;
    writer.beforeWrite = this.deps.flushAudit;
    const intend = await this.deps.intents?.();

    let unreachableRun = 0;
    const fail = (e: PdeskError) => {
      this.fatal ??= e;
      this.stop();
    };

    /** The durability of a request's audit record; one that cannot be written stops the run. Never rejects. */
    const auditDone = (audited: Promise<void>) =>
      audited.catch((e: unknown) =>
        fail(e instanceof PdeskError ? e : new PdeskError(`Cannot write the audit trail: ${(e as Error).message}`, ExitCode.unexpected)),
      );

    // Rows under way after their request (settle groups), counted: the run waits for the count to reach 0 at the end.
    let pending = 0;
    let drained: (() => void) | undefined;
    const done = () => {
      if (--pending === 0) drained?.();
    };
    const track = (p: Promise<void>) => {
      pending++;
      p.then(done, done);
    };

    // The look-ahead: rows journaled `sending` and not yet started, and failed rows not yet recorded. Once it is full,
    // the reader waits until a slot's worth of places (one per request slot; the look-ahead is LOOKAHEAD_FACTOR of
    // them) is free, then reads that many rows at once: one wait per group of rows, not one per row.
    let held = 0;
    let readerWaiting: (() => void) | undefined;
    const refill = this.input.concurrency;
    const release = () => {
      held--;
      const w = readerWaiting;
      if (w && held <= lookahead - refill) {
        readerWaiting = undefined;
        w();
      }
    };

    /**
     * Count a group's rows once their outcome lines and their requests' audit records are on disk: a row is
     * acknowledged in the journal only with its audit record, written before it (flushAudit).
     */
    const settleGroup = async (g: SettleGroup) => {
      if (g.audited) await auditDone(g.audited);
      let lost = false;
      try {
        await g.recorded;
      } catch (e) {
        fail(e as PdeskError);
        lost = true;
      }
      for (let i = 0; i < g.rows.length; i++) {
        const { n, hash, fields, problem } = g.rows[i]!;
        const o = g.outcomes[i]!;
        if (problem) release();
        if (lost) {
          // Not durably recorded: its outcome is unknown to a rerun, so report it as uncertain here too.
          c.uncertain++;
          writeFailed(n, fields, o.status, `outcome not recorded in the journal: ${o.reason ?? o.state}`);
          continue;
        }
        this.rows.set(n, RowState[o.state], hash);
        if (o.state === 'ok') c.sent++;
        else if (o.state === 'unknown') {
          c.uncertain++;
          writeFailed(n, fields, o.status, `no answer (${o.reason ?? 'unknown'}); ${NOT_RESENT}`);
        } else {
          c.failed++;
          if (o.server) c.failedServer++;
          writeFailed(n, fields, o.status, o.reason ?? 'failed');
        }
        if (o.fatal) fail(o.fatal);
      }
    };
    let group: SettleGroup | undefined;
    /** Journal a row's outcome; it counts once its line and its request's audit record are on disk (settleGroup). */
    const settle = (row: QueuedRow, o: Outcome, audited?: Promise<void>) => {
      const rec: RowRecord = { row: row.n, hash: row.hash, state: o.state };
      if (o.status !== undefined) rec.status = o.status;
      if (o.reason !== undefined) rec.reason = o.reason;
      const recorded = writer.record(rec);
      if (group?.recorded !== recorded || group.audited !== audited) {
        // Handled at once: settleGroup awaits the audit record first, and a journal write that fails meanwhile must
        // not reject with no one listening (node ends the process on an unhandled rejection).
        recorded.catch(() => undefined);
        group = new SettleGroup(recorded, audited);
        track(settleGroup(group));
      }
      group.rows.push(row);
      group.outcomes.push(o);
    };

    // Rows whose `sending` record is durable, in order, for the request slots; rows journaled in one write become
    // ready together.
    const ready: QueuedRow[] = [];
    let journaling = 0;
    let reading = true;
    let slotsWaiting: Array<() => void> = [];
    const wakeSlots = () => {
      const w = slotsWaiting;
      if (w.length === 0) return;
      slotsWaiting = [];
      for (const f of w) f();
    };
    this.wake = () => {
      const w = readerWaiting;
      readerWaiting = undefined;
      w?.();
      wakeSlots();
    };
    /** Rows journaled in one write, and the audit writes of their intents (usually one). */
    let batch: { promise: Promise<void>; rows: QueuedRow[]; audits: Promise<void>[] } | undefined;
    const enqueue = (row: QueuedRow) => {
      journaling++;
      const p = writer.record({ row: row.n, hash: row.hash, state: 'sending' });
      if (intend) {
        try {
          row.intent = intend(this.json(row.fields));
        } catch (e) {
          fail(e instanceof PdeskError ? e : new PdeskError(`Cannot write the audit trail: ${(e as Error).message}`, ExitCode.unexpected));
        }
      }
      if (batch?.promise !== p) {
        const b = { promise: p, rows: [] as QueuedRow[], audits: [] as Promise<void>[] };
        batch = b;
        const go = () => {
          journaling -= b.rows.length;
          for (const r of b.rows) ready.push(r);
          wakeSlots();
        };
        const lost = (e: unknown) => {
          // Nothing was sent; these rows stay as they were in the journal (their intents, never started, are left
          // out of the audit trail).
          journaling -= b.rows.length;
          fail(e instanceof PdeskError ? e : new PdeskError(`Cannot write the audit trail: ${(e as Error).message}`, ExitCode.unexpected));
          for (let i = 0; i < b.rows.length; i++) release();
          wakeSlots();
        };
        // Ready once the `sending` lines and the audit intents are on disk.
        p.then(() => (b.audits.length ? Promise.all(b.audits).then(go) : go()), lost).catch(lost);
      }
      batch.rows.push(row);
      const durable = row.intent && !row.intent.done ? row.intent.durable : undefined;
      if (durable && batch.audits[batch.audits.length - 1] !== durable) {
        // Handled at once: it is awaited only once the journal's write is on disk, and an audit write that fails
        // before then must not reject with no one listening (node ends the process on an unhandled rejection).
        durable.catch(() => undefined);
        batch.audits.push(durable);
      }
    };
    /** The next ready row, or undefined once there is none to come. */
    const nextRow = async (): Promise<QueuedRow | undefined> => {
      for (;;) {
        const row = ready.shift();
        if (row) return row;
        if (!reading && journaling === 0) return undefined;
        await new Promise<void>((r) => slotsWaiting.push(r));
      }
    };

    /**
     * One request slot: it takes the ready rows in turn, waits for its turn under the rate, writes the `started`
     * line, sends, and hands the outcome to `settle` without waiting for it to be on disk (the slot is free at the
     * answer). A 429 pauses the run and sends the row again.
     */
    const limiter = this.limiter;
    const slot = async () => {
      // The durability of the audit record of this slot's current request (CallOptions.audited).
      let audited: Promise<void> | undefined;
      const onAudited = (durable: Promise<void>) => {
        audited = durable;
      };
      for (;;) {
        const row = ready.shift() ?? (await nextRow());
        if (!row) return;
        for (let attempt = 1; ; attempt++) {
          if (!this.stopping && !limiter.takeNow()) await limiter.take();
          if (attempt === 1) release(); // its place in the look-ahead: it starts now, or never
          if (this.stopping) {
            // Journaled as sending but never started: say so, so that a rerun sends it without doubt.
            await writer.record({ row: row.n, hash: row.hash, state: 'cancelled' }).catch(() => undefined);
            c.seen--;
            break;
          }
          // Its `started` line is written with everything else its turn writes (one write per turn, the audit's
          // `started` line first), then it starts; not started when the line could not be written: the row reads
          // back as sending (uncertain) at worst.
          // A team store's mark is a transaction of its own, committed before the request leaves.
          const marking = row.intent?.start();
          let unwritten = await writer.recordAtWrite({ row: row.n, hash: row.hash, state: 'started' });
          if (!unwritten && marking)
            unwritten = await marking.then(
              () => undefined,
              (e: unknown) =>
                e instanceof PdeskError ? e : new PdeskError(`Cannot write the audit trail: ${(e as Error).message}`, ExitCode.unexpected),
            );
          if (unwritten) {
            fail(unwritten);
            break;
          }
          c.inFlight++;
          let o: Outcome;
          audited = undefined;
          try {
            const res = await this.deps.send(this.json(row.fields), onAudited, row.intent);
            o = { state: 'ok', status: res.status };
            limiter.ok();
          } catch (e) {
            o = classify(e);
          } finally {
            c.inFlight--;
          }
          // 429: the server did not take it. The whole run pauses and slows down, and the row goes again.
          if (o.status === 429 && o.state === 'failed' && attempt < MAX_THROTTLED_ATTEMPTS && !this.stopping) {
            c.throttled++;
            limiter.throttled(o.retryAfterMs);
            if (audited) await auditDone(audited);
            try {
              await writer.record({ row: row.n, hash: row.hash, state: 'throttled', status: 429 });
              // Sent again: a new intent, on disk with its `sending` line.
              if (intend) row.intent = intend(this.json(row.fields));
              const sending = writer.record({ row: row.n, hash: row.hash, state: 'sending' });
              if (row.intent && !row.intent.done) await Promise.all([sending, row.intent.durable]);
              else await sending;
            } catch (e) {
              fail(
                e instanceof PdeskError ? e : new PdeskError(`Cannot write the audit trail: ${(e as Error).message}`, ExitCode.unexpected),
              );
              break;
            }
            continue;
          }
          // A problem every row would meet (a redirect): no further row starts.
          if (o.fatal) fail(o.fatal);
          // The portal is down: stop rather than fail every remaining row.
          unreachableRun = o.unreachable ? unreachableRun + 1 : 0;
          if (unreachableRun === UNREACHABLE_STOP * this.input.concurrency)
            fail(
              new NetworkError(`Stopped after ${unreachableRun} requests in a row could not connect to the portal.`, [
                o.reason ?? '',
                'Rows not yet sent are untouched; run the same command again once the portal is reachable.',
              ]),
            );
          settle(row, o, audited);
          break;
        }
      }
    };
    const slots = Array.from({ length: this.input.concurrency }, slot);

    let rows = 0; // data rows read (the total when they were not counted first)
    /** Take a row into the look-ahead (journaled `sending`, then sent by a slot), or record it as failed at once. */
    const admit = (n: number, hash: string, fields: string[]): undefined | false => {
      if (this.stopping) return false;
      c.seen++;
      held++;
      const row = new QueuedRow(n, hash, fields);
      const problem = this.problem(fields);
      if (problem !== undefined) {
        row.problem = true;
        settle(row, { state: 'failed', reason: problem });
      } else enqueue(row);
      return undefined;
    };
    /** The look-ahead is full: wait until a refill of places is free (the slots free them as rows start), then admit the row. */
    const admitLater = async (n: number, hash: string, fields: string[]): Promise<undefined | false> => {
      while (held > lookahead - refill && !this.stopping) await new Promise<void>((r) => (readerWaiting = r));
      return admit(n, hash, fields);
    };
    try {
      await this.eachRow((n, fields) => {
        if (this.stopping) return false;
        rows = n;
        const hash = rowHash(fields);
        if (!this.rows.hashMatches(n, hash)) {
          fail(this.changed(n));
          return false;
        }
        const st = this.rows.state(n);
        if (st === RowState.ok) {
          c.seen++;
          c.skipped++;
          return undefined;
        }
        if (isUncertain(st) && !this.input.resendUncertain) {
          c.seen++;
          c.uncertain++;
          writeFailed(
            n,
            fields,
            undefined,
            st === RowState.unknown
              ? `outcome unknown: a previous run lost the connection after sending this row; ${NOT_RESENT}`
              : `outcome unknown: a previous run was sending this row when it stopped and recorded no answer; ${NOT_RESENT}`,
          );
          return undefined;
        }
        return held >= lookahead ? admitLater(n, hash, fields) : admit(n, hash, fields);
      }, SEND_CHUNK_BYTES);
    } catch (e) {
      fail(
        e instanceof PdeskError
          ? e
          : notCsv(basename(this.csvPath), e, ['Rows before the problem were processed; fix the file and run again.']),
      );
    }
    reading = false;
    wakeSlots();
    await Promise.all(slots);
    if (pending > 0) await new Promise<void>((r) => (drained = r));
    await writer.close();
    if (failedOut) await new Promise<void>((r) => failedOut!.end(r));
    this.unlock?.();

    const interrupted = this.stopping && !this.fatal;
    const summary: BulkSummary = {
      sent: c.sent,
      skipped: c.skipped,
      failed: c.failed,
      uncertain: c.uncertain,
      journal: this.journalPath,
      ...(failedOut ? { failedCsv: this.failedCsvPath } : {}),
      total: c.total ?? (interrupted || this.fatal ? c.seen : rows),
      ...(interrupted ? { interrupted: true } : {}),
      exitCode: this.fatal
        ? this.fatal.exitCode
        : interrupted
          ? 130
          : c.failedServer > 0 || c.uncertain > 0
            ? ExitCode.server
            : c.failed > 0
              ? ExitCode.client
              : ExitCode.ok,
      ...(this.fatal ? { error: this.fatal } : {}),
    };
    return summary;
  }
}
