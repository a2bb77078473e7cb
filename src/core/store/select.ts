/**
 * Which store engine a desk uses (docs/decisions.md §17): `PDESK_STORE_URL`, else the variable named by
 * `storeUrlEnv` in the settings file, selects the team store on PostgreSQL; neither means the embedded file store
 * in the config folder, as it always was. A settings file that names a variable which is not set is an error, never
 * a quiet fall-back to the file store (an operator would answer from an inbox nobody else sees).
 *
 * The URL's password is a secret: registered for redaction when the URL is read (src/core/redact.ts), and every
 * text pdesk shows of the URL is `redactStoreUrl`'s.
 */
import { ConfigError } from '../errors.js';
import { REDACTED, registerSecret } from '../redact.js';
import { type Settings, settingsPath } from '../settings.js';

type Env = Readonly<Record<string, string | undefined>>;

export type StoreSelection =
  | { engine: 'file' }
  | {
      engine: 'postgres';
      /** The URL as given, password included: for the driver only, never for printing. */
      url: string;
      /** Where it came from: `PDESK_STORE_URL`, or `PDESK_TEAM_DB (storeUrlEnv in /…/config.json)`. */
      source: string;
    };

/** `postgres://user:***@host:5432/db?sslmode=require`: the password (in the authority or a `password` parameter) hidden. */
export function redactStoreUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*:)([^@/?#]*)@/i, (_, head: string) => `${head}${REDACTED}@`)
    .replace(/([?&]password=)[^&#]*/gi, (_, head: string) => `${head}${REDACTED}`);
}

/** The passwords in a store URL, as written and decoded (both are registered as secrets). */
function passwordsOf(url: string): string[] {
  const out: string[] = [];
  const inAuthority = /^[a-z][a-z0-9+.-]*:\/\/[^:@/?#]*:([^@/?#]*)@/i.exec(url)?.[1];
  if (inAuthority) out.push(inAuthority);
  for (const m of url.matchAll(/[?&]password=([^&#]*)/gi)) out.push(m[1]!);
  const decoded = out.map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  return [...out, ...decoded];
}

function checkUrl(url: string, source: string): void {
  if (!/^postgres(ql)?:\/\//i.test(url))
    throw new ConfigError(`The team store URL from ${source} is not a PostgreSQL URL (postgres://user:password@host:5432/database).`);
}

/** The store this desk uses; a PostgreSQL URL's password is registered as a secret. */
export function selectStore(env: Env, settings: Settings, configDir: string): StoreSelection {
  let url = env.PDESK_STORE_URL;
  let source = 'PDESK_STORE_URL';
  if (!url && settings.storeUrlEnv) {
    source = `${settings.storeUrlEnv} (storeUrlEnv in ${settingsPath(configDir)})`;
    url = env[settings.storeUrlEnv];
    if (!url)
      throw new ConfigError(
        `The team store's URL is to be in ${settings.storeUrlEnv} (storeUrlEnv in ${settingsPath(configDir)}), which is not set.`,
        [`Set ${settings.storeUrlEnv} to postgres://user:password@host:5432/database, or remove storeUrlEnv to use the local file store.`],
      );
  }
  if (!url) return { engine: 'file' };
  for (const p of passwordsOf(url)) registerSecret(p);
  checkUrl(url, source);
  return { engine: 'postgres', url, source };
}
