/**
 * Request traces (`--trace <file>`, PDESK_TRACE): every request and answer of a run as NDJSON, built on the
 * client's one exchange hook (`ClientOptions.observe`), so secrets are already redacted (URL, headers, bodies:
 * src/core/redact.ts) and every face traces alike. A run appends a header line (`{"trace": "pdesk-trace", …}`:
 * when, which profile, each party's kind of authentication) and then one line per exchange as it happens (a
 * crash keeps what was traced); the file is mode 0600. Several runs may share a file (PDESK_TRACE).
 *
 * OAuth2 token requests are not traced: their bodies and answers are nothing but credentials. A traced request
 * shows its token as `Authorization: Bearer ***`; `pdesk auth status` shows the token's state.
 *
 * `pdesk trace show --curl` turns a trace into curl command lines (src/cli/commands/trace/curl.ts).
 */
import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import type { Profile } from './profile/schema.js';
import type { Exchange, ExchangeStart } from './client.js';
import { FieldError } from './errors.js';
import { parseNdjson } from './ndjson.js';
import type { Party } from './ops.js';
import { redact } from './redact.js';

export const TRACE_KIND = 'pdesk-trace';
export const TRACE_VERSION = 1;

/** A party's authentication as a trace names it: the kind, and for basic auth the user name (not a secret). */
export interface TraceAuth {
  type: string;
  username?: string;
}

export interface TraceHeader {
  trace: typeof TRACE_KIND;
  version: number;
  startedAt: string;
  pid: number;
  profile?: string;
  auth?: Partial<Record<Party, TraceAuth>>;
}

const authOf = (a: Profile['practice']['auth']): TraceAuth =>
  a?.type === 'basic' ? { type: 'basic', username: a.username } : { type: a?.type ?? 'none' };

/** Appends a run's exchanges to a trace file, one line each, as they happen. */
export class TraceWriter {
  private fd?: number;

  private constructor(
    fd: number,
    readonly path: string,
  ) {
    this.fd = fd;
  }

  /**
   * Open `path` for appending (mode 0600) and write the run's header line; a file that cannot be written is a
   * FieldError of `trace` (exit 2).
   */
  static open(path: string, profile?: Profile): TraceWriter {
    let fd: number;
    try {
      fd = openSync(path, 'a', 0o600);
      fchmodSync(fd, 0o600); // an existing file too: it holds request and answer bodies
    } catch (e) {
      throw new FieldError(
        'trace',
        `names ${path}, which cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
    const w = new TraceWriter(fd, path);
    const header: TraceHeader = {
      trace: TRACE_KIND,
      version: TRACE_VERSION,
      startedAt: new Date().toISOString(),
      pid: process.pid,
      ...(profile ? { profile: profile.name, auth: { practice: authOf(profile.practice.auth), portal: authOf(profile.portal.auth) } } : {}),
    };
    w.line(JSON.stringify(header));
    return w;
  }

  private line(text: string): void {
    if (this.fd === undefined) return;
    const buf = Buffer.from(`${text}\n`, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
  }

  /** One exchange (already redacted by the client; redacted again, in case a secret was registered since). */
  write(e: Exchange): void {
    this.line(redact(JSON.stringify(e)));
  }

  /**
   * A write as it leaves, before its answer (ClientOptions.observeSend): a run killed before the answer leaves
   * this line, which `parseTrace` reads as an exchange whose outcome is unknown; the exchange line follows otherwise.
   */
  start(e: ExchangeStart): void {
    this.line(redact(JSON.stringify({ ...e, sending: true })));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

export interface Trace {
  /** Each run's header, in order. */
  runs: TraceHeader[];
  /** Every exchange, with the header of its run. */
  exchanges: Array<{ run?: TraceHeader; exchange: Exchange; line: number }>;
  warnings: string[];
}

/**
 * Read a trace file's text: torn or unreadable lines are skipped with a warning. A write's line written as it left
 * (`sending`) is replaced by its exchange line of the same run when there is one; one without (the run ended
 * first) stays, as an exchange whose outcome is unknown.
 */
export function parseTrace(text: string, name: string): Trace {
  const r = parseNdjson<Record<string, unknown>>(text, `the trace ${name}`);
  const out: Trace = { runs: [], exchanges: [], warnings: r.warnings };
  let run: TraceHeader | undefined;
  const sending = new Map<string, Trace['exchanges'][number]>();
  const ended = new Set<Trace['exchanges'][number]>();
  const key = (e: Record<string, unknown>) =>
    `${out.runs.length}\u0000${String(e.startedAt)}\u0000${String(e.method)}\u0000${String(e.url)}`;
  for (const { line, value } of r.records) {
    if (value.trace === TRACE_KIND) {
      run = value as unknown as TraceHeader;
      out.runs.push(run);
    } else if (typeof value.method === 'string' && typeof value.url === 'string') {
      const x = { run, exchange: value as unknown as Exchange, line };
      if (value.sending === true) {
        sending.set(key(value), x);
        out.exchanges.push(x);
        continue;
      }
      const started = sending.get(key(value));
      if (started) {
        sending.delete(key(value));
        ended.add(started);
      }
      out.exchanges.push(x);
    } else out.warnings.push(`the trace ${name}: line ${line} is not a traced exchange; skipped.`);
  }
  if (ended.size) out.exchanges = out.exchanges.filter((x) => !ended.has(x));
  return out;
}
