/** `pdesk slots list`: A4, search available slots (both appointment API versions). */
import type { Command } from 'commander';
import { command, subcommand } from '../../help.js';
import { collectList } from '../../options.js';
import { verb } from '../../verb.js';

export function slotsCommand(): Command {
  const cmd = command(
    'slots',
    'slots (A4)',
    "pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\",
    '  --from today --to +7d',
  );
  subcommand(
    cmd,
    'list',
    'search the slots of a service category in a date range (A4)',
    "pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\",
    '  --from today --to +7d',
    "pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\",
    '  --from tomorrow --to +14d --schedule 11 --json',
    "pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\",
    '  --from today --to today --query "[?status==\'free\' && !past].id"',
  )
    .requiredOption('--service-category <system|code>', 'service category as <system>|<code>')
    .requiredOption('--from <date>', 'first day (YYYY-MM-DD, ISO 8601, today, tomorrow, +Nd)')
    .requiredOption('--to <date>', 'last day, covered whole (YYYY-MM-DD, ISO 8601, today, tomorrow, +Nd)')
    .option('--schedule <id>', 'only slots of this schedule (appointment API 2.0.0)')
    .option('--status <status>', 'slot status, e.g. free or busy (appointment API 2.0.0; the server defaults to free)')
    .option('--practitioner <id>', 'only slots of these practitioner roles (appointment API 1.0.0; repeatable or comma list)', collectList)
    .action(verb(() => import('./list.js')));
  return cmd;
}
