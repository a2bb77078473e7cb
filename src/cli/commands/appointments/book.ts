/** `pdesk appointments book`: A6, book an appointment from a slot or from its start, end, practitioner and category. */
import {
  type BookInput,
  bookingFromSlot,
  buildAppointment,
  createAppointment,
  hasBegun,
  parseSlotArg,
  serviceCategoryConcept,
  utcParts,
} from '../../../core/api/appointments.js';
import { parseInstant } from '../../../core/dates.js';
import { UsageError } from '../../../core/errors.js';
import { referenceLabel } from '../../../core/labels.js';
import { sanitize } from '../../../core/sanitize.js';
import type { Appointment } from '../../../core/schemas/appointment.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';
import { emitCreated } from '../../created.js';
import { flagOf, oneOf, systemCode } from '../../options.js';

/**
 * Without `body`: `patient`, `comment`, and `slotJson` or all of `start`, `end`, `practitioner` and
 * `serviceCategory` (required, src/cli/commands/appointments/index.ts).
 */
export interface BookOptions {
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

const SLOT_FORM = ['start', 'end', 'practitioner', 'serviceCategory'] as const;

/** The appointment the options describe. */
async function built(ctx: Context, opts: BookOptions): Promise<unknown> {
  const status = opts.status === undefined ? undefined : oneOf(opts.status, ['booked', 'proposed'] as const, '--status');
  let when: Pick<BookInput, 'start' | 'end' | 'serviceCategory' | 'practitioner' | 'practitionerDisplay'>;
  if (opts.slotJson !== undefined) {
    const mixed = SLOT_FORM.find((k) => opts[k] !== undefined);
    if (mixed)
      throw new UsageError(
        `${flagOf(mixed)} cannot be used with --slot-json (the slot gives start, end, practitioner and service category).`,
      );
    when = bookingFromSlot(parseSlotArg(ctx.readJson(opts.slotJson, '--slot-json'), 'slot'));
  } else {
    const now = ctx.now();
    const start = parseInstant(opts.start!, 'start', now);
    const end = parseInstant(opts.end!, 'end', now);
    if (end <= start) throw new UsageError(`--end (${end}) must be after --start (${start}).`);
    when = {
      start,
      end,
      practitioner: opts.practitioner!,
      serviceCategory: [serviceCategoryConcept(systemCode(opts.serviceCategory!, '--service-category'))],
    };
  }
  return buildAppointment(await ctx.profile(), {
    ...when,
    patient: opts.patient!,
    patientDisplay: opts.patientDisplay,
    comment: opts.comment!,
    status,
    id: opts.id,
  });
}

export async function run(ctx: Context, opts: BookOptions): Promise<void> {
  let body = readBody(ctx, opts.body, 'Appointment');
  if (body === undefined) body = await built(ctx, opts);
  const sent = body as Appointment;
  // The past rule of both faces (core hasBegun): checked on what would be sent, however it was given.
  if (!opts.allowPast && hasBegun(sent?.start, ctx.now())) {
    const at = utcParts(sent.start);
    throw new UsageError(
      `The appointment starts at ${at.day} ${at.time} UTC, which has passed: nothing was sent (--allow-past books it anyway).`,
    );
  }
  const res = await createAppointment(await ctx.client(), body);
  // The server's id (decisions.md §16): the answer's, else its Location's; said when it is not the one sent.
  const a: Appointment = res.appointment ?? res.sent;
  emitCreated(
    ctx,
    'Appointment',
    { status: res.status, body: res.appointment, created: res.created },
    () => `Appointment ${res.created.id ?? a.id} created (HTTP ${res.status}), status ${a.status}.`,
    () => {
      const s = utcParts(a.start);
      const e = utcParts(a.end);
      const parts = (a.participant ?? []).map((p) => `${referenceLabel(p.actor, { idOnly: true })} [${p.status ?? '?'}]`);
      return [`  ${s.day} ${s.time}–${e.time} UTC`, ...parts.map((p) => `  ${p}`)].map((l) => sanitize(l));
    },
  );
}
