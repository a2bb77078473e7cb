/**
 * `pdesk profile import | list | show | use | remove | add`: the profile store (cli.md "Profile file"). Secrets are
 * never printed: a stored `token`/`password` shows as `***`; names of environment variables are shown.
 */
import type { Command } from 'commander';
import { command, subcommand } from '../../help.js';
import { verb } from '../../verb.js';

export function profileCommand(): Command {
  const cmd = command(
    'profile',
    'manage profiles (practice system + portal connection settings)',
    'pdesk profile import profiles/practice-2.0.0.json --default',
    'pdesk profile list',
    'pdesk profile use practice-2.0.0',
  );

  subcommand(
    cmd,
    'import',
    'add or replace a profile from a JSON file (see profiles/)',
    'pdesk profile import profiles/practice-2.0.0.json --default',
    'pdesk profile import vendor-profile.json --name acme-test',
  )
    .argument('<file>', 'profile JSON file, or - for standard input')
    .option('--name <name>', 'store it under this name instead of the file\'s "name"')
    .option('--default', 'make it the default profile')
    .action(verb(() => import('./import.js')));

  subcommand(cmd, 'list', 'list the profiles', 'pdesk profile list', 'pdesk profile list --json').action(verb(() => import('./list.js')));

  subcommand(
    cmd,
    'show',
    'show a profile, secrets redacted (default: the selected profile)',
    'pdesk profile show',
    'pdesk profile show practice-2.0.0 --json',
  )
    .argument('[name]', 'profile name (else --profile, PDESK_PROFILE, the default)')
    .action(verb(() => import('./show.js')));

  subcommand(cmd, 'use', 'make a profile the default', 'pdesk profile use practice-2.0.0')
    .argument('<name>', 'profile name')
    .action(verb(() => import('./use.js')));

  subcommand(cmd, 'remove', 'remove a profile', 'pdesk profile remove practice-1.0.0')
    .argument('<name>', 'profile name')
    .action(verb(() => import('./remove.js')));

  subcommand(
    cmd,
    'add',
    'add a profile from options (asks for missing ones on a terminal)',
    'pdesk profile add --name acme-test --environment test \\',
    '  --practice-url https://practice.acme.example/fhir \\',
    '  --portal-url https://portal.example.org/api \\',
    '  --portal-namespace portal.example --practice-namespace acme.example \\',
    '  --practice-token-env ACME_TOKEN --portal-token-env PORTAL_TOKEN',
    'pdesk profile add            # on a terminal: asks for each setting',
  )
    .option('--name <name>', 'profile name')
    .option('--practice-url <url>', 'practice system base URL')
    .option('--portal-url <url>', 'portal base URL')
    .option('--portal-namespace <ns>', 'the <portal> namespace prefix')
    .option('--practice-namespace <ns>', 'the <practice_system> namespace prefix')
    .option('--appointment-api <version>', 'appointment API version: 2.0.0 or 1.0.0')
    .option('--approval-flow', 'the practice uses the approval flow (practitioner needs-action)')
    .option('--environment <label>', 'environment label shown by the TUI, e.g. test or production')
    .option('--practice-token-env <NAME>', 'environment variable holding the practice system bearer token')
    .option('--portal-token-env <NAME>', 'environment variable holding the portal bearer token')
    .option('--default', 'make it the default profile')
    .option('--force', 'replace a profile of the same name')
    .action(verb(() => import('./add.js')));

  return cmd;
}
