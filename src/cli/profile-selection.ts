/**
 * The profiles a command runs on when it can take several (`pdesk check`, `pdesk doctor`): the selected one
 * (`--profile`, PDESK_PROFILE, the default), the names of `--profiles a,b`, or every stored one with
 * `--all-profiles`. Entries are returned as stored, not yet validated: doctor reports an invalid profile, check
 * refuses it (exit 3).
 */
import { ConfigError, UsageError } from '../core/errors.js';
import { noProfileNamed } from '../profiles/store.js';
import type { Context } from './context.js';

export interface ProfileChoice {
  profiles?: string[];
  allProfiles?: boolean;
}

export interface ProfileEntry {
  name: string;
  raw: unknown;
}

export async function profileEntries(ctx: Context, o: ProfileChoice): Promise<{ several: boolean; entries: ProfileEntry[] }> {
  if (o.profiles?.length && o.allProfiles) throw new UsageError('Give --profiles or --all-profiles, not both.');
  // The store and PDESK_PROFILE of the command's IO (its PDESK_CONFIG_DIR), as every other command reads them.
  const store = await ctx.store();
  const stored = store.list();
  const known = () =>
    stored.length
      ? [`Known profiles: ${stored.map((p) => p.name).join(', ')}.`]
      : ['No profiles yet: add one with `pdesk profile import <file>`.'];
  if (o.allProfiles) {
    if (!stored.length) throw new ConfigError('There are no profiles to check.', known());
    return { several: true, entries: stored.map((p) => ({ name: p.name, raw: p.profile })) };
  }
  const names = o.profiles?.length ? [...new Set(o.profiles)] : undefined;
  const wanted = names ?? [ctx.globals.profile ?? ctx.io.env.PDESK_PROFILE ?? store.defaultName()].filter((n): n is string => !!n);
  if (!wanted.length) throw new ConfigError('No profile is selected and there is no default profile.', known());
  const entries = wanted.map((name) => {
    const p = stored.find((s) => s.name === name);
    if (!p)
      throw noProfileNamed(
        name,
        stored.map((s) => s.name),
      );
    return { name, raw: p.profile };
  });
  return { several: !!names, entries };
}
