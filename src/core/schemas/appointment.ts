/**
 * Appointment API schemas (A1–A7), both versions: 2.0.0 (ValueSet, slot `schedule`) and 1.0.0 (AppointmentType).
 * Response schemas require only what decisions.md §3 lists; `*Create` schemas enforce the interface's
 * "required on create" columns for what pdesk sends and what a receiver accepts.
 */
import * as z from './zod.js';
import { CodeableConcept, Coding, DateTime, IdString, Reference } from './common.js';

export const ValueSet = z.looseObject({
  resourceType: z.literal('ValueSet'),
  status: z.optional(z.string()),
  compose: z.optional(
    z.looseObject({
      include: z.array(z.looseObject({ concept: z.optional(z.array(z.looseObject({ code: IdString, display: z.optional(z.string()) }))) })),
    }),
  ),
});
export type ValueSet = z.infer<typeof ValueSet>;

export const AppointmentType = z.looseObject({
  resourceType: z.literal('AppointmentType'),
  compose: z.optional(
    z.looseObject({
      include: z.array(
        z.looseObject({
          // Required in responses (decisions.md §3: `compose.include[].actor.concept.code`): an include without
          // it would otherwise drop out of the list unnoticed.
          actor: z.looseObject({ concept: z.looseObject({ code: IdString, display: z.optional(z.string()) }) }),
        }),
      ),
    }),
  ),
});
export type AppointmentType = z.infer<typeof AppointmentType>;

/**
 * The interface's `name` and `speciality`, or FHIR R4's `practitioner` (a Reference whose `display` names them) and
 * `specialty` (a list of CodeableConcepts): both are read (labels.ts `roleName`, `roleSpecialities`).
 */
export const PractitionerRole = z.looseObject({
  resourceType: z.literal('PractitionerRole'),
  id: IdString,
  name: z.optional(z.string()),
  speciality: z.optional(z.looseObject({ coding: z.optional(z.array(Coding)) })),
  practitioner: z.optional(z.looseObject({ reference: z.optional(z.string()), display: z.optional(z.string()) })),
  specialty: z.optional(z.array(CodeableConcept)),
});
export type PractitionerRole = z.infer<typeof PractitionerRole>;

export const Schedule = z.looseObject({
  resourceType: z.literal('Schedule'),
  id: IdString,
  serviceCategory: z.optional(z.array(CodeableConcept)),
  actor: z.optional(z.array(Reference)),
});
export type Schedule = z.infer<typeof Schedule>;

export const ACTOR_EXTENSION_URL = 'urn:extension:actor';

export const Slot = z.looseObject({
  resourceType: z.literal('Slot'),
  id: IdString,
  status: z.string(),
  start: DateTime,
  end: DateTime,
  serviceCategory: z.optional(z.array(CodeableConcept)),
  extension: z.optional(z.array(z.looseObject({ url: z.string(), valueReference: z.optional(Reference) }))),
  schedule: z.optional(Reference),
});
export type Slot = z.infer<typeof Slot>;

export const APPOINTMENT_STATUSES = ['proposed', 'booked', 'cancelled'] as const;
export const AppointmentStatus = z.enum(APPOINTMENT_STATUSES);

export const Participant = z.looseObject({
  actor: z.optional(Reference),
  required: z.optional(z.string()),
  status: z.optional(z.string()),
});
export type Participant = z.infer<typeof Participant>;

export const Appointment = z.looseObject({
  resourceType: z.literal('Appointment'),
  id: IdString,
  status: AppointmentStatus,
  start: z.optional(DateTime),
  end: z.optional(DateTime),
  comment: z.optional(z.string()),
  serviceCategory: z.optional(z.array(CodeableConcept)),
  participant: z.optional(z.array(Participant)),
});
export type Appointment = z.infer<typeof Appointment>;

/** Every field of the interface's Appointment table is required on create. */
export const AppointmentCreate = z.looseObject({
  resourceType: z.literal('Appointment'),
  id: IdString,
  status: AppointmentStatus,
  start: DateTime,
  end: DateTime,
  comment: z.string(),
  serviceCategory: z.array(CodeableConcept).check(z.minLength(1)),
  participant: z.array(z.looseObject({ actor: Reference, required: z.optional(z.string()), status: z.string() })).check(z.minLength(2)),
});
export type AppointmentCreate = z.infer<typeof AppointmentCreate>;

export const AppointmentResponseCreate = z.looseObject({
  resourceType: z.optional(z.literal('AppointmentResponse')),
  actor: Reference,
  comment: z.string(),
  appointment: z.looseObject({ reference: z.string().check(z.regex(/^Appointment\/.+/, 'expected Appointment/<id>')) }),
  participantStatus: z.literal('declined'),
});
export type AppointmentResponseCreate = z.infer<typeof AppointmentResponseCreate>;
