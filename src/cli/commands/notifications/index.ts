/**
 * `pdesk notifications send`: C5, a notification (practice system → portal): one (`--email`, or a complete resource
 * with `--body`: send.ts), or one per CSV row (`--csv`: bulk.ts, run from the ESM build, src/cli/route.ts).
 */
import type { Command } from 'commander';
import { command, examples } from '../../help.js';
import { verb } from '../../verb.js';
import type { SendOptions } from './send.js';

export function notificationsCommand(): Command {
  const cmd = command(
    'notifications',
    'notifications to patients (C5)',
    "pdesk notifications send --email jane@example.org --topic 'Lab results' \\",
    "  --text 'Your results are in.'",
  );
  cmd
    .command('send')
    .description('send a notification: one with --email, or one per row of a CSV with --csv, resumable (C5)')
    .option('--email <addr>', "the patient's email address (one notification)")
    .option('--topic <t>', 'topic text; with --csv a template with {column} placeholders')
    .option('--text <t>', 'message text; with --csv a template with {column} placeholders')
    .option('--body <file|->', 'a complete notification Communication to send as is (after validation)')
    .option('--csv <file>', 'bulk: one notification per row; the header names the columns (, or ; separated)')
    .option('--email-column <name>', 'bulk: the column holding the address (default: email)')
    .option('--concurrency <n>', 'bulk: requests in flight at once, each on a connection of its own (default: 8)')
    .option(
      '--journal <file>',
      "bulk: where each row's outcome is recorded (default: journals/<profile>/<csv name>-<id>.journal.ndjson in the config folder)",
    )
    .option('--resend-uncertain', 'bulk: also send rows whose earlier outcome is unknown (may send them twice)')
    .option('--rate <n>', "bulk: at most n requests per second, e.g. 50 or 50/s (default: the profile's bulk.rate, else no limit)")
    .addHelpText(
      'after',
      [
        examples(
          'pdesk notifications send --email jane@example.org --topic "Lab results" \\',
          '  --text "Your results are in."',
          'pdesk notifications send --csv patients.csv --topic "Reminder" \\',
          '  --text "Dear {name}, see you on {date}." --rate 50',
        ),
        '',
        'A bulk send is resumable: run the same command again after failures, Ctrl-C',
        'or a crash. Rows the portal acknowledged are skipped, failed rows are sent',
        'again, and rows whose outcome is unknown are listed in the failed-rows CSV',
        'beside the journal and sent only with --resend-uncertain. Exit 4 or 5 when',
        'rows failed (5 for server or network failures and unknown outcomes), 130',
        'after Ctrl-C.',
        '',
        'A 429 (Too Many Requests) pauses the whole run for its Retry-After and halves',
        'the rate, and the row is sent again: it fails no row. --rate caps the rate',
        'from the start; the progress line shows the rate of the last second.',
      ].join('\n'),
    )
    .action(
      verb<SendOptions>(
        (o) => (o.csv === undefined ? import('./send.js') : import('./bulk.js')),
        {
          all: ['--email', '--topic', '--text'],
          unless: ['--csv', '--body'],
          hint: '(or --csv for a bulk send, or --body for a complete notification)',
        },
        { all: ['--topic', '--text'], with: '--csv', hint: 'with --csv' },
      ),
    );
  return cmd;
}
