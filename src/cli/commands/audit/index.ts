/**
 * `pdesk audit [--since <date>] [--op <id>]`: the write audit trail of the selected profile
 * (`audit/<profile>.ndjson` in the config folder, src/core/audit.ts): every write pdesk sent, oldest first. A
 * torn last line (a crash mid-write) or an unreadable line is skipped with a warning on stderr.
 */
import type { Command } from 'commander';
import { command } from '../../help.js';
import { collectList } from '../../options.js';
import { verb } from '../../verb.js';

export function auditCommand(): Command {
  return command(
    'audit',
    'list the write audit trail of the profile: every write pdesk sent, with its outcome (oldest first)',
    'pdesk audit --since today',
    'pdesk audit --since -7d --op A6,A7 --json',
  )
    .option('--since <date>', 'writes from this local date or time on: YYYY-MM-DD, ISO 8601, today, -7d…')
    .option('--op <id>', 'writes of these operations only, e.g. A6 (repeatable or a comma list)', collectList)
    .action(verb(() => import('./audit.js')));
}
