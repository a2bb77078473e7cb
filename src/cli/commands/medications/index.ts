/**
 * `pdesk medications list | show | order`: M1 list medication requests, M2 get one, M3 order a medication (a
 * reorder: M2 read of the request being reordered, then M3; decisions.md §10).
 */
import type { Command } from 'commander';
import { command, examples, subcommand } from '../../help.js';
import { collect } from '../../options.js';
import { verb } from '../../verb.js';

export function medicationsCommand(): Command {
  const cmd = command(
    'medications',
    'medication requests: list, show, order (M1–M3)',
    'pdesk medications list --param patient=pat-1',
    'pdesk medications show mr-1',
    'pdesk medications order --reorder mr-1',
  );

  subcommand(
    cmd,
    'list',
    'list medication requests with their pharmacy (M1)',
    'pdesk medications list',
    'pdesk medications list --param patient=pat-1 --json',
  )
    .option('--param <key=value>', 'query parameter passed through, e.g. patient=pat-1 (repeatable)', collect)
    .action(verb(() => import('./list.js')));

  subcommand(cmd, 'show', 'show one medication request (M2)', 'pdesk medications show mr-1', 'pdesk medications show mr-1 --json')
    .argument('<id>', 'id of the MedicationRequest')
    .action(verb(() => import('./show.js')));

  cmd
    .command('order')
    .description('order a medication: a reorder of an existing request, read with M2 and sent with M3 (status draft, intent order)')
    .option('--reorder <id>', 'the MedicationRequest to reorder (read first with M2; an unknown id exits 4 and nothing is ordered)')
    .option('--pharmacy <organizationId>', "pharmacy (Organization id) where the patient collects it (default: the request's)")
    .option('--quantity <n>', "quantity value, a positive number (default: the request's; the unit is kept)")
    .option('--start <date>', 'first day of the period: YYYY-MM-DD, ISO 8601, today, tomorrow or +Nd (default today)')
    .option('--end <date>', "last day of the period (default: start plus the length of the request's period, or 30 days)")
    .option('--note <text>', "the patient's free text")
    .option('--body <file|->', 'send this complete MedicationRequest as is after validation (no M2 read; excludes the options above)')
    .addHelpText(
      'after',
      [
        '',
        'The order follows decisions.md §10: basedOn the reordered request, medication',
        'and patient copied, status draft, intent order, authoredOn now with the local',
        'UTC offset.',
        '',
        'With --dry-run the M2 read of the request being reordered IS made (it changes',
        'nothing, and the order is built from it); the M3 request is printed, not sent.',
        'With --body nothing is read.',
        examples(
          'pdesk medications order --reorder mr-1',
          'pdesk medications order --reorder mr-2 --pharmacy ph-2 --quantity 30 \\',
          "  --start tomorrow --note 'Collect after 16:00'",
          'pdesk medications order --reorder mr-1 --dry-run',
        ),
      ].join('\n'),
    )
    .action(
      verb(() => import('./order.js'), {
        all: ['--reorder'],
        unless: ['--body'],
        hint: '(name the medication request to reorder, or give a complete one with --body)',
      }),
    );

  return cmd;
}
