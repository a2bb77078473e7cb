/**
 * The desk: what every screen shares. `useDesk()` gives the profile, the PdeskClient, the task runner (every
 * server call goes through `run`, which shows progress in the status line, can be abandoned with Esc, and
 * turns errors into status-line text), and status messages. `useDeskStatus()` (header and status line only)
 * gives the fast-changing part: status message, running task, connection state.
 *
 * Production: the desk's client confirms every write through its `beforeWrite` hook (the core client sends no
 * write on a production profile without one). A write the operator confirmed on its screen by typing the
 * profile's name (Confirm) goes at once: the confirmation marks the task it starts (`run`, by its signal), and
 * that task's one write passes. Any other write — a key that sends without a review of its own — waits for the
 * desk's own question (`useWriteQuestion`, drawn by the App over the screen), the profile's name typed there.
 */
import type React from 'react';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { type ClientOptions, PdeskClient, type WriteDescription } from '../core/client.js';
import { HttpError, NetworkError, PdeskError, UsageError } from '../core/errors.js';
import type { OpId } from '../core/ops.js';
import { operatorOf } from '../core/operator.js';
import { redact } from '../core/redact.js';
import { readSettings } from '../core/settings.js';
import { openFileStore } from '../core/store/file/index.js';
import type { DeskStore } from '../core/store/types.js';
import { sanitize } from '../core/sanitize.js';
import { type Profile, isProduction } from '../core/profile/schema.js';
import { TypedConfirmation } from './components/Confirm.js';
import { hintsText } from './hints.js';
import { useKeys } from './keys/useKeys.js';

export type Connection = 'unknown' | 'online' | 'offline';
export type StatusKind = 'info' | 'ok' | 'error';
export interface StatusMessage {
  kind: StatusKind;
  text: string;
}

export type TaskResult<T> = { ok: true; value: T } | { ok: false; error: unknown; aborted: boolean };

export interface Desk {
  profile: Profile;
  client: PdeskClient;
  /** Only GET is sent (the profile's `readOnly`, or `--read-only`): write keys say so instead of opening a form. */
  readOnly: boolean;
  /**
   * For a write key: true when `op` may be sent; under read-only false, with the status line saying why (`what`
   * names the action: "cancelling an appointment"). The client refuses it anyway: this keeps the form shut.
   */
  writable(op: OpId, what: string): boolean;
  /** A write key's action behind `writable`: under read-only it says why and opens nothing. */
  guard(op: OpId, what: string, fn: () => void): () => void;
  /**
   * Run a server call: the status line shows `label` with a spinner, Esc abandons it (the signal aborts),
   * an error is shown in the status line (PdeskError message + details, e.g. the OperationOutcome text).
   * Never throws. `okText` (if given) is shown on success.
   */
  run<T>(label: string, fn: (signal: AbortSignal) => Promise<T>, o?: RunOptions<T>): Promise<TaskResult<T>>;
  /** Abandon every running task. */
  abort(): void;
  /** True while a task started with `run` has not finished (read at key time, not from a render). */
  running(): boolean;
  info(text: string): void;
  ok(text: string): void;
  /** Show an error in the status line: a PdeskError as message + detail lines (joined), or a plain sentence. */
  error(e: unknown): void;
  clearStatus(): void;
  /**
   * What the desk knows of its profile's server from elsewhere (the Systems screen's probe of it): the header's
   * connection light.
   */
  connectionSeen(connection: Connection, ms?: number): void;
  /**
   * The operator left screen `id`: its message and the desk's own were read; they go (a message set on a screen
   * while another was shown stays for when it is shown).
   */
  leaveScreen(id: string): void;
  /**
   * `:profile <name>`, Enter on Systems: switch to a saved profile (the screens restart on it), or to the
   * profile given (one that is not saved: the `--sandbox` session's own).
   */
  switchProfile(name: string, profile?: Profile): Promise<void>;
  /** The push receiver running in-process (`--listen`, `--sandbox`), if any. */
  receiver?: { url: string };
  /** The embedded sandbox (`--sandbox`), if any. */
  sandbox?: { url: string };
  /** Folder of the thread store etc. (PDESK_CONFIG_DIR or the user's config folder), if known. */
  configDir?: string;
  /**
   * The desk store (src/core/store): the team store on PostgreSQL when the desk has one, else the config folder's
   * files; undefined without a config folder. Every call names the profile.
   */
  store?: DeskStore;
  /** Who the operator is: recorded on what they send, their assignments and audit records (decisions.md §17). */
  operator: string;
}

export interface RunOptions<T> {
  /** Shown on success. */
  okText?: (value: T) => string;
  /** The kind of the success text (default ok): a check run that found failures is an error to read. */
  okKind?: (value: T) => StatusKind;
  /**
   * What a successful task says of the connection (default: online, with its time). A task that succeeds
   * whatever the server did (a check run reports unreachable servers) says it here; undefined leaves it as it is.
   */
  connection?: (value: T) => Connection | undefined;
  /**
   * The call sends something that must not be sent twice (a POST): abandoning it does not undo it, and the
   * status line says so.
   */
  sends?: boolean;
  /**
   * A refresh in the background (after a refusal): the status line keeps what it says meanwhile (the
   * refusal) instead of being cleared when the call starts.
   */
  quiet?: boolean;
}

/** A status message with its place in time (a newer one wins the status line). */
export type Message = StatusMessage & { seq: number };

export interface DeskStatus {
  /** The latest message not set by a screen (the palette, a profile switch, the inspector). */
  status?: Message;
  /** Each screen's latest message (by screen id): shown while that screen is the one shown. */
  screens?: Readonly<Record<string, Message>>;
  /** The running task; `since`: the last message before it began (a later one is shown beside it). */
  busy?: { label: string; started: number; since: number };
  connection: Connection;
  /** Milliseconds of the last successful request, if any. */
  lastMs?: number;
}

/** What the status line shows on screen `screen`: the newer of that screen's message and the desk's own. */
export function statusOn(s: DeskStatus, screen: string | undefined): Message | undefined {
  const own = screen === undefined ? undefined : s.screens?.[screen];
  if (!own) return s.status;
  return !s.status || own.seq > s.status.seq ? own : s.status;
}

interface ScopedDesk extends Desk {
  /** The desk as a screen's code sees it: its messages and tasks' messages are that screen's. */
  scoped(screen: string): Desk;
}

const DeskContext = createContext<ScopedDesk | null>(null);
const StatusContext = createContext<DeskStatus>({ connection: 'unknown' });
/** The screen whose code is below (the App sets it around each screen); none: the desk's own. */
const ScreenScope = createContext<string | undefined>(undefined);

/** Around a screen: what its code says in the status line is that screen's, shown while it is the one shown. */
export function DeskScreen({ id, children }: { id: string; children: React.ReactNode }) {
  return <ScreenScope.Provider value={id}>{children}</ScreenScope.Provider>;
}

export function useDesk(): Desk {
  const d = useContext(DeskContext);
  const screen = useContext(ScreenScope);
  if (!d) throw new Error('useDesk outside <DeskProvider>');
  return screen === undefined ? d : d.scoped(screen);
}

export function useDeskStatus(): DeskStatus {
  return useContext(StatusContext);
}

/**
 * An error as status-line text: the sentence, then detail lines (OperationOutcome issues) without the request line,
 * then core's hints; sanitised (server text) and redacted (a server may quote a credential).
 */
export function errorText(e: unknown): string {
  if (typeof e === 'string') return redact(sanitize(e));
  if (e instanceof PdeskError) {
    const details = e.details.filter((d) => !/^request: /.test(d));
    return redact(sanitize([e.message, ...details, ...hintsText(e)].join(' · ')));
  }
  return redact(sanitize(`Unexpected error: ${(e as Error)?.message ?? String(e)}`));
}

export function isAbort(e: unknown): boolean {
  return e instanceof NetworkError && e.code === 'ABORTED';
}

/** A write waiting for the operator's confirmation on production (no review on its screen confirmed it). */
export interface WriteQuestion {
  id: number;
  /** `C2 (PATCH /Communication/m1)` */
  what: string;
  /** The base URL it goes to. */
  target: string;
  body?: unknown;
  answer(yes: boolean): void;
}

const QuestionContext = createContext<WriteQuestion | undefined>(undefined);
let questionSeq = 0;

/** The write waiting for a confirmation, if any (the App draws it over the screen). */
export function useWriteQuestion(): WriteQuestion | undefined {
  return useContext(QuestionContext);
}

export interface DeskProviderProps {
  profile: Profile;
  /**
   * For tests: build the client (default: a PdeskClient with `clientOptions`, whose writes go to the audit trail
   * of `configDir`). `o.beforeWrite` is the desk's confirmation of writes: a client made without it sends no write
   * on a production profile.
   */
  makeClient?: (p: Profile, o: Pick<ClientOptions, 'beforeWrite'>) => PdeskClient;
  /** Options of the default client: `--read-only`, `--trace`. */
  clientOptions?: ClientOptions;
  /** Load a saved profile by name (default: the profile store). */
  loadProfile?: (name: string) => Promise<Profile>;
  receiver?: { url: string };
  sandbox?: { url: string };
  configDir?: string;
  /** The desk store (main.tsx opens the one the desk is set up with); default: the file store of `configDir`. */
  store?: DeskStore;
  /** The operator (default: PDESK_OPERATOR, else `operator` in the config folder's settings, else the login name). */
  operator?: string;
  children: (desk: Desk) => React.ReactNode;
}

/** The operator as every face finds it, for a desk not told (tests, the welcome's sandbox). */
function defaultOperator(configDir: string | undefined): string {
  try {
    return operatorOf(process.env, configDir ? readSettings(configDir) : {}).name;
  } catch {
    return operatorOf({}).name;
  }
}

export function DeskProvider(p: DeskProviderProps) {
  // A confirmation typed on a screen (Confirm) is handed to the task it starts: `confirming` is set while its
  // `onYes` runs, and the `run` started meanwhile marks its signal; that task's first write passes the hook.
  const confirming = useRef(false);
  const confirmedTasks = useRef(new WeakSet<AbortSignal>());
  const [questions, setQuestions] = useState<WriteQuestion[]>([]);
  /** The client's beforeWrite on `prof`: nothing to ask off production; a confirmed task's write; else the question. */
  const confirmWrite = useCallback(
    (prof: Profile) =>
      (w: WriteDescription): Promise<void> | undefined => {
        if (!isProduction(prof)) return undefined;
        if (w.signal && confirmedTasks.current.delete(w.signal)) return undefined;
        const what = w.what;
        return new Promise<void>((resolve, reject) => {
          const signal = w.signal;
          const done = (error?: Error) => {
            signal?.removeEventListener('abort', onAbort);
            setQuestions((qs) => qs.filter((q) => q !== mine));
            if (error) reject(error);
            else resolve();
          };
          const onAbort = () => done(new UsageError(`Abandoned before it was confirmed: ${what} was not sent.`));
          const mine: WriteQuestion = {
            id: ++questionSeq,
            what,
            target: w.target,
            body: w.request.body,
            answer: (yes) => done(yes ? undefined : new UsageError(`Not confirmed: ${what} was not sent.`)),
          };
          if (signal?.aborted) return onAbort();
          signal?.addEventListener('abort', onAbort, { once: true });
          setQuestions((qs) => [...qs, mine]);
        });
      },
    [],
  );
  // The desk store: the one given, else the config folder's files (opened here, closed when the desk goes).
  const own = useMemo(() => (p.store || !p.configDir ? undefined : openFileStore(p.configDir)), [p.store, p.configDir]);
  useEffect(() => () => void own?.close().catch(() => undefined), [own]);
  const store = p.store ?? own;
  const operator = useMemo(() => p.operator ?? defaultOperator(p.configDir), [p.operator, p.configDir]);
  const makeClient = (prof: Profile) =>
    p.makeClient
      ? p.makeClient(prof, { beforeWrite: confirmWrite(prof) })
      : new PdeskClient(prof, {
          ...p.clientOptions,
          // The desk's audit trail: its file, or the team store this desk already opened.
          ...(p.configDir ? { audit: { dir: p.configDir, ...(store ? { store: async () => store } : {}) } } : {}),
          beforeWrite: confirmWrite(prof),
        });
  const typed = useMemo(
    () => ({
      confirmed: (fn: () => void) => {
        confirming.current = true;
        try {
          fn();
        } finally {
          confirming.current = false;
        }
      },
    }),
    [],
  );
  const [profile, setProfile] = useState(p.profile);
  const [client, setClient] = useState(() => makeClient(p.profile));
  const [status, setStatus] = useState<DeskStatus>({ connection: 'unknown' });
  const controllers = useRef(new Set<{ ctrl: AbortController; label: string }>());
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      for (const c of controllers.current) c.ctrl.abort();
    };
  }, []);
  // Close the client's pools when it is replaced or the TUI ends.
  useEffect(() => () => void client.close().catch(() => undefined), [client]);

  // Every status message bumps `statusSeq`; a finished run shows its success text only if no newer message
  // was set meanwhile in its place (a slow background load must not overwrite what the operator just did).
  // A message belongs to the screen whose code set it (`screen`), or to the desk (undefined).
  const statusSeq = useRef(0);
  const lastSeq = useRef(new Map<string | undefined, number>());
  const put = useCallback((screen: string | undefined, m: StatusMessage | undefined) => {
    const seq = ++statusSeq.current;
    lastSeq.current.set(screen, seq);
    return (s: DeskStatus): DeskStatus => {
      const msg = m && { ...m, seq };
      if (screen === undefined) return { ...s, status: msg };
      const screens = { ...s.screens };
      if (msg) screens[screen] = msg;
      else delete screens[screen];
      return { ...s, screens };
    };
  }, []);
  const setMsg = useCallback(
    (kind: StatusKind, text: string, screen?: string) => setStatus(put(screen, { kind, text: sanitize(text) })),
    [put],
  );
  // Tasks of a profile left behind (a switch) say nothing about the new one.
  const generation = useRef(0);

  const refreshBusy = useCallback(() => {
    const list = [...controllers.current];
    const last = list[list.length - 1];
    setStatus((s) => ({
      ...s,
      busy: last ? { label: last.label, started: s.busy?.started ?? Date.now(), since: s.busy?.since ?? statusSeq.current } : undefined,
    }));
  }, []);

  const run = useCallback(
    async <T,>(label: string, fn: (signal: AbortSignal) => Promise<T>, o: RunOptions<T> = {}, screen?: string): Promise<TaskResult<T>> => {
      const entry = { ctrl: new AbortController(), label };
      controllers.current.add(entry);
      // Started by a typed confirmation (Confirm's onYes): its write needs no second one.
      if (confirming.current) {
        confirming.current = false;
        confirmedTasks.current.add(entry.ctrl.signal);
      }
      const started = Date.now();
      const gen = generation.current;
      const clear = o.quiet ? undefined : put(screen, undefined);
      const seq = lastSeq.current.get(screen);
      const since = statusSeq.current;
      setStatus((s) => ({ ...(clear ? clear(s) : s), busy: { label, started, since } }));
      // Whether this task still speaks for the desk's profile, and its message is the latest in its place.
      const current = () => mounted.current && generation.current === gen;
      try {
        const value = await fn(entry.ctrl.signal);
        if (!current()) return { ok: true, value };
        const latest = lastSeq.current.get(screen) === seq;
        const said = o.okText && latest ? put(screen, { kind: o.okKind?.(value) ?? 'ok', text: sanitize(o.okText(value)) }) : undefined;
        const connection = o.connection ? o.connection(value) : 'online';
        setStatus((s) => ({
          ...(said ? said(s) : s),
          ...(connection ? { connection } : {}),
          ...(o.connection ? {} : { lastMs: Date.now() - started }),
        }));
        return { ok: true, value };
      } catch (error) {
        const aborted = entry.ctrl.signal.aborted || isAbort(error);
        if (current()) {
          const said = put(
            screen,
            !aborted
              ? { kind: 'error', text: errorText(error) }
              : o.sends
                ? {
                    kind: 'error',
                    text: `Abandoned: ${label}. It may have reached the server all the same: check before sending it again.`,
                  }
                : { kind: 'info', text: `Abandoned: ${label}.` },
          );
          setStatus((s) => ({
            ...said(s),
            connection: aborted
              ? s.connection
              : error instanceof NetworkError
                ? 'offline'
                : error instanceof HttpError
                  ? 'online'
                  : s.connection,
          }));
        }
        return { ok: false, error, aborted };
      } finally {
        controllers.current.delete(entry);
        confirmedTasks.current.delete(entry.ctrl.signal);
        if (mounted.current) refreshBusy();
      }
    },
    [refreshBusy, put],
  );

  const abort = useCallback(() => {
    for (const c of controllers.current) c.ctrl.abort();
  }, []);

  // The profile loader and client factory are read when a switch happens (the latest props).
  const factories = useRef({ load: p.loadProfile, make: makeClient });
  factories.current = { load: p.loadProfile, make: makeClient };
  const switchProfile = useCallback(
    async (name: string, given?: Profile) => {
      try {
        const load =
          factories.current.load ??
          (async (n: string) => {
            const { loadProfile } = await import('../profiles/store.js');
            return loadProfile(n);
          });
        const next = given ?? (await load(name));
        abort();
        generation.current++;
        setProfile(next);
        setClient(factories.current.make(next));
        // Every screen restarts on the new profile: what they said of the old one goes.
        setStatus({ connection: 'unknown', status: { kind: 'ok', text: `Profile ${next.name}.`, seq: ++statusSeq.current } });
      } catch (e) {
        setMsg('error', errorText(e));
      }
    },
    [abort, setMsg],
  );

  // While something runs, Esc abandons it (above forms, below modals; other keys pass through).
  useKeys([{ keys: ['esc'], label: 'abandon', help: 'abandon the running request', run: () => abort() }], {
    layer: 'busy',
    active: !!status.busy,
  });

  const desk = useMemo<ScopedDesk>(() => {
    /** The desk whose messages belong to `screen` (undefined: the desk's own). */
    const make = (screen: string | undefined): Desk => {
      /** Under read-only: say why a write key does nothing (`Profile "x" is read-only`, then what it would do). */
      const writable = (op: OpId, what: string) => {
        const refused = client.refusalOf(op);
        if (!refused) return true;
        setMsg('error', `${refused.message.replace(/: .*$/s, '')}: ${what} (${op}) is not available.`, screen);
        return false;
      };
      return {
        profile,
        client,
        readOnly: client.readOnly,
        writable,
        guard: (op, what, fn) => () => {
          if (writable(op, what)) fn();
        },
        run: (label, fn, o) => run(label, fn, o, screen),
        abort,
        running: () => controllers.current.size > 0,
        info: (t) => setMsg('info', t, screen),
        ok: (t) => setMsg('ok', t, screen),
        error: (e) => setMsg('error', errorText(e), screen),
        clearStatus: () => setStatus(put(screen, undefined)),
        connectionSeen: (connection, ms) =>
          setStatus((s) => ({ ...s, connection, ...(connection === 'online' && ms !== undefined ? { lastMs: ms } : {}) })),
        leaveScreen: (id) =>
          setStatus((s) => {
            const screens = { ...s.screens };
            delete screens[id];
            return { ...s, status: undefined, screens };
          }),
        switchProfile,
        receiver: p.receiver,
        sandbox: p.sandbox,
        configDir: p.configDir,
        store,
        operator,
      };
    };
    const scopes = new Map<string, Desk>();
    return Object.assign(make(undefined), {
      scoped: (screen: string) => {
        const known = scopes.get(screen);
        if (known) return known;
        const d = make(screen);
        scopes.set(screen, d);
        return d;
      },
    });
  }, [profile, client, run, abort, setMsg, put, switchProfile, p.receiver, p.sandbox, p.configDir, store, operator]);

  return (
    <DeskContext.Provider value={desk}>
      <StatusContext.Provider value={status}>
        {/* On production every confirmation of a write asks for the profile's name to be typed. */}
        <TypedConfirmation.Provider value={isProduction(profile) ? { word: profile.name, confirmed: typed.confirmed } : undefined}>
          <QuestionContext.Provider value={questions[0]}>{p.children(desk)}</QuestionContext.Provider>
        </TypedConfirmation.Provider>
      </StatusContext.Provider>
    </DeskContext.Provider>
  );
}
