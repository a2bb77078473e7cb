/** Medication schemas (M1–M4): MedicationRequest, the M1 list Bundle, and Organization (pharmacy). */
import { z } from 'zod';
import { DateOnly, DateTime, IdString, Reference, parseResponse } from './common.js';
import { BundleShell, nextLink } from './bundle.js';

export const Quantity = z.looseObject({
  value: z.number(),
  unit: z.string().optional(),
  system: z.string().optional(),
  code: z.string().optional(),
});

export const PeriodExtension = z.looseObject({
  url: z.string().optional(),
  valuePeriod: z.looseObject({ start: DateOnly.optional(), end: DateOnly.optional() }).optional(),
});

export const MedicationRequest = z.looseObject({
  resourceType: z.literal('MedicationRequest'),
  id: IdString,
  status: z.string(),
  intent: z.string(),
  medicationReference: Reference,
  subject: Reference,
  performer: Reference.optional(),
  extension: z.array(PeriodExtension).optional(),
  dispenseRequest: z.looseObject({ initialFill: z.looseObject({ quantity: Quantity.optional() }).optional() }).optional(),
  authoredOn: DateTime.optional(),
  note: z.array(z.string()).optional(),
  basedOn: z.array(Reference).optional(),
});
export type MedicationRequest = z.infer<typeof MedicationRequest>;

/** What pdesk sends with M3 and what a receiver accepts: the interface's "required on create" column. */
export const MedicationRequestCreate = z.looseObject({
  resourceType: z.literal('MedicationRequest'),
  id: IdString.optional(),
  extension: z.array(PeriodExtension.extend({ valuePeriod: z.looseObject({ start: DateOnly, end: DateOnly }) })).min(1),
  status: z.literal('draft'),
  medicationReference: Reference,
  subject: Reference,
  performer: Reference,
  dispenseRequest: z.looseObject({ initialFill: z.looseObject({ quantity: Quantity }) }),
  authoredOn: DateTime,
  note: z.array(z.string()).optional(),
  basedOn: z.array(Reference).min(1),
  intent: z.literal('order'),
});
export type MedicationRequestCreate = z.infer<typeof MedicationRequestCreate>;

export const Organization = z.looseObject({
  resourceType: z.literal('Organization'),
  id: IdString,
  name: z.string().optional(),
  identifier: z.array(z.looseObject({ system: z.string().optional(), value: IdString })).optional(),
  address: z
    .array(
      z.looseObject({
        line: z.array(z.string()).optional(),
        city: z.string().optional(),
        postalCode: z.string().optional(),
        country: z.string().optional(),
      }),
    )
    .optional(),
});
export type Organization = z.infer<typeof Organization>;

export interface MedicationRow {
  medicationRequest: MedicationRequest;
  organization?: Organization;
}

const MedicationListBundle = BundleShell.extend({ meta: z.looseObject({ versionId: z.string().optional() }).optional() });
const MedicationListEntry = z.looseObject({ 'medication-request': z.unknown(), organization: z.unknown().optional() });

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
