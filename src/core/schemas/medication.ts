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

/** A note: the interface's string, or FHIR R4's Annotation (`{text, authorString?, time?…}`). */
export const Note = z.union([z.string(), z.looseObject({ text: z.string() })]);

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
  note: z.optional(z.array(Note)),
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
  note: z.optional(z.array(Note)),
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

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** An M1 entry in the interface's shape: `{medication-request, organization}`, and no `resource` or `resourceType`. */
export function isMedicationPair(entry: unknown): boolean {
  return isObject(entry) && !('resource' in entry) && !('resourceType' in entry);
}

/** The id a reference names (`Organization/o1`, or a full URL ending so), if it is of `type`. */
export function referencedId(reference: string | undefined, type: string): string | undefined {
  const m = reference?.match(new RegExp(`(?:^|/)${type}/([^/?#]+)$`));
  return m?.[1];
}

/**
 * M1 in either shape (decisions.md §3): the interface's entries `{medication-request, organization}`, or a standard
 * searchset whose entries are `{resource}` (or bare) MedicationRequests, the pharmacies coming as Organizations
 * (`_include`d, `search.mode` include) paired by the request's `performer`. Normalised to
 * `{medicationRequest, organization}`; `OperationOutcome` entries (a server's search warnings) are passed over.
 */
export function parseMedicationList(body: unknown): { rows: MedicationRow[]; total?: number; next?: string } {
  const shell = parseResponse(MedicationListBundle, body);
  const rows: MedicationRow[] = [];
  const pharmacies = new Map<string, Organization>();
  (shell.entry ?? []).forEach((e, i) => {
    if (isMedicationPair(e)) {
      const entry = parseResponse(MedicationListEntry, e, `$.entry[${i}]`);
      const medicationRequest = parseResponse(MedicationRequest, entry['medication-request'], `$.entry[${i}]["medication-request"]`);
      const organization =
        entry.organization === undefined ? undefined : parseResponse(Organization, entry.organization, `$.entry[${i}].organization`);
      rows.push({ medicationRequest, organization });
      return;
    }
    const wrapped = isObject(e) && 'resource' in e;
    const raw = wrapped ? (e as { resource: unknown }).resource : e;
    const at = wrapped ? `$.entry[${i}].resource` : `$.entry[${i}]`;
    const type = isObject(raw) ? raw.resourceType : undefined;
    if (type === 'OperationOutcome') return;
    if (type === 'Organization') {
      const org = parseResponse(Organization, raw, at);
      pharmacies.set(org.id, org);
      return;
    }
    rows.push({ medicationRequest: parseResponse(MedicationRequest, raw, at) });
  });
  if (pharmacies.size)
    for (const row of rows) {
      if (row.organization) continue;
      const id = referencedId(row.medicationRequest.performer?.reference, 'Organization');
      const org = id === undefined ? undefined : pharmacies.get(id);
      if (org) row.organization = org;
    }
  return { rows, total: shell.total, next: nextLink(shell) };
}
