/**
 * Sandbox handlers of the appointment API (practice side), both versions:
 * A1 appointment types · A2 practitioner roles · A3 schedules · A4 slots · A5 appointments ·
 * A6 create an appointment · A7 cancel an appointment (decisions.md §2, §4, §5).
 */
import { AppointmentCreate, AppointmentResponseCreate, type Appointment } from '../core/schemas/appointment.js';
import { badRequest, validate } from '../listen/accept.js';
import { conflict, type Handler, listParam, matchesToken, notFound, searchset, unprocessable } from './http.js';
import { APPOINTMENT_TYPE_SYSTEM } from './seed.js';
import { findSlot, refId, slotPractitioner, type SandboxState } from './state.js';
import { parseToken } from '../core/tokens.js';

/** A1: `GET /ValueSet` (2.0.0) or `GET /AppointmentType` (1.0.0); `service-category` is required. */
export const getAppointmentTypes: Handler = (w, req) => {
  const raw = req.query.get('service-category');
  if (!raw) throw badRequest('Search parameter service-category is required.', 'service-category');
  const { code } = parseToken(raw);
  const types = w.state.appointmentTypes.get(code) ?? [];
  if (w.state.appointmentApi === '2.0.0') {
    return {
      status: 200,
      body: {
        resourceType: 'ValueSet',
        status: 'active',
        compose: { include: types.length ? [{ system: APPOINTMENT_TYPE_SYSTEM, concept: types.map((t) => ({ ...t })) }] : [] },
      },
    };
  }
  return {
    status: 200,
    body: { resourceType: 'AppointmentType', compose: { include: types.map((t) => ({ actor: { concept: { ...t } } })) } },
  };
};

/** A2: `GET /PractitionerRole`; optional filters `_id` and `speciality` (code). */
export const listPractitionerRoles: Handler = (w, req) => {
  const ids = listParam(req.query, '_id');
  const speciality = listParam(req.query, 'speciality');
  const roles = [...w.state.practitionerRoles.values()].filter(
    (r) => (!ids.length || ids.includes(String(r.id))) && (!speciality.length || speciality.some((s) => matchesToken([r.speciality], s))),
  );
  return searchset(req, roles);
};

/** A3: `GET /Schedule?service-category=<system>|<code>`; entries are bare Schedules (interface sample). */
export const searchSchedules: Handler = (w, req) => {
  const cats = listParam(req.query, 'service-category');
  const found = [...w.state.schedules.values()].filter((s) => !cats.length || cats.some((c) => matchesToken(s.serviceCategory, c)));
  return searchset(req, found, false);
};

const DAY_MS = 86_400_000;

/** One `schedule.date` bound: `ge2026-03-01`, `le2026-03-07`, `gt…`, `lt…`, `eq…` or a bare date (that day). */
function dateBounds(value: string): { from?: number; to?: number } {
  const m = /^(ge|le|gt|lt|eq)?(.+)$/.exec(value.trim());
  const prefix = m?.[1] ?? 'eq';
  const v = m?.[2] ?? '';
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const t = Date.parse(dateOnly ? `${v}T00:00:00Z` : v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(t))
    throw badRequest(`Search parameter schedule.date must be ge<date> or le<date> (ISO 8601), not "${value}".`, 'schedule.date');
  // Bounds are on the slot start: from <= start < to.
  const dayEnd = dateOnly ? t + DAY_MS : t + 1;
  switch (prefix) {
    case 'ge':
      return { from: t };
    case 'gt':
      return { from: dateOnly ? t + DAY_MS : t + 1 };
    case 'le':
      return { to: dayEnd };
    case 'lt':
      return { to: t };
    default:
      return { from: t, to: dayEnd };
  }
}

/** A4: `GET /Slot`; filters of decisions.md §2 per version, free slots unless `status` (2.0.0) asks otherwise. */
export const searchSlots: Handler = (w, req) => {
  const v2 = w.state.appointmentApi === '2.0.0';
  const q = req.query;
  if (v2 && q.has('schedule.actor:PractitionerRole'))
    throw badRequest(
      'Search parameter schedule.actor:PractitionerRole belongs to appointment API 1.0.0; this server speaks 2.0.0 (use schedule).',
      'schedule.actor:PractitionerRole',
    );
  if (!v2 && q.has('schedule'))
    throw badRequest(
      'Search parameter schedule belongs to appointment API 2.0.0; this server speaks 1.0.0 (use schedule.actor:PractitionerRole).',
      'schedule',
    );
  if (!v2 && q.has('status'))
    throw badRequest('Search parameter status belongs to appointment API 2.0.0; this server speaks 1.0.0.', 'status');
  let from = -Infinity;
  let to = Infinity;
  for (const d of q.getAll('schedule.date')) {
    const b = dateBounds(d);
    if (b.from !== undefined) from = Math.max(from, b.from);
    if (b.to !== undefined) to = Math.min(to, b.to);
  }
  const cats = listParam(q, 'service-category');
  const statuses = v2 && q.has('status') ? listParam(q, 'status') : ['free'];
  const schedules = listParam(q, 'schedule').map((s) => refId(s, 'Schedule') ?? s);
  const actors = listParam(q, 'schedule.actor:PractitionerRole').map((s) => refId(s, 'PractitionerRole') ?? s);
  const scheduleOf = (practitioner: string) => {
    for (const s of w.state.schedules.values()) if (refId(s.actor[0]?.reference, 'PractitionerRole') === practitioner) return String(s.id);
    return undefined;
  };
  const found = [];
  for (const s of w.state.slots.values()) {
    const start = Date.parse(s.start);
    if (start < from || start >= to) continue;
    if (!statuses.includes(s.status)) continue;
    if (cats.length && !cats.some((c) => matchesToken(s.serviceCategory, c))) continue;
    const practitioner = slotPractitioner(s);
    if (actors.length && !actors.includes(practitioner)) continue;
    if (schedules.length) {
      const sched = s.schedule ? refId(s.schedule.reference, 'Schedule') : scheduleOf(practitioner);
      if (!sched || !schedules.includes(sched)) continue;
    }
    found.push(s);
  }
  return searchset(req, found);
};

/** A5: `GET /Appointment`; optional filters `patient`, `practitioner`, `status` (comma lists). */
export const searchAppointments: Handler = (w, req) => {
  const patients = listParam(req.query, 'patient').map((p) => refId(p, 'Patient') ?? p);
  const practitioners = listParam(req.query, 'practitioner').map((p) => refId(p, 'PractitionerRole') ?? p);
  const statuses = listParam(req.query, 'status');
  const has = (a: Appointment, type: string, ids: string[]) =>
    (a.participant ?? []).some((p) => ids.includes(refId(p.actor?.reference, type) ?? '\0'));
  const found = [...w.state.appointments.values()].filter(
    (a) =>
      (!statuses.length || statuses.includes(a.status)) &&
      (!patients.length || has(a, 'Patient', patients)) &&
      (!practitioners.length || has(a, 'PractitionerRole', practitioners)),
  );
  return searchset(req, found);
};

/**
 * A6: `POST /Appointment`. The booking must match a free slot of the same practitioner with the same start and
 * end (409 otherwise); the practitioner's participant status follows the approval flow (422 otherwise).
 */
export const createAppointment: Handler = (w, req) => {
  const body = validate(AppointmentCreate, req.body, 'Appointment');
  const state = w.state;
  if (state.appointments.has(body.id)) throw conflict(`Appointment ${body.id} already exists.`, '$.id');
  if (body.status === 'cancelled') throw unprocessable('A new appointment must be booked or proposed, not cancelled.', '$.status');
  const pIndex = body.participant.findIndex((p) => p.actor.reference.startsWith('PractitionerRole/'));
  if (pIndex < 0) throw unprocessable('The appointment has no PractitionerRole participant.', '$.participant');
  const patIndex = body.participant.findIndex((p) => p.actor.reference.startsWith('Patient/'));
  if (patIndex < 0) throw unprocessable('The appointment has no Patient participant.', '$.participant');
  const practitionerStatus = body.participant[pIndex]!.status;
  const want = state.approvalFlow ? 'needs-action' : 'accepted';
  if (practitionerStatus !== want)
    throw unprocessable(
      `With the approval flow ${state.approvalFlow ? 'on' : 'off'} the practitioner participant's status must be ${want}, not ${practitionerStatus}.`,
      `$.participant[${pIndex}].status`,
    );
  if (body.participant[patIndex]!.status !== 'accepted')
    throw unprocessable(
      `The patient participant's status must be accepted, not ${body.participant[patIndex]!.status}.`,
      `$.participant[${patIndex}].status`,
    );
  const practitioner = refId(body.participant[pIndex]!.actor.reference, 'PractitionerRole')!;
  const slot = findSlot(state, practitioner, body.start, body.end);
  if (!slot) throw conflict(`There is no slot of PractitionerRole/${practitioner} from ${body.start} to ${body.end}.`, '$.start');
  if (slot.status !== 'free') throw conflict(`Slot ${slot.id} (${slot.start}) is not free: it is ${slot.status}.`, '$.start');
  const stored = body as Appointment;
  state.appointments.set(stored.id, stored);
  slot.status = 'busy';
  state.slotBookings.set(slot.id, stored.id);
  return { status: 201, body: stored, headers: { location: `Appointment/${encodeURIComponent(stored.id)}` } };
};

function freeSlotOf(state: SandboxState, a: Appointment): void {
  for (const [slotId, apptId] of state.slotBookings) {
    if (apptId !== a.id) continue;
    state.slotBookings.delete(slotId);
    const slot = state.slots.get(slotId);
    if (slot) slot.status = 'free';
  }
}

/**
 * A7: `POST /AppointmentResponse` declining an appointment: that participant becomes `declined`, the
 * appointment `cancelled`, its slot free again (decisions.md §5).
 */
export const cancelAppointment: Handler = (w, req) => {
  const body = validate(AppointmentResponseCreate, req.body, 'AppointmentResponse');
  const state = w.state;
  const id = body.appointment.reference.slice('Appointment/'.length);
  const appt = state.appointments.get(id);
  if (!appt) throw notFound(`Appointment ${id}`, '$.appointment.reference');
  const participant = (appt.participant ?? []).find((p) => p.actor?.reference === body.actor.reference);
  if (!participant) throw unprocessable(`${body.actor.reference} is not a participant of appointment ${id}.`, '$.actor.reference');
  participant.status = 'declined';
  appt.status = 'cancelled';
  freeSlotOf(state, appt);
  const stored = { ...body, resourceType: 'AppointmentResponse' as const, id: `ar-${++state.counters.appointmentResponse}` };
  state.appointmentResponses.push(stored);
  return { status: 201, body: stored, headers: { location: `AppointmentResponse/${stored.id}` } };
};
