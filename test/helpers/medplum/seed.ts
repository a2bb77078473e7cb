/**
 * The Medplum peer's data: standard FHIR R4 (not the interface's own shapes), as a practice system and a portal
 * built on Medplum would hold it. Times are relative to `now` (slots from tomorrow on, schedules from today's UTC
 * midnight for 14 days); ids are fixed UUIDs (Medplum's ids are UUIDs) named in `SEED`, for tests to rely on.
 *
 * Practice: 3 patients, 3 practitioners and their PractitionerRoles (R4 `specialty`, `practitioner.display`, no
 * `name`), 3 schedules (gp: Berg, Haddad; physio: Fischer); slots: Berg 25 free (two pages at Medplum's default
 * `_count` of 20) and 1 busy, Haddad 4 free, Fischer 3 free; 2 appointments (booked, cancelled); 2 medications,
 * 3 pharmacies, 2 medication requests (one with an R4 `note`); the A1 appointment types as a ValueSet per service
 * category; 2 chat encounters (open, finished) with the portal's messages in the open one.
 * Portal: the patient Emma, the same 2 encounters, the practice's answer in the open thread.
 */
import type {
  Appointment,
  CodeableConcept,
  Communication,
  Encounter,
  Medication,
  MedicationRequest,
  Organization,
  Patient,
  Practitioner,
  PractitionerRole,
  Reference,
  Resource,
  Schedule,
  Slot,
  ValueSet,
} from '@medplum/fhirtypes';

export const MEDPLUM_NAMESPACES = { portal: 'portal.example', practice: 'practice.example' } as const;
export const SERVICE_CATEGORY_SYSTEM = 'urn:pdesk:service-category';
export const APPOINTMENT_TYPE_SYSTEM = 'urn:pdesk:appointment-type';
export const SPECIALITY_SYSTEM = 'urn:pdesk:speciality';
export const PHARMACY_ID_SYSTEM = 'urn:pdesk:pharmacy-id';
export const ACTOR_EXTENSION_URL = 'urn:extension:actor';
const SNOMED = 'http://snomed.info/sct';

/** A fixed UUID: `kind` names the resource type in the first group, `n` counts in the last. */
const uuid = (kind: number, n: number) => `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export const SEED = {
  serviceCategory: { gp: `${SERVICE_CATEGORY_SYSTEM}|gp`, physio: `${SERVICE_CATEGORY_SYSTEM}|physio` },
  patients: { emma: uuid(1, 1), noah: uuid(1, 2), sara: uuid(1, 3) },
  /** The portal's own record of Emma. */
  portalPatient: uuid(1, 101),
  emmaEmail: 'emma.jansen@example.org',
  practitioners: { berg: uuid(2, 1), haddad: uuid(2, 2), fischer: uuid(2, 3) },
  practitionerRoles: { berg: uuid(3, 1), haddad: uuid(3, 2), fischer: uuid(3, 3) },
  schedules: { berg: uuid(4, 1), haddad: uuid(4, 2), fischer: uuid(4, 3) },
  /** Free slots per schedule; Berg has one more, busy (the booked appointment's). */
  freeSlots: { berg: 25, haddad: 4, fischer: 3 },
  busySlot: uuid(5, 999),
  appointments: { booked: uuid(6, 1), cancelled: uuid(6, 2) },
  medications: { metformin: uuid(7, 1), salbutamol: uuid(7, 2) },
  pharmacies: { centrum: uuid(8, 1), noord: uuid(8, 2), zuid: uuid(8, 3) },
  pharmacyIds: { centrum: `${PHARMACY_ID_SYSTEM}|PH001`, noord: `${PHARMACY_ID_SYSTEM}|PH002`, zuid: `${PHARMACY_ID_SYSTEM}|PH003` },
  medicationRequests: { metformin: uuid(9, 1), salbutamol: uuid(9, 2) },
  metforminNote: 'Take with food',
  valueSets: { gp: uuid(10, 1), physio: uuid(10, 2) },
  appointmentTypes: {
    gp: [
      { code: 'consult', display: 'Consultation' },
      { code: 'followup', display: 'Follow-up visit' },
      { code: 'vaccination', display: 'Vaccination' },
    ],
    physio: [
      { code: 'assessment', display: 'Intake assessment' },
      { code: 'treatment', display: 'Treatment session' },
    ],
  },
  /** Chat threads: an Encounter of this id at both parties, its identifier value the same id. */
  encounters: { open: uuid(11, 1), closed: uuid(11, 2) },
  /** The portal's messages in the open thread as the practice stored them: ids, and the portal's own ids (identifier values). */
  practiceMessages: { question: uuid(12, 1), followUp: uuid(12, 2) },
  portalMessageIds: { question: uuid(13, 1), followUp: uuid(13, 2) },
  /** The practice's answer as the portal stored it. */
  portalMessages: { answer: uuid(14, 1) },
} as const;

const DAY_MS = 86_400_000;
const MIN_MS = 60_000;
const instant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const category = (code: 'gp' | 'physio'): CodeableConcept => ({
  coding: [{ system: SERVICE_CATEGORY_SYSTEM, code, display: code === 'gp' ? 'General practice' : 'Physiotherapy' }],
});

const PEOPLE = {
  patients: {
    emma: { given: 'Emma', family: 'Jansen', email: SEED.emmaEmail },
    noah: { given: 'Noah', family: 'de Vries', email: 'noah.devries@example.org' },
    sara: { given: 'Sara', family: 'Bakker', email: 'sara.bakker@example.org' },
  },
  practitioners: {
    berg: { given: 'Anna', family: 'Berg', display: 'Dr. Anna Berg', speciality: ['0100', 'General practice'], category: 'gp' },
    haddad: { given: 'Omar', family: 'Haddad', display: 'Dr. Omar Haddad', speciality: ['0100', 'General practice'], category: 'gp' },
    fischer: { given: 'Lena', family: 'Fischer', display: 'Lena Fischer', speciality: ['2100', 'Physiotherapy'], category: 'physio' },
  },
} as const;
type PatientKey = keyof typeof PEOPLE.patients;
type PractitionerKey = keyof typeof PEOPLE.practitioners;

const patientRef = (p: PatientKey): Reference<Patient> => ({
  reference: `Patient/${SEED.patients[p]}`,
  display: `${PEOPLE.patients[p].given} ${PEOPLE.patients[p].family}`,
});
const roleRef = (p: PractitionerKey): Reference<PractitionerRole> => ({
  reference: `PractitionerRole/${SEED.practitionerRoles[p]}`,
  display: PEOPLE.practitioners[p].display,
});

function patient(id: string, p: PatientKey): Patient {
  const { given, family, email } = PEOPLE.patients[p];
  return { resourceType: 'Patient', id, name: [{ use: 'official', given: [given], family }], telecom: [{ system: 'email', value: email }] };
}

function chatMessage(o: {
  id: string;
  portalId: string;
  thread: string;
  from: Reference<Patient | PractitionerRole>;
  to: Reference<Patient | PractitionerRole>;
  text: string;
  sent: string;
  topic?: string;
  subject?: Reference<Patient>;
}): Communication {
  const ns = MEDPLUM_NAMESPACES;
  return {
    resourceType: 'Communication',
    id: o.id,
    identifier: [{ system: `${ns.portal}.communication-id`, value: o.portalId }],
    status: 'completed',
    category: [{ coding: [{ system: `${ns.portal}.communication-type`, code: 'chat' }] }],
    ...(o.topic ? { topic: { text: o.topic } } : {}),
    subject: o.subject ?? patientRef('emma'),
    encounter: { reference: `Encounter/${o.thread}`, identifier: { system: `${ns.practice}.encounter-id`, value: o.thread } },
    sender: o.from,
    recipient: [o.to],
    payload: [{ contentString: o.text }],
    sent: o.sent,
  };
}

function chatEncounter(id: string, status: Encounter['status'], subject: Reference<Patient>): Encounter {
  return {
    resourceType: 'Encounter',
    id,
    status,
    class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'VR', display: 'virtual' },
    identifier: [{ system: `${MEDPLUM_NAMESPACES.practice}.encounter-id`, value: id }],
    subject,
  };
}

/** The practice system's resources, in the order they are stored. */
export function practiceSeed(now: Date): Resource[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const at = (days: number, hhmm: string) => today + days * DAY_MS + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2))) * MIN_MS;
  const out: Resource[] = [];

  for (const p of Object.keys(PEOPLE.patients) as PatientKey[]) out.push(patient(SEED.patients[p], p));

  for (const p of Object.keys(PEOPLE.practitioners) as PractitionerKey[]) {
    const who = PEOPLE.practitioners[p];
    out.push({
      resourceType: 'Practitioner',
      id: SEED.practitioners[p],
      name: [{ given: [who.given], family: who.family, ...(who.display.startsWith('Dr.') ? { prefix: ['Dr.'] } : {}) }],
    } satisfies Practitioner);
    out.push({
      resourceType: 'PractitionerRole',
      id: SEED.practitionerRoles[p],
      active: true,
      practitioner: { reference: `Practitioner/${SEED.practitioners[p]}`, display: who.display },
      specialty: [{ coding: [{ system: SPECIALITY_SYSTEM, code: who.speciality[0], display: who.speciality[1] }] }],
    } satisfies PractitionerRole);
    out.push({
      resourceType: 'Schedule',
      id: SEED.schedules[p],
      active: true,
      serviceCategory: [category(who.category)],
      actor: [roleRef(p)],
      planningHorizon: { start: instant(today), end: instant(today + 14 * DAY_MS) },
    } satisfies Schedule);
  }

  // Slots, 30 minutes each: Berg 09:00–11:00 on days 1–5 (25) and the busy 11:30 tomorrow, Haddad 13:00–14:30
  // tomorrow, Fischer 13:00–14:00 the day after.
  let n = 0;
  const slot = (p: PractitionerKey, start: number, status: Slot['status'] = 'free', id = uuid(5, ++n)): Slot => ({
    resourceType: 'Slot',
    id,
    schedule: { reference: `Schedule/${SEED.schedules[p]}` },
    status,
    start: instant(start),
    end: instant(start + 30 * MIN_MS),
    serviceCategory: [category(PEOPLE.practitioners[p].category)],
    extension: [{ url: ACTOR_EXTENSION_URL, valueReference: roleRef(p) }],
  });
  for (let d = 1; d <= 5; d++) for (const t of ['0900', '0930', '1000', '1030', '1100']) out.push(slot('berg', at(d, t)));
  out.push(slot('berg', at(1, '1130'), 'busy', SEED.busySlot));
  for (const t of ['1300', '1330', '1400', '1430']) out.push(slot('haddad', at(1, t)));
  for (const t of ['1300', '1330', '1400']) out.push(slot('fischer', at(2, t)));

  const appointment = (id: string, status: Appointment['status'], p: PatientKey, r: PractitionerKey, start: number, comment: string) =>
    ({
      resourceType: 'Appointment',
      id,
      status,
      serviceCategory: [category(PEOPLE.practitioners[r].category)],
      start: instant(start),
      end: instant(start + 30 * MIN_MS),
      comment,
      ...(status === 'booked' ? { slot: [{ reference: `Slot/${SEED.busySlot}` }] } : {}),
      participant: [
        { actor: patientRef(p), required: 'required', status: status === 'cancelled' ? 'declined' : 'accepted' },
        { actor: roleRef(r), required: 'required', status: 'accepted' },
      ],
    }) satisfies Appointment;
  out.push(appointment(SEED.appointments.booked, 'booked', 'emma', 'berg', at(1, '1130'), 'Persistent cough for two weeks'));
  out.push(appointment(SEED.appointments.cancelled, 'cancelled', 'noah', 'haddad', at(3, '1500'), 'Repeat prescription check'));

  const medication = (id: string, code: string, display: string): Medication => ({
    resourceType: 'Medication',
    id,
    code: { coding: [{ system: SNOMED, code, display }], text: display },
  });
  out.push(medication(SEED.medications.metformin, '325278007', 'Metformin 500 mg tablet'));
  out.push(medication(SEED.medications.salbutamol, '320176004', 'Salbutamol 100 micrograms/dose inhaler'));

  const pharmacy = (id: string, name: string, value: string, line: string, postalCode: string): Organization => ({
    resourceType: 'Organization',
    id,
    active: true,
    identifier: [{ system: PHARMACY_ID_SYSTEM, value }],
    name,
    address: [{ line: [line], city: 'Utrecht', postalCode, country: 'NL' }],
  });
  out.push(pharmacy(SEED.pharmacies.centrum, 'Apotheek Centrum', 'PH001', 'Oudegracht 120', '3511 AX'));
  out.push(pharmacy(SEED.pharmacies.noord, 'Apotheek Noord', 'PH002', 'Amsterdamsestraatweg 310', '3551 CS'));
  out.push(pharmacy(SEED.pharmacies.zuid, 'Service Apotheek Zuid', 'PH003', 'Rijnlaan 45', '3522 BM'));

  // The period extension is the interface's (pdesk reorders for as long); dispenseRequest.validityPeriod is R4's.
  const periodEnd = today - 3 * DAY_MS;
  const period = { start: day(periodEnd - 30 * DAY_MS), end: day(periodEnd) };
  out.push({
    resourceType: 'MedicationRequest',
    id: SEED.medicationRequests.metformin,
    extension: [{ url: `${MEDPLUM_NAMESPACES.portal}.medication-period`, valuePeriod: period }],
    status: 'active',
    intent: 'order',
    medicationReference: { reference: `Medication/${SEED.medications.metformin}`, display: 'Metformin 500 mg tablet' },
    subject: patientRef('emma'),
    performer: { reference: `Organization/${SEED.pharmacies.centrum}`, display: 'Apotheek Centrum' },
    authoredOn: instant(periodEnd - 31 * DAY_MS + 10 * 60 * MIN_MS),
    note: [{ text: SEED.metforminNote }],
    dispenseRequest: {
      validityPeriod: period,
      initialFill: { quantity: { value: 60, unit: 'tablet', system: SNOMED, code: '428673006' } },
    },
  } satisfies MedicationRequest);
  out.push({
    resourceType: 'MedicationRequest',
    id: SEED.medicationRequests.salbutamol,
    status: 'active',
    intent: 'order',
    medicationReference: { reference: `Medication/${SEED.medications.salbutamol}`, display: 'Salbutamol 100 micrograms/dose inhaler' },
    subject: patientRef('noah'),
    performer: { reference: `Organization/${SEED.pharmacies.noord}`, display: 'Apotheek Noord' },
    authoredOn: instant(today - 20 * DAY_MS + 9 * 60 * MIN_MS),
    dispenseRequest: { initialFill: { quantity: { value: 1, unit: 'inhaler' } } },
  } satisfies MedicationRequest);

  for (const c of ['gp', 'physio'] as const)
    out.push({
      resourceType: 'ValueSet',
      id: SEED.valueSets[c],
      url: `urn:pdesk:appointment-types:${c}`,
      name: `AppointmentTypes${c === 'gp' ? 'GeneralPractice' : 'Physiotherapy'}`,
      status: 'active',
      useContext: [
        { code: { system: 'http://terminology.hl7.org/CodeSystem/usage-context-type', code: 'focus' }, valueCodeableConcept: category(c) },
      ],
      compose: { include: [{ system: APPOINTMENT_TYPE_SYSTEM, concept: SEED.appointmentTypes[c].map((t) => ({ ...t })) }] },
    } satisfies ValueSet);

  out.push(chatEncounter(SEED.encounters.open, 'in-progress', patientRef('emma')));
  out.push(chatEncounter(SEED.encounters.closed, 'finished', patientRef('emma')));
  const hoursAgo = (h: number) => instant(now.getTime() - h * 3_600_000);
  out.push(
    chatMessage({
      id: SEED.practiceMessages.question,
      portalId: SEED.portalMessageIds.question,
      thread: SEED.encounters.open,
      from: patientRef('emma'),
      to: roleRef('berg'),
      text: 'Hello Dr. Berg, may I take ibuprofen with my metformin?',
      sent: hoursAgo(26),
      topic: 'Medication question',
    }),
    chatMessage({
      id: SEED.practiceMessages.followUp,
      portalId: SEED.portalMessageIds.followUp,
      thread: SEED.encounters.open,
      from: patientRef('emma'),
      to: roleRef('berg'),
      text: 'The cough is a little better today.',
      sent: hoursAgo(2),
      topic: 'Medication question',
    }),
  );
  return out;
}

/** The portal's resources. */
export function portalSeed(now: Date): Resource[] {
  const emma: Reference<Patient> = { reference: `Patient/${SEED.portalPatient}`, display: 'Emma Jansen' };
  return [
    patient(SEED.portalPatient, 'emma'),
    chatEncounter(SEED.encounters.open, 'in-progress', emma),
    chatEncounter(SEED.encounters.closed, 'finished', emma),
    chatMessage({
      id: SEED.portalMessages.answer,
      portalId: SEED.portalMessages.answer,
      thread: SEED.encounters.open,
      from: roleRef('berg'),
      to: emma,
      text: 'Yes, a short course is fine. Take it with food, and call us if the cough gets worse.',
      sent: instant(now.getTime() - 25 * 3_600_000),
      topic: 'Medication question',
      subject: emma,
    }),
  ];
}
