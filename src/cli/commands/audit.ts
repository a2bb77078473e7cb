/**
 * `pdesk audit [--since <date>] [--op <id>]` — the write audit trail of the selected profile
 * (`audit/<profile>.ndjson` in the config folder, src/core/audit.ts): every write pdesk sent, oldest first, with
 * its outcome: the status, the error of no answer, or `outcome unknown` for a write recorded before it left with
 * nothing after (the process ended first). A torn last line (a crash mid-write) or an unreadable line is skipped
 * with a warning on stderr.
 */
import { Command } from 'commander';
import type { AuditRecord } from '../../core/audit.js';
import { action } from '../context.js';
import { collectList } from '../options.js';
import { examples } from '../help.js';

export function auditCommand(): Command {
  return new Command('audit')
    .description('list the write audit trail of the profile: every write pdesk sent, with its outcome (oldest first)')
    .addHelpText('after', examples('pdesk audit --since today', 'pdesk audit --since -7d --op A6,A7 --json'))
    .option('--since <date>', 'writes from this local date or time on: YYYY-MM-DD, ISO 8601, today, -7d…')
    .option('--op <id>', 'writes of these operations only, e.g. A6 (repeatable or a comma list)', collectList)
    .action(
      action(async (ctx, opts: { since?: string; op?: string[] }) => {
        const { UsageError } = await import('../../core/errors.js');
        const { OP_IDS } = await import('../../core/ops.js');
        const ops = (opts.op ?? []).map((v) => {
          const op = v.trim().toUpperCase();
          if (!(OP_IDS as readonly string[]).includes(op))
            throw new UsageError(`--op must name an operation A1–A7, C1–C5 or M1–M4, not "${v}".`);
          return op;
        });
        let since: number | undefined;
        if (opts.since !== undefined) {
          const { parseWhen } = await import('../../core/dates.js');
          since = parseWhen(opts.since, 'since', ctx.now()).getTime();
        }
        const profile = await ctx.profile();
        // The trail of the desk's store: the config folder's file (a torn line is a warning), or the team store.
        const store = await ctx.deskStore();
        const rows: AuditRecord[] = (
          await store.auditList(profile.name, { ...(since !== undefined ? { since: new Date(since) } : {}), ops })
        ).map(({ key: _, ...r }) => r);
        const { localTimeText } = await import('../../core/dates.js');
        const { sanitize } = await import('../../core/sanitize.js');
        ctx.emitList<AuditRecord>(rows, [
          { header: 'TIME', value: (r) => localTimeText(r.at, 'yyyy-MM-dd HH:mm:ss') },
          { header: 'USER', value: (r) => r.user },
          { header: 'OP', value: (r) => r.op ?? '' },
          { header: 'METHOD', value: (r) => r.method },
          { header: 'URL', value: (r) => r.url, flex: true },
          {
            header: 'RESULT',
            // A status with an error (a write answered 3xx: not done) shows both; a record never completed (the
            // process was killed between sending and the answer) is `outcome unknown`.
            value: (r) =>
              [r.status, r.error && (r.error.code ?? r.error.name)]
                .filter((v) => v !== undefined)
                .map((v) => sanitize(String(v)))
                .join(' ') || (r.outcome === 'unknown' ? 'outcome unknown' : '?'),
          },
          { header: 'MS', value: (r) => r.ms },
        ]);
      }),
    );
}
