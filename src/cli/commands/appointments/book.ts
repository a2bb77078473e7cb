/** `pdesk appointments book`: A6, book an appointment from a slot or from its start, end, practitioner and category. */
import { bookingRequest, createAppointment, parseSlotArg, pastBooking, utcParts } from '../../../core/api/appointments.js';
import { UsageError } from '../../../core/errors.js';
import { referenceLabel } from '../../../core/labels.js';
import { sanitize } from '../../../core/sanitize.js';
import type { Appointment, Slot } from '../../../core/schemas/appointment.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';
import { emitCreated } from '../../created.js';
import { flagOf } from '../../options.js';

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

/** The appointment the options describe (the core's booking rule: defaults, times, the past). */
async function built(ctx: Context, opts: BookOptions): Promise<unknown> {
  let slot: Slot | undefined;
  if (opts.slotJson !== undefined) {
    const mixed = SLOT_FORM.find((k) => opts[k] !== undefined);
    if (mixed)
      throw new UsageError(
        `${flagOf(mixed)} cannot be used with --slot-json (the slot gives start, end, practitioner and service category).`,
      );
    slot = parseSlotArg(ctx.readJson(opts.slotJson, '--slot-json'), 'slot');
  }
  return bookingRequest(
    await ctx.profile(),
    {
      patient: opts.patient!,
      patientDisplay: opts.patientDisplay,
      comment: opts.comment!,
      status: opts.status,
      id: opts.id,
      ...(slot ? { slot } : { start: opts.start, end: opts.end, practitioner: opts.practitioner, serviceCategory: opts.serviceCategory }),
    },
    { now: ctx.now(), allowPast: opts.allowPast },
  );
}

export async function run(ctx: Context, opts: BookOptions): Promise<void> {
  let body = readBody(ctx, opts.body, 'Appointment');
  if (body === undefined) body = await built(ctx, opts);
  else if (!opts.allowPast) {
    // A body given whole keeps the past rule of both faces too.
    const start = (body as { start?: unknown } | null)?.start;
    const past = pastBooking(typeof start === 'string' ? start : undefined, ctx.now());
    if (past) throw past;
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
