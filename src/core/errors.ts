/**
 * Typed errors of pdesk. Every error carries the exit code of cli.md, a one-sentence message and optional
 * detail lines; the CLI prints `message` then `details`, never a stack trace unless --verbose.
 */
import type { OperationOutcome } from './schemas/outcome.js';
import { renderOutcome } from './outcome.js';
import { sanitize } from './sanitize.js';
import { nodeHttp } from './builtins.js';

export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  config: 3,
  client: 4,
  server: 5,
  contract: 6,
  /** `pdesk check` / `pdesk doctor` ran, and at least one check failed or errored. */
  checks: 7,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Something the operator can do about an error, named without a face's words: the CLI words it as a command line
 * (`pdesk profile show north`), the TUI as where to look (src/cli/hints.ts, src/tui/hints.ts). Core never writes a
 * command or an option into a message; it adds a hint.
 */
export type Hint =
  /** Look at a profile's settings (`setting`, when one is at fault: `practice.baseUrl`). */
  | { kind: 'profile'; profile: string; setting?: string }
  /** Where a profile's secrets come from, and whether they resolve. */
  | { kind: 'auth-status'; profile: string }
  /** Migrate the team store's schema, as the database user that owns it. */
  | { kind: 'store-migrate' }
  /** Which setting chose the team store, and whether it answers. */
  | { kind: 'store-status' }
  /** A booking in the past may be sent anyway, where the face allows it. */
  | { kind: 'allow-past' };

export class PdeskError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly details: string[];
  /** What the operator can do about it, for each face to word after the details. */
  readonly hints: Hint[] = [];
  constructor(message: string, exitCode: ExitCodeValue, details: string[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.details = details;
  }

  /** Add a hint; the error itself, to throw. */
  hint(h: Hint): this {
    this.hints.push(h);
    return this;
  }
}

/** Bad option or argument (exit 2). Nothing has been sent. */
export class UsageError extends PdeskError {
  constructor(message: string, details: string[] = []) {
    super(message, ExitCode.usage, details);
  }
}

/** `{{field}}` in a FieldError's problem or details: another field, named the face's way. */
const FIELD_REF = /\{\{([A-Za-z]+)\}\}/g;

/**
 * A value the operator gave that core refuses, named by its *field* (`patient`, `recipient`, `schedule`, `csv`),
 * never by a command-line flag or a form label: each face names the field its own way. The CLI says
 * `--patient must not be empty.`, the TUI `Patient must not be empty.` and moves the cursor to that field.
 * `problem` reads after the field's name; it and the details may name other fields as `{{field}}` (`is after
 * {{to}}`), which the face renders the same way. `message` and `details` name them bare, for any other reader.
 */
export class FieldError extends UsageError {
  /** The details as given, `{{field}}` references kept for `renderDetails`. */
  private readonly given: string[];
  constructor(
    readonly field: string,
    readonly problem: string,
    details: string[] = [],
  ) {
    super(
      `${field} ${problem.replace(FIELD_REF, '$1')}.`,
      details.map((d) => d.replace(FIELD_REF, '$1')),
    );
    this.given = details;
  }

  /** The message with every field named by `label` (a flag for the CLI, a form label for the TUI). */
  render(label: (field: string) => string): string {
    const first = label(this.field);
    return `${first.charAt(0).toUpperCase()}${first.slice(1)} ${this.problem.replace(FIELD_REF, (_, f: string) => label(f))}.`;
  }

  /** The detail lines with every field they name by `label`. */
  renderDetails(label: (field: string) => string): string[] {
    return this.given.map((d) => d.replace(FIELD_REF, (_, f: string) => label(f)));
  }

  /** The same problem, named as another field (a form that asks for one value under another name). */
  as(field: string): FieldError {
    return new FieldError(field, this.problem, this.given);
  }
}

/** No profile, or an invalid one, or a secret that cannot be resolved (exit 3). */
export class ConfigError extends PdeskError {
  constructor(message: string, details: string[] = []) {
    super(message, ExitCode.config, details);
  }
}

export function statusLine(status: number): string {
  // node:http on use: `pdesk --help` and usage errors load these errors too, and need no HTTP.
  const text = nodeHttp().STATUS_CODES[status];
  return text ? `HTTP ${status} ${text}` : `HTTP ${status}`;
}

/** The server answered with a non-2xx status (exit 4 for 4xx, 5 for 5xx). */
export class HttpError extends PdeskError {
  readonly status: number;
  readonly outcome?: OperationOutcome;
  readonly bodyExcerpt?: string;
  /** The answer's Retry-After, in milliseconds, when it had one (a bulk send waits it out after a 429). */
  retryAfterMs?: number;
  constructor(status: number, info: { op?: string; method: string; url: string; outcome?: OperationOutcome; bodyExcerpt?: string }) {
    const details: string[] = [];
    if (info.outcome) details.push(...renderOutcome(info.outcome));
    else if (info.bodyExcerpt) details.push(info.bodyExcerpt);
    details.push(`request: ${info.op ? `${info.op} ` : ''}${info.method} ${info.url}`);
    super(statusLine(status), status >= 500 ? ExitCode.server : ExitCode.client, details);
    this.status = status;
    this.outcome = info.outcome;
    this.bodyExcerpt = info.bodyExcerpt;
  }
}

/** Connection refused, reset, DNS failure or time-out (exit 5). */
export class NetworkError extends PdeskError {
  readonly code?: string;
  constructor(message: string, details: string[] = [], code?: string, cause?: unknown) {
    super(message, ExitCode.server, details, { cause });
    this.code = code;
  }
}

/** The server's answer does not match the interface (exit 6). `path` is the JSON path of the first problem. */
export class ContractError extends PdeskError {
  readonly path: string;
  constructor(path: string, problem: string, details: string[] = []) {
    super(`The server's answer does not match the interface at ${path}: ${problem}.`, ExitCode.contract, details);
    this.path = path;
  }
}

/** A request body (from --body or built from options) that the interface would refuse (exit 2, nothing sent). */
export class BodyError extends UsageError {
  readonly path: string;
  constructor(path: string, problem: string, details: string[] = []) {
    super(`The request body is invalid at ${path}: ${problem}.`, details);
    this.path = path;
  }
}

/** Excerpt of a non-JSON body, sanitised, for an error's detail line. */
export function excerpt(text: string, max = 200): string {
  const flat = sanitize(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Bytes as the profile's limits give them: `64 MB` (MiB), `0.5 MB`. */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : Number(mb.toFixed(mb < 1 ? 3 : 1))} MB`;
}

/**
 * A 3xx answer (exit 5): a redirect is never a success. A write is never sent again to the new place; a GET that
 * may not follow it (another origin, too many hops) stops here too. `location` is the absolute target, if any.
 */
export class RedirectError extends PdeskError {
  constructor(
    message: string,
    readonly status: number,
    readonly location: string | undefined,
    details: string[] = [],
  ) {
    super(message, ExitCode.server, details);
  }
}

/**
 * A list that could not be read whole (exit 6): a `next` link pdesk may not follow, or a read bound reached. A
 * partial list is never printed as if it were whole.
 */
export class IncompleteListError extends PdeskError {
  constructor(message: string, details: string[] = []) {
    super(message, ExitCode.contract, details);
  }
}

/** An answer larger than the profile's bound on one answer (`limits.responseMB`, decoded size; exit 6). */
export class TooLargeError extends PdeskError {
  readonly code = 'TOO_LARGE';
  constructor(message: string, details: string[] = [], cause?: unknown) {
    super(message, ExitCode.contract, details, { cause });
  }
}
