/**
 * Secret resolution for profile auth: environment variable, a command's stdout, or a value stored in the
 * profile (discouraged). Every resolved secret is registered for redaction before it is used.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { registerSecret } from '../redact.js';
import { nodeChildProcess } from '../builtins.js';

const commandCache = new Map<string, string>();

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Forget the token commands' outputs. A one-shot process never needs this; a program run in-process (tests)
 * calls it when the run ends, so the next run asks the command again.
 */
export function forgetCommandSecrets(): void {
  commandCache.clear();
}

export function secretFromEnv(name: string, what: string, env: Env = process.env): string {
  // A value read from a file keeps its line break (`TOKEN=$(cat token.txt)` leaves the \r of a CRLF file): never
  // part of a secret, and in a header it makes the request fail as if the server could not be reached.
  const v = env[name]?.replace(/[\r\n]+$/, '');
  if (!v) throw new ConfigError(`The environment variable ${name} (${what}) is not set.`, [`Set it, e.g. export ${name}=…`]);
  registerSecret(v);
  return v;
}

export function secretFromCommand(command: string, what: string, env: Env = process.env): string {
  const cached = commandCache.get(command);
  if (cached) return cached;
  let out: string;
  try {
    // node:child_process on use (core/builtins.ts): only a tokenCommand needs it.
    out = nodeChildProcess()
      .execFileSync('/bin/sh', ['-c', command], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 30_000,
        env: env as NodeJS.ProcessEnv,
      })
      .trim();
  } catch (e) {
    const status = (e as { status?: number }).status;
    throw new ConfigError(`The token command for ${what} failed${status !== undefined ? ` with exit code ${status}` : ''}.`, [
      `command: ${command}`,
    ]);
  }
  if (!out) throw new ConfigError(`The token command for ${what} printed nothing.`, [`command: ${command}`]);
  registerSecret(out);
  commandCache.set(command, out);
  return out;
}

export function storedSecret(value: string): string {
  registerSecret(value);
  return value;
}

export function readPemFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`Cannot read the ${what} file ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}.`);
  }
}
