/** `pdesk appointments list | book | cancel` — A5 search, A6 create, A7 cancel (both appointment API versions). */
import { Command } from 'commander';
import type { Appointment, Participant } from '../../../core/schemas/appointment.js';
import { readBody } from '../../body.js';
import { action } from '../../context.js';
import { collect, keyValues, oneOf, systemCode } from '../../options.js';
import { referenceLabel } from '../../../core/labels.js';
import { examples } from '../../help.js';

interface BookOptions {
  patient?: string;
  patientDisplay?: string;
  comment?: string;
  slotJson?: string;
  start?: string;
  end?: string;
  practitioner?: string;
  serviceCategory?: string;
  status?: string;
  id?: string;
  body?: string;
  allowPast?: boolean;
}

interface CancelOptions {
  actor?: string;
  comment?: string;
}

const SLOT_FORM = ['start', 'end', 'practitioner', 'serviceCategory'] as const;
const flag = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function isPatient(p: Participant): boolean {
  return !!p.actor?.reference.startsWith('Patient/');
}

export function appointmentsCommand(): Command {
  const cmd = new Command('appointments')
    .description('appointments: search, book, cancel (A5, A6, A7)')
    .addHelpText(
      'after',
      examples(
        'pdesk appointments list --param patient=pat-1',
        "pdesk appointments book --patient pat-1 --comment 'Check-up' \\",
        '  --slot-json slot.json',
        "pdesk appointments cancel appt-1 --actor Patient/pat-1 --comment 'Ill'",
      ),
    );

  cmd
    .command('list')
    .description('search appointments; query parameters are passed through (A5)')
    .addHelpText(
      'after',
      examples(
        'pdesk appointments list',
        'pdesk appointments list --param patient=pat-1 --json',
        'pdesk appointments list --output ndjson --query "[].{id: id, start: start}"',
      ),
    )
    .option('--param <key=value>', 'query parameter to pass through (repeatable)', collect)
    .action(
      action(async (ctx, opts: { param?: string[] }) => {
        const params = keyValues(opts.param);
        const { searchAppointments, utcParts } = await import('../../../core/api/appointments.js');
        const rows = await searchAppointments(await ctx.client(), params, { limit: ctx.limit });
        const who = (a: Appointment, patient: boolean) =>
          (a.participant ?? [])
            .filter((p) => isPatient(p) === patient)
            .map((p) => `${p.actor?.display ?? p.actor?.reference ?? '?'}${p.status ? ` (${p.status})` : ''}`)
            .join(', ');
        ctx.emitList<Appointment>(rows, [
          { header: 'ID', value: (r) => r.id },
          { header: 'STATUS', value: (r) => r.status },
          {
            header: 'START (UTC)',
            value: (r) => {
              const s = utcParts(r.start);
              return s.day ? `${s.day} ${s.time}` : '';
            },
          },
          { header: 'PATIENT', value: (r) => who(r, true), flex: true },
          { header: 'PRACTITIONER', value: (r) => who(r, false), flex: true },
        ]);
        // For `appointments cancel <TAB>`: the ids of this list, with status and start (no patient names).
        const { rememberIds } = await import('../../completion/cache.js');
        await rememberIds(
          ctx,
          'appointments',
          rows.map((a) => {
            const s = utcParts(a.start);
            return { id: a.id ?? '', description: [a.status, s.day ? `${s.day} ${s.time} UTC` : ''].filter(Boolean).join(' ') };
          }),
        );
      }),
    );

  cmd
    .command('book')
    .description('book an appointment from a slot (--slot-json) or from --start/--end/--practitioner/--service-category (A6)')
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
    .addHelpText(
      'after',
      examples(
        "pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\",
        '  --from tomorrow --to +7d --query "[?status==\'free\'] | [0]" > slot.json',
        "pdesk appointments book --patient pat-1 --comment 'Check-up' \\",
        '  --slot-json slot.json',
        "pdesk appointments book --patient pat-1 --comment 'Check-up' \\",
        "  --start 'tomorrow 09:00' --end 'tomorrow 09:30' --practitioner 1001 \\",
        "  --service-category 'urn:pdesk:service-category|gp'",
      ),
    )
    .action(
      action(async (ctx, opts: BookOptions) => {
        const api = await import('../../../core/api/appointments.js');
        const { UsageError } = await import('../../../core/errors.js');
        let body = readBody(ctx, 'Appointment');
        if (body === undefined) {
          const { requireOptions } = await import('../../options.js');
          // Every missing option at once: the patient and comment, and the slot or all four of its fields.
          const missing = (['patient', 'comment'] as const).filter((k) => opts[k] === undefined).map(flag);
          if (opts.slotJson === undefined) {
            const slotMissing = SLOT_FORM.filter((k) => opts[k] === undefined);
            if (slotMissing.length === SLOT_FORM.length)
              missing.push('--slot-json (or --start, --end, --practitioner and --service-category)');
            else missing.push(...slotMissing.map(flag));
          }
          requireOptions(missing, '(or give a complete Appointment with --body)');
          const status = opts.status === undefined ? undefined : oneOf(opts.status, ['booked', 'proposed'] as const, '--status');
          let when: Pick<
            import('../../../core/api/appointments.js').BookInput,
            'start' | 'end' | 'serviceCategory' | 'practitioner' | 'practitionerDisplay'
          >;
          if (opts.slotJson !== undefined) {
            const mixed = SLOT_FORM.find((k) => opts[k] !== undefined);
            if (mixed)
              throw new UsageError(
                `${flag(mixed)} cannot be used with --slot-json (the slot gives start, end, practitioner and service category).`,
              );
            when = api.bookingFromSlot(api.parseSlotArg(ctx.readJson(opts.slotJson, '--slot-json'), 'slot'));
          } else {
            const { parseInstant } = await import('../../../core/dates.js');
            const now = ctx.now();
            const start = parseInstant(opts.start!, 'start', now);
            const end = parseInstant(opts.end!, 'end', now);
            if (end <= start) throw new UsageError(`--end (${end}) must be after --start (${start}).`);
            when = {
              start,
              end,
              practitioner: opts.practitioner!,
              serviceCategory: [api.serviceCategoryConcept(systemCode(opts.serviceCategory!, '--service-category'))],
            };
          }
          body = api.buildAppointment(await ctx.profile(), {
            ...when,
            patient: opts.patient!,
            patientDisplay: opts.patientDisplay,
            comment: opts.comment!,
            status,
            id: opts.id,
          });
        }
        const sent = body as Appointment;
        // The past rule of both faces (core hasBegun): checked on what would be sent, however it was given.
        if (!opts.allowPast && api.hasBegun(sent?.start, ctx.now())) {
          const at = api.utcParts(sent.start);
          throw new UsageError(
            `The appointment starts at ${at.day} ${at.time} UTC, which has passed: nothing was sent (--allow-past books it anyway).`,
          );
        }
        const res = await api.createAppointment(await ctx.client(), body);
        // The server's id (decisions.md §16): the answer's, else its Location's; said when it is not the one sent.
        const { emitCreated } = await import('../../created.js');
        const { sanitize } = await import('../../../core/sanitize.js');
        const a: Appointment = res.appointment ?? res.sent;
        emitCreated(
          ctx,
          'Appointment',
          { status: res.status, body: res.appointment, created: res.created },
          () => `Appointment ${res.created.id ?? a.id} created (HTTP ${res.status}), status ${a.status}.`,
          () => {
            const s = api.utcParts(a.start);
            const e = api.utcParts(a.end);
            const parts = (a.participant ?? []).map((p) => `${referenceLabel(p.actor, { idOnly: true })} [${p.status ?? '?'}]`);
            return [`  ${s.day} ${s.time}–${e.time} UTC`, ...parts.map((p) => `  ${p}`)].map((l) => sanitize(l));
          },
        );
      }),
    );

  cmd
    .command('cancel')
    .description('cancel an appointment by declining it (A7)')
    .addHelpText(
      'after',
      examples(
        "pdesk appointments cancel appt-1 --actor Patient/pat-1 --comment 'Ill'",
        'pdesk appointments cancel appt-2 --actor PractitionerRole/1001 \\',
        "  --comment 'Practice closed' --dry-run",
      ),
    )
    .argument('<appointmentId>', 'id of the appointment to cancel')
    .option('--actor <reference>', 'who cancels: Patient/<id> or PractitionerRole/<id> (required unless --body)')
    .option('--comment <text>', 'free text of the cancelling party (required unless --body)')
    .option('--body <file|->', 'a complete appointment response to send as is after validation')
    .action(
      action(async (ctx, appointmentId: string, opts: CancelOptions) => {
        const api = await import('../../../core/api/appointments.js');
        const { UsageError } = await import('../../../core/errors.js');
        const id = appointmentId.replace(/^Appointment\//, '');
        if (!id || id.includes('/')) throw new UsageError(`<appointmentId> must be an appointment id, not "${appointmentId}".`);
        let body = readBody(ctx, 'appointment response');
        if (body !== undefined) {
          const named = (body as { appointment?: { reference?: unknown } } | null)?.appointment?.reference;
          if (typeof named === 'string' && named !== `Appointment/${id}`)
            throw new UsageError(`--body cancels ${named}, not Appointment/${id} given as <appointmentId>.`);
        } else {
          const { requireOptions } = await import('../../options.js');
          requireOptions(
            (['actor', 'comment'] as const).filter((k) => opts[k] === undefined).map(flag),
            '(or give a complete appointment response with --body)',
          );
          body = api.buildCancellation(id, opts.actor!, opts.comment!);
        }
        const res = await api.cancelAppointment(await ctx.client(), body);
        ctx.emitWrite(res.status, res.body, () => `Appointment ${id} cancelled (HTTP ${res.status}).`);
      }),
    );

  return cmd;
}
