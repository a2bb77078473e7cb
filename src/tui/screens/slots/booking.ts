/**
 * The booking rule as the Slots screen applies it, kept in this one file so that the core's own (one
 * `bookingRequest` both faces call) can take its place: the date range (from ≤ to), the slot search's shape
 * per appointment API version, the past-slot rule and the body with its defaults. The hook (useSlotBooking.ts)
 * only maps the forms and picks to these.
 */
import { type SlotQuery, bookingFromSlot, buildAppointment, slotIsPast, utcParts } from '../../../core/api/appointments.js';
import { parseDay } from '../../../core/dates.js';
import { FieldError } from '../../../core/errors.js';
import type { AppointmentCreate, Slot } from '../../../core/schemas/appointment.js';
import type { Profile } from '../../../core/profile/schema.js';
import { clean } from '../../format.js';

/** The statuses a booking may ask for; the first is the default. */
export const BOOKING_STATUSES = ['booked', 'proposed'] as const;

/** The range form's dates (YYYY-MM-DD, today, +Nd…) as local calendar days; a FieldError names the field. */
export function dateRange(v: { from?: string; to?: string }, now?: Date): { from: string; to: string } {
  const from = parseDay(v.from ?? '', 'from', now);
  const to = parseDay(v.to ?? '', 'to', now);
  if (from > to) throw new FieldError('from', `(${from}) is after {{to}} (${to})`);
  return { from, to };
}

/**
 * The A4 search of a category and range, narrowed to what was picked as its API version can: the schedule
 * (2.0.0), or the practitioner (1.0.0).
 */
export function slotSearch(
  profile: Profile,
  q: { serviceCategory: string; from: string; to: string; schedule?: string; practitioner?: string },
): SlotQuery {
  return {
    serviceCategory: q.serviceCategory,
    from: q.from,
    to: q.to,
    schedule: profile.appointmentApi === '2.0.0' ? q.schedule : undefined,
    practitioners: profile.appointmentApi === '1.0.0' && q.practitioner ? [q.practitioner] : undefined,
  };
}

/** Why a slot cannot be booked at `now` (it has begun), or undefined when it can. */
export function pastSlotProblem(slot: Slot, now: Date): string | undefined {
  if (!slotIsPast(slot, now)) return undefined;
  const at = utcParts(slot.start);
  return `Slot ${clean(slot.id)} started at ${at.day} ${at.time} UTC: it is in the past and cannot be booked.`;
}

/** The Appointment (A6) booking `slot` for the form's patient, comment and status (default booked). */
export function bookingBody(profile: Profile, slot: Slot, v: { patient?: string; comment?: string; status?: string }): AppointmentCreate {
  return buildAppointment(profile, {
    ...bookingFromSlot(slot),
    patient: v.patient ?? '',
    comment: v.comment ?? '',
    status: BOOKING_STATUSES.find((s) => s === v.status) ?? BOOKING_STATUSES[0],
  });
}

/** A slot that has begun: shown as past, not bookable (the core's rule; `slots list` and `appointments book` follow it). */
export { slotIsPast };
