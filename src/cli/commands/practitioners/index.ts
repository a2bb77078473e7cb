/** `pdesk practitioners list`: A2, the practitioner roles. */
import type { Command } from 'commander';
import { command, subcommand } from '../../help.js';
import { collect } from '../../options.js';
import { verb } from '../../verb.js';

export function practitionersCommand(): Command {
  const cmd = command('practitioners', 'practitioner roles (A2)', 'pdesk practitioners list');
  subcommand(
    cmd,
    'list',
    'list practitioner roles; query parameters are passed through (A2)',
    'pdesk practitioners list',
    'pdesk practitioners list --param speciality=0100 --json',
  )
    .option('--param <key=value>', 'query parameter to pass through (repeatable)', collect)
    .action(verb(() => import('./list.js')));
  return cmd;
}
