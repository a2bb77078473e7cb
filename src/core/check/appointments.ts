/**
 * Checks of the appointment API (A1–A7). Read-only: A1 appointment types · A2 practitioner roles · A3 schedules
 * carry the category asked for · A4 answers and paging · A4 returns only free slots inside the dates and the
 * category searched · A5 appointments. With `write`: A6 books a free slot A4 found and echoes it · A6 again on
 * that slot is refused (4xx) · A5 lists the booking · A7 cancels it · A4 shows the slot free again.
 */
import { randomUUID } from 'node:crypto';
import {
  TypeAnswer,
  type TypeRow,
  bookingFromSlot,
  buildAppointment,
  buildCancellation,
  slotPractitioner,
  slotQuery,
  typeRows,
  typedReference,
} from '../api/appointments.js';
import { dialectOf, searchReference } from '../api/dialect.js';
import { createdId } from '../created.js';
import { HttpError, statusLine } from '../errors.js';
import { Appointment, AppointmentType, PractitionerRole, Schedule, Slot, ValueSet } from '../schemas/appointment.js';
import type { AppointmentCreate } from '../schemas/appointment.js';
import { parseToken, tokenMatches } from '../tokens.js';
import { Variants, checkAcceptedBody, checkAnswer, checkSchema, echo, judgeRefusal, noteServerId, sameInstant } from './answers.js';
import { type Booking, type CheckContext, defineCheck, type Run } from './context.js';
import type { CreatedResource } from './model.js';
import { emptyBecause, invalidEntries, resourceEntries, type Search, search } from './search.js';
import { CHECK_TEXT, rawField, rawId } from './text.js';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** How far outside the dates searched a slot may start before it is an error: a server reading the dates in its own zone. */
const ZONE_SLACK_MS = 14 * 3_600_000;

/** The week A4 is searched over: the run's UTC date and the six after it (slot times are UTC, decisions.md §12). */
export function searchWeek(now: Date): { from: string; to: string; fromMs: number; toMs: number } {
  const fromMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: isoDay(fromMs), to: isoDay(fromMs + 6 * DAY_MS), fromMs, toMs: fromMs + 7 * DAY_MS };
}

type Concepts = ReadonlyArray<{ coding?: ReadonlyArray<{ system?: string; code: string }> }> | undefined;

/** Does a CodeableConcept list carry the `system|code` token? Undefined when there is none to look at. */
export function carries(concepts: Concepts, token: string): boolean | undefined {
  if (!concepts?.length) return undefined;
  const t = parseToken(token);
  // A coding without a system (the interface's samples omit it at times) matches on its code.
  return concepts.some((c) => (c.coding ?? []).some((k) => tokenMatches(k.system === undefined ? { code: t.code } : t, k.system, k.code)));
}

/** A4 over the search week (read once per run, used by every A4 check and by A6). */
function weekSlots(c: CheckContext): Promise<Search<Slot>> {
  const category = c.input('serviceCategory');
  return c.run.shared('A4-week', () => {
    const w = searchWeek(c.run.settings.now);
    const query = slotQuery(c.profile, { serviceCategory: category, from: w.from, to: w.to });
    return search(c.client, 'A4', { query, signal: c.signal }, resourceEntries(Slot), { searchset: true });
  });
}

/** A2, read once per run (A2-roles, and the chat checks' recipient). */
export function practitionerRoles(run: Run, signal?: AbortSignal): Promise<Search<PractitionerRole>> {
  return run.shared('A2', () => search(run.settings.client, 'A2', { query: [], signal }, resourceEntries(PractitionerRole)));
}

/** Messages of a search for a check that rests on it but is not the one reporting its answers in full. */
const problems = (s: Search<unknown>) => s.messages.filter((m) => m.type !== 'info');

/** A count and the first path of something found in many entries, as one message. */
class Tally {
  private n = 0;
  private first?: string;
  constructor(private readonly text: (n: number) => string) {}
  add(path: string): void {
    this.n++;
    this.first ??= path;
  }
  report(c: CheckContext, type: 'warning' | 'info'): void {
    if (this.n) c.add({ type, text: this.text(this.n), path: this.first });
  }
}

export const appointmentChecks = [
  defineCheck({
    id: 'A1-types',
    op: 'A1',
    area: 'appointments',
    title: 'A1 answers the appointment types of the service category',
    needs: ['serviceCategory'],
    async run(c) {
      const { code } = parseToken(c.input('serviceCategory'));
      const res = await c.client.call('A1', { query: [['service-category', code]], signal: c.signal });
      checkAnswer(c, 'A1', res);
      const kind = (res.body as { resourceType?: unknown } | undefined)?.resourceType;
      if (kind === 'Bundle') {
        // A FHIR server answers a search of ValueSets with a searchset of them (decisions.md §3): each is checked.
        const entries = (res.body as { entry?: unknown }).entry;
        const list = Array.isArray(entries) ? entries : [];
        const read = resourceEntries(TypeAnswer);
        const rows: TypeRow[] = [];
        list.forEach((e, i) => {
          const r = read(e, `$.entry[${i}]`, new Variants());
          for (const issue of r.issues) c.error(issue.message, issue.path);
          if (r.value) rows.push(...typeRows(r.value));
        });
        c.note(`answered a searchset Bundle of ${list.length} ValueSets (a FHIR server's search answer); each is read.`, '$.resourceType');
        if (!rows.length)
          c.nothingToJudge(`A1 answers no appointment types for service category ${code}: is the category known to this practice system?`);
        c.note(`${rows.length} appointment types for service category ${code}.`);
        return;
      }
      if (kind !== 'ValueSet' && kind !== 'AppointmentType') {
        c.error(`resourceType is ${JSON.stringify(kind)}; A1 answers a ValueSet (2.0.0) or an AppointmentType (1.0.0).`, '$.resourceType');
        return;
      }
      const v = c.profile.appointmentApi;
      const own = (kind === 'ValueSet') === (v === '2.0.0');
      c.note(
        `answered ${kind === 'ValueSet' ? 'a ValueSet (the 2.0.0 shape)' : 'an AppointmentType (the 1.0.0 shape)'}${own ? '' : `; this profile speaks ${v}, and either shape is allowed`}.`,
        '$.resourceType',
      );
      if (!checkSchema(c, kind === 'ValueSet' ? ValueSet : AppointmentType, res.body)) return;
      const rows = typeRows(res.body);
      if (!rows.length)
        c.nothingToJudge(`A1 answers no appointment types for service category ${code}: is the category known to this practice system?`);
      c.note(`${rows.length} appointment types for service category ${code}.`);
    },
  }),
  defineCheck({
    id: 'A2-roles',
    op: 'A2',
    area: 'appointments',
    title: 'A2 lists practitioner roles',
    async run(c) {
      const s = await practitionerRoles(c.run, c.signal);
      c.addAll(s.messages);
      const codes = new Tally((n) => `${n} speciality codes are not four digits as a string (the interface's speciality code)`);
      for (const item of s.items) {
        const coding = (rawField(item.raw, 'speciality') as { coding?: unknown } | undefined)?.coding;
        if (Array.isArray(coding))
          coding.forEach((k, i) => {
            const code = (k as { code?: unknown })?.code;
            if (code !== undefined && !(typeof code === 'string' && /^\d{4}$/.test(code)))
              codes.add(`${item.path}.speciality.coding[${i}].code`);
          });
      }
      codes.report(c, 'warning');
      if (!s.items.length) c.nothingToJudge('A2 lists no practitioner roles: there is nothing to check');
      c.note(`${s.items.length} practitioner roles.`);
    },
  }),
  defineCheck({
    id: 'A3-schedules',
    op: 'A3',
    area: 'appointments',
    title: 'A3 finds schedules, each carrying the service category asked for',
    needs: ['serviceCategory'],
    async run(c) {
      const category = c.input('serviceCategory');
      const s = await c.run.shared('A3', () =>
        search(c.client, 'A3', { query: [['service-category', category]], signal: c.signal }, resourceEntries(Schedule), {
          searchset: true,
        }),
      );
      c.addAll(s.messages);
      const none = new Tally((n) => `${n} schedules carry no serviceCategory: the category asked for cannot be confirmed`);
      s.items.forEach((item) => {
        if (!item.value) return;
        const has = carries(item.value.serviceCategory, category);
        if (has === undefined) none.add(`${item.path}.serviceCategory`);
        else if (!has)
          c.error(`schedule ${item.value.id} does not carry the service category asked for (${category}).`, `${item.path}.serviceCategory`);
      });
      none.report(c, 'warning');
      if (!s.items.length) c.nothingToJudge(`A3 finds no schedules for ${category}: is the category known to this practice system?`);
      c.note(`${s.items.length} schedules for ${category}.`);
    },
  }),
  defineCheck({
    id: 'A4-slots',
    op: 'A4',
    area: 'appointments',
    title: 'A4 answers a week of slots, paging by next links',
    needs: ['serviceCategory'],
    async run(c) {
      const s = await weekSlots(c);
      c.addAll(s.messages);
      const w = searchWeek(c.run.settings.now);
      const noActor = new Tally((n) => `${n} slots name no practitioner (urn:extension:actor): a booking cannot be made from them`);
      const noCategory = new Tally((n) => `${n} slots carry no serviceCategory: a booking cannot be made from them`);
      const noSchedule = new Tally((n) => `${n} slots carry no schedule reference, which appointment API 2.0.0 slots have`);
      for (const item of s.items) {
        if (!item.value) continue;
        if (!slotPractitioner(item.value)) noActor.add(`${item.path}.extension`);
        if (!item.value.serviceCategory?.length) noCategory.add(`${item.path}.serviceCategory`);
        if (c.profile.appointmentApi === '2.0.0' && !item.value.schedule) noSchedule.add(`${item.path}.schedule`);
      }
      noActor.report(c, 'warning');
      noCategory.report(c, 'warning');
      noSchedule.report(c, 'warning');
      if (!s.items.length) c.nothingToJudge(`A4 finds no slots from ${w.from} to ${w.to}: there is nothing to check`);
      c.note(`${s.items.length} slots from ${w.from} to ${w.to}.`);
    },
  }),
  defineCheck({
    id: 'A4-free-only',
    op: 'A4',
    area: 'appointments',
    title: 'A4 returns only free slots inside the dates and the service category searched',
    needs: ['serviceCategory'],
    async run(c) {
      const category = c.input('serviceCategory');
      const s = await weekSlots(c);
      c.addAll([invalidEntries(s, 'A4-slots')]);
      const w = searchWeek(c.run.settings.now);
      const zoned = new Tally(
        (n) => `${n} slots start up to 14 hours outside the UTC dates searched: the server reads the dates in its own time zone`,
      );
      for (const item of s.items) {
        const slot = item.value;
        if (!slot) continue;
        if (slot.status !== 'free')
          c.error(
            `slot ${slot.id} is ${JSON.stringify(slot.status)}; a search without status answers free slots only.`,
            `${item.path}.status`,
          );
        const start = Date.parse(slot.start);
        if (start < w.fromMs - ZONE_SLACK_MS || start >= w.toMs + ZONE_SLACK_MS)
          c.error(`slot ${slot.id} starts ${slot.start}, outside the dates searched (${w.from} to ${w.to}).`, `${item.path}.start`);
        else if (start < w.fromMs || start >= w.toMs) zoned.add(`${item.path}.start`);
        if (carries(slot.serviceCategory, category) === false)
          c.error(`slot ${slot.id} is not of the service category searched (${category}).`, `${item.path}.serviceCategory`);
      }
      zoned.report(c, 'info');
      if (!s.valid.length) c.nothingToJudge(`${emptyBecause(s, 'slots', 'A4-slots')} from ${w.from} to ${w.to}: there is nothing to check`);
      c.note(`${s.valid.length} slots checked.`);
    },
  }),
  defineCheck({
    id: 'A5-appointments',
    op: 'A5',
    area: 'appointments',
    title: 'A5 lists appointments',
    async run(c) {
      const s = await search(c.client, 'A5', { query: [], signal: c.signal }, resourceEntries(Appointment), { searchset: true });
      c.addAll(s.messages);
      if (!s.items.length) c.nothingToJudge('A5 lists no appointments: there is nothing to check');
      c.note(`${s.items.length} appointments.`);
    },
  }),

  // ------------------------------------------------------------------ writes (--write)
  defineCheck({
    id: 'A6-book',
    op: 'A6',
    area: 'appointments',
    title: 'A6 books a free slot A4 found, and echoes what was booked',
    needs: ['serviceCategory', 'patient'],
    write: true,
    async run(c) {
      const category = c.input('serviceCategory');
      const patient = c.input('patient');
      const s = await c.prerequisite('A4', () => weekSlots(c));
      const soon = c.run.settings.now.getTime() + 3_600_000;
      const slot = s.valid.find((x) => bookable(x, category, soon) === undefined);
      if (!slot) return c.skip(noSlotToBook(s, category, soon, searchWeek(c.run.settings.now)));
      const body = buildAppointment(c.profile, { patient, ...bookingFromSlot(slot), comment: CHECK_TEXT.booking });
      const booking = {
        id: body.id,
        check: c.info.id,
        state: 'unknown' as const,
        slotId: slot.id,
        slotDay: isoDay(Date.parse(slot.start)),
        start: body.start,
        end: body.end,
        status: body.status,
        body,
      };
      // Recorded before the request: without an answer the booking may exist, and the run's clean-up cancels it.
      c.data.booking = booking;
      let res: Awaited<ReturnType<typeof c.client.call>>;
      try {
        res = await c.client.call('A6', { body, signal: c.signal });
      } catch (e) {
        if (e instanceof HttpError && e.status < 500) c.data.booking = { ...booking, state: 'refused' };
        throw e;
      }
      // The server's id (decisions.md §16): what the run follows and cancels.
      const made = createdId(res, 'Appointment', body.id);
      const id = made.id ?? body.id;
      const created = c.run.recordCreated({ resource: `Appointment/${id}`, op: 'A6', check: c.info.id });
      c.data.booking = { ...booking, state: 'created', id, created };
      noteServerId(c, 'Appointment', made, res.body);
      checkAnswer(c, 'A6', res);
      const raw = res.body;
      checkSchema(c, Appointment, raw);
      if (raw && typeof raw === 'object') echoBooking(c, body, raw as Record<string, unknown>, '$');
      c.note(`booked slot ${slot.id} (${slot.start}) as Appointment/${id}.`);
      // Whether the server took the slot: A4-slot-freed has something to judge only if it did.
      const taken = await slotTaken(c, slot.id, booking.slotDay);
      c.data.booking = { ...c.data.booking, slotTaken: taken };
      if (taken === true) c.note(`A4 no longer offers slot ${slot.id} as free.`);
      else if (taken === false) c.note(`A4 still offers slot ${slot.id} as free after the booking: the server does not take booked slots.`);
    },
  }),
  defineCheck({
    id: 'A6-double-booking',
    op: 'A6',
    area: 'appointments',
    title: 'A6 refuses a second booking of the same slot (409)',
    needs: ['serviceCategory', 'patient'],
    write: true,
    async run(c) {
      const b = c.data.booking;
      if (b?.state !== 'created') return c.needsEarlier('A6-book', 'a booking');
      const again = { ...b.body, id: randomUUID() };
      const extra: Booking = { id: again.id, check: c.info.id, state: 'unknown' };
      c.data.extraBookings.push(extra);
      let res: Awaited<ReturnType<typeof c.client.call>>;
      try {
        res = await c.client.call('A6', { body: again, signal: c.signal });
      } catch (e) {
        if (e instanceof HttpError && e.status < 500) {
          extra.state = 'refused';
          judgeRefusal(c, e, 'a booked slot');
          return;
        }
        throw e;
      }
      const made = createdId(res, 'Appointment', again.id);
      extra.id = made.id ?? again.id;
      extra.state = 'created';
      extra.created = c.run.recordCreated({ resource: `Appointment/${extra.id}`, op: 'A6', check: c.info.id });
      c.error(
        `a second booking of slot ${b.slotId} was accepted as Appointment/${extra.id} (${statusLine(res.status)}): the server does not lock booked slots; a booked slot must be refused (409).`,
      );
    },
  }),
  defineCheck({
    id: 'A5-sees-booking',
    op: 'A5',
    area: 'appointments',
    title: 'A5 lists the booking A6 made',
    needs: ['serviceCategory', 'patient'],
    write: true,
    async run(c) {
      const b = c.data.booking;
      if (b?.state !== 'created') return c.needsEarlier('A6-book', 'a booking');
      const s = await search(c.client, 'A5', { query: [], signal: c.signal }, resourceEntries(Appointment), { searchset: true });
      c.addAll(problems(s));
      const item = s.items.find((i) => rawId(i.raw) === b.id);
      if (!item) {
        if (s.complete) c.error(`A5 does not list Appointment/${b.id}, booked by A6-book.`);
        else c.warning(`Appointment/${b.id} is not among the ${s.items.length} appointments read (paging stopped).`);
        return;
      }
      const raw = item.raw as Record<string, unknown>;
      echo(c, `${item.path}.status`, b.status, raw.status);
      echo(c, `${item.path}.start`, b.start, raw.start, (x, y) => sameInstant(x as string, y as string));
      echo(c, `${item.path}.end`, b.end, raw.end, (x, y) => sameInstant(x as string, y as string));
      c.note(`lists Appointment/${b.id} (${String(raw.status)}).`);
    },
  }),
  defineCheck({
    id: 'A7-cancel',
    op: 'A7',
    area: 'appointments',
    title: 'A7 cancels the booking, and A5 reads it back cancelled',
    needs: ['serviceCategory', 'patient'],
    write: true,
    async run(c) {
      const b = c.data.booking;
      if (b?.state !== 'created') return c.needsEarlier('A6-book', 'a booking');
      const patient = typedReference('Patient', c.input('patient'), 'patient');
      const res = await c.client.call('A7', {
        body: buildCancellation(b.id, patient, CHECK_TEXT.cancel),
        signal: c.signal,
      });
      // Answered: nothing sends A7 for it again (never a blind resend); what A5 reads back decides.
      c.data.booking = { ...b, state: 'not-cancelled' };
      checkAnswer(c, 'A7', res);
      checkAcceptedBody(c, res.body);
      const back = await readBack(c.run, b.id, c.signal);
      const verdict = cancelVerdict(b.id, statusLine(res.status), back, `cancelled by ${c.info.id}`);
      if (b.created) Object.assign(b.created, verdict.created);
      if (verdict.cancelled) c.data.booking = { ...b, state: 'cancelled' };
      if (verdict.error) c.error(verdict.error);
      if (verdict.warning) c.warning(verdict.warning);
      if (verdict.cancelled) c.note(`cancelled Appointment/${b.id} (${statusLine(res.status)}); A5 reads it back ${verdict.seen}.`);
    },
  }),
  defineCheck({
    id: 'A4-slot-freed',
    op: 'A4',
    area: 'appointments',
    title: 'A4 shows the slot free again after the cancellation',
    needs: ['serviceCategory', 'patient'],
    write: true,
    async run(c) {
      const b = c.data.booking;
      if (b?.state !== 'cancelled') return c.needsEarlier('A7-cancel', 'a cancelled booking');
      if (b.slotTaken === false)
        return c.skip(
          `A4 still offered slot ${b.slotId} as free after A6 booked it (the server does not take booked slots): there is no freeing to judge`,
        );
      const query = slotQuery(c.profile, { serviceCategory: c.input('serviceCategory'), from: b.slotDay, to: b.slotDay });
      const s = await search(c.client, 'A4', { query, signal: c.signal }, resourceEntries(Slot), { searchset: true });
      c.addAll(problems(s));
      const item = s.items.find((i) => rawId(i.raw) === b.slotId);
      if (!item) {
        if (s.complete) c.error(`A4 does not list slot ${b.slotId} on ${b.slotDay} after the cancellation: it should be free again.`);
        else c.warning(`slot ${b.slotId} is not among the ${s.items.length} slots read (paging stopped).`);
        return;
      }
      const status = rawField(item.raw, 'status');
      if (status !== 'free')
        c.error(`slot ${b.slotId} is ${JSON.stringify(status)} after the cancellation, not free.`, `${item.path}.status`);
      else c.note(`slot ${b.slotId} is free again.`);
    },
  }),
];

/** Why a slot cannot be booked by the check (undefined: it can). */
function bookable(x: Slot, category: string, soon: number): string | undefined {
  if (x.status !== 'free') return 'not free';
  if (Date.parse(x.start) <= soon) return 'starting within the hour';
  if (!slotPractitioner(x)) return 'naming no practitioner';
  if (!x.serviceCategory?.length || carries(x.serviceCategory, category) === false) return 'not of the service category';
  return undefined;
}

/** The skip reason of A6-book without a slot to book, naming the real cause. */
function noSlotToBook(s: Search<Slot>, category: string, soon: number, w: { from: string; to: string }): string {
  if (!s.valid.length) return `${emptyBecause(s, 'slots', 'A4-slots')} from ${w.from} to ${w.to}: there is no slot to book`;
  const why = new Map<string, number>();
  for (const x of s.valid) {
    const r = bookable(x, category, soon)!;
    why.set(r, (why.get(r) ?? 0) + 1);
  }
  const counts = [...why].map(([r, n]) => `${n} ${r}`).join(', ');
  return `A4 found ${s.valid.length} slots from ${w.from} to ${w.to}, none to book (${counts})`;
}

/**
 * Whether A4 no longer offers a booked slot as free: it is listed with another status, or a complete search of its
 * day no longer lists it. Undefined when that cannot be read (the search failed or stopped early).
 */
async function slotTaken(c: CheckContext, slotId: string, day: string): Promise<boolean | undefined> {
  try {
    const query = slotQuery(c.profile, { serviceCategory: c.input('serviceCategory'), from: day, to: day });
    const s = await search(c.client, 'A4', { query, signal: c.signal }, resourceEntries(Slot), { searchset: true });
    const item = s.items.find((i) => rawId(i.raw) === slotId);
    if (!item) return s.complete ? true : undefined;
    return rawField(item.raw, 'status') !== 'free';
  } catch {
    return undefined;
  }
}

/** An appointment as A5 lists it now (the test patient's, read for a cancellation to be confirmed). */
export interface ReadBack {
  found: boolean;
  status?: unknown;
  /** The whole list was read. */
  complete: boolean;
}

/** Read one appointment back with A5 (filtered by the test patient where the server allows it). */
export async function readBack(run: Run, id: string, signal?: AbortSignal): Promise<ReadBack> {
  const patient = run.settings.inputs.patient;
  const query: Array<[string, string]> = patient
    ? [['patient', searchReference(dialectOf(run.settings.profile), 'Patient', patient.replace(/^Patient\//, ''))]]
    : [];
  const s = await search(run.settings.client, 'A5', { query, signal }, resourceEntries(Appointment), { searchset: true });
  const item = s.items.find((i) => rawId(i.raw) === id);
  return item ? { found: true, status: rawField(item.raw, 'status'), complete: s.complete } : { found: false, complete: s.complete };
}

/**
 * What an A7 answer and the appointment read back after it say about the cancellation of `id`; `done` is the note of
 * a confirmed one (`cancelled by A7-cancel`).
 */
export function cancelVerdict(
  id: string,
  answered: string,
  back: ReadBack,
  done: string,
): { cancelled: boolean; seen?: string; error?: string; warning?: string; created: Pick<CreatedResource, 'note' | 'undo'> } {
  if (back.found && back.status === 'cancelled') return { cancelled: true, seen: 'cancelled', created: { note: done, undo: 'done' } };
  if (back.found)
    return {
      cancelled: false,
      error: `A7 answered ${answered}, but A5 reads Appointment/${id} back as ${JSON.stringify(back.status)}, not cancelled: the server did not cancel it.`,
      created: {
        note: `NOT cancelled: A7 answered ${answered}, but the appointment is still ${JSON.stringify(back.status)}`,
        undo: 'failed',
      },
    };
  if (back.complete)
    return {
      cancelled: true,
      seen: 'gone',
      warning: `A5 no longer lists Appointment/${id} after A7: taken as cancelled (removed).`,
      created: { note: `${done} (A5 no longer lists it)`, undo: 'done' },
    };
  return {
    cancelled: false,
    error: `A7 answered ${answered}, but A5's list stopped before Appointment/${id} was found: the cancellation cannot be confirmed.`,
    created: { note: `NOT confirmed cancelled: A7 answered ${answered}, and A5 could not read it back`, undo: 'failed' },
  };
}

/** A6 echoes what was booked: status, times, comment, the two participants, the service category. */
function echoBooking(c: CheckContext, sent: AppointmentCreate, got: Record<string, unknown>, at: string): void {
  echo(c, `${at}.status`, sent.status, got.status);
  echo(c, `${at}.start`, sent.start, got.start, (x, y) => sameInstant(x as string, y as string));
  echo(c, `${at}.end`, sent.end, got.end, (x, y) => sameInstant(x as string, y as string));
  echo(c, `${at}.comment`, sent.comment, got.comment);
  const refs = Array.isArray(got.participant)
    ? got.participant.map((p) => (p as { actor?: { reference?: unknown } })?.actor?.reference).filter((r) => typeof r === 'string')
    : [];
  for (const p of sent.participant)
    if (!refs.includes(p.actor.reference)) c.error(`does not hold ${p.actor.reference}, which was booked.`, `${at}.participant`);
  const coding = sent.serviceCategory[0]?.coding?.[0];
  if (coding && carries(got.serviceCategory as Concepts, `${coding.system ?? ''}|${coding.code}`.replace(/^\|/, '')) !== true)
    c.error(
      `does not carry the service category booked (${coding.system ? `${coding.system}|` : ''}${coding.code}).`,
      `${at}.serviceCategory`,
    );
}
