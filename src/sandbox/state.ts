/**
 * The sandbox's in-memory world, typed so tests can inspect it (`sandbox.state`). One world for both parties:
 * the practice system (appointments, chat it knows, medication) and the portal (what it received by push).
 * Maps keep insertion order; `slots` is kept sorted by start (then id).
 */
import type { AppointmentType, ValueSet } from '../core/schemas/appointment.js';
import type { Appointment, AppointmentResponseCreate } from '../core/schemas/appointment.js';
import type { ChatCommunication, EncounterClose } from '../core/schemas/chat.js';
import type { MedicationRequest } from '../core/schemas/medication.js';
import type { Notification } from '../core/schemas/notification.js';

// Type aliases (not interfaces) so they fit the core's loose zod types.
export type Coding = { system?: string; code: string; display?: string };
export type Concept = { coding: Coding[] };
export type Ref = { reference: string; display?: string };

export interface PractitionerRoleResource {
  resourceType: 'PractitionerRole';
  /** A JSON number in 1.0.0 mode (the interface sample), a string in 2.0.0. */
  id: string | number;
  name: string;
  speciality: Concept;
}

export interface ScheduleResource {
  resourceType: 'Schedule';
  /** Served as a JSON number (interface sample). */
  id: number;
  serviceCategory: Concept[];
  actor: Ref[];
}

export interface SlotResource {
  resourceType: 'Slot';
  id: string;
  status: string;
  start: string;
  end: string;
  serviceCategory: Concept[];
  extension: Array<{ url: string; valueReference: Ref }>;
  /** 2.0.0 only. */
  schedule?: Ref;
}

export interface OrganizationResource {
  resourceType: 'Organization';
  id: string;
  name: string;
  identifier: Array<{ system: string; value: string }>;
  address: Array<{ line: string[]; city: string; postalCode: string; country: string }>;
}

export interface AppointmentTypeDef {
  code: string;
  display: string;
}

/** A chat thread, keyed by its encounter id. */
export interface EncounterRecord {
  id: string;
  status: 'in-progress' | 'finished';
  /** When it was opened or last closed (ISO 8601). */
  updatedAt: string;
  /** The C4 body that closed it, if any. */
  closedBy?: EncounterClose;
}

export interface ReadMarkerRecord {
  communicationId: string;
  recipientIndex: number;
  url: string;
  valueDateTime: string;
  at: string;
}

export interface StoredAppointmentResponse extends AppointmentResponseCreate {
  resourceType: 'AppointmentResponse';
  id: string;
}

export interface StoredNotification extends Notification {
  id: string;
}

/** One outgoing push (automatic C3 reply, demo C3/C5). */
export interface PushRecord {
  op: 'C3' | 'C4' | 'C5';
  kind: 'reply' | 'demo';
  url: string;
  /** Id of the pushed Communication (C3), or of the thread it answered, or of the chat closed (C4). */
  id?: string;
  status?: number;
  error?: string;
  at: string;
}

export interface SandboxState {
  appointmentApi: '1.0.0' | '2.0.0';
  approvalFlow: boolean;
  /** Appointment types per service-category code. */
  appointmentTypes: Map<string, AppointmentTypeDef[]>;
  practitionerRoles: Map<string, PractitionerRoleResource>;
  schedules: Map<string, ScheduleResource>;
  /** Sorted by start, then id. `status` is `free` or `busy`. */
  slots: Map<string, SlotResource>;
  /** slot id → id of the appointment that holds it. */
  slotBookings: Map<string, string>;
  appointments: Map<string, Appointment>;
  appointmentResponses: StoredAppointmentResponse[];
  /** Chat messages the practice system knows: C1 it received, C3 it sent (seed, automatic replies, demo). */
  messages: Map<string, ChatCommunication>;
  /** Chat messages the portal received (C3 pushes), seeded with the practice's reply in enc-100. */
  portalMessages: Map<string, ChatCommunication>;
  encounters: Map<string, EncounterRecord>;
  readMarkers: ReadMarkerRecord[];
  /** C5 notifications the portal received, each given an id `notif-<n>`. */
  notifications: StoredNotification[];
  medicationRequests: Map<string, MedicationRequest>;
  /** M1 `meta.versionId`, bumped by every M3. */
  medicationVersion: number;
  organizations: Map<string, OrganizationResource>;
  pushes: PushRecord[];
  /** Counters for assigned ids. */
  counters: { appointmentResponse: number; medicationRequest: number; notification: number };
}

/** What A1 serves (kept here so the handler and tests agree on the shape). */
export type AppointmentTypesAnswer = ValueSet | AppointmentType;

export function emptyState(appointmentApi: '1.0.0' | '2.0.0', approvalFlow: boolean): SandboxState {
  return {
    appointmentApi,
    approvalFlow,
    appointmentTypes: new Map(),
    practitionerRoles: new Map(),
    schedules: new Map(),
    slots: new Map(),
    slotBookings: new Map(),
    appointments: new Map(),
    appointmentResponses: [],
    messages: new Map(),
    portalMessages: new Map(),
    encounters: new Map(),
    readMarkers: [],
    notifications: [],
    medicationRequests: new Map(),
    medicationVersion: 1,
    organizations: new Map(),
    pushes: [],
    counters: { appointmentResponse: 0, medicationRequest: 3, notification: 0 },
  };
}

/** `PractitionerRole/1001` → `1001`; a bare id is returned as is. */
export function refId(ref: string | undefined, type: string): string | undefined {
  if (!ref) return undefined;
  const prefix = `${type}/`;
  if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  return ref.includes('/') ? undefined : ref;
}

/** Key of the slot index: practitioner id and the two instants in ms. */
export function slotKey(practitioner: string, start: string, end: string): string {
  return `${practitioner}|${Date.parse(start)}|${Date.parse(end)}`;
}

/** The slot of `practitioner` that starts at `start` and ends at `end` (compared as instants). */
export function findSlot(state: SandboxState, practitioner: string, start: string, end: string): SlotResource | undefined {
  const key = slotKey(practitioner, start, end);
  for (const s of state.slots.values()) {
    if (slotKey(slotPractitioner(s), s.start, s.end) === key) return s;
  }
  return undefined;
}

export function slotPractitioner(s: SlotResource): string {
  return refId(s.extension[0]?.valueReference.reference, 'PractitionerRole') ?? '';
}
