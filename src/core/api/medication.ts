/**
 * Medication API (practice system provides): M1 list · M2 get · M3 order (a reorder, decisions.md §10) ·
 * M4 search pharmacies.
 */
import type { Profile } from '../profile/schema.js';
import type { CallOptions, PdeskClient } from '../client.js';
import { answerOf } from '../client/answer.js';
import { readPages } from '../pages.js';
import { createdId } from '../created.js';
import { addDaysToDay, daysBetween, localDay, parseDay, withOffset } from '../dates.js';
import { FieldError } from '../errors.js';
import { isFullToken } from '../tokens.js';
import { parseBundle } from '../schemas/bundle.js';
import { parseBody, parseResponse } from '../schemas/common.js';
import {
  MedicationRequest,
  MedicationRequestCreate,
  Organization,
  parseMedicationList,
  type MedicationRow,
} from '../schemas/medication.js';
import type { ListOptions, Params } from './appointments.js';
import { dialectOf, orderWire } from './dialect.js';

/** What M1 sends: the operator's parameters; under the r4 dialect also `_include` of each request's pharmacy. */
export function medicationListQuery(profile: Profile, params: Params = []): Params {
  if (dialectOf(profile) !== 'r4' || params.some(([k]) => k === '_include')) return params;
  return [...params, ['_include', 'MedicationRequest:intended-performer']];
}

/** M1: medication requests with their pharmacy. */
export function listMedicationRequests(client: PdeskClient, params: Params = [], o: ListOptions = {}): Promise<MedicationRow[]> {
  return readPages(
    client,
    'M1',
    { query: medicationListQuery(client.profile, params), signal: o.signal },
    (body) => {
      const p = parseMedicationList(body);
      return { items: p.rows, next: p.next };
    },
    o.limit,
  );
}

/** M2: one medication request. */
export async function getMedicationRequest(client: PdeskClient, id: string, o: Pick<CallOptions, 'signal' | 'readForWrite'> = {}) {
  const res = await client.call('M2', { params: { id }, signal: o.signal, readForWrite: o.readForWrite });
  return answerOf(res, (b) => parseResponse(MedicationRequest, b));
}

export interface ReorderInput {
  pharmacy?: string;
  quantity?: number;
  /** YYYY-MM-DD */
  start?: string;
  end?: string;
  note?: string;
}

/** What a face asks to change in a reorder, as the operator gave it; what is absent is kept from the request. */
export interface ReorderAsk {
  pharmacy?: string;
  quantity?: string;
  start?: string;
  end?: string;
  note?: string;
}

/**
 * The reorder rule of both faces, checked before anything is read or sent: the pharmacy an Organization id, the
 * quantity a positive number, the dates local days (YYYY-MM-DD, today, +Nd…) with the end not before the start (by
 * default today), a note that says something. A value it refuses is a FieldError naming its field.
 */
export function reorderInput(ask: ReorderAsk, now = new Date()): ReorderInput {
  const input: ReorderInput = {};
  if (ask.pharmacy !== undefined) {
    const id = ask.pharmacy.trim().replace(/^Organization\//, '');
    if (!id || id.includes('/')) throw new FieldError('pharmacy', `must be an id or Organization/<id>, not "${ask.pharmacy}"`);
    input.pharmacy = id;
  }
  if (ask.quantity !== undefined) {
    const n = Number(ask.quantity);
    if (!Number.isFinite(n) || n <= 0 || ask.quantity.trim() === '')
      throw new FieldError('quantity', `must be a positive number, not "${ask.quantity}"`);
    input.quantity = n;
  }
  if (ask.start !== undefined) input.start = parseDay(ask.start, 'start', now);
  if (ask.end !== undefined) input.end = parseDay(ask.end, 'end', now);
  if (input.end !== undefined && input.end < (input.start ?? localDay(now)))
    throw new FieldError(
      'end',
      input.start !== undefined
        ? `(${input.end}) is before {{start}} (${input.start})`
        : `(${input.end}) is before the default start, today (${localDay(now)}): give {{start}} too`,
    );
  if (ask.note !== undefined) {
    if (ask.note.trim() === '') throw new FieldError('note', 'must not be empty');
    input.note = ask.note;
  }
  return input;
}

export const periodExtensionUrl = (p: Profile) => `${p.namespaces.portal}.medication-period`;

/** The M3 body for a reorder of `r` (decisions.md §10). */
export function buildReorder(profile: Profile, r: MedicationRequest, input: ReorderInput, now = new Date()): MedicationRequestCreate {
  const periodExt = r.extension?.find((e) => e.valuePeriod);
  const prev = periodExt?.valuePeriod;
  // R's period length in calendar days; 30 when R has no complete period (or a reversed one).
  const stated = prev?.start && prev?.end ? daysBetween(prev.start, prev.end) : -1;
  const length = stated >= 0 ? stated : 30;
  const start = input.start ?? localDay(now);
  const end = input.end ?? addDaysToDay(start, length);
  if (end < start) throw new FieldError('end', `(${end}) is before {{start}} (${start})`);
  const quantity = r.dispenseRequest?.initialFill?.quantity;
  if (!quantity && input.quantity === undefined)
    throw new FieldError('quantity', `is needed: medication request ${r.id} has no dispenseRequest.initialFill.quantity`);
  const performer = input.pharmacy ? { reference: `Organization/${input.pharmacy.replace(/^Organization\//, '')}` } : r.performer;
  if (!performer) throw new FieldError('pharmacy', `is needed: medication request ${r.id} names none`);
  return parseBody(MedicationRequestCreate, {
    resourceType: 'MedicationRequest',
    status: 'draft',
    intent: 'order',
    basedOn: [{ reference: `MedicationRequest/${r.id}` }],
    medicationReference: r.medicationReference,
    subject: r.subject,
    performer,
    dispenseRequest: { initialFill: { quantity: { ...(quantity ?? {}), value: input.quantity ?? quantity!.value } } },
    extension: [{ url: periodExt?.url ?? periodExtensionUrl(profile), valuePeriod: { start, end } }],
    authoredOn: withOffset(now),
    ...(input.note ? { note: [input.note] } : {}),
  });
}

/** M3: order a medication, its body in the profile's dialect; `created` is the server's id of the order. */
export async function orderMedication(client: PdeskClient, body: unknown, o: Pick<CallOptions, 'signal'> = {}) {
  const valid = orderWire(dialectOf(client.profile), parseBody(MedicationRequestCreate, body));
  const res = await client.call('M3', { body: valid, signal: o.signal });
  return {
    status: res.status,
    medicationRequest: res.body === undefined ? undefined : answerOf(res, (b) => parseResponse(MedicationRequest, b)),
    created: createdId(res, 'MedicationRequest', valid.id),
    sent: valid,
  };
}

/** `system|value` pairs for M4; the identifier is required. */
export function pharmacyQuery(identifiers: string[]): Array<[string, string]> {
  if (identifiers.length === 0) throw new FieldError('identifier', 'is required: give at least one <system>|<value>');
  for (const i of identifiers)
    if (!isFullToken(i) || i.includes(',')) throw new FieldError('identifier', `must be <system>|<value>, not "${i}"`);
  return [['identifier', identifiers.join(',')]];
}

/**
 * What M4 sends: the identifiers; under the r4 dialect also `_total=accurate`, as FHIR servers give the `total` the
 * interface's M4 answer carries only when asked (decisions.md §16).
 */
export function pharmacySearchQuery(profile: Profile, identifiers: string[]): Array<[string, string]> {
  const query = pharmacyQuery(identifiers);
  return dialectOf(profile) === 'r4' ? [...query, ['_total', 'accurate']] : query;
}

/** M4: pharmacies by identifier. */
export function searchPharmacies(client: PdeskClient, identifiers: string[], o: ListOptions = {}) {
  return readPages(
    client,
    'M4',
    { query: pharmacySearchQuery(client.profile, identifiers), signal: o.signal },
    (body) => {
      const p = parseBundle(Organization, body);
      return { items: p.resources, next: p.next };
    },
    o.limit,
  );
}
