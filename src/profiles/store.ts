/**
 * Profile store on conf: `profiles.json` in PDESK_CONFIG_DIR or the user's config folder, written atomically
 * with mode 0600. Profiles are validated with zod (conf's own ajv schema costs start-up time).
 */
import Conf from 'conf';
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
  return store().path.replace(/\/[^/]+$/, '');
}

let conf: Conf<StoreShape> | undefined;
function store(): Conf<StoreShape> {
  if (!conf) {
    try {
      conf = new Conf<StoreShape>({
        projectName: 'pdesk',
        projectSuffix: '',
        cwd: process.env.PDESK_CONFIG_DIR || undefined,
        configName: 'profiles',
        configFileMode: 0o600,
        defaults: { schemaVersion: PROFILE_SCHEMA_VERSION, profiles: {} },
      });
    } catch (e) {
      // A hand-edited store that is not JSON is a configuration error (exit 3), not a crash.
      if (!(e instanceof SyntaxError)) throw e;
      const where = process.env.PDESK_CONFIG_DIR ? `${process.env.PDESK_CONFIG_DIR.replace(/\/+$/, '')}/profiles.json` : 'profiles.json in the pdesk config folder';
      throw new ConfigError(`The profile store ${where} is not valid JSON.`, [e.message, 'Fix the file, or move it away and import the profiles again.']);
    }
    const v = conf.get('schemaVersion');
    if (v > PROFILE_SCHEMA_VERSION)
      throw new ConfigError(`The profile store ${conf.path} was written by a newer pdesk (schema ${v}).`);
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
  throw new ConfigError(`Invalid profile in ${source} at ${jsonPath(issue.path)}: ${missing ? 'required field is missing' : issue.message}.`);
}

export function listProfiles(): { name: string; isDefault: boolean; profile: ProfileInput }[] {
  const s = store();
  const def = s.get('defaultProfile');
  return Object.entries(s.get('profiles')).map(([name, profile]) => ({ name, isDefault: name === def, profile }));
}

export function saveProfile(p: Profile | ProfileInput, makeDefault = false): void {
  const s = store();
  const profiles = { ...s.get('profiles'), [p.name]: p };
  s.set('profiles', profiles);
  if (makeDefault || !s.get('defaultProfile')) s.set('defaultProfile', p.name);
}

export function removeProfile(name: string): void {
  const s = store();
  const profiles = { ...s.get('profiles') };
  if (!(name in profiles)) throw new ConfigError(`There is no profile named "${name}".`, knownHint());
  delete profiles[name];
  s.set('profiles', profiles);
  if (s.get('defaultProfile') === name) s.delete('defaultProfile');
}

export function setDefaultProfile(name: string): void {
  const s = store();
  if (!(name in s.get('profiles'))) throw new ConfigError(`There is no profile named "${name}".`, knownHint());
  s.set('defaultProfile', name);
}

export function defaultProfileName(): string | undefined {
  return store().get('defaultProfile');
}

function knownHint(): string[] {
  const names = Object.keys(store().get('profiles'));
  return names.length ? [`Known profiles: ${names.join(', ')}.`] : ['No profiles yet: add one with `pdesk profile import <file>`.'];
}

/** The profile to use: the name given, else PDESK_PROFILE, else the default. */
export function loadProfile(name?: string): Profile {
  const wanted = name ?? process.env.PDESK_PROFILE ?? defaultProfileName();
  if (!wanted) throw new ConfigError('No profile is selected and there is no default profile.', knownHint());
  const raw = store().get('profiles')[wanted];
  if (!raw) throw new ConfigError(`There is no profile named "${wanted}".`, knownHint());
  return validateProfile(raw, `profile "${wanted}"`);
}

export function storePath(): string {
  return store().path;
}
