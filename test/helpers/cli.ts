/**
 * Test helpers: run `bin/pdesk.js` as a real process, and start the sandbox in-process on an ephemeral port
 * with a fresh PDESK_CONFIG_DIR holding a profile for it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { ProfileInput } from '../../src/profiles/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

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
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout,
        stderr,
        json() {
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
          }
        },
      });
    });
    child.stdin.end(o.input ?? '');
  });
}

const made: string[] = [];
// Every folder made here is removed after the test file that imported this helper, whether or not a test
// cleaned up (a hook registered at import time belongs to the file).
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = 'pdesk-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Write a profile store holding `profiles` (the first is the default) into `dir`. */
export function writeProfiles(dir: string, profiles: ProfileInput[]): void {
  const store = {
    schemaVersion: 1,
    defaultProfile: profiles[0]?.name,
    profiles: Object.fromEntries(profiles.map((p) => [p.name, p])),
  };
  writeFileSync(join(dir, 'profiles.json'), JSON.stringify(store, null, 2), { mode: 0o600 });
}

export interface Env {
  sandbox: Sandbox;
  configDir: string;
  profile: ProfileInput;
  run(args: string[], o?: RunOptions): Promise<CliResult>;
  close(): Promise<void>;
}

/** A sandbox on port 0 plus a config dir whose default profile points at it. */
export async function withSandbox(opts: SandboxOptions = {}, profileOverrides: Partial<ProfileInput> = {}): Promise<Env> {
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
    run: (args, o = {}) => runCli(args, { configDir, ...o }),
    async close() {
      await sandbox.close();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
