/**
 * `pdesk doctor`: first-line triage of the selected profile, `--profiles a,b` or `--all-profiles`
 * (src/core/doctor): the profile, its secrets, DNS, TCP, TLS, token, a GET round trip and the clock per party,
 * the thread store and the bulk-send journals. Only GET requests are sent. A table on a terminal, JSON with
 * `--json` or when piped. Exit 0, or 7 when a step failed or errored.
 */
import type { Command } from 'commander';
import { command } from '../../help.js';
import { collectList } from '../../options.js';
import { verb } from '../../verb.js';

export function doctorCommand(): Command {
  return command(
    'doctor',
    'triage a profile: secrets, DNS, TCP, TLS, token, clock, a round trip, the thread store and journals',
    'pdesk doctor',
    'pdesk doctor --all-profiles --json',
  )
    .option('--profiles <names>', 'these profiles, concurrently (repeatable or a comma list)', collectList)
    .option('--all-profiles', 'every stored profile, concurrently')
    .addHelpText(
      'after',
      [
        '',
        'Warnings: a certificate expiring within 30 days, a clock more than 60 s off, a key file others can read,',
        'bulk-send rows whose outcome is uncertain. Exit 0, or 7 when a step failed or errored.',
      ].join('\n'),
    )
    .action(verb(() => import('./doctor.js')));
}
