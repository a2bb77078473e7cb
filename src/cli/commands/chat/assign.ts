/** `pdesk chat assign`: make a thread the operator's, or another operator's with `--to` (no request). */
import { UsageError } from '../../../core/errors.js';
import { operatorProblem } from '../../../core/settings.js';
import type { Context } from '../../context.js';
import { changeOwner } from './owner.js';

export interface AssignOptions {
  encounterId: string;
  to?: string;
  force?: boolean;
}

export async function run(ctx: Context, opts: AssignOptions): Promise<void> {
  if (opts.to !== undefined) {
    const problem = operatorProblem(opts.to);
    if (problem) throw new UsageError(`--to ${problem}.`);
  }
  await changeOwner(ctx, opts.encounterId, opts.to ?? (await ctx.operator()).name, !!opts.force);
}
