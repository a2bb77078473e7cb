/** The desk's store that the settings and environment select (decisions.md §17), and the operator. */
import type { Operator } from '../../../core/operator.js';
import type { StoreSelection } from '../../../core/store/select.js';
import type { Context } from '../../context.js';

/** The store the settings and environment select, and the operator. */
export async function selected(ctx: Context): Promise<{ store: StoreSelection; operator: Operator }> {
  return { store: await ctx.storeSelection(), operator: await ctx.operator() };
}
