/**
 * `pdesk chat threads`: the threads of the desk store (the local files, or the team store), newest first, with their
 * owners (no request). `--mine` and `--unassigned` filter by owner; `--all` (the default) lists every thread.
 */
import { localTimeText } from '../../../core/dates.js';
import { UsageError } from '../../../core/errors.js';
import type { DeskThread, ThreadFilter } from '../../../core/store/types.js';
import type { Context } from '../../context.js';
import { deskTarget } from './store.js';

export interface ThreadsOptions {
  mine?: boolean;
  unassigned?: boolean;
  all?: boolean;
}

export async function run(ctx: Context, opts: ThreadsOptions = {}): Promise<void> {
  const given = (['mine', 'unassigned', 'all'] as const).filter((f) => opts[f]);
  if (given.length > 1) throw new UsageError(`${given.map((f) => `--${f}`).join(' and ')} cannot be given together: give one.`);
  const filter: ThreadFilter = given[0] ?? 'all';
  const d = await deskTarget(ctx);
  const threads = await d.store.listThreads(d.profile, { filter, operator: d.operator });
  if (ctx.format === 'table' && !threads.length && filter !== 'all') {
    ctx.out(filter === 'mine' ? `(none: no thread is ${d.operator}'s)` : '(none: every thread has an owner)');
    return;
  }
  ctx.emitList<DeskThread>(threads, [
    { header: 'THREAD', value: (t) => t.thread },
    { header: 'STATUS', value: (t) => t.status },
    { header: 'OWNER', value: (t) => t.owner ?? '' },
    { header: 'LAST MESSAGE', value: (t) => localTimeText(t.lastAt) },
    { header: 'TEXT', value: (t) => t.lastText, flex: true },
    { header: 'MESSAGES', value: (t) => t.messages },
    { header: 'UNREAD', value: (t) => t.unread },
  ]);
}
