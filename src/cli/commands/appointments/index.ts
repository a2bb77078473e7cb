/** `pdesk appointments list | book | cancel`: A5 search, A6 create, A7 cancel (both appointment API versions). */
import type { Command } from 'commander';
import { command, subcommand } from '../../help.js';
import { collect } from '../../options.js';
import { verb } from '../../verb.js';

export function appointmentsCommand(): Command {
  const cmd = command(
    'appointments',
    'appointments: search, book, cancel (A5, A6, A7)',
    'pdesk appointments list --param patient=pat-1',
    "pdesk appointments book --patient pat-1 --comment 'Check-up' \\",
    '  --slot-json slot.json',
    "pdesk appointments cancel appt-1 --actor Patient/pat-1 --comment 'Ill'",
  );

  subcommand(
    cmd,
    'list',
    'search appointments; query parameters are passed through (A5)',
    'pdesk appointments list',
    'pdesk appointments list --param patient=pat-1 --json',
    'pdesk appointments list --output ndjson --query "[].{id: id, start: start}"',
  )
    .option('--param <key=value>', 'query parameter to pass through (repeatable)', collect)
    .action(verb(() => import('./list.js')));

  subcommand(
    cmd,
    'book',
    'book an appointment from a slot (--slot-json) or from --start/--end/--practitioner/--service-category (A6)',
    "pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\",
    '  --from tomorrow --to +7d --query "[?status==\'free\'] | [0]" > slot.json',
    "pdesk appointments book --patient pat-1 --comment 'Check-up' \\",
    '  --slot-json slot.json',
    "pdesk appointments book --patient pat-1 --comment 'Check-up' \\",
    "  --start 'tomorrow 09:00' --end 'tomorrow 09:30' --practitioner 1001 \\",
    "  --service-category 'urn:pdesk:service-category|gp'",
  )
    .option('--patient <id>', 'the patient: <id> or Patient/<id> (required unless --body)')
    .option('--comment <text>', 'free text of the appointment (required unless --body)')
    .option('--slot-json <file|->', 'one Slot as printed by `slots list --json` (a file, or - for standard input)')
    .option('--start <time>', 'start time (ISO 8601; without offset it is local time); sent as UTC')
    .option('--end <time>', 'end time (ISO 8601; without offset it is local time); sent as UTC')
    .option('--practitioner <id>', 'the practitioner role: <id> or PractitionerRole/<id>')
    .option('--service-category <system|code>', 'service category as <system>|<code>')
    .option('--status <status>', 'booked or proposed (default booked)')
    .option('--id <id>', 'appointment id (default: a new UUID)')
    .option('--patient-display <name>', 'display name of the patient')
    .option('--body <file|->', 'a complete Appointment to send as is after validation (no other option needed)')
    .option('--allow-past', 'book a start that has passed (refused otherwise, as the TUI refuses a past slot)')
    .action(
      verb(() => import('./book.js'), {
        all: ['--patient', '--comment'],
        oneOf: [['--slot-json'], ['--start', '--end', '--practitioner', '--service-category']],
        unless: ['--body'],
        hint: '(or give a complete Appointment with --body)',
      }),
    );

  subcommand(
    cmd,
    'cancel',
    'cancel an appointment by declining it (A7)',
    "pdesk appointments cancel appt-1 --actor Patient/pat-1 --comment 'Ill'",
    'pdesk appointments cancel appt-2 --actor PractitionerRole/1001 \\',
    "  --comment 'Practice closed' --dry-run",
  )
    .argument('<appointmentId>', 'id of the appointment to cancel')
    .option('--actor <reference>', 'who cancels: Patient/<id> or PractitionerRole/<id> (required unless --body)')
    .option('--comment <text>', 'free text of the cancelling party (required unless --body)')
    .option('--body <file|->', 'a complete appointment response to send as is after validation')
    .action(
      verb(() => import('./cancel.js'), {
        all: ['--actor', '--comment'],
        unless: ['--body'],
        hint: '(or give a complete appointment response with --body)',
      }),
    );

  return cmd;
}
