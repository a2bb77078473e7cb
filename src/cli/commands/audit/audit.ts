/**
 * `pdesk audit`: the write audit trail of the selected profile, oldest first, with each write's outcome: the status,
 * the error of no answer, or `outcome unknown` for a write recorded before it left with nothing after (the process
 * ended first).
 */
import type { AuditRecord } from '../../../core/audit.js';
import { localTimeText, parseWhen } from '../../../core/dates.js';
import { UsageError } from '../../../core/errors.js';
import { OP_IDS } from '../../../core/ops.js';
import { sanitize } from '../../../core/sanitize.js';
import type { Context } from '../../context.js';

export interface AuditOptions {
  since?: string;
  op?: string[];
}

export async function run(ctx: Context, opts: AuditOptions): Promise<void> {
  const ops = (opts.op ?? []).map((v) => {
    const op = v.trim().toUpperCase();
    if (!(OP_IDS as readonly string[]).includes(op)) throw new UsageError(`--op must name an operation A1–A7, C1–C5 or M1–M4, not "${v}".`);
    return op;
  });
  let since: number | undefined;
  if (opts.since !== undefined) {
    since = parseWhen(opts.since, 'since', ctx.now()).getTime();
  }
  const profile = await ctx.profile();
  // The trail of the desk's store: the config folder's file (a torn line is a warning), or the team store.
  const store = await ctx.deskStore();
  const rows: AuditRecord[] = (
    await store.auditList(profile.name, { ...(since !== undefined ? { since: new Date(since) } : {}), ops })
  ).map(({ key: _, ...r }) => r);
  ctx.emitList<AuditRecord>(rows, [
    { header: 'TIME', value: (r) => localTimeText(r.at, 'yyyy-MM-dd HH:mm:ss') },
    { header: 'USER', value: (r) => r.user },
    { header: 'OP', value: (r) => r.op ?? '' },
    { header: 'METHOD', value: (r) => r.method },
    { header: 'URL', value: (r) => r.url, flex: true },
    {
      header: 'RESULT',
      // A status with an error (a write answered 3xx: not done) shows both; a record never completed (the process
      // was killed between sending and the answer) is `outcome unknown`.
      value: (r) =>
        [r.status, r.error && (r.error.code ?? r.error.name)]
          .filter((v) => v !== undefined)
          .map((v) => sanitize(String(v)))
          .join(' ') || (r.outcome === 'unknown' ? 'outcome unknown' : '?'),
    },
    { header: 'MS', value: (r) => r.ms },
  ]);
}
