/** Medication schemas (M1–M4): MedicationRequest, the M1 list Bundle, and Organization (pharmacy). */
import * as z from './zod.js';
import { DateOnly, DateTime, IdString, Reference, parseResponse } from './common.js';
import { BundleShell, nextLink } from './bundle.js';

export const Quantity = z.looseObject({
  value: z.number(),
  unit: z.optional(z.string()),
  system: z.optional(z.string()),
  code: z.optional(z.string()),
});

export const PeriodExtension = z.looseObject({
  url: z.optional(z.string()),
  valuePeriod: z.optional(z.looseObject({ start: z.optional(DateOnly), end: z.optional(DateOnly) })),
});

export const MedicationRequest = z.looseObject({
  resourceType: z.literal('MedicationRequest'),
  id: IdString,
  status: z.string(),
  intent: z.string(),
  medicationReference: Reference,
  subject: Reference,
  performer: z.optional(Reference),
  extension: z.optional(z.array(PeriodExtension)),
  dispenseRequest: z.optional(z.looseObject({ initialFill: z.optional(z.looseObject({ quantity: z.optional(Quantity) })) })),
  authoredOn: z.optional(DateTime),
  note: z.optional(z.array(z.string())),
  basedOn: z.optional(z.array(Reference)),
});
export type MedicationRequest = z.infer<typeof MedicationRequest>;

/** What pdesk sends with M3 and what a receiver accepts: the interface's "required on create" column. */
export const MedicationRequestCreate = z.looseObject({
  resourceType: z.literal('MedicationRequest'),
  id: z.optional(IdString),
  extension: z.array(z.extend(PeriodExtension, { valuePeriod: z.looseObject({ start: DateOnly, end: DateOnly }) })).check(z.minLength(1)),
  status: z.literal('draft'),
  medicationReference: Reference,
  subject: Reference,
  performer: Reference,
  dispenseRequest: z.looseObject({ initialFill: z.looseObject({ quantity: Quantity }) }),
  authoredOn: DateTime,
  note: z.optional(z.array(z.string())),
  basedOn: z.array(Reference).check(z.minLength(1)),
  intent: z.literal('order'),
});
export type MedicationRequestCreate = z.infer<typeof MedicationRequestCreate>;

export const Organization = z.looseObject({
  resourceType: z.literal('Organization'),
  id: IdString,
  name: z.optional(z.string()),
  identifier: z.optional(z.array(z.looseObject({ system: z.optional(z.string()), value: IdString }))),
  address: z.optional(
    z.array(
      z.looseObject({
        line: z.optional(z.array(z.string())),
        city: z.optional(z.string()),
        postalCode: z.optional(z.string()),
        country: z.optional(z.string()),
      }),
    ),
  ),
});
export type Organization = z.infer<typeof Organization>;

export interface MedicationRow {
  medicationRequest: MedicationRequest;
  organization?: Organization;
}

const MedicationListBundle = z.extend(BundleShell, { meta: z.optional(z.looseObject({ versionId: z.optional(z.string()) })) });
const MedicationListEntry = z.looseObject({ 'medication-request': z.unknown(), organization: z.optional(z.unknown()) });

/** M1: entries hold `medication-request` and `organization`; normalised to `{medicationRequest, organization}`. */
export function parseMedicationList(body: unknown): { rows: MedicationRow[]; total?: number; next?: string } {
  const shell = parseResponse(MedicationListBundle, body);
  const rows = (shell.entry ?? []).map((e, i) => {
    const entry = parseResponse(MedicationListEntry, e, `$.entry[${i}]`);
    const medicationRequest = parseResponse(MedicationRequest, entry['medication-request'], `$.entry[${i}]["medication-request"]`);
    const organization =
      entry.organization === undefined ? undefined : parseResponse(Organization, entry.organization, `$.entry[${i}].organization`);
    return { medicationRequest, organization };
  });
  return { rows, total: shell.total, next: nextLink(shell) };
}
