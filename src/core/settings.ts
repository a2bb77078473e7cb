/**
 * pdesk's own settings: `config.json` in the config folder (beside `profiles.json`), settings that belong to the
 * desk rather than to one practice system's profile. Optional: a missing file is no settings. Validated with zod,
 * strict keys: an unknown key (a typo) is a ConfigError naming it, never ignored.
 *
 *   { "storeUrlEnv": "PDESK_TEAM_DB", "operator": "alice" }
 *
 * - `storeUrlEnv`: the name of the environment variable holding the team store's PostgreSQL URL (the URL itself,
 *   with its password, never goes into a file; `PDESK_STORE_URL` is read first: src/core/store/select.ts).
 * - `operator`: who this desk's operator is (`PDESK_OPERATOR` is read first: src/core/operator.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './errors.js';
import { jsonPath } from './schemas/common.js';
import * as z from './schemas/zod.js';

export const SETTINGS_FILE = 'config.json';

/** An environment variable's name, as a shell would take it. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An operator's name: printable, one line, at most 100 characters, not blank. */
export const MAX_OPERATOR_LENGTH = 100;
export function operatorProblem(name: string): string | undefined {
  if (name.trim() === '') return 'must not be empty';
  if (name !== name.trim()) return 'must not start or end with spaces';
  if (name.length > MAX_OPERATOR_LENGTH) return `must be at most ${MAX_OPERATOR_LENGTH} characters`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'must not hold control characters';
  return undefined;
}

export const Settings = z.strictObject({
  storeUrlEnv: z.optional(z.string().check(z.regex(ENV_NAME, 'expected an environment variable name such as PDESK_TEAM_DB'))),
  operator: z.optional(
    z.string().check(
      z.refine((v) => operatorProblem(v) === undefined, {
        error: (i) => `operator ${operatorProblem(String(i.input))}`,
      }),
    ),
  ),
});
export type Settings = z.infer<typeof Settings>;

export function settingsPath(dir: string): string {
  return join(dir, SETTINGS_FILE);
}

/** The settings of a config folder: `{}` without a file; a file that is not valid settings is a ConfigError. */
export function readSettings(dir: string): Settings {
  const path = settingsPath(dir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`The settings file ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`The settings file ${path} is not JSON: ${(e as Error).message}.`);
  }
  const r = z.safeParse(Settings, value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys')
    throw new ConfigError(`Unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')} in ${path}.`, [
      'It may hold "storeUrlEnv" and "operator".',
    ]);
  throw new ConfigError(`Invalid settings in ${path} at ${jsonPath(issue.path)}: ${issue.message}.`);
}
