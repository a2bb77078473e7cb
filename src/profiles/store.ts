/**
 * Profile store: `profiles.json` in PDESK_CONFIG_DIR or the user's config folder (the folder conf uses, from
 * env-paths), mode 0600. Writes go through conf (atomic, file mode), loaded only when a profile command writes;
 * reads parse the file directly, since conf pulls in ajv and signal hooks that every command would pay for at
 * start-up (DEVELOPERS.md, "Stack notes"). Profiles are validated with zod.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import envPaths from 'env-paths';
import { ConfigError } from '../core/errors.js';
import { jsonPath } from '../core/schemas/common.js';
import { PROFILE_SCHEMA_VERSION, Profile, type ProfileInput } from './schema.js';

interface StoreShape {
  schemaVersion: number;
  defaultProfile?: string;
  profiles: Record<string, ProfileInput>;
}

/** The folder for profiles, thread stores and journals. */
export function configDir(): string {
  return (process.env.PDESK_CONFIG_DIR || envPaths('pdesk', { suffix: '' }).config).replace(/\/+$/, '');
}

export function storePath(): string {
  return join(configDir(), 'profiles.json');
}

function checkVersion(v: unknown): void {
  if (typeof v === 'number' && v > PROFILE_SCHEMA_VERSION)
    throw new ConfigError(`The profile store ${storePath()} was written by a newer pdesk (schema ${v}).`);
}

function notJson(e: SyntaxError): ConfigError {
  // A hand-edited store that is not JSON is a configuration error (exit 3), not a crash.
  return new ConfigError(`The profile store ${storePath()} is not valid JSON.`, [
    e.message,
    'Fix the file, or move it away and import the profiles again.',
  ]);
}

/** The store as it is on disk (an absent file is an empty store; nothing is created by reading). */
function readStore(): StoreShape {
  let text: string;
  try {
    text = readFileSync(storePath(), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { schemaVersion: PROFILE_SCHEMA_VERSION, profiles: {} };
    throw new ConfigError(`Cannot read the profile store ${storePath()} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  let data: Partial<StoreShape>;
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    throw notJson(e as SyntaxError);
  }
  checkVersion(data.schemaVersion);
  const profiles = data.profiles && typeof data.profiles === 'object' && !Array.isArray(data.profiles) ? data.profiles : {};
  return { schemaVersion: data.schemaVersion ?? PROFILE_SCHEMA_VERSION, defaultProfile: data.defaultProfile, profiles };
}

let conf: Conf<StoreShape> | undefined;
/** conf, for writes only. */
async function writer(): Promise<Conf<StoreShape>> {
  if (!conf) {
    const { default: ConfClass } = await import('conf');
    try {
      conf = new ConfClass<StoreShape>({
        projectName: 'pdesk',
        projectSuffix: '',
        cwd: configDir(),
        configName: 'profiles',
        configFileMode: 0o600,
        defaults: { schemaVersion: PROFILE_SCHEMA_VERSION, profiles: {} },
      });
    } catch (e) {
      if (e instanceof SyntaxError) throw notJson(e);
      throw e;
    }
    checkVersion(conf.get('schemaVersion'));
  }
  return conf;
}

/** Validate a profile object; an unknown key or bad value is a ConfigError naming the key or path. */
export function validateProfile(input: unknown, source: string): Profile {
  const r = Profile.safeParse(input);
  if (r.success) return r.data;
  // An unknown key (a typo such as "praktice") explains the other issues it causes: report it first.
  const issue = r.error.issues.find((i) => i.code === 'unrecognized_keys') ?? r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys;
    const at = issue.path.length ? ` in ${jsonPath(issue.path).slice(2)}` : '';
    throw new ConfigError(`Unknown key ${keys.map((k) => `"${k}"`).join(', ')}${at} in ${source}.`);
  }
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  throw new ConfigError(
    `Invalid profile in ${source} at ${jsonPath(issue.path)}: ${missing ? 'required field is missing' : issue.message}.`,
  );
}

export function listProfiles(): { name: string; isDefault: boolean; profile: ProfileInput }[] {
  const s = readStore();
  return Object.entries(s.profiles).map(([name, profile]) => ({ name, isDefault: name === s.defaultProfile, profile }));
}

export async function saveProfile(p: Profile | ProfileInput, makeDefault = false): Promise<void> {
  const s = await writer();
  s.set('profiles', { ...s.get('profiles'), [p.name]: p });
  if (makeDefault || !s.get('defaultProfile')) s.set('defaultProfile', p.name);
}

export async function removeProfile(name: string): Promise<void> {
  const s = await writer();
  const profiles = { ...s.get('profiles') };
  if (!(name in profiles)) throw new ConfigError(`There is no profile named "${name}".`, knownHint());
  delete profiles[name];
  s.set('profiles', profiles);
  if (s.get('defaultProfile') === name) s.delete('defaultProfile');
}

export async function setDefaultProfile(name: string): Promise<void> {
  const s = await writer();
  if (!(name in s.get('profiles'))) throw new ConfigError(`There is no profile named "${name}".`, knownHint());
  s.set('defaultProfile', name);
}

export function defaultProfileName(): string | undefined {
  return readStore().defaultProfile;
}

function knownHint(): string[] {
  const names = Object.keys(readStore().profiles);
  return names.length ? [`Known profiles: ${names.join(', ')}.`] : ['No profiles yet: add one with `pdesk profile import <file>`.'];
}

/** The profile to use: the name given, else PDESK_PROFILE, else the default. */
export function loadProfile(name?: string): Profile {
  const store = readStore();
  const wanted = name ?? process.env.PDESK_PROFILE ?? store.defaultProfile;
  if (!wanted) throw new ConfigError('No profile is selected and there is no default profile.', knownHint());
  const raw = store.profiles[wanted];
  if (!raw) throw new ConfigError(`There is no profile named "${wanted}".`, knownHint());
  return validateProfile(raw, `profile "${wanted}"`);
}
