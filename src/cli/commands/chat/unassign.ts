/** `pdesk chat unassign`: leave a thread to nobody (no request). */
import type { Context } from '../../context.js';
import { changeOwner } from './owner.js';

export interface UnassignOptions {
  encounterId: string;
  force?: boolean;
}

export function run(ctx: Context, opts: UnassignOptions): Promise<void> {
  return changeOwner(ctx, opts.encounterId, null, !!opts.force);
}
