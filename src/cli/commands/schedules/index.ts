/** `pdesk schedules list`: A3, the schedules of a service category. */
import type { Command } from 'commander';
import { command, subcommand } from '../../help.js';
import { verb } from '../../verb.js';

export function schedulesCommand(): Command {
  const cmd = command('schedules', 'schedules (A3)', "pdesk schedules list --service-category 'urn:pdesk:service-category|gp'");
  subcommand(
    cmd,
    'list',
    'list the schedules of a service category (A3)',
    "pdesk schedules list --service-category 'urn:pdesk:service-category|gp'",
    "pdesk schedules list --service-category 'urn:pdesk:service-category|gp' --json",
  )
    .requiredOption('--service-category <system|code>', 'service category as <system>|<code>')
    .action(verb(() => import('./list.js')));
  return cmd;
}
