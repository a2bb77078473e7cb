/** `pdesk profile use`: make a profile the default. */
import type { Context } from '../../context.js';
import { refuseDryRun } from './shared.js';

export interface UseOptions {
  name: string;
}

export async function run(ctx: Context, opts: UseOptions): Promise<void> {
  refuseDryRun(ctx, 'use');
  await (await ctx.store()).setDefault(opts.name);
  ctx.emitOne({ ok: true, default: opts.name }, () => `Default profile is now "${opts.name}".`);
}
