/** `pdesk profile remove`: remove a profile (and the default it held). */
import type { Context } from '../../context.js';
import { refuseDryRun } from './shared.js';

export interface RemoveOptions {
  name: string;
}

export async function run(ctx: Context, opts: RemoveOptions): Promise<void> {
  const { name } = opts;
  refuseDryRun(ctx, 'remove');
  const store = await ctx.store();
  await store.remove(name);
  const def = store.defaultName();
  ctx.emitOne(
    { ok: true, removed: name, default: def ?? null },
    () => `Removed profile "${name}".${def ? '' : ' There is no default profile now: pick one with `pdesk profile use <name>`.'}`,
  );
}
