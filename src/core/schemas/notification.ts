/** Notification schema (C5): a Communication with a contained Patient identified by an email address. */
import * as z from './zod.js';
import { CodeableConcept, IdString, Reference } from './common.js';

/** An email address, as the contained Patient's `telecom[].value` must be (the bulk send checks CSV rows with it). */
export const EmailAddress = z.string().check(z.email({ pattern: z.regexes.email, error: 'expected an email address' }));

/** The same check as EmailAddress, without a parse per call: a bulk send checks every row's address. */
export function isEmailAddress(text: string): boolean {
  return z.regexes.email.test(text);
}

export const ContainedPatient = z.looseObject({
  resourceType: z.literal('Patient'),
  id: IdString,
  telecom: z.array(z.looseObject({ system: z.literal('email'), value: EmailAddress })).check(z.minLength(1)),
});

export const Notification = z.looseObject({
  resourceType: z.literal('Communication'),
  contained: z.array(ContainedPatient).check(z.minLength(1)),
  topic: z.looseObject({ text: z.string() }),
  status: z.literal('completed'),
  category: z.array(CodeableConcept).check(z.minLength(1)),
  payload: z.array(z.looseObject({ contentString: z.string() })).check(z.minLength(1)),
  recipient: z
    .array(z.extend(Reference, { reference: z.string().check(z.regex(/^#.+/, 'expected #<contained patient id>')) }))
    .check(z.minLength(1)),
});
export type Notification = z.infer<typeof Notification>;
