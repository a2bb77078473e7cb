/**
 * The in-process helper: run a pdesk command inside the test process with an in-memory IO (src/cli/io.ts,
 * `testIO()`), as `bin/pdesk.js` would run it, and get `{code, stdout, stderr}` back. Same shape as the process
 * helper (test/helpers/cli.ts), so converting a test is mostly changing the import. Each run closes its client
 * and forgets the secrets and tokens it registered (runProgram does), so runs do not leak state into each other.
 *
 * The environment is the test process's, with NO_COLOR=1, without PDESK_PROFILE, then `env`, as for a process;
 * a TZ in `env` is the process's time zone for the length of the run.
 */
import { Context, type Deps, type GlobalOptions } from '../../src/cli/context.js';
import type { Signal } from '../../src/cli/io.js';
import { testIO } from '../../src/cli/io.js';
import { runProgram } from '../../src/cli/main.js';
import type { ProfileInput } from '../../src/core/profile/schema.js';
import type { SandboxOptions } from '../../src/sandbox/server.js';
import { type CliResult, type Env as SandboxEnv, cliResult, sandboxEnv, type RunOptions as ProcessRunOptions } from './cli.js';

export { tempDir, writeProfiles } from './config.js';
export type { CliResult };

/** A sandbox and a config folder for it, whose `run` runs commands in-process. */
export type Env = SandboxEnv<RunOptions>;

export interface RunOptions extends Omit<ProcessRunOptions, 'timeoutMs' | 'cwd'> {
  /** Make stdin, stdout and stderr terminals (or say per stream). */
  tty?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  /** The terminal's width (with `tty`). */
  columns?: number;
  /** The clock relative dates are reckoned from. */
  now?: () => Date;
  /** Called once the command runs, with a way to deliver a signal to it (Ctrl-C). */
  signals?: (send: (signal: Signal) => void) => void;
  /** Make the command's client (runProgram's `makeClient`): a test sees the options the command gives it. */
  makeClient?: Deps['makeClient'];
}

export interface InProcessResult extends CliResult {
  /** What the command threw, if anything (the error behind a non-zero exit). */
  error?: unknown;
}

/** The environment a command runs with: the test process's, with NO_COLOR=1, without PDESK_PROFILE, then `o`'s. */
function commandEnv(o: Pick<RunOptions, 'env' | 'configDir'>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...o.env };
  if (!o.env?.PDESK_PROFILE) delete env.PDESK_PROFILE;
  if (o.configDir) env.PDESK_CONFIG_DIR = o.configDir;
  return env;
}

export async function run(args: string[], o: RunOptions = {}): Promise<InProcessResult> {
  const env = commandEnv(o);
  const t = testIO({ stdin: o.input, tty: o.tty, columns: o.columns, env });
  o.signals?.(t.signal);
  // The time zone is the process's (Node reads process.env.TZ when it changes): `env: {TZ}` holds for the run.
  const tz = process.env.TZ;
  if (o.env?.TZ !== undefined) process.env.TZ = o.env.TZ;
  let result: { code: number; error?: unknown };
  try {
    const ran = runProgram(args, { io: t.io, now: o.now, makeClient: o.makeClient });
    // `exitNow` (a second Ctrl-C) ends the run at once, as it ends a process.
    result = await Promise.race([ran, t.exited.then((code) => ({ code, error: undefined }))]);
  } finally {
    if (o.env?.TZ !== undefined) {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  }
  const r = cliResult(result.code, t.stdout(), t.stderr()) as InProcessResult;
  r.error = result.error;
  return r;
}

/** A sandbox on port 0 plus a config dir whose default profile points at it; commands run in-process. */
export function withSandbox(opts: SandboxOptions = {}, profileOverrides: Partial<ProfileInput> = {}): Promise<Env> {
  return sandboxEnv(run, opts, profileOverrides);
}

export interface ContextOptions extends Pick<RunOptions, 'configDir' | 'env' | 'input' | 'tty' | 'columns' | 'now'> {
  /** The global options (`{json: true}` for `--json`). */
  globals?: GlobalOptions;
  /** The command's options as if given on a command line (long flags), for what `--body` refuses. */
  given?: string[];
}

/**
 * A Context for calling a verb's `run(ctx, options)` directly, without a command line: an in-memory IO, the
 * environment `run` gives a command. Read what it printed with `stdout()`, `stderr()` and `json()`; `close()`
 * closes its client.
 */
export function testContext(o: ContextOptions = {}) {
  const t = testIO({ stdin: o.input, tty: o.tty, columns: o.columns, env: commandEnv(o) });
  const ctx = new Context(o.globals ?? {}, { io: t.io, now: o.now }, o.given);
  return { ctx, stdout: t.stdout, stderr: t.stderr, json: () => JSON.parse(t.stdout()), close: () => ctx.close() };
}
