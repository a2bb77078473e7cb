/**
 * `pdesk api <METHOD> <path>`: raw escape hatch (like `gh api`): any method and path under a party's base URL,
 * sent with the profile's auth and headers through the same client as every command (so --verbose, --dry-run,
 * redaction, retries of idempotent methods and the exit codes 4/5/6 all apply). Prints the JSON answer.
 */
import type { Command } from 'commander';
import { command } from '../../help.js';
import { collect } from '../../options.js';
import { verb } from '../../verb.js';
import { API_METHODS } from './methods.js';

export function apiCommand(): Command {
  const cmd = command(
    'api',
    "send a raw request with the profile's auth and headers, print the JSON answer",
    "pdesk api GET '/Slot?status=free'",
    'pdesk api GET /PractitionerRole --param speciality=0100',
    'pdesk api POST /Communication --party portal --body message.json --dry-run',
  )
    .argument('<METHOD>', `HTTP method: ${API_METHODS.join(', ')}`)
    .argument('<path>', "path under the party's base URL, e.g. /Slot?status=free (or a full URL on that server)")
    .option('--party <party>', 'practice or portal: whose base URL, auth and headers to use', 'practice')
    .option('--body <file|->', 'JSON body from a file or standard input, sent as application/fhir+json')
    .option('--param <key=value>', 'query parameter, URL-encoded (repeatable), as for the list commands', collect)
    .action(verb(() => import('./api.js')));
  return cmd;
}
