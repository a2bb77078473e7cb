/** Text of the Meds screen: list columns by width, a request's detail lines, a pharmacy line. Server text is cleaned. */
import type { MedicationRequest, MedicationRow, Organization } from '../../../core/schemas/medication.js';
import { noteTexts, periodText as periodLabel, quantityText as quantityLabel, referenceLabel } from '../../../core/labels.js';
import type { SortColumn } from '../../components/sort.js';
import { clean, columns, growWidths, idWidth, longestOf } from '../../format.js';

/** `60 tablet`, cleaned for the screen ('' when absent). */
export const quantityText = (r: MedicationRequest): string => clean(quantityLabel(r) ?? '');

/** `2026-03-01..2026-03-31`, cleaned for the screen ('' when absent). */
export const periodText = (r: MedicationRequest): string => clean(periodLabel(r) ?? '');

export const idOf = (reference: string | undefined, type: string) =>
  reference?.startsWith(`${type}/`) ? reference.slice(type.length + 1) : undefined;

export const refText = (r: { reference: string; display?: string } | undefined) => clean(referenceLabel(r));

export function pharmacyName(row: MedicationRow): string {
  return clean(row.organization?.name ?? row.medicationRequest.performer?.display ?? row.medicationRequest.performer?.reference ?? '');
}

/** `Oudegracht 120, 3511 AX Utrecht NL`. */
export function addressText(o: Organization | undefined): string {
  const a = o?.address?.[0];
  if (!a) return '';
  return clean([(a.line ?? []).join(' '), [a.postalCode, a.city, a.country].filter(Boolean).join(' ')].filter(Boolean).join(', '));
}

export const identifierText = (o: Organization) =>
  clean((o.identifier ?? []).map((i) => (i.system ? `${i.system}|${i.value}` : i.value)).join(', '));

/** Widths of the pharmacy pick list (M4): the id in full when the row has room for it and the name. */
export function pharmacyWidths(width: number, ids: readonly string[]): number[] {
  return [idWidth(ids, 8, width, 24 + 2 * 3), 24, 36, 0];
}

export function pharmacyLine(o: Organization, width: number, widths: number[] = [8, 24, 36, 0]): string {
  return columns([clean(o.id), clean(o.name ?? ''), addressText(o), identifierText(o)], widths, width);
}

export const PHARMACY_COLUMNS: readonly SortColumn<Organization>[] = [
  { key: 'i', name: 'id', value: (o) => o.id },
  { key: 'n', name: 'name', value: (o) => o.name },
  { key: 'a', name: 'address', value: (o) => addressText(o) },
];

interface Layout {
  header: string[];
  widths: number[];
  values: (row: MedicationRow) => string[];
}

/**
 * Columns that fit the width: the period only on wide terminals; the id in full when the row has room; on a wide
 * terminal the columns grow to the longest value of `rows` (the last takes the rest).
 */
export function medLayout(width: number, ids: readonly string[] = [], rows: readonly MedicationRow[] = []): Layout {
  const layout = baseLayout(width, ids);
  if (!rows.length) return layout;
  const values = rows.map(layout.values);
  const longest = layout.widths.map((_, i) => longestOf(values.map((v) => v[i] ?? '')));
  return { ...layout, widths: growWidths(layout.widths, longest, width) };
}

function baseLayout(width: number, ids: readonly string[]): Layout {
  const base = width >= 112 ? 6 + 28 + 8 + 24 + 12 + 10 + 2 * 6 : 6 + 14 + 7 + 12 + 8 + 2 * 5;
  const idW = idWidth(ids, 6, width, base);
  const extra = idW - 6;
  const med = (row: MedicationRow) =>
    clean(row.medicationRequest.medicationReference.display ?? row.medicationRequest.medicationReference.reference);
  const patient = (row: MedicationRow) => clean(row.medicationRequest.subject.reference.replace(/^Patient\//, ''));
  if (width >= 112)
    return {
      header: ['ID', 'STATUS', 'MEDICATION', 'PATIENT', 'PHARMACY', 'QUANTITY', 'PERIOD'],
      widths: [idW, 6, Math.max(16, 28 - extra), 8, 24, 12, 0],
      values: (r) => [
        clean(r.medicationRequest.id),
        clean(r.medicationRequest.status),
        med(r),
        patient(r),
        pharmacyName(r),
        quantityText(r.medicationRequest),
        periodText(r.medicationRequest),
      ],
    };
  return {
    header: ['ID', 'STATUS', 'MEDICATION', 'PATIENT', 'PHARMACY', 'QUANTITY'],
    widths: [idW, 6, Math.max(14, 23 - extra), 7, Math.max(12, 17 - Math.max(0, extra - 9)), 0],
    values: (r) => [
      clean(r.medicationRequest.id),
      clean(r.medicationRequest.status),
      med(r),
      patient(r),
      pharmacyName(r),
      quantityText(r.medicationRequest),
    ],
  };
}

/** `label  value` lines of one request (and its pharmacy, when the list gave it). */
export function detailLines(r: MedicationRequest, org: Organization | undefined): string[] {
  const fields: Array<[string, string | undefined]> = [
    ['id', clean(r.id)],
    ['status', clean(r.status)],
    ['intent', clean(r.intent)],
    ['medication', refText(r.medicationReference)],
    ['patient', refText(r.subject)],
    ['pharmacy', refText(r.performer)],
    ['  name', org ? clean(org.name ?? '') : undefined],
    ['  address', org ? addressText(org) : undefined],
    ['  identifier', org ? identifierText(org) : undefined],
    ['quantity', quantityText(r)],
    ['period', periodText(r)],
    ['authoredOn', clean(r.authoredOn ?? '')],
    ['basedOn', clean(r.basedOn?.map((b) => b.reference).join(', ') ?? '')],
    ['note', clean(noteTexts(r).join(' | '))],
  ];
  return fields.filter(([, v]) => v).map(([k, v]) => `${k.padEnd(12)}  ${v}`);
}

export const MED_COLUMNS: readonly SortColumn<MedicationRow>[] = [
  { key: 'i', name: 'id', value: (r) => r.medicationRequest.id },
  { key: 's', name: 'status', value: (r) => r.medicationRequest.status },
  {
    key: 'm',
    name: 'medication',
    value: (r) => r.medicationRequest.medicationReference.display ?? r.medicationRequest.medicationReference.reference,
  },
  { key: 'p', name: 'patient', value: (r) => r.medicationRequest.subject.reference },
  { key: 'h', name: 'pharmacy', value: (r) => pharmacyName(r) },
  { key: 'a', name: 'authored', value: (r) => r.medicationRequest.authoredOn, desc: true },
];
