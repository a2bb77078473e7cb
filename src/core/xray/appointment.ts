/**
 * X-ray of an appointment (A5/A6): its slot (A4), schedule (A3), practitioner role (A2), patient, the cancel
 * responses, and the patient's chat threads and notifications in the thread store. GET only.
 *
 * - Slot: the interface links an appointment to no slot, so it is searched (A4) on the appointment's day and
 *   service category and matched by start, end and practitioner. A server lists free slots unless asked for
 *   another status (2.0.0's `status`; 1.0.0 has no such parameter), so a booked slot may not be found: the
 *   X-ray then says why.
 * - Cancel responses: a list of sources (`CANCEL_SOURCES`), each a function of the appointment. Until pdesk's
 *   own A7s are kept in an audit trail, the one source is what the appointment shows (participants declined);
 *   adding the audit trail is one more function in that list.
 */
import type { Profile } from '../profile/schema.js';
import { listPractitionerRoles, searchSchedules, searchSlots, slotPractitioner, utcParts } from '../api/appointments.js';
import type { PdeskClient } from '../client.js';
import { roleName, roleSpecialities } from '../labels.js';
import type { Appointment, Participant, Schedule, Slot } from '../schemas/appointment.js';
import { type Xray, type XrayNode, gather, refId, section, xray } from './model.js';
import { THREADS_SECTION, patientNotifications, patientThreads } from './patient.js';
import type { XrayStore } from './thread.js';

export interface XrayContext {
  client: PdeskClient;
  profile: Profile;
  /** The desk's store (the profile's records are under its name); without it the store's sections say so. */
  store?: XrayStore;
  signal?: AbortSignal;
}

/** A source of cancel responses (A7) for an appointment. */
export type CancelSource = (a: Appointment, ctx: XrayContext) => Promise<XrayNode[]> | XrayNode[];

export const CANCEL_SECTION = 'Cancel responses (A7)';

/** What the appointment itself shows: each participant who declined (the practice system kept the A7's effect). */
export const cancelsFromParticipants: CancelSource = (a) => {
  const s = section(CANCEL_SECTION);
  const declined = (a.participant ?? []).filter((p) => p.status === 'declined');
  if (!declined.length)
    return [
      s.none(a.status === 'cancelled' ? 'cancelled, yet no participant shows declined' : 'no participant declined (no cancellation)'),
    ];
  return declined.map((p) =>
    s.found(`declined by ${label(p)} (as the appointment shows it; the server keeps no A7 to read back)`, { source: 'A5', resource: p }),
  );
};

/** Where cancel responses come from, in order. */
export const CANCEL_SOURCES: CancelSource[] = [cancelsFromParticipants];

const label = (p: Participant) =>
  p.actor ? (p.actor.display ? `${p.actor.reference} (${p.actor.display})` : p.actor.reference) : '(no actor)';

const participantRef = (a: Appointment, type: string) => a.participant?.find((p) => p.actor?.reference.startsWith(`${type}/`))?.actor;

/** `system|code` of the appointment's first service category (bare code without a system). */
export function categoryOf(a: Appointment): string | undefined {
  const c = a.serviceCategory?.[0]?.coding?.[0];
  if (!c) return undefined;
  return c.system ? `${c.system}|${c.code}` : c.code;
}

const sameInstant = (x: string | undefined, y: string | undefined) => !!x && !!y && Date.parse(x) === Date.parse(y);

export function slotLabel(s: Slot): string {
  const a = utcParts(s.start);
  const b = utcParts(s.end);
  return `${s.id} · ${a.day} ${a.time}–${b.time} UTC · ${s.status}${s.schedule?.reference ? ` · ${s.schedule.reference}` : ''}`;
}

async function findSlot(ctx: XrayContext, a: Appointment, practitioner: string | undefined): Promise<{ nodes: XrayNode[]; slot?: Slot }> {
  const s = section('Slot (A4)');
  const category = categoryOf(a);
  if (!a.start || !a.end) return { nodes: [s.none('not searched: the appointment has no start and end')] };
  if (!category) return { nodes: [s.none('not searched: the appointment has no service category to search by')] };
  const day = utcParts(a.start).day;
  const v2 = ctx.profile.appointmentApi === '2.0.0';
  const pid = refId(practitioner, 'PractitionerRole');
  const matches = (x: Slot) =>
    sameInstant(x.start, a.start) && sameInstant(x.end, a.end) && (!practitioner || slotPractitioner(x)?.reference === practitioner);
  const base = { serviceCategory: category, from: day, to: day, ...(!v2 && pid ? { practitioners: [pid] } : {}) };
  let slots = await searchSlots(ctx.client, base, { signal: ctx.signal, limit: 5000 });
  let found = slots.find(matches);
  let asked = 'free slots';
  if (!found && v2) {
    // A booked slot is not free: ask for the busy ones too (2.0.0 only has `status`).
    slots = await searchSlots(ctx.client, { ...base, status: 'busy' }, { signal: ctx.signal, limit: 5000 });
    found = slots.find(matches);
    asked = 'free and busy slots';
  }
  if (found) return { nodes: [s.found(slotLabel(found), { source: 'A4', resource: found })], slot: found };
  const why = v2
    ? `no ${asked.replace(' slots', '')} slot of ${day} in ${category} has its start, end and practitioner`
    : `the server lists free slots only (appointment API 1.0.0 has no status parameter), and none of ${day} matches: a booked slot cannot be told`;
  return { nodes: [s.none(`not found: ${why}`, { source: 'A4' })] };
}

async function findSchedule(
  ctx: XrayContext,
  a: Appointment,
  slot: Slot | undefined,
  practitioner: string | undefined,
): Promise<XrayNode[]> {
  const s = section('Schedule (A3)');
  const category = categoryOf(a);
  if (!category) return [s.none('not searched: the appointment has no service category')];
  const schedules = await searchSchedules(ctx.client, category, { signal: ctx.signal, limit: 5000 });
  const wanted = refId(slot?.schedule?.reference, 'Schedule');
  const line = (x: Schedule) =>
    `Schedule/${x.id} · ${(x.actor ?? []).map((r) => (r.display ? `${r.display} (${r.reference})` : r.reference)).join(', ')}`;
  if (wanted) {
    const hit = schedules.find((x) => x.id === wanted);
    return hit
      ? [s.found(`${line(hit)} (the slot's schedule)`, { source: 'A3', resource: hit })]
      : [s.none(`not found: the slot names Schedule/${wanted}, which A3 does not list for ${category}`, { source: 'A3' })];
  }
  const mine = schedules.filter((x) => practitioner && x.actor?.some((r) => r.reference === practitioner));
  if (!mine.length) return [s.none(`not found: no schedule of ${category} names ${practitioner ?? 'a practitioner'}`, { source: 'A3' })];
  return mine.map((x) =>
    s.found(`${line(x)}${mine.length > 1 ? ' (one of the practitioner’s schedules)' : ' (the practitioner’s schedule)'}`, {
      source: 'A3',
      resource: x,
    }),
  );
}

async function findRole(ctx: XrayContext, practitioner: string | undefined): Promise<XrayNode[]> {
  const s = section('Practitioner role (A2)');
  const id = refId(practitioner, 'PractitionerRole');
  if (!id) return [s.none('the appointment names no PractitionerRole participant')];
  // `_id` narrows the list where the server supports it; the answer is matched by id either way.
  const roles = await listPractitionerRoles(ctx.client, [['_id', id]], { signal: ctx.signal, limit: 5000 });
  const hit = roles.find((r) => r.id === id);
  if (!hit) return [s.none(`not found: A2 lists no PractitionerRole/${id}`, { source: 'A2' })];
  const spec = roleSpecialities(hit)
    .map((c) => (c.display ? `${c.code} ${c.display}` : c.code))
    .join(', ');
  return [
    s.found(`PractitionerRole/${hit.id} · ${roleName(hit) ?? '(no name)'}${spec ? ` · ${spec}` : ''}`, { source: 'A2', resource: hit }),
  ];
}

function patientNode(a: Appointment): XrayNode[] {
  const s = section('Patient');
  const p = a.participant?.find((x) => x.actor?.reference.startsWith('Patient/'));
  if (!p?.actor) return [s.none('the appointment names no Patient participant')];
  return [
    s.found(`${label(p)} · ${p.status ?? 'no status'} (no operation reads a patient: shown as the appointment names it)`, {
      source: 'A5',
      resource: p,
    }),
  ];
}

export async function xrayAppointment(ctx: XrayContext, a: Appointment, sources: readonly CancelSource[] = CANCEL_SOURCES): Promise<Xray> {
  const practitioner = participantRef(a, 'PractitionerRole')?.reference;
  const patient = participantRef(a, 'Patient')?.reference;
  const self = section('Appointment (A5)').found(
    `${a.id} · ${a.status} · ${utcParts(a.start).day} ${utcParts(a.start).time}–${utcParts(a.end).time} UTC`,
    { source: 'A5', resource: a },
  );
  const slotPart = (async () => {
    try {
      return await findSlot(ctx, a, practitioner);
    } catch (e) {
      if (ctx.signal?.aborted) throw e;
      return { nodes: [section('Slot (A4)').error(e)], slot: undefined };
    }
  })();
  const [slot, role, cancels] = await Promise.all([
    slotPart,
    gather('Practitioner role (A2)', () => findRole(ctx, practitioner), ctx.signal),
    gather(CANCEL_SECTION, async () => (await Promise.all(sources.map((f) => f(a, ctx)))).flat(), ctx.signal),
  ]);
  const schedule = await gather('Schedule (A3)', () => findSchedule(ctx, a, slot.slot, practitioner), ctx.signal);
  const pid = refId(patient, 'Patient');
  const store: XrayNode[] =
    ctx.store && patient && pid
      ? await gather(
          THREADS_SECTION,
          async () => {
            const [threads, notes] = await Promise.all([
              patientThreads(ctx.store!, ctx.profile.name, patient),
              patientNotifications(ctx.store!, ctx.profile, pid),
            ]);
            return [...threads, ...notes];
          },
          ctx.signal,
        )
      : [section("Desk's store").info(ctx.store ? 'the appointment names no patient' : "no desk's store is open here")];
  return xray(`Appointment ${a.id}`, [self, ...slot.nodes, ...schedule, ...role, ...patientNode(a), ...cancels, ...store]);
}
