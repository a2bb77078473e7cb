/**
 * What every command action gets: the global options, the profile and client (loaded lazily, so `--help` and
 * usage errors cost nothing), verbose logging, and `emit` for the chosen output format.
 */
import { type Command, CommanderError, type Option } from 'commander';
import type { PdeskClient } from '../core/client.js';
import { redact } from '../core/redact.js';
import { sanitize } from '../core/sanitize.js';
import type { Profile } from '../profiles/schema.js';
import { type Column, type Format, renderJson, renderRecord, renderTable } from './output.js';
import { oneOf, positiveInt } from './options.js';

export interface GlobalOptions {
  profile?: string;
  json?: boolean;
  limit?: string;
  output?: string;
  dryRun?: boolean;
  verbose?: boolean;
  color?: boolean;
}

export class Context {
  readonly globals: GlobalOptions;
  /** Set by long-running commands (sandbox, listen, tui): the entry point then does not exit after the action. */
  keepAlive = false;
  private _profile?: Profile;
  private _client?: PdeskClient;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;

  constructor(readonly cmd: Command) {
    this.globals = cmd.optsWithGlobals() as GlobalOptions;
    // Everything printed goes through redact: a server that echoes a token back does not get it printed.
    this.out = (t) => process.stdout.write(redact(t.endsWith('\n') ? t : `${t}\n`));
    // stderr lines may carry untrusted text too (a listen client's URL, a store warning): sanitised and redacted.
    this.err = (t) => process.stderr.write(redact(sanitize(t.endsWith('\n') ? t : `${t}\n`, true)));
  }

  get format(): Format {
    if (this.globals.json) return 'json';
    if (this.globals.output) return oneOf(this.globals.output, ['table', 'json', 'ndjson'] as const, '--output');
    return process.stdout.isTTY ? 'table' : 'json';
  }

  get limit(): number {
    return this.globals.limit === undefined ? 1000 : positiveInt(this.globals.limit, '--limit', { allowZero: true });
  }

  get dryRun(): boolean {
    return !!this.globals.dryRun;
  }

  get color(): boolean {
    return this.globals.color !== false && !process.env.NO_COLOR && !!process.stdout.isTTY;
  }

  /** Table width: the terminal's, else COLUMNS, else 100. */
  get width(): number {
    return process.stdout.columns || Number(process.env.COLUMNS) || 100;
  }

  log = (line: string): void => {
    if (this.globals.verbose) this.err(line);
  };

  /** The selected profile (the store, conf and zod are loaded on first use only). */
  async profile(): Promise<Profile> {
    if (!this._profile) {
      const { loadProfile } = await import('../profiles/store.js');
      this._profile = loadProfile(this.globals.profile);
    }
    return this._profile;
  }

  /** The client for the selected profile (undici is loaded on first use only). */
  async client(): Promise<PdeskClient> {
    if (!this._client) {
      const profile = await this.profile();
      const { PdeskClient } = await import('../core/client.js');
      this._client = new PdeskClient(profile, { dryRun: this.dryRun, log: this.globals.verbose ? this.log : undefined });
    }
    return this._client;
  }

  /** Print a list: JSON array / NDJSON of `rows` as received, or a table of `columns`. */
  emitList<T>(rows: readonly T[], columns: readonly Column<T>[]): void {
    const f = this.format;
    if (f === 'table') this.out(rows.length ? renderTable(rows, columns, this.width) : '(none)');
    else if (rows.length || f === 'json') this.out(renderJson(rows, f));
  }

  /** Print one resource (or `{ok, status}` when the server sent no body). */
  emitOne(value: unknown, table?: () => string): void {
    const f = this.format;
    if (f !== 'table') this.out(renderJson(value, f));
    else if (table) this.out(table());
    else if (value && typeof value === 'object' && !Array.isArray(value))
      this.out(renderRecord(value as Record<string, unknown>, this.width));
    else this.out(String(value));
  }

  /** Result of a write: the resource the server returned, else `{ok: true, status}`. */
  emitWrite(status: number, body: unknown, table?: () => string): void {
    this.emitOne(body === undefined ? { ok: true, status } : body, table);
  }

  async close(): Promise<void> {
    await this._client?.close();
  }
}

/** Options declared with requiredOption, checked by `action` instead of commander (see deferRequiredOptions). */
const required = new WeakSet<Option>();

/**
 * commander checks required options before unknown ones, so a misspelt `--servce-category x` would be reported
 * as a missing `--service-category`. Required options of `cmd` and its subcommands are checked in `action`
 * instead, which runs after commander has rejected unknown options (with its "did you mean" suggestion).
 */
export function deferRequiredOptions(cmd: Command): void {
  for (const o of cmd.options) {
    if (!o.mandatory) continue;
    o.mandatory = false;
    required.add(o);
  }
  for (const sub of cmd.commands) deferRequiredOptions(sub);
}

export type Action<A extends unknown[]> = (ctx: Context, ...args: A) => Promise<void> | void;

/**
 * Wrap an action: commander passes `(...args, options, command)`; the action gets `(ctx, ...args, options)`.
 * The Context is stashed on the root command so the entry point can close pools after it.
 */
export function action<A extends unknown[]>(fn: Action<A>) {
  return async (...raw: unknown[]) => {
    const cmd = raw[raw.length - 1] as Command;
    for (const o of cmd.options)
      if (required.has(o) && cmd.getOptionValue(o.attributeName()) === undefined)
        throw new CommanderError(1, 'commander.missingMandatoryOptionValue', `error: required option '${o.flags}' not specified`);
    const ctx = new Context(cmd);
    let root: Command = cmd;
    while (root.parent) root = root.parent;
    (root as Command & { pdeskContext?: Context }).pdeskContext = ctx;
    // Bad global values (--output xml, --limit x) are usage errors before anything is sent, not after.
    void ctx.format;
    void ctx.limit;
    await fn(ctx, ...(raw.slice(0, -1) as A));
  };
}
