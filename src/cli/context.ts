/**
 * What every command's `run(ctx, options)` gets: the global options, the IO it runs with (streams, terminal,
 * environment), the profile and client (loaded lazily, so `--help` and usage errors cost nothing), verbose logging,
 * and `emit` for the chosen output format. A Context is built from the program's dependencies (`buildProgram`,
 * src/cli/verb.ts), so a command runs the same in the process (`systemIO()`) and in a test (`testIO()`).
 */
import type { ClientOptions, PdeskClient, WriteDescription } from '../core/client.js';
import type { Operator } from '../core/operator.js';
import type { Settings } from '../core/settings.js';
import type { StoreSelection } from '../core/store/select.js';
import type { DeskStore } from '../core/store/types.js';
import { redact } from '../core/redact.js';
import { sanitize } from '../core/sanitize.js';
import type { Profile } from '../core/profile/schema.js';
import type { ProfileStore } from '../profiles/store.js';
import { UsageError } from '../core/errors.js';
import { type IO, systemIO } from './io.js';
import type { Query } from './query.js';
import { type Column, type Format, renderJson, renderRecord, renderTable, safeJson } from './output.js';
import { oneOf, positiveInt, readJsonArg, readTextArg } from './options.js';

export interface GlobalOptions {
  profile?: string;
  json?: boolean;
  limit?: string;
  output?: string;
  dryRun?: boolean;
  verbose?: boolean;
  color?: boolean;
  /** Every --query given (the global option collects them, so that giving two is refused rather than one lost). */
  query?: string[];
  /** `--read-only`: send GET only, as profile `readOnly: true`. */
  readOnly?: boolean;
  /** `--yes`: confirm writes on a production profile without a terminal prompt. */
  yes?: boolean;
  /** `--trace <file>` (else PDESK_TRACE). */
  trace?: string;
}

/** What a run of the program depends on; everything but `io` has a default. */
export interface Deps {
  io: IO;
  /** The profile to use (`name` from --profile; undefined: PDESK_PROFILE, else the default). */
  loadProfile?: (name: string | undefined, ctx: Context) => Profile | Promise<Profile>;
  /** The client for a profile. */
  makeClient?: (profile: Profile, opts: ClientOptions) => PdeskClient | Promise<PdeskClient>;
  /** The time relative dates (`today`, `+7d`) and built resources (`authoredOn`) are reckoned from. */
  now?: () => Date;
}

export class Context {
  readonly globals: GlobalOptions;
  readonly io: IO;
  /** Set by long-running commands (sandbox, listen, tui): the entry point then does not exit after the action. */
  keepAlive = false;
  /** An exit code for a command that ends without an error (130 after an interrupted bulk send). */
  exitCode?: number;
  private _profile?: Profile;
  private _client?: PdeskClient;
  /** Production profiles whose writes the operator confirmed in this run. */
  private readonly confirmed = new Set<string>();
  private _trace?: Promise<import('../core/trace.js').TraceWriter | undefined>;
  private _store?: ProfileStore;
  private _settings?: Settings;
  private _desk?: Promise<DeskStore>;
  /** The compiled --query (`verb()` compiles it before the command runs). */
  private _query?: Query;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;

  /**
   * `globals` are the global options of the command line; `given` the command's own options given on it (long
   * flags, in the command's order), which `--body` refuses (src/cli/body.ts). A test that calls a verb's `run`
   * directly gives what it needs, or nothing.
   */
  constructor(
    globals: GlobalOptions = {},
    readonly deps: Deps = { io: systemIO() },
    readonly given: readonly string[] = [],
  ) {
    this.globals = globals;
    this.io = deps.io;
    // Everything printed goes through redact: a server that echoes a token back does not get it printed.
    this.out = (t) => void this.io.stdout.write(redact(t.endsWith('\n') ? t : `${t}\n`));
    // stderr lines may carry untrusted text too (a listen client's URL, a store warning): sanitised and redacted.
    this.err = (t) => void this.io.stderr.write(redact(sanitize(t.endsWith('\n') ? t : `${t}\n`, true)));
  }

  /**
   * The format: --json, else --output, else JSON with --query (it filters JSON; with --output table it is a
   * usage error), else a table on a terminal and JSON when piped.
   */
  get format(): Format {
    const query = this.queryExpression !== undefined;
    if (this.globals.json) return 'json';
    if (this.globals.output) {
      const f = oneOf(this.globals.output, ['table', 'json', 'ndjson'] as const, '--output');
      if (query && f === 'table')
        throw new UsageError('--query filters JSON output: it cannot be used with --output table.', [
          'Leave out --output (--query prints JSON), or use --output json or ndjson.',
        ]);
      return f;
    }
    if (query) return 'json';
    return this.io.stdoutIsTTY ? 'table' : 'json';
  }

  /** The --query expression. */
  get queryExpression(): string | undefined {
    const given = this.globals.query;
    if (!given?.length) return undefined;
    if (given.length > 1)
      throw new UsageError(`--query was given ${given.length} times; give one expression.`, [
        'Expressions combine with a pipe: --query "[?status==\'free\'] | [0].id".',
      ]);
    return given[0];
  }

  /** Compile --query before anything is sent (a bad expression exits 2); its library loads only when it is given. */
  async compileQuery(): Promise<void> {
    const expression = this.queryExpression;
    if (expression === undefined || this._query) return;
    const { compileQuery } = await import('./query.js');
    this._query = compileQuery(expression);
  }

  get limit(): number {
    return this.globals.limit === undefined ? 1000 : positiveInt(this.globals.limit, '--limit', { allowZero: true });
  }

  get dryRun(): boolean {
    return !!this.globals.dryRun;
  }

  get color(): boolean {
    return this.globals.color !== false && !this.io.env.NO_COLOR && this.io.stdoutIsTTY;
  }

  /** Table width: the terminal's, else COLUMNS, else 100. */
  get width(): number {
    return this.io.columns() || Number(this.io.env.COLUMNS) || 100;
  }

  /** Now, as the program's dependencies tell it (the clock, unless a test fixes it). */
  now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  log = (line: string): void => {
    if (this.globals.verbose) this.err(line);
  };

  /** The folder of the profile store, thread stores and journals (PDESK_CONFIG_DIR, else the user's config folder). */
  async configDir(): Promise<string> {
    return (await this.store()).dir;
  }

  /** The profile store of this run's config folder. */
  async store(): Promise<ProfileStore> {
    if (!this._store) {
      const { configDir, openProfileStore } = await import('../profiles/store.js');
      this._store = openProfileStore(configDir(this.io.env));
    }
    return this._store;
  }

  /** The desk's settings (`config.json` in the config folder; `{}` without one). */
  async settings(): Promise<Settings> {
    if (!this._settings) {
      const { readSettings } = await import('../core/settings.js');
      this._settings = readSettings(await this.configDir());
    }
    return this._settings;
  }

  /** Who the operator at this desk is (PDESK_OPERATOR, else `operator` in config.json, else the login name). */
  async operator(): Promise<Operator> {
    const { operatorOf } = await import('../core/operator.js');
    return operatorOf(this.io.env, await this.settings());
  }

  /** Which store this desk uses: the team store when PDESK_STORE_URL or `storeUrlEnv` names one, else the local files. */
  async storeSelection(): Promise<StoreSelection> {
    const { selectStore } = await import('../core/store/select.js');
    return selectStore(this.io.env, await this.settings(), await this.configDir());
  }

  /**
   * The desk store of this run (threads, messages, owners, the audit trail), opened on first use and closed with the
   * run: the team store on PostgreSQL when one is selected (storeSelection), else the config folder's files.
   */
  async deskStore(): Promise<DeskStore> {
    this._desk ??= (async () => {
      const selection = await this.storeSelection();
      const { openDeskStore } = await import('../core/store/open.js');
      return openDeskStore(selection, {
        dir: await this.configDir(),
        operator: (await this.operator()).name,
        onWarning: (w) => this.err(`pdesk: warning: ${w}`),
      });
    })();
    this._desk.catch(() => {
      this._desk = undefined;
    });
    return this._desk;
  }

  /** The selected profile (the store, conf and zod are loaded on first use only). */
  async profile(): Promise<Profile> {
    if (!this._profile) {
      if (this.deps.loadProfile) this._profile = await this.deps.loadProfile(this.globals.profile, this);
      else this._profile = (await this.store()).load(this.globals.profile, this.io.env.PDESK_PROFILE);
    }
    return this._profile;
  }

  /** The trace file of this run (`--trace`, else PDESK_TRACE), opened on first use; undefined when none. */
  async trace(profile?: Profile): Promise<import('../core/trace.js').TraceWriter | undefined> {
    const path = this.globals.trace ?? (this.io.env.PDESK_TRACE || undefined);
    if (!path) return undefined;
    this._trace ??= import('../core/trace.js').then(({ TraceWriter }) => TraceWriter.open(path, profile));
    return this._trace;
  }

  /** What the client calls with every exchange: the trace file's writer, when there is one. */
  async observer(profile?: Profile): Promise<ClientOptions['observe']> {
    const t = await this.trace(profile);
    return t ? (e) => t.write(e) : undefined;
  }

  /** What the client calls as each write leaves: the trace file's writer, when there is one. */
  async sendObserver(profile?: Profile): Promise<ClientOptions['observeSend']> {
    const t = await this.trace(profile);
    return t ? (e) => t.start(e) : undefined;
  }

  /**
   * Confirm a write on a production profile (src/cli/confirm.ts): on a terminal the operator types the profile's
   * name, without one `--yes` is needed. Nothing happens for other profiles, or once confirmed in this run.
   * `write.what` (what is written) and `write.target` (where) are read only when a question may be asked.
   */
  confirmWrite(profile: Profile, write: Pick<WriteDescription, 'what' | 'target'>): Promise<void> | undefined {
    // Asked before every write (a bulk send asks it per row): once a profile needs no question in this run (it is
    // not production, or it was confirmed), the answer is given at once, without a promise, an import() or reading
    // the client's description of the write.
    if (this.settled.has(profile)) return undefined;
    return this.askConfirmation(profile, write.what, write.target);
  }

  private async askConfirmation(profile: Profile, what: string, target: string): Promise<void> {
    const { confirmWrite } = await import('./confirm.js');
    await confirmWrite({ io: this.io, yes: !!this.globals.yes, confirmed: this.confirmed }, profile, what, target);
    this.settled.add(profile);
  }

  /** Profiles whose writes need no question any more in this run: not production, or confirmed. */
  private readonly settled = new WeakSet<Profile>();

  /**
   * Print a secret on stdout as it is: `pdesk auth token` and nothing else. Every other output goes through
   * `out`, which redacts every registered secret.
   */
  printSecret(value: string): void {
    this.io.stdout.write(`${value}\n`);
  }

  /**
   * The client for the selected profile (undici is loaded on first use only): read-only when the profile or
   * `--read-only` says so, writes recorded in the audit trail of the config folder and confirmed on production,
   * every exchange traced with `--trace`. `o` applies to the first call only, which makes the client.
   */
  async client(o: Pick<ClientOptions, 'connections'> = {}): Promise<PdeskClient> {
    if (!this._client) {
      const profile = await this.profile();
      const opts: ClientOptions = {
        dryRun: this.dryRun,
        log: this.globals.verbose ? this.log : undefined,
        env: this.io.env,
        // --dry-run: the request that would have been sent is printed (redacted by `out`), then the command stops.
        // It is not the command's output, so --query does not apply to it.
        onDryRun: (request) => this.out(safeJson(request, true)),
        ...(this.globals.readOnly ? { readOnly: true, readOnlyWhy: '--read-only' } : {}),
        // The trail of the desk's store: its file, or the team store (then the one this run opened, if it did).
        audit: { dir: await this.configDir(), store: () => this.deskStore() },
        observe: await this.observer(profile),
        // A write's trace line goes out as it leaves too: a run killed before the answer still shows it.
        observeSend: await this.sendObserver(profile),
        beforeWrite: (w) => this.confirmWrite(profile, w),
        ...o,
      };
      if (this.deps.makeClient) this._client = await this.deps.makeClient(profile, opts);
      else {
        const { PdeskClient } = await import('../core/client.js');
        this._client = new PdeskClient(profile, opts);
      }
    }
    return this._client;
  }

  /** Text of a file, or of standard input for `-`; a file that cannot be read is a usage error naming `option`. */
  readText(value: string, option: string): string {
    return readTextArg(value, option, this.io);
  }

  /** JSON from a file or standard input (`--body`, `--slot-json`); not JSON is a usage error naming `option`. */
  readJson(value: string, option: string): unknown {
    return readJsonArg(value, option, this.io);
  }

  /** Print a list: JSON array / NDJSON of `rows` as received, or a table of `columns`. */
  emitList<T>(rows: readonly T[], columns: readonly Column<T>[]): void {
    const f = this.format;
    if (f === 'table') this.out(rows.length ? renderTable(rows, columns, this.width) : '(none)');
    else this.emitJson(rows, f);
  }

  /**
   * Print one resource (or `{ok, status}` when the server sent no body). A command's table text is sanitised here,
   * whatever it holds (server text, an id the operator typed): the one place for every command.
   */
  emitOne(value: unknown, table?: () => string): void {
    const f = this.format;
    if (f !== 'table') this.emitJson(value, f);
    else if (table) this.out(sanitize(table(), true));
    else if (value && typeof value === 'object' && !Array.isArray(value))
      this.out(renderRecord(value as Record<string, unknown>, this.width));
    else this.out(sanitize(String(value), true));
  }

  /** Result of a write: the resource the server returned, else `{ok: true, status}`. */
  emitWrite(status: number, body: unknown, table?: () => string): void {
    this.emitOne(body === undefined ? { ok: true, status } : body, table);
  }

  /**
   * Every JSON output goes through here: --query applied to the whole value, then JSON, or NDJSON with each
   * element of an array on its own line (an empty array prints nothing).
   */
  private emitJson(value: unknown, f: 'json' | 'ndjson'): void {
    const shown = this._query ? this._query.apply(value) : value;
    if (f === 'ndjson' && Array.isArray(shown) && shown.length === 0) return;
    this.out(renderJson(shown, f));
  }

  /**
   * One JSON value on one line, as long-running commands print them (`listen`'s records, `sandbox`'s URLs),
   * --query applied. An expression that fails on one value is a warning on stderr: the command keeps running.
   */
  emitLine(value: unknown): void {
    let shown = value;
    try {
      if (this._query) shown = this._query.apply(value);
    } catch (e) {
      this.err(`pdesk: warning: ${(e as Error).message}`);
      return;
    }
    this.out(safeJson(shown));
  }

  async close(): Promise<void> {
    await this._client?.close();
    (await this._trace?.catch(() => undefined))?.close();
    await (await this._desk?.catch(() => undefined))?.close();
  }
}
