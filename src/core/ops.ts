/**
 * The operations of the interface (docs/interface.md "Endpoints"): their ids (A1…M4), the party that provides
 * each, the API it belongs to, and its default route (docs/decisions.md §2). Pure data, so the profile schema
 * can check route overrides against it without importing the rest of the core.
 */

export const OP_IDS = ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'C1', 'C2', 'C3', 'C4', 'C5', 'M1', 'M2', 'M3', 'M4'] as const;
export type OpId = (typeof OP_IDS)[number];
/** The two parties: the practice system (the care provider's) and the portal (the patient's). */
export type Party = 'practice' | 'portal';
export type ApiName = 'appointment' | 'chat' | 'medication';
export type AppointmentApiVersion = '2.0.0' | '1.0.0';

export const FHIR_JSON = 'application/fhir+json';
export const JSON_PATCH = 'application/json-patch+json';

export interface OpDef {
  id: OpId;
  title: string;
  party: Party;
  api: ApiName;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Default path template; A1 depends on the appointment API version. */
  path: string | ((appointmentApi: AppointmentApiVersion) => string);
  contentType?: string;
}

const op = (d: OpDef) => d;
export const OPS: Record<OpId, OpDef> = {
  A1: op({
    id: 'A1',
    title: 'Get bookable appointment types',
    party: 'practice',
    api: 'appointment',
    method: 'GET',
    path: (v) => (v === '1.0.0' ? '/AppointmentType' : '/ValueSet'),
  }),
  A2: op({ id: 'A2', title: 'List practitioner roles', party: 'practice', api: 'appointment', method: 'GET', path: '/PractitionerRole' }),
  A3: op({ id: 'A3', title: 'Search schedules', party: 'practice', api: 'appointment', method: 'GET', path: '/Schedule' }),
  A4: op({ id: 'A4', title: 'Search available slots', party: 'practice', api: 'appointment', method: 'GET', path: '/Slot' }),
  A5: op({ id: 'A5', title: 'Search appointments', party: 'practice', api: 'appointment', method: 'GET', path: '/Appointment' }),
  A6: op({
    id: 'A6',
    title: 'Create an appointment',
    party: 'practice',
    api: 'appointment',
    method: 'POST',
    path: '/Appointment',
    contentType: FHIR_JSON,
  }),
  A7: op({
    id: 'A7',
    title: 'Cancel an appointment',
    party: 'practice',
    api: 'appointment',
    method: 'POST',
    path: '/AppointmentResponse',
    contentType: FHIR_JSON,
  }),
  C1: op({
    id: 'C1',
    title: 'Send message to the practice system',
    party: 'practice',
    api: 'chat',
    method: 'POST',
    path: '/Communication',
    contentType: FHIR_JSON,
  }),
  C2: op({
    id: 'C2',
    title: 'Mark message as read',
    party: 'practice',
    api: 'chat',
    method: 'PATCH',
    path: '/Communication/{communicationId}',
    contentType: JSON_PATCH,
  }),
  C3: op({
    id: 'C3',
    title: 'Send message to the portal',
    party: 'portal',
    api: 'chat',
    method: 'POST',
    path: '/Communication',
    contentType: FHIR_JSON,
  }),
  C4: op({
    id: 'C4',
    title: 'Close a chat',
    party: 'portal',
    api: 'chat',
    method: 'PUT',
    path: '/Encounter/{encounterId}',
    contentType: FHIR_JSON,
  }),
  C5: op({
    id: 'C5',
    title: 'Send a notification',
    party: 'portal',
    api: 'chat',
    method: 'POST',
    path: '/Communication',
    contentType: FHIR_JSON,
  }),
  M1: op({ id: 'M1', title: 'List medication requests', party: 'practice', api: 'medication', method: 'GET', path: '/MedicationRequest' }),
  M2: op({
    id: 'M2',
    title: 'Get a medication request',
    party: 'practice',
    api: 'medication',
    method: 'GET',
    path: '/MedicationRequest/{id}',
  }),
  M3: op({
    id: 'M3',
    title: 'Order a medication',
    party: 'practice',
    api: 'medication',
    method: 'POST',
    path: '/MedicationRequest',
    contentType: FHIR_JSON,
  }),
  M4: op({ id: 'M4', title: 'Search pharmacies', party: 'practice', api: 'medication', method: 'GET', path: '/Organization' }),
};

export const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The `{name}` placeholders of a path template. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** The path parameters of an operation's default route (`communicationId` for C2), which an override may use. */
export function pathParams(opId: OpId): string[] {
  const path = OPS[opId].path;
  return typeof path === 'string' ? placeholders(path) : [];
}
