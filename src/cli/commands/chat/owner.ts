/**
 * What `chat assign` and `chat unassign` share (decisions.md §17, "Owners"): the thread as the store holds it now,
 * the rule that another operator's thread changes hands only with `--force`, and the change made against the owner
 * just read, so that one taken meanwhile is a conflict and nothing changes.
 */
import { PdeskError, UsageError } from '../../../core/errors.js';
import { ExitCode } from '../../../core/errors.js';
import { sanitize } from '../../../core/sanitize.js';
import type { AssignResult } from '../../../core/store/types.js';
import type { Context } from '../../context.js';
import { deskTarget } from './store.js';

/** Give `thread` to `to` (null: nobody) as the operator, printing what changed. */
export async function changeOwner(ctx: Context, thread: string, to: string | null, force: boolean): Promise<void> {
  if (!thread.trim()) throw new UsageError('<encounterId> must not be empty.');
  const d = await deskTarget(ctx);
  const t = await d.store.thread(d.profile, thread);
  if (!t) throw new UsageError(`There is no thread "${thread}" in the desk's store.`, [`store: ${d.store.where(d.profile)}`]);
  const owner = t.owner;
  if (owner !== undefined && owner !== d.operator && owner !== to && !force)
    throw new UsageError(sanitize(`Thread ${thread} is ${owner}'s: nothing changed.`), [
      sanitize(to === null ? `--force unassigns it all the same.` : `--force gives it to ${to} all the same.`),
    ]);
  const r: AssignResult = ctx.dryRun
    ? {
        outcome: owner === (to ?? undefined) ? 'unchanged' : to === null ? 'unassigned' : 'assigned',
        ...(owner ? { previous: owner } : {}),
      }
    : await d.store.assign(d.profile, thread, { to, by: d.operator, expect: owner ?? null });
  if (r.outcome === 'conflict')
    throw new PdeskError(
      sanitize(
        `Thread ${thread} changed hands meanwhile: it is ${r.owner === undefined ? 'unassigned' : `${r.owner}'s`} now; nothing changed.`,
      ),
      ExitCode.usage,
      ['Look at it again (pdesk chat threads), then decide.'],
    );
  if (r.outcome === 'unknown') throw new UsageError(`There is no thread "${thread}" in the desk's store.`);
  const now = to === null ? undefined : to;
  ctx.emitOne(
    {
      thread,
      outcome: r.outcome,
      ...(now !== undefined ? { owner: now } : {}),
      ...(r.previous !== undefined ? { previous: r.previous } : {}),
      dryRun: ctx.dryRun,
    },
    () =>
      sanitize(
        r.outcome === 'unchanged'
          ? `Thread ${thread} is ${now === undefined ? 'unassigned' : `${now}'s`} already.`
          : `${ctx.dryRun ? 'Would make' : 'Made'} thread ${thread} ${now === undefined ? 'unassigned' : `${now}'s`}${r.previous !== undefined ? ` (it was ${r.previous}'s)` : ''}.`,
      ),
  );
}
