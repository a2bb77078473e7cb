/**
 * Seed data, relative to "today" (`now`'s UTC date). Ids are fixed: tests and other helpers rely on them.
 * Service categories gp/physio, practitioner roles 1001/1002/2001, schedules 11/12/21, slots for 14 days,
 * appointments appt-1..3, chat threads enc-100 (open) and enc-200 (closed), pharmacies ph-1..3 and
 * medication requests mr-1..3.
 */
import type { ChatCommunication } from '../core/schemas/chat.js';
import type { Appointment } from '../core/schemas/appointment.js';
import type { MedicationRequest } from '../core/schemas/medication.js';
import { SANDBOX_NAMESPACES } from './profile.js';
import { type Concept, type OrganizationResource, type SandboxState, type SlotResource, emptyState } from './state.js';

export const SERVICE_CATEGORY_SYSTEM = 'urn:pdesk:service-category';
export const APPOINTMENT_TYPE_SYSTEM = 'urn:pdesk:appointment-type';
export const PHARMACY_ID_SYSTEM = 'urn:pdesk:pharmacy-id';
export const SNOMED = 'http://snomed.info/sct';

export const SERVICE_CATEGORIES = { gp: 'General practice', physio: 'Physiotherapy' } as const;
export type ServiceCategoryCode = keyof typeof SERVICE_CATEGORIES;

export const category = (code: ServiceCategoryCode): Concept => ({
  coding: [{ system: SERVICE_CATEGORY_SYSTEM, code, display: SERVICE_CATEGORIES[code] }],
});

export const PRACTITIONERS = [
  { id: '1001', name: 'Dr. Anna Berg', speciality: { code: '0100', display: 'General practice' }, category: 'gp' },
  { id: '1002', name: 'Dr. Omar Haddad', speciality: { code: '0100', display: 'General practice' }, category: 'gp' },
  { id: '2001', name: 'Lena Fischer', speciality: { code: '2100', display: 'Physiotherapy' }, category: 'physio' },
] as const;

export const SCHEDULES = [
  { id: 11, practitioner: '1001', category: 'gp' },
  { id: 12, practitioner: '1002', category: 'gp' },
  { id: 21, practitioner: '2001', category: 'physio' },
] as const;

export const PATIENTS = {
  'pat-1': { name: 'Emma Jansen', email: 'emma.jansen@example.org' },
  'pat-2': { name: 'Noah de Vries', email: 'noah.devries@example.org' },
  'pat-3': { name: 'Sara Bakker', email: 'sara.bakker@example.org' },
} as const;

export const SLOT_DAYS = 14;
/** Slot start times (UTC), 30 minutes each: 09:00–12:00 and 13:00–16:00. */
export const SLOT_TIMES = ['0900', '0930', '1000', '1030', '1100', '1130', '1300', '1330', '1400', '1430', '1500', '1530'];

const DAY_MS = 86_400_000;

/** Midnight UTC of `now`'s UTC date. */
export function utcMidnight(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}
/** `YYYY-MM-DD` of a UTC instant. */
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** `YYYY-MM-DDTHH:MM:SSZ` of a UTC instant. */
export const isoInstant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function slotId(schedule: number | string, dayMs: number, hhmm: string): string {
  return `slot-${schedule}-${isoDay(dayMs).replace(/-/g, '')}-${hhmm}`;
}

const practitionerName = (id: string) => PRACTITIONERS.find((p) => p.id === id)!.name;
const patientRef = (id: keyof typeof PATIENTS) => ({ reference: `Patient/${id}`, display: PATIENTS[id].name });
const roleRef = (id: string) => ({ reference: `PractitionerRole/${id}`, display: practitionerName(id) });

export function seedState(o: { now: Date; appointmentApi: '1.0.0' | '2.0.0'; approvalFlow: boolean }): SandboxState {
  const state = emptyState(o.appointmentApi, o.approvalFlow);
  const v2 = o.appointmentApi === '2.0.0';
  const today = utcMidnight(o.now);
  const ns = SANDBOX_NAMESPACES;

  // A1 appointment types
  state.appointmentTypes.set('gp', [
    { code: 'consult', display: 'Consultation' },
    { code: 'followup', display: 'Follow-up visit' },
    { code: 'vaccination', display: 'Vaccination' },
  ]);
  state.appointmentTypes.set('physio', [
    { code: 'assessment', display: 'Intake assessment' },
    { code: 'treatment', display: 'Treatment session' },
  ]);

  // A2 practitioner roles
  for (const p of PRACTITIONERS) {
    state.practitionerRoles.set(p.id, {
      resourceType: 'PractitionerRole',
      id: v2 ? p.id : Number(p.id),
      name: p.name,
      speciality: { coding: [{ code: p.speciality.code, display: p.speciality.display }] },
    });
  }

  // A3 schedules
  for (const s of SCHEDULES) {
    state.schedules.set(String(s.id), {
      resourceType: 'Schedule',
      id: s.id,
      serviceCategory: [category(s.category)],
      actor: [roleRef(s.practitioner)],
    });
  }

  // A4 slots, sorted by start then id
  const slots: SlotResource[] = [];
  for (let d = 0; d < SLOT_DAYS; d++) {
    const day = today + d * DAY_MS;
    for (const s of SCHEDULES) {
      for (const hhmm of SLOT_TIMES) {
        const start = day + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2))) * 60_000;
        slots.push({
          resourceType: 'Slot',
          id: slotId(s.id, day, hhmm),
          status: 'free',
          start: isoInstant(start),
          end: isoInstant(start + 30 * 60_000),
          serviceCategory: [category(s.category)],
          extension: [{ url: 'urn:extension:actor', valueReference: roleRef(s.practitioner) }],
          ...(v2 ? { schedule: { reference: `Schedule/${s.id}` } } : {}),
        });
      }
    }
  }
  slots.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : 1));
  for (const s of slots) state.slots.set(s.id, s);

  // A5 appointments: appt-1 booked and appt-2 proposed hold their slots; appt-3 is cancelled.
  const tomorrow = today + DAY_MS;
  const appt = (
    id: string,
    status: Appointment['status'],
    patient: keyof typeof PATIENTS,
    schedule: (typeof SCHEDULES)[number],
    hhmm: string,
    comment: string,
    statuses: [string, string],
  ) => {
    const slot = state.slots.get(slotId(schedule.id, tomorrow, hhmm))!;
    const a: Appointment = {
      resourceType: 'Appointment',
      id,
      status,
      start: slot.start,
      end: slot.end,
      comment,
      serviceCategory: [category(schedule.category)],
      participant: [
        { actor: patientRef(patient), required: 'required', status: statuses[0] },
        { actor: roleRef(schedule.practitioner), required: 'required', status: statuses[1] },
      ],
    };
    state.appointments.set(id, a);
    if (status !== 'cancelled') {
      slot.status = 'busy';
      state.slotBookings.set(slot.id, id);
    }
  };
  appt('appt-1', 'booked', 'pat-1', SCHEDULES[0], '0900', 'Persistent cough for two weeks', ['accepted', 'accepted']);
  appt('appt-2', 'proposed', 'pat-2', SCHEDULES[1], '1000', 'Repeat prescription check', ['accepted', 'needs-action']);
  appt('appt-3', 'cancelled', 'pat-3', SCHEDULES[2], '1300', 'Knee rehabilitation', ['declined', 'accepted']);

  // C1–C4 chat: enc-100 open with a question and its answer, enc-200 closed.
  const at = (msAgo: number) => isoInstant(o.now.getTime() - msAgo);
  const message = (
    id: string,
    thread: string,
    from: { reference: string; display?: string },
    to: { reference: string; display?: string },
    text: string,
    sent: string,
    topic?: string,
  ): ChatCommunication => ({
    resourceType: 'Communication',
    id,
    identifier: [{ system: `${ns.portal}.communication-id`, value: id }],
    ...(topic ? { topic: { text: topic } } : {}),
    status: 'completed',
    payload: [{ contentString: text }],
    encounter: { identifier: [{ system: `${ns.practice}.encounter-id`, value: thread }] },
    recipient: [to],
    sender: [from],
    subject: [patientRef('pat-1')],
    category: [{ coding: [{ system: `${ns.portal}.communication-type`, code: 'chat' }] }],
    sent,
  });
  const q = message(
    'msg-100-1',
    'enc-100',
    patientRef('pat-1'),
    roleRef('1001'),
    'Hello Dr. Berg, may I take ibuprofen with my metformin?',
    at(26 * 3_600_000),
    'Medication question',
  );
  const a = message(
    'msg-100-2',
    'enc-100',
    roleRef('1001'),
    patientRef('pat-1'),
    'Yes, a short course is fine. Take it with food, and call us if the cough gets worse.',
    at(25 * 3_600_000),
    'Medication question',
  );
  const closed = message(
    'msg-200-1',
    'enc-200',
    patientRef('pat-1'),
    roleRef('1002'),
    'Thank you, the prescription arrived.',
    at(10 * DAY_MS),
  );
  for (const m of [q, a, closed]) state.messages.set(m.id, m);
  state.portalMessages.set(a.id, a);
  state.encounters.set('enc-100', { id: 'enc-100', status: 'in-progress', updatedAt: q.sent! });
  state.encounters.set('enc-200', { id: 'enc-200', status: 'finished', updatedAt: at(9 * DAY_MS) });

  // M4 pharmacies
  const pharmacy = (id: string, name: string, value: string, line: string, postalCode: string): OrganizationResource => ({
    resourceType: 'Organization',
    id,
    name,
    identifier: [{ system: PHARMACY_ID_SYSTEM, value }],
    address: [{ line: [line], city: 'Utrecht', postalCode, country: 'NL' }],
  });
  for (const p of [
    pharmacy('ph-1', 'Apotheek Centrum', 'PH001', 'Oudegracht 120', '3511 AX'),
    pharmacy('ph-2', 'Apotheek Noord', 'PH002', 'Amsterdamsestraatweg 310', '3551 CS'),
    pharmacy('ph-3', 'Service Apotheek Zuid', 'PH003', 'Rijnlaan 45', '3522 BM'),
  ])
    state.organizations.set(p.id, p);

  // M1/M2 medication requests
  const orgRef = (id: string) => ({ reference: `Organization/${id}`, display: state.organizations.get(id)!.name });
  const periodExt = (startMs: number, endMs: number) => [
    { url: `${ns.portal}.medication-period`, valuePeriod: { start: isoDay(startMs), end: isoDay(endMs) } },
  ];
  const mr = (
    id: string,
    med: string,
    display: string,
    patient: keyof typeof PATIENTS,
    ph: string,
    quantity: { value: number; unit: string; system?: string; code?: string },
    period?: [number, number],
  ): MedicationRequest => ({
    resourceType: 'MedicationRequest',
    id,
    status: 'active',
    intent: 'order',
    medicationReference: { reference: `Medication/${med}`, display },
    subject: patientRef(patient),
    performer: orgRef(ph),
    dispenseRequest: { initialFill: { quantity } },
    ...(period ? { extension: periodExt(period[0], period[1]) } : {}),
    authoredOn: isoInstant((period ? period[0] : today - 20 * DAY_MS) + 10 * 3_600_000 - DAY_MS),
  });
  const end1 = today - 3 * DAY_MS;
  const end2 = today - 5 * DAY_MS;
  for (const m of [
    mr('mr-1', 'med-1', 'Metformin 500 mg tablet', 'pat-1', 'ph-1', { value: 60, unit: 'tablet', system: SNOMED, code: '428673006' }, [
      end1 - 30 * DAY_MS,
      end1,
    ]),
    mr('mr-2', 'med-2', 'Lisinopril 10 mg tablet', 'pat-1', 'ph-2', { value: 90, unit: 'tablet', system: SNOMED, code: '428673006' }, [
      end2 - 90 * DAY_MS,
      end2,
    ]),
    mr('mr-3', 'med-3', 'Salbutamol 100 µg inhaler', 'pat-2', 'ph-1', { value: 1, unit: 'inhaler' }),
  ])
    state.medicationRequests.set(m.id, m);

  return state;
}
