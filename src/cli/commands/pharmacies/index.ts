/** `pdesk pharmacies search`: M4, pharmacies (Organization) by identifier. */
import type { Command } from 'commander';
import { command, subcommand } from '../../help.js';
import { collectList } from '../../options.js';
import { verb } from '../../verb.js';

export function pharmaciesCommand(): Command {
  const cmd = command('pharmacies', 'pharmacies (M4)', "pdesk pharmacies search --identifier 'urn:pdesk:pharmacy-id|PH001'");
  subcommand(
    cmd,
    'search',
    'search pharmacies by identifier (M4)',
    "pdesk pharmacies search --identifier 'urn:pdesk:pharmacy-id|PH001'",
    'pdesk pharmacies search \\',
    '  --identifier "urn:pdesk:pharmacy-id|PH001,urn:pdesk:pharmacy-id|PH002"',
  )
    .option('--identifier <system|value>', 'identifier of a pharmacy, <system>|<value> (required; repeatable or a comma list)', collectList)
    .action(verb(() => import('./search.js')));
  return cmd;
}
