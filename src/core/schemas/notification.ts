/** Notification schema (C5): a Communication with a contained Patient identified by an email address. */
import { z } from 'zod';
import { CodeableConcept, IdString, Reference } from './common.js';

export const ContainedPatient = z.looseObject({
  resourceType: z.literal('Patient'),
  id: IdString,
  telecom: z.array(z.looseObject({ system: z.literal('email'), value: z.string().email('expected an email address') })).min(1),
});

export const Notification = z.looseObject({
  resourceType: z.literal('Communication'),
  contained: z.array(ContainedPatient).min(1),
  topic: z.looseObject({ text: z.string() }),
  status: z.literal('completed'),
  category: z.array(CodeableConcept).min(1),
  payload: z.array(z.looseObject({ contentString: z.string() })).min(1),
  recipient: z.array(Reference.extend({ reference: z.string().regex(/^#.+/, 'expected #<contained patient id>') })).min(1),
});
export type Notification = z.infer<typeof Notification>;
