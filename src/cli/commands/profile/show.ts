/** `pdesk profile show`: a profile, secrets redacted (default: the selected profile). */
import { ConfigError } from '../../../core/errors.js';
import { redactProfile } from '../../../profiles/redact.js';
import { noProfileNamed } from '../../../profiles/store.js';
import type { Context } from '../../context.js';
import { profileTable } from './shared.js';

export interface ShowOptions {
  name?: string;
}

export async function run(ctx: Context, opts: ShowOptions): Promise<void> {
  const store = await ctx.store();
  const all = store.list();
  const wanted = opts.name ?? ctx.globals.profile ?? ctx.io.env.PDESK_PROFILE ?? store.defaultName();
  const known = all.length
    ? [`Known profiles: ${all.map((p) => p.name).join(', ')}.`]
    : ['No profiles yet: add one with `pdesk profile import <file>`.'];
  if (!wanted) throw new ConfigError('No profile is selected and there is no default profile.', known);
  const found = all.find((p) => p.name === wanted);
  if (!found)
    throw noProfileNamed(
      wanted,
      all.map((p) => p.name),
    );
  const shown = redactProfile(found.profile);
  const table = profileTable(shown, found.isDefault);
  ctx.emitOne({ ...shown, default: found.isDefault }, () => table);
}
