/** `pdesk appointment-types list`: A1, the bookable appointment types. */
import type { Command } from 'commander';
import { command, subcommand } from '../../help.js';
import { verb } from '../../verb.js';

export function appointmentTypesCommand(): Command {
  const cmd = command('appointment-types', 'bookable appointment types (A1)', 'pdesk appointment-types list --service-category gp');
  subcommand(
    cmd,
    'list',
    'list the bookable appointment types of a service category (A1)',
    'pdesk appointment-types list --service-category gp',
    'pdesk appointment-types list --service-category physio --json',
  )
    .requiredOption('--service-category <code>', 'the service category the appointment types relate to')
    .action(verb(() => import('./list.js')));
  return cmd;
}
