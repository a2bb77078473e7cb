/**
 * Start the TUI (loaded by `pdesk tui` with `await import`, so Ink and React load only here): pick the
 * profile (or start the embedded sandbox with a temporary profile), enter the alternate screen, render, and
 * restore the terminal on every exit path — q, Ctrl-C, SIGTERM/SIGHUP, an exception — then exit the process.
 */
import { render } from 'ink';
import React from 'react';
import { ConfigError, PdeskError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import { sanitize } from '../core/sanitize.js';
import { Profile } from '../profiles/schema.js';
import { Root, type StartedSandbox } from './app.js';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, SHOW_CURSOR } from './terminal.js';

export interface TuiOptions {
  /** `--profile` (else PDESK_PROFILE, else the default profile). */
  profileName?: string;
  /** `--sandbox`: start the embedded sandbox in-process on a free port and open a temporary profile for it. */
  sandbox?: boolean;
  /** `--listen [port]`: run the push receiver in-process (true = default port). */
  listen?: number | true;
  verbose?: boolean;
}

interface Closable {
  close(): Promise<void> | void;
}

/** Start the embedded sandbox on a free port; the profile is temporary (never saved). */
export async function startEmbeddedSandbox(): Promise<StartedSandbox & { server: Closable }> {
  const { startSandbox } = await import('../sandbox/server.js');
  const { sandboxProfile } = await import('../sandbox/profile.js');
  const server = await startSandbox({ port: 0 });
  const profile = Profile.parse(sandboxProfile(server.url, { name: 'sandbox' }));
  return { profile, sandbox: { url: server.url }, server };
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
  if (o.sandbox) {
    started = await startEmbeddedSandbox();
    closables.push(started.server);
    profile = started.profile;
  } else {
    profile = await selectProfile(o.profileName);
  }
  let configDir: string | undefined;
  try {
    configDir = (await import('../profiles/store.js')).configDir();
  } catch {
    /* no config folder: screens that need one say so */
  }

  const out = process.stdout;
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      if (process.stdin.isTTY) process.stdin.setRawMode?.(false);
    } catch {
      /* already closed */
    }
    out.write(LEAVE_ALT_SCREEN + SHOW_CURSOR);
  };
  const shutdown = async (code: number, error?: unknown) => {
    try {
      instance.unmount();
    } catch {
      /* already unmounted */
    }
    restore();
    if (error !== undefined) {
      const lines =
        error instanceof PdeskError ? [error.message, ...error.details] : [`unexpected error: ${(error as Error)?.message ?? String(error)}`];
      for (const l of lines) process.stderr.write(`pdesk: ${redact(sanitize(l, true))}\n`);
      if (o.verbose && (error as Error)?.stack) process.stderr.write(`${(error as Error).stack}\n`);
    }
    await Promise.allSettled(closables.map((c) => c.close()));
    process.exit(code);
  };
  process.on('exit', restore);
  process.on('uncaughtException', (e) => void shutdown(1, e));
  process.on('unhandledRejection', (e) => void shutdown(1, e));
  process.on('SIGTERM', () => void shutdown(143));
  process.on('SIGHUP', () => void shutdown(129));
  process.on('SIGINT', () => void shutdown(130));

  out.write(ENTER_ALT_SCREEN);
  const instance = render(
    <Root
      profile={profile}
      sandbox={started?.sandbox}
      receiver={started?.receiver}
      configDir={configDir}
      startSandbox={async () => {
        const s = await startEmbeddedSandbox();
        closables.push(s.server);
        return s;
      }}
    />,
    { exitOnCtrlC: false, patchConsole: true, maxFps: 60 },
  );
  try {
    await instance.waitUntilExit();
  } catch (e) {
    return shutdown(1, e) as Promise<never>;
  }
  return shutdown(0) as Promise<never>;
}
