/**
 * Start the TUI (loaded by `pdesk tui` with `await import`, so Ink and React load only here): pick the
 * profile (or start the embedded sandbox with a temporary profile), enter the alternate screen, render, and
 * restore the terminal on every exit path — q (exit 0), Ctrl-C (130), SIGTERM/SIGHUP, an exception — then exit the process.
 */
import { render } from 'ink';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, PdeskError, UsageError } from '../core/errors.js';
import type { DeskStore } from '../core/store/types.js';
import { redact } from '../core/redact.js';
import { sanitize } from '../core/sanitize.js';
import { Profile } from '../core/profile/schema.js';
import { Root, type StartedSandbox } from './app.js';
import { hintsText } from './hints.js';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, SHOW_CURSOR } from './terminal.js';

export interface TuiOptions {
  /** `--profile` (else PDESK_PROFILE, else the default profile). */
  profileName?: string;
  /** `--sandbox`: start the embedded sandbox in-process on a free port and open a temporary profile for it. */
  sandbox?: boolean;
  /** `--listen [port]`: run the push receiver in-process (true = default port). */
  listen?: number | true;
  verbose?: boolean;
  /** `--read-only`: only GET is sent, whatever the profile says (the profile's `readOnly` holds anyway). */
  readOnly?: boolean;
  /** `--trace <file>` / PDESK_TRACE: every exchange of the session appended to this file. */
  trace?: string;
}

/** How long the sandbox, receiver and stores may take to close on exit before the process ends anyway. */
const CLOSE_GRACE_MS = 1500;

interface Closable {
  close(): Promise<void> | void;
}

/**
 * The push receiver in-process, recording into the desk store (the team store, or the config folder's files) for
 * `profileName`. The store stays open when the receiver closes: its owner (the TUI) closes it.
 */
export async function startListening(store: DeskStore, profileName: string, port: number | true): Promise<{ url: string } & Closable> {
  const { startReceiver, DEFAULT_LISTEN_PORT } = await import('../listen/receiver.js');
  try {
    await store.prepare(profileName);
  } catch (e) {
    if (e instanceof PdeskError) throw e; // the team store's own error names it (password hidden)
    throw new ConfigError(
      `The thread store ${store.where(profileName)} cannot be opened for writing (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
    );
  }
  const p = port === true ? DEFAULT_LISTEN_PORT : port;
  try {
    // Receiver problems must not write over the screen: they are dropped here (the store reports its own).
    const receiver = await startReceiver({ port: p, host: '127.0.0.1', store, profile: profileName, log: () => undefined });
    return { url: receiver.url, close: () => receiver.close().catch(() => undefined) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`--listen: port ${p} is already in use on 127.0.0.1.`, ['Pick another port, or --listen 0 for any free one.']);
    throw e;
  }
}

/**
 * Start the embedded sandbox on a free port with a temporary profile (never saved) and a push receiver whose
 * thread store lives in a temporary folder (always the file store: a demo never writes to a team's database); the
 * sandbox pushes its chat replies to that receiver, and the desk reads the same store.
 */
export async function startEmbeddedSandbox(listen: number | true = 0): Promise<StartedSandbox & { server: Closable }> {
  const { startSandbox } = await import('../sandbox/server.js');
  const { sandboxProfile } = await import('../sandbox/profile.js');
  const { openFileStore } = await import('../core/store/file/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-tui-sandbox-'));
  const closables: Closable[] = [{ close: () => rmSync(dir, { recursive: true, force: true }) }];
  const close = async () => {
    for (const c of closables.reverse()) await Promise.resolve(c.close()).catch(() => undefined);
  };
  try {
    const store = openFileStore(dir);
    closables.push(store);
    const receiver = await startListening(store, 'sandbox', listen);
    closables.push(receiver);
    const server = await startSandbox({ port: 0, pushTo: `${receiver.url}/portal`, log: () => undefined });
    closables.push(server);
    const profile = Profile.parse(sandboxProfile(server.url, { name: 'sandbox' }));
    return { profile, sandbox: { url: server.url }, receiver: { url: receiver.url }, configDir: dir, store, server: { close } };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * The options of the desk's client: `--read-only`, and with `--trace` every exchange traced, each write's line
 * written as it leaves too, before its answer (as the CLI's), so that a session killed in flight still shows it.
 */
export function deskClientOptions(
  o: Pick<TuiOptions, 'readOnly'>,
  trace?: Pick<import('../core/trace.js').TraceWriter, 'write' | 'start'>,
): import('../core/client.js').ClientOptions {
  return {
    ...(o.readOnly ? { readOnly: true, readOnlyWhy: '--read-only' } : {}),
    ...(trace ? { observe: (e) => trace.write(e), observeSend: (e) => trace.start(e) } : {}),
  };
}

/** More than one saved profile: pdesk opens on the Systems screen (every profile at a glance). */
async function savedProfileCount(): Promise<number> {
  try {
    return (await import('../profiles/store.js')).listProfiles().length;
  } catch {
    return 0;
  }
}

async function selectProfile(name: string | undefined): Promise<Profile | undefined> {
  const { listProfiles, loadProfile } = await import('../profiles/store.js');
  try {
    return loadProfile(name);
  } catch (e) {
    // No profile at all: the TUI offers the sandbox or points to `pdesk profile import`.
    if (e instanceof ConfigError && !name && !process.env.PDESK_PROFILE && listProfiles().length === 0) return undefined;
    throw e;
  }
}

/** Run the TUI until the operator quits; never returns (exits the process). */
export async function runTui(o: TuiOptions): Promise<never> {
  const closables: Closable[] = [];
  let started: (StartedSandbox & { server: Closable }) | undefined;
  let profile: Profile | undefined;
  let configDir: string | undefined;
  let receiver: { url: string } | undefined;
  let initialScreen: 'systems' | undefined;
  /** The desk store (the team store when one is configured, else the config folder's files) and the operator. */
  let store: DeskStore | undefined;
  let operator: string | undefined;
  try {
    if (o.sandbox) {
      started = await startEmbeddedSandbox(o.listen ?? 0);
      closables.push(started.server);
      profile = started.profile;
      configDir = started.configDir;
      receiver = started.receiver;
      store = started.store;
    } else {
      profile = await selectProfile(o.profileName);
      // With several saved profiles and none named (--profile, PDESK_PROFILE), the operator starts from the
      // overview of them all; a profile named is opened straight away (decisions in docs/decisions.md).
      if (profile && !o.profileName && !process.env.PDESK_PROFILE && (await savedProfileCount()) > 1) initialScreen = 'systems';
      try {
        configDir = (await import('../profiles/store.js')).configDir();
      } catch {
        /* no config folder: screens that need one say so */
      }
      if (configDir) {
        // The store every command of this desk uses: a settings file naming a variable that is not set stops here.
        const { readSettings } = await import('../core/settings.js');
        const { operatorOf } = await import('../core/operator.js');
        const { selectStore } = await import('../core/store/select.js');
        const { openDeskStore } = await import('../core/store/open.js');
        const settings = readSettings(configDir);
        operator = operatorOf(process.env, settings).name;
        const opened = await openDeskStore(selectStore(process.env, settings, configDir), { dir: configDir, operator });
        store = opened;
        closables.push(opened);
      }
      if (o.listen !== undefined && profile) {
        if (!configDir || !store) throw new ConfigError('--listen needs a config folder for the thread store (set PDESK_CONFIG_DIR).');
        const r = await startListening(store, profile.name, o.listen);
        closables.push(r);
        receiver = { url: r.url };
      }
    }
  } catch (e) {
    await Promise.allSettled(closables.map((c) => c.close()));
    throw e;
  }

  const out = process.stdout;
  /** False once the terminal is gone (SIGHUP, EIO): nothing more is written to it. */
  let terminal = true;
  const write = (stream: NodeJS.WriteStream, text: string) => {
    if (!terminal) return;
    try {
      stream.write(text);
    } catch {
      terminal = false;
    }
  };
  // A closed terminal makes every write fail: note it instead of crashing into the exception handler.
  const onStreamError = () => {
    terminal = false;
  };
  out.on('error', onStreamError);
  process.stderr.on('error', onStreamError);

  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      if (process.stdin.isTTY) process.stdin.setRawMode?.(false);
    } catch {
      /* already closed */
    }
    write(out, LEAVE_ALT_SCREEN + SHOW_CURSOR);
  };
  let shuttingDown = false;
  const shutdown = async (code: number, error?: unknown): Promise<never> => {
    // Once only: a second signal or an error while closing must not start another round.
    if (shuttingDown) return new Promise<never>(() => undefined);
    shuttingDown = true;
    // Whatever happens below, the process ends.
    setTimeout(() => process.exit(code), CLOSE_GRACE_MS + 500).unref();
    try {
      instance.unmount();
    } catch {
      /* already unmounted */
    }
    restore();
    if (error !== undefined) {
      const lines =
        error instanceof PdeskError
          ? [error.message, ...error.details, ...hintsText(error)]
          : [`unexpected error: ${(error as Error)?.message ?? String(error)}`];
      for (const l of lines) write(process.stderr, `pdesk: ${redact(sanitize(l, true))}\n`);
      if (o.verbose && (error as Error)?.stack) write(process.stderr, `${(error as Error).stack}\n`);
    }
    // Servers wait for open keep-alive connections: give them a moment, not forever.
    await Promise.race([Promise.allSettled(closables.map((c) => c.close())), new Promise((r) => setTimeout(r, CLOSE_GRACE_MS).unref())]);
    process.exit(code);
  };
  process.on('exit', restore);
  process.on('uncaughtException', (e) => void shutdown(1, e));
  process.on('unhandledRejection', (e) => void shutdown(1, e));
  process.on('SIGTERM', () => void shutdown(143));
  // The terminal may be gone (a closed window) or not (kill -HUP): restoring is tried, a failed write is harmless.
  process.on('SIGHUP', () => void shutdown(129));
  process.on('SIGINT', () => void shutdown(130));

  // --trace: opened before the first frame (a file that cannot be written is exit 2, on the plain terminal).
  let trace: import('../core/trace.js').TraceWriter | undefined;
  if (o.trace) {
    try {
      const { TraceWriter } = await import('../core/trace.js');
      trace = TraceWriter.open(o.trace, profile);
    } catch (e) {
      await Promise.allSettled(closables.map((c) => c.close()));
      throw e;
    }
    closables.push({ close: () => trace?.close() });
  }
  const clientOptions = deskClientOptions(o, trace);

  write(out, ENTER_ALT_SCREEN);
  /** 0 after q, 130 after Ctrl-C (cli.md: an interrupted run exits 130). */
  let quitCode = 0;
  const instance = render(
    <Root
      clientOptions={clientOptions}
      profile={profile}
      sandbox={started?.sandbox}
      receiver={receiver}
      configDir={configDir}
      store={store}
      operator={operator}
      initialScreen={initialScreen}
      onQuit={(code) => {
        quitCode = code;
        instance.unmount();
      }}
      startSandbox={async () => {
        const s = await startEmbeddedSandbox(o.listen ?? 0);
        closables.push(s.server);
        return s;
      }}
    />,
    { exitOnCtrlC: false, patchConsole: true, maxFps: 60 },
  );
  try {
    await instance.waitUntilExit();
  } catch (e) {
    return shutdown(1, e);
  }
  return shutdown(quitCode);
}
