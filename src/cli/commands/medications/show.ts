/** `pdesk medications show`: M2, one medication request. */
import { getMedicationRequest } from '../../../core/api/medication.js';
import type { Context } from '../../context.js';
import { detail } from './detail.js';

export interface ShowOptions {
  id: string;
}

export async function run(ctx: Context, opts: ShowOptions): Promise<void> {
  const r = await getMedicationRequest(await ctx.client(), opts.id);
  ctx.emitOne(r, () => detail(r, ctx.width));
}
