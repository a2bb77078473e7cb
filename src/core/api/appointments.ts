/**
 * Appointment API (practice system provides), both 2.0.0 and 1.0.0:
 * A1 appointment types · A2 practitioner roles · A3 schedules · A4 slots · A5 appointments · A6 create · A7 cancel.
 */
import type { Profile } from '../profile/schema.js';
import type { CallOptions, PdeskClient } from '../client.js';
import { answerOf } from '../client/answer.js';
import { createdId } from '../created.js';
import { parseDay, parseInstant, utcInstant } from '../dates.js';
import { FieldError, UsageError } from '../errors.js';
import { isFhirId } from '../ids.js';
// Each schema module directly, not schemas/index.js: importing the index evaluates (constructs) every schema
// of every API, which a one-shot command pays at start-up.
import {
  ACTOR_EXTENSION_URL,
  Appointment,
  AppointmentCreate,
  AppointmentResponseCreate,
  AppointmentType,
  PractitionerRole,
  Schedule,
  Slot,
  ValueSet,
} from '../schemas/appointment.js';
import { readPages } from '../pages.js';
import { parseBundle } from '../schemas/bundle.js';
import { type CodeableConcept, type Reference, checkBody, parseBody, parseResponse } from '../schemas/common.js';
import * as z from '../schemas/zod.js';
import { isFullToken, parseToken } from '../tokens.js';
import { dialectOf, searchReference } from './dialect.js';
import { nodeCrypto } from '../builtins.js';

export interface TypeRow {
  code: string;
  display?: string;
}
export type Params = ReadonlyArray<readonly [string, string]>;
export interface ListOptions {
  limit?: number;
  signal?: AbortSignal;
}

/** An A1 answer: a ValueSet (2.0.0) or an AppointmentType (1.0.0), whatever the version (decisions.md §3). */
export const TypeAnswer = z.union([ValueSet, AppointmentType]);

/** Both A1 shapes normalise to `{code, display}` rows, whatever the profile's version (decisions.md §3). */
export function typeRows(body: unknown): TypeRow[] {
  const kind = (body as { resourceType?: unknown })?.resourceType;
  if (kind === 'Bundle') return parseBundle(TypeAnswer, body).resources.flatMap((r) => typeRows(r));
  const parsed = parseResponse(kind === 'AppointmentType' ? AppointmentType : ValueSet, body);
  const rows: TypeRow[] = [];
  for (const inc of parsed.compose?.include ?? []) {
    if ('concept' in inc && Array.isArray(inc.concept)) for (const c of inc.concept) rows.push({ code: c.code, display: c.display });
    const actor = (inc as { actor?: { concept: { code: string; display?: string } } }).actor;
    if (actor) rows.push({ code: actor.concept.code, display: actor.concept.display });
  }
  return rows;
}

/** A1: bookable appointment types of a service category. */
export async function getAppointmentTypes(client: PdeskClient, serviceCategory: string, o: ListOptions = {}): Promise<TypeRow[]> {
  const res = await client.call('A1', { query: [['service-category', serviceCategory]], signal: o.signal });
  return answerOf(res, typeRows);
}

const pagesOf =
  <S extends z.core.$ZodType>(schema: S) =>
  (body: unknown) => {
    const p = parseBundle(schema, body);
    return { items: p.resources, next: p.next };
  };

/** A2: practitioner roles, query parameters passed through. */
export function listPractitionerRoles(client: PdeskClient, params: Params = [], o: ListOptions = {}) {
  return readPages(client, 'A2', { query: params, signal: o.signal }, pagesOf(PractitionerRole), o.limit);
}

/**
 * A3: schedules of a service category (`system|code`); '' asks for every schedule without the parameter (an empty
 * `service-category=` matches nothing on a FHIR server).
 */
export function searchSchedules(client: PdeskClient, serviceCategory: string, o: ListOptions = {}) {
  const query: Params = serviceCategory ? [['service-category', serviceCategory]] : [];
  return readPages(client, 'A3', { query, signal: o.signal }, pagesOf(Schedule), o.limit);
}

export interface SlotQuery {
  serviceCategory: string;
  /** Local calendar dates YYYY-MM-DD. */
  from: string;
  to: string;
  schedule?: string;
  status?: string;
  practitioners?: string[];
}

/**
 * The days of a slot search as the operator gave them (YYYY-MM-DD, ISO 8601, today, tomorrow, +Nd) as local
 * calendar days, `from` not after `to`: the range rule of both faces (a FieldError names the field).
 */
export function slotRange(input: { from?: string; to?: string }, now = new Date()): { from: string; to: string } {
  const from = parseDay(input.from ?? '', 'from', now);
  const to = parseDay(input.to ?? '', 'to', now);
  if (from > to) throw new FieldError('from', `(${from}) is after {{to}} (${to})`);
  return { from, to };
}

/**
 * A slot search narrowed to a schedule and its practitioner as far as the profile's API version can: the schedule
 * (2.0.0), the practitioner (1.0.0). For a face that offers both (the TUI's schedule list); an option of the other
 * version given explicitly is an error of `slotQuery`.
 */
export function narrowedSlotQuery(
  profile: Profile,
  q: { serviceCategory: string; from: string; to: string; schedule?: string; practitioner?: string },
): SlotQuery {
  return {
    serviceCategory: q.serviceCategory,
    from: q.from,
    to: q.to,
    schedule: profile.appointmentApi === '2.0.0' ? q.schedule : undefined,
    practitioners: profile.appointmentApi === '1.0.0' && q.practitioner ? [q.practitioner] : undefined,
  };
}

/** The A4 query of decisions.md §2; version-specific parameters used with the other version are usage errors. */
export function slotQuery(profile: Profile, q: SlotQuery): Array<[string, string]> {
  const v = profile.appointmentApi;
  if (v === '1.0.0' && q.schedule) throw new FieldError('schedule', 'needs appointment API 2.0.0; this profile uses 1.0.0');
  if (v === '1.0.0' && q.status) throw new FieldError('status', 'needs appointment API 2.0.0; this profile uses 1.0.0');
  if (v === '2.0.0' && q.practitioners?.length)
    throw new FieldError('practitioner', 'needs appointment API 1.0.0; this profile uses 2.0.0 (use {{schedule}})');
  const query: Array<[string, string]> = [
    ['service-category', q.serviceCategory],
    ['schedule.date', `ge${q.from}`],
    ['schedule.date', `le${q.to}`],
  ];
  // The interface names these by id; FHIR servers match a reference parameter only to a typed reference, which the
  // r4 dialect sends (decisions.md §16).
  const dialect = dialectOf(profile);
  if (q.schedule) query.push(['schedule', searchReference(dialect, 'Schedule', q.schedule)]);
  if (q.status) query.push(['status', q.status]);
  if (q.practitioners?.length)
    query.push(['schedule.actor:PractitionerRole', searchReference(dialect, 'PractitionerRole', q.practitioners.join(','))]);
  return query;
}

/** A4: slots in a date range (async, so a usage error rejects the promise rather than throwing at the call). */
export async function searchSlots(client: PdeskClient, q: SlotQuery, o: ListOptions = {}) {
  return readPages(client, 'A4', { query: slotQuery(client.profile, q), signal: o.signal }, pagesOf(Slot), o.limit);
}

/** A5: appointments, query parameters passed through. */
export function searchAppointments(client: PdeskClient, params: Params = [], o: ListOptions = {}) {
  return readPages(client, 'A5', { query: params, signal: o.signal }, pagesOf(Appointment), o.limit);
}

export interface BookInput {
  patient: string;
  patientDisplay?: string;
  practitioner: string;
  practitionerDisplay?: string;
  start: string;
  end: string;
  comment: string;
  serviceCategory: CodeableConcept[];
  status?: 'booked' | 'proposed';
  id?: string;
}

/**
 * `1001` or `PractitionerRole/1001` → `PractitionerRole/1001`. The id must be a FHIR id (letters, digits, `-`, `.`,
 * at most 64): `bad id!` would book `Patient/bad id!`. A reference to another resource type is refused too.
 */
export function typedReference(type: string, id: string, field: string): string {
  const value = id.trim();
  if (!value) throw new FieldError(field, 'must not be empty');
  const bare = value.startsWith(`${type}/`) ? value.slice(type.length + 1) : value;
  if (!isFhirId(bare)) throw new FieldError(field, `must be an id or ${type}/<id> (letters, digits, - and .), not "${id}"`);
  return `${type}/${bare}`;
}

/** `system|code` → a CodeableConcept; a bare code has no system. */
export function serviceCategoryConcept(value: string): CodeableConcept {
  const { system, code } = parseToken(value);
  return { coding: [system === undefined ? { code } : { system, code }] };
}

/** The A6 body of decisions.md §4. */
export function buildAppointment(profile: Profile, b: BookInput): AppointmentCreate {
  const body = {
    resourceType: 'Appointment' as const,
    // node:crypto on use: a one-shot command that books nothing does not load it.
    id: b.id ?? nodeCrypto().randomUUID(),
    status: b.status ?? 'booked',
    start: b.start,
    end: b.end,
    comment: b.comment,
    serviceCategory: b.serviceCategory,
    participant: [
      {
        actor: { reference: typedReference('Patient', b.patient, 'patient'), ...(b.patientDisplay ? { display: b.patientDisplay } : {}) },
        required: 'required',
        status: 'accepted',
      },
      {
        actor: {
          reference: typedReference('PractitionerRole', b.practitioner, 'practitioner'),
          ...(b.practitionerDisplay ? { display: b.practitionerDisplay } : {}),
        },
        required: 'required',
        status: profile.approvalFlow ? 'needs-action' : 'accepted',
      },
    ],
  };
  return parseBody(AppointmentCreate, body);
}

/** Appointment times are UTC with `Z` (decisions.md §4): a slot time with another offset is converted. */
function toUtcZ(dateTime: string): string {
  if (/Z$/i.test(dateTime) || !/[+-]\d{2}:?\d{2}$/.test(dateTime)) return dateTime;
  const d = new Date(dateTime);
  return Number.isNaN(d.getTime()) ? dateTime : utcInstant(d);
}

/** Booking from a slot: start, end, service category and practitioner come from the slot (decisions.md §4). */
export function bookingFromSlot(slot: Slot): Pick<BookInput, 'start' | 'end' | 'serviceCategory' | 'practitioner' | 'practitionerDisplay'> {
  const actor = slotPractitioner(slot);
  if (!actor) throw new FieldError('slot', `names no practitioner (slot ${slot.id} has no ${ACTOR_EXTENSION_URL} extension)`);
  if (!slot.serviceCategory?.length) throw new FieldError('slot', `names no service category (slot ${slot.id} has no serviceCategory)`);
  return {
    start: toUtcZ(slot.start),
    end: toUtcZ(slot.end),
    serviceCategory: slot.serviceCategory,
    practitioner: actor.reference,
    practitionerDisplay: actor.display,
  };
}

/** The statuses a booking may ask for; the first is the default. */
export const BOOKING_STATUSES = ['booked', 'proposed'] as const;

/** What a face asks to book, as the operator gave it. */
export interface BookingInput {
  patient: string;
  patientDisplay?: string;
  comment: string;
  /** `booked` (the default) or `proposed`. */
  status?: string;
  id?: string;
  /** Where and when: a slot (its start, end, practitioner and service category)… */
  slot?: Slot;
  /** …or each of them: instants (ISO 8601, today, +Nd…), a PractitionerRole id, `system|code`. */
  start?: string;
  end?: string;
  practitioner?: string;
  serviceCategory?: string;
}

/**
 * A booking that starts in the past is refused (the past-slot rule of both faces), unless the face lets the
 * operator book it anyway (a hint says how). The slot list shows such a slot as past.
 */
export class PastBookingError extends UsageError {
  constructor(readonly start: string) {
    const at = utcParts(start);
    super(`The appointment starts at ${at.day} ${at.time} UTC, which has passed: nothing was sent.`);
    this.hint({ kind: 'allow-past' });
  }
}

/** The past rule: the error of a booking starting at `start`, when it has begun at `now`. */
export function pastBooking(start: string | undefined, now: Date): PastBookingError | undefined {
  return start !== undefined && hasBegun(start, now) ? new PastBookingError(start) : undefined;
}

/**
 * The one booking rule of both faces: the A6 body for `input` with its defaults (status booked), the times checked
 * (end after start; not begun at `now` unless `allowPast`) and the profile's shape (decisions.md §4; the approval
 * flow). A value it refuses is a FieldError naming its field.
 */
export function bookingRequest(profile: Profile, input: BookingInput, o: { now: Date; allowPast?: boolean }): AppointmentCreate {
  const status = input.status || BOOKING_STATUSES[0];
  if (!(BOOKING_STATUSES as readonly string[]).includes(status))
    throw new FieldError('status', `must be one of ${BOOKING_STATUSES.join(', ')}, not "${input.status}"`);
  let when: Pick<BookInput, 'start' | 'end' | 'serviceCategory' | 'practitioner' | 'practitionerDisplay'>;
  if (input.slot) when = bookingFromSlot(input.slot);
  else {
    const start = parseInstant(input.start ?? '', 'start', o.now);
    const end = parseInstant(input.end ?? '', 'end', o.now);
    if (end <= start) throw new FieldError('end', `(${end}) must be after {{start}} (${start})`);
    const category = input.serviceCategory ?? '';
    if (!isFullToken(category)) throw new FieldError('serviceCategory', `must be <system>|<code>, not "${category}"`);
    when = { start, end, practitioner: input.practitioner ?? '', serviceCategory: [serviceCategoryConcept(category)] };
  }
  if (!o.allowPast) {
    const past = pastBooking(when.start, o.now);
    if (past) throw past;
  }
  return buildAppointment(profile, {
    ...when,
    patient: input.patient,
    patientDisplay: input.patientDisplay,
    comment: input.comment,
    status: status as BookInput['status'],
    id: input.id,
  });
}

/**
 * A6: create an appointment; the body is validated before anything is sent. `created` is the server's id of it
 * (decisions.md §16): the answer's, else its `Location`'s, else the id sent.
 */
export async function createAppointment(client: PdeskClient, body: unknown, o: Pick<CallOptions, 'signal'> = {}) {
  const valid = parseBody(AppointmentCreate, body);
  const res = await client.call('A6', { body: valid, signal: o.signal });
  return {
    status: res.status,
    appointment: res.body === undefined ? undefined : answerOf(res, (b) => parseResponse(Appointment, b)),
    created: createdId(res, 'Appointment', valid.id),
    sent: valid,
  };
}

/** An appointment named by its id or `Appointment/<id>`: the id (a FieldError of `appointmentId` otherwise). */
export function appointmentIdOf(value: string): string {
  const id = value.replace(/^Appointment\//, '');
  if (!id || id.includes('/')) throw new FieldError('appointmentId', `must be an appointment id, not "${value}"`);
  return id;
}

/**
 * The A7 body of decisions.md §5, and the cancel rule of both faces: the appointment an id (`Appointment/` may
 * lead), the actor `Patient/<id>` or `PractitionerRole/<id>`, a comment that says why.
 */
export function buildCancellation(appointmentId: string, actor: string, comment: string): AppointmentResponseCreate {
  const appointment = appointmentIdOf(appointmentId);
  if (!comment.trim()) throw new FieldError('comment', 'must not be empty: say why the appointment is cancelled');
  const [type, id = ''] = actor.split('/', 2);
  if ((type !== 'Patient' && type !== 'PractitionerRole') || !isFhirId(id) || actor !== `${type}/${id}`)
    throw new FieldError('actor', `must be Patient/<id> or PractitionerRole/<id>, not "${actor}"`);
  return parseBody(AppointmentResponseCreate, {
    resourceType: 'AppointmentResponse',
    appointment: { reference: `Appointment/${appointment}` },
    actor: { reference: actor },
    participantStatus: 'declined',
    comment,
  });
}

/** A7: cancel an appointment by declining it. */
export async function cancelAppointment(client: PdeskClient, body: unknown, o: Pick<CallOptions, 'signal'> = {}) {
  const valid = parseBody(AppointmentResponseCreate, body);
  const res = await client.call('A7', { body: valid, signal: o.signal });
  return { status: res.status, body: res.body };
}

/** A slot given on the command line (`--slot-json`): one Slot, or an array of exactly one, as `slots list --json` prints. */
export function parseSlotArg(value: unknown, field = 'slot'): Slot {
  let v = value;
  let prefix = '$';
  if (Array.isArray(v)) {
    if (v.length !== 1) throw new FieldError(field, `must hold one Slot; the array has ${v.length}`);
    v = v[0];
    prefix = '$[0]';
  }
  const r = checkBody(Slot, v);
  if (!r.ok) throw new FieldError(field, `is not a valid Slot at ${r.path.replace(/^\$/, prefix)}: ${r.message}`);
  return r.data;
}

/**
 * Whether something that starts at `start` has begun at `now`. The one rule of both faces for the past: a slot
 * that has begun is shown as `past` (`slots list`, the TUI's slot list) and cannot be booked (`appointments
 * book` without --allow-past, the TUI's booking). A start that is not a date has not begun.
 */
export function hasBegun(start: string | undefined, now: Date): boolean {
  const t = Date.parse(start ?? '');
  return !Number.isNaN(t) && t < now.getTime();
}

/** A slot that has begun: shown as past, not bookable (hasBegun). */
export const slotIsPast = (slot: Pick<Slot, 'start'>, now: Date): boolean => hasBegun(slot.start, now);

/** The practitioner of a slot (its `urn:extension:actor` extension). */
export function slotPractitioner(slot: Slot): Reference | undefined {
  return slot.extension?.find((e) => e.url === ACTOR_EXTENSION_URL)?.valueReference;
}

/** `code display` of the codings of concepts, for a table cell. */
export function conceptLabel(
  concepts: ReadonlyArray<{ coding?: ReadonlyArray<{ code: string; display?: string }>; text?: string }> | undefined,
): string {
  return (concepts ?? [])
    .flatMap((c) => (c.coding?.length ? c.coding.map((x) => (x.display ? `${x.code} ${x.display}` : x.code)) : c.text ? [c.text] : []))
    .join(', ');
}

/** UTC day `YYYY-MM-DD` and time `HH:MM` of an ISO 8601 date-time (one without offset is shown as written). */
export function utcParts(dateTime: string | undefined): { day: string; time: string } {
  if (!dateTime) return { day: '', time: '' };
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(dateTime);
  const d = new Date(dateTime);
  if (!hasZone || Number.isNaN(d.getTime())) return { day: dateTime.slice(0, 10), time: dateTime.slice(11, 16) };
  const iso = d.toISOString();
  return { day: iso.slice(0, 10), time: iso.slice(11, 16) };
}
