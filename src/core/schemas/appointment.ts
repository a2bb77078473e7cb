/**
 * Appointment API schemas (A1–A7), both versions: 2.0.0 (ValueSet, slot `schedule`) and 1.0.0 (AppointmentType).
 * Response schemas require only what decisions.md §3 lists; `*Create` schemas enforce the interface's
 * "required on create" columns for what pdesk sends and what a receiver accepts.
 */
import { z } from 'zod';
import { CodeableConcept, Coding, DateTime, IdString, Reference } from './common.js';

export const ValueSet = z.looseObject({
  resourceType: z.literal('ValueSet'),
  status: z.string().optional(),
  compose: z
    .looseObject({
      include: z.array(z.looseObject({ concept: z.array(z.looseObject({ code: IdString, display: z.string().optional() })).optional() })),
    })
    .optional(),
});
export type ValueSet = z.infer<typeof ValueSet>;

export const AppointmentType = z.looseObject({
  resourceType: z.literal('AppointmentType'),
  compose: z
    .looseObject({
      include: z.array(
        z.looseObject({
          // Required in responses (decisions.md §3: `compose.include[].actor.concept.code`): an include without
          // it would otherwise drop out of the list unnoticed.
          actor: z.looseObject({ concept: z.looseObject({ code: IdString, display: z.string().optional() }) }),
        }),
      ),
    })
    .optional(),
});
export type AppointmentType = z.infer<typeof AppointmentType>;

export const PractitionerRole = z.looseObject({
  resourceType: z.literal('PractitionerRole'),
  id: IdString,
  name: z.string().optional(),
  speciality: z.looseObject({ coding: z.array(Coding).optional() }).optional(),
});
export type PractitionerRole = z.infer<typeof PractitionerRole>;

export const Schedule = z.looseObject({
  resourceType: z.literal('Schedule'),
  id: IdString,
  serviceCategory: z.array(CodeableConcept).optional(),
  actor: z.array(Reference).optional(),
});
export type Schedule = z.infer<typeof Schedule>;

export const ACTOR_EXTENSION_URL = 'urn:extension:actor';

export const Slot = z.looseObject({
  resourceType: z.literal('Slot'),
  id: IdString,
  status: z.string(),
  start: DateTime,
  end: DateTime,
  serviceCategory: z.array(CodeableConcept).optional(),
  extension: z.array(z.looseObject({ url: z.string(), valueReference: Reference.optional() })).optional(),
  schedule: Reference.optional(),
});
export type Slot = z.infer<typeof Slot>;

export const APPOINTMENT_STATUSES = ['proposed', 'booked', 'cancelled'] as const;
export const AppointmentStatus = z.enum(APPOINTMENT_STATUSES);

export const Participant = z.looseObject({
  actor: Reference.optional(),
  required: z.string().optional(),
  status: z.string().optional(),
});
export type Participant = z.infer<typeof Participant>;

export const Appointment = z.looseObject({
  resourceType: z.literal('Appointment'),
  id: IdString,
  status: AppointmentStatus,
  start: DateTime.optional(),
  end: DateTime.optional(),
  comment: z.string().optional(),
  serviceCategory: z.array(CodeableConcept).optional(),
  participant: z.array(Participant).optional(),
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
  serviceCategory: z.array(CodeableConcept).min(1),
  participant: z.array(z.looseObject({ actor: Reference, required: z.string().optional(), status: z.string() })).min(2),
});
export type AppointmentCreate = z.infer<typeof AppointmentCreate>;

export const AppointmentResponseCreate = z.looseObject({
  resourceType: z.literal('AppointmentResponse').optional(),
  actor: Reference,
  comment: z.string(),
  appointment: z.looseObject({ reference: z.string().regex(/^Appointment\/.+/, 'expected Appointment/<id>') }),
  participantStatus: z.literal('declined'),
});
export type AppointmentResponseCreate = z.infer<typeof AppointmentResponseCreate>;
