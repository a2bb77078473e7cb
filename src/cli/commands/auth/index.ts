/**
 * `pdesk auth status | token`: the profile's authentication per party. `status` shows the kind, where the secret
 * comes from, whether it resolves, an OAuth2 token's expiry and scopes and the TLS client certificate's expiry,
 * and nothing secret; it exits 3 when a party's secret does not resolve. `token --party practice|portal` prints
 * the bearer or OAuth2 access token alone on stdout, for other tools: the only command that prints a secret
 * (Context.printSecret), and only there.
 */
import type { Command } from 'commander';
import { command, examples, subcommand } from '../../help.js';
import { verb } from '../../verb.js';

export function authCommand(): Command {
  const cmd = command(
    'auth',
    "the profile's authentication: its state per party, or a token for other tools",
    'pdesk auth status',
    'export PDESK_PRACTICE_TOKEN=$(pdesk auth token --party practice)',
  );
  subcommand(
    cmd,
    'status',
    'per party: auth type, where the secret comes from, whether it resolves, token and certificate expiry (nothing secret)',
    'pdesk auth status',
    'pdesk --profile acme-live auth status --json',
  ).action(verb(() => import('./status.js')));
  cmd
    .command('token')
    .description('print the bearer or OAuth2 access token of a party on stdout (for curl and other tools)')
    .requiredOption('--party <party>', 'practice or portal')
    .addHelpText(
      'after',
      [
        '',
        'The only pdesk command that prints a secret, alone on stdout.',
        examples(
          'export PDESK_PRACTICE_TOKEN=$(pdesk auth token --party practice)',
          'curl -H "Authorization: Bearer $(pdesk auth token --party portal)" \\',
          '  https://portal.example.org/api/Communication',
        ),
      ].join('\n'),
    )
    .action(verb(() => import('./token.js')));
  return cmd;
}
