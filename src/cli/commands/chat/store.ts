/**
 * The desk store as the chat commands use it (src/core/store: the profile's local files, or the team store on
 * PostgreSQL), with the profile and the operator every record names.
 */
import { ConfigError, PdeskError } from '../../../core/errors.js';
import type { DeskTarget } from '../../../core/store/recorded.js';
import type { Context } from '../../context.js';

/** The desk store, the selected profile and the operator (opened with the run, closed with it). */
export async function deskTarget(ctx: Context): Promise<DeskTarget> {
  const [store, profile, operator] = await Promise.all([ctx.deskStore(), ctx.profile(), ctx.operator()]);
  return { store, profile: profile.name, operator: operator.name };
}

/**
 * The desk store, ready for writing before anything is sent, so a store that cannot be written stops the command
 * first. Under --dry-run it is not made ready: nothing is written, the request is printed instead.
 */
export async function writableDesk(ctx: Context): Promise<DeskTarget> {
  const d = await deskTarget(ctx);
  if (ctx.dryRun) return d;
  try {
    await d.store.prepare(d.profile);
  } catch (e) {
    // The team store's own error names it (password hidden) and says why.
    if (e instanceof PdeskError) {
      e.details.push('Nothing was sent.');
      throw e;
    }
    throw new ConfigError(
      `The thread store ${d.store.where(d.profile)} cannot be opened for writing (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was sent.`,
    );
  }
  return d;
}
