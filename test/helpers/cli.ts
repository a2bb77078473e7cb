/**
 * The process helper: run `bin/pdesk.js` as a real process (the tests of test/process/: exit codes, start-up,
 * signals, the install path), and a sandbox started in-process on an ephemeral port with a fresh
 * PDESK_CONFIG_DIR holding a profile for it. Command tests run in-process instead (test/helpers/run.ts).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProfileInput } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { tempDir, writeProfiles } from './config.js';

export { tempDir, writeProfiles };

export const BIN = fileURLToPath(new URL('../../bin/pdesk.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws with the output shown if it is not JSON). */
  json<T = any>(): T;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  configDir?: string;
  timeoutMs?: number;
  cwd?: string;
}

/** A result with `json()`, whichever way the command ran. */
export function cliResult(code: number, stdout: string, stderr: string): CliResult {
  return {
    code,
    stdout,
    stderr,
    json() {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
      }
    },
  };
}

export function runCli(args: string[], o: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: '1', ...o.env })) if (v !== undefined) env[k] = v;
    delete env.PDESK_PROFILE;
    if (o.env?.PDESK_PROFILE) env.PDESK_PROFILE = o.env.PDESK_PROFILE;
    if (o.configDir) env.PDESK_CONFIG_DIR = o.configDir;
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: o.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve(cliResult(code ?? (signal ? 128 : 1), stdout, stderr));
    });
    child.stdin.end(o.input ?? '');
  });
}

export interface Env<R extends RunOptions = RunOptions> {
  sandbox: Sandbox;
  configDir: string;
  profile: ProfileInput;
  run(args: string[], o?: R): Promise<CliResult>;
  close(): Promise<void>;
}

/** A sandbox on port 0 plus a config dir whose default profile points at it; `runner` runs a command in it. */
export async function sandboxEnv<R extends RunOptions>(
  runner: (args: string[], o: R) => Promise<CliResult>,
  opts: SandboxOptions = {},
  profileOverrides: Partial<ProfileInput> = {},
): Promise<Env<R>> {
  const sandbox = await startSandbox({ port: 0, ...opts });
  const configDir = tempDir();
  const profile = {
    ...sandboxProfile(sandbox.url, { appointmentApi: opts.appointmentApi, approvalFlow: opts.approvalFlow }),
    ...profileOverrides,
  } as ProfileInput;
  writeProfiles(configDir, [profile]);
  return {
    sandbox,
    configDir,
    profile,
    run: (args, o = {} as R) => runner(args, { configDir, ...o }),
    async close() {
      await sandbox.close();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** A sandbox on port 0 plus a config dir whose default profile points at it; commands run as processes. */
export function withSandbox(opts: SandboxOptions = {}, profileOverrides: Partial<ProfileInput> = {}): Promise<Env> {
  return sandboxEnv(runCli, opts, profileOverrides);
}
