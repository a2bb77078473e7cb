/** The desk's store that the settings and environment select (decisions.md §17), and the operator. */
import { type Operator, operatorOf } from '../../../core/operator.js';
import { readSettings } from '../../../core/settings.js';
import { type StoreSelection, selectStore } from '../../../core/store/select.js';
import type { Context } from '../../context.js';

/** The store the settings and environment select, and the operator. */
export async function selected(ctx: Context): Promise<{ store: StoreSelection; operator: Operator }> {
  const dir = await ctx.configDir();
  const settings = readSettings(dir);
  return { store: selectStore(ctx.io.env, settings, dir), operator: operatorOf(ctx.io.env, settings) };
}
