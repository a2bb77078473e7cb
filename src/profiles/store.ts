/**
 * Profile store: `profiles.json` in PDESK_CONFIG_DIR or the user's config folder (the folder conf uses, from
 * env-paths), mode 0600. Writes go through conf (atomic, file mode), loaded only when a profile command writes;
 * reads parse the file directly, since conf pulls in ajv and signal hooks that every command would pay for at
 * start-up (DEVELOPERS.md, "Stack notes"). Profiles are validated with zod.
 *
 * A file that is not a profile store (`null`, an array, a number, `{"profiles": []}`, a profile that is not an
 * object) is a ConfigError naming the file, on every read and before every write: it is never taken for an
 * empty store, and never overwritten. Errors about the file never quote it (it may be a link to any file).
 *
 * Every read-modify-write (save, remove, set the default) runs under the store's lock file (src/core/lockfile.ts),
 * so concurrent writers lose nothing; reads take no lock (conf replaces the file atomically). The config folder is
 * created 0700 whatever the umask.
 *
 * `openProfileStore(dir)` is one store; it keeps its conf instance, so two stores (two config folders in one
 * process, as in-process tests have) never share one. The functions below it work on the store of
 * PDESK_CONFIG_DIR in the given environment (the process's by default).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import envPaths from 'env-paths';
import { ConfigError, UsageError } from '../core/errors.js';
import { describeJsonProblem, readJson } from '../core/json.js';
import { LockHeld, acquireLock } from '../core/lockfile.js';
import { didYouMean } from '../core/suggest.js';
import { PROFILE_SCHEMA_VERSION, type Profile, type ProfileInput, validateProfile } from '../core/profile/schema.js';

interface StoreShape {
  schemaVersion: number;
  defaultProfile?: string;
  profiles: Record<string, ProfileInput>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** How long a profile write waits for another's (each takes milliseconds). */
const LOCK_WAIT_MS = 10_000;
/** A lock whose owner cannot be checked (another host sharing the folder) is stale after this long. */
const LOCK_STALE_MS = 30_000;

/** The folder for profiles, thread stores and journals. */
export function configDir(env: Env = process.env): string {
  return (env.PDESK_CONFIG_DIR || envPaths('pdesk', { suffix: '' }).config).replace(/\/+$/, '');
}

export function storePath(env: Env = process.env): string {
  return join(configDir(env), 'profiles.json');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The lines that name the known profiles (or say there are none yet), for an error's details. */
export function knownProfilesHint(names: readonly string[]): string[] {
  return names.length ? [`Known profiles: ${names.join(', ')}.`] : ['No profiles yet: add one with `pdesk profile import <file>`.'];
}

/** `There is no profile named "sandbx": did you mean "sandbox"?`, the known profiles below it. */
export function noProfileNamed(name: string, known: readonly string[]): ConfigError {
  return new ConfigError(`There is no profile named "${name}"${didYouMean(name, known) || '.'}`, knownProfilesHint(known));
}

export interface StoredProfile {
  name: string;
  isDefault: boolean;
  profile: ProfileInput;
}

export class ProfileStore {
  readonly path: string;
  private conf?: Conf<StoreShape>;

  constructor(readonly dir: string) {
    this.path = join(dir, 'profiles.json');
  }

  private notAStore(problem: string): ConfigError {
    return new ConfigError(`The profile store ${this.path} is not a profile store: ${problem}.`, [
      'pdesk changes nothing in it. Fix the file, or move it away and import the profiles again.',
    ]);
  }

  /** The store as it is on disk, its shape checked (an absent or empty file is an empty store; reading creates nothing). */
  read(): StoreShape {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { schemaVersion: PROFILE_SCHEMA_VERSION, profiles: {} };
      throw new ConfigError(`Cannot read the profile store ${this.path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
    }
    if (text.trim() === '') return { schemaVersion: PROFILE_SCHEMA_VERSION, profiles: {} };
    // A hand-edited store that is not JSON is a configuration error (exit 3), not a crash. The error names the line
    // and column, never the text: profiles.json may be a link to a file that holds anything.
    const r = readJson(text);
    if (!r.ok)
      throw new ConfigError(`The profile store ${this.path} is not valid JSON.`, [
        `${r.problem.kind === 'syntax' ? '' : `at ${r.problem.path}: `}${describeJsonProblem(r.problem)}`,
        'Fix the file, or move it away and import the profiles again.',
      ]);
    const data = r.value;
    if (!isObject(data)) throw this.notAStore(`it holds ${kindOf(data)}, not an object`);
    const { schemaVersion, defaultProfile, profiles } = data;
    if (schemaVersion !== undefined && (typeof schemaVersion !== 'number' || !Number.isInteger(schemaVersion) || schemaVersion < 1))
      throw this.notAStore(
        `"schemaVersion" is ${typeof schemaVersion === 'number' ? schemaVersion : kindOf(schemaVersion)}, not a version number`,
      );
    if (typeof schemaVersion === 'number' && schemaVersion > PROFILE_SCHEMA_VERSION)
      throw new ConfigError(`The profile store ${this.path} was written by a newer pdesk (schema ${schemaVersion}).`);
    if (defaultProfile !== undefined && typeof defaultProfile !== 'string')
      throw this.notAStore(`"defaultProfile" is ${kindOf(defaultProfile)}, not a profile name`);
    if (profiles !== undefined && !isObject(profiles)) throw this.notAStore(`"profiles" is ${kindOf(profiles)}, not an object of profiles`);
    for (const [name, p] of Object.entries(profiles ?? {}))
      if (!isObject(p)) throw this.notAStore(`the profile "${name}" is ${kindOf(p)}, not an object`);
    return {
      schemaVersion: schemaVersion ?? PROFILE_SCHEMA_VERSION,
      defaultProfile,
      profiles: (profiles ?? {}) as Record<string, ProfileInput>,
    };
  }

  /**
   * Run a read-modify-write of the store under its lock (`profiles.json.lock`, src/core/lockfile.ts), so that
   * concurrent writers (ten `profile add` at once) each see the others' changes: none is lost. The folder is made
   * 0700 whatever the umask (conf would make it 0777 less the umask).
   */
  private async locked<T>(fn: (s: Conf<StoreShape>) => T): Promise<T> {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      throw new ConfigError(`Cannot create the config folder ${this.dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
    }
    let release: () => void;
    try {
      release = await acquireLock(`${this.path}.lock`, { waitMs: LOCK_WAIT_MS, staleMs: LOCK_STALE_MS });
    } catch (e) {
      if (e instanceof LockHeld)
        throw new ConfigError(
          `The profile store ${this.path} is locked by another pdesk${e.owner ? ` (pid ${e.owner.pid})` : ''}; nothing was changed.`,
          [`A profile write takes milliseconds: if no pdesk is running, remove ${e.path} and try again.`],
        );
      throw new ConfigError(`Cannot lock the profile store ${this.path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
    }
    try {
      return fn(await this.writer());
    } finally {
      release();
    }
  }

  /** conf, for writes only; the file on disk is checked first, so a file that is not a store is never overwritten. */
  private async writer(): Promise<Conf<StoreShape>> {
    this.read();
    if (!this.conf) {
      const { default: ConfClass } = await import('conf');
      this.conf = new ConfClass<StoreShape>({
        projectName: 'pdesk',
        projectSuffix: '',
        cwd: this.dir,
        configName: 'profiles',
        configFileMode: 0o600,
        // read() above refused whatever is not a store; what is left that conf cannot parse is an empty file.
        clearInvalidConfig: true,
        defaults: { schemaVersion: PROFILE_SCHEMA_VERSION, profiles: {} },
      });
    }
    return this.conf;
  }

  list(): StoredProfile[] {
    const s = this.read();
    return Object.entries(s.profiles).map(([name, profile]) => ({ name, isDefault: name === s.defaultProfile, profile }));
  }

  defaultName(): string | undefined {
    return this.read().defaultProfile;
  }

  /** Add or replace a profile; with `replace: false`, one of the same name (perhaps added meanwhile) is an error. */
  save(p: Profile | ProfileInput, makeDefault = false, o: { replace?: boolean } = {}): Promise<void> {
    return this.locked((s) => {
      if (o.replace === false && p.name in s.get('profiles'))
        throw new UsageError(`A profile named "${p.name}" exists already; use --force to replace it.`);
      s.set('profiles', { ...s.get('profiles'), [p.name]: p });
      if (makeDefault || !s.get('defaultProfile')) s.set('defaultProfile', p.name);
    });
  }

  remove(name: string): Promise<void> {
    return this.locked((s) => {
      const profiles = { ...s.get('profiles') };
      if (!(name in profiles)) throw noProfileNamed(name, Object.keys(profiles));
      delete profiles[name];
      s.set('profiles', profiles);
      if (s.get('defaultProfile') === name) s.delete('defaultProfile');
    });
  }

  setDefault(name: string): Promise<void> {
    return this.locked((s) => {
      if (!(name in s.get('profiles'))) throw noProfileNamed(name, Object.keys(s.get('profiles')));
      s.set('defaultProfile', name);
    });
  }

  knownHint(): string[] {
    return knownProfilesHint(Object.keys(this.read().profiles));
  }

  /** The profile to use: the name given, else `envProfile` (PDESK_PROFILE), else the default. */
  load(name?: string, envProfile?: string): Profile {
    const store = this.read();
    const wanted = name ?? envProfile ?? store.defaultProfile;
    if (!wanted) throw new ConfigError('No profile is selected and there is no default profile.', this.knownHint());
    const raw = store.profiles[wanted];
    if (!raw) throw noProfileNamed(wanted, Object.keys(store.profiles));
    return validateProfile(raw, `profile "${wanted}"`);
  }
}

/** The profile store in `dir`. */
export function openProfileStore(dir: string): ProfileStore {
  return new ProfileStore(dir);
}

const storeOf = (env: Env) => new ProfileStore(configDir(env));

export function listProfiles(env: Env = process.env): StoredProfile[] {
  return storeOf(env).list();
}

export function saveProfile(p: Profile | ProfileInput, makeDefault = false, env: Env = process.env): Promise<void> {
  return storeOf(env).save(p, makeDefault);
}

export function removeProfile(name: string, env: Env = process.env): Promise<void> {
  return storeOf(env).remove(name);
}

export function setDefaultProfile(name: string, env: Env = process.env): Promise<void> {
  return storeOf(env).setDefault(name);
}

export function defaultProfileName(env: Env = process.env): string | undefined {
  return storeOf(env).defaultName();
}

/** The profile to use: the name given, else PDESK_PROFILE, else the default. */
export function loadProfile(name?: string, env: Env = process.env): Profile {
  return storeOf(env).load(name, env.PDESK_PROFILE);
}
