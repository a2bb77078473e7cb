/**
 * State and loaders of the Slots screen: service category → appointment type (A1) → practitioner and schedule
 * (A2, A3) → date range → slots (A4) → booking form → confirmation → A6. The steps are a stack
 * (src/tui/steps.tsx); every call runs through desk.run (progress, Esc abandons, errors in the status line).
 * No drawing here: the screen (screen.tsx) draws the top step.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  BOOKING_STATUSES,
  type TypeRow,
  bookingRequest,
  createAppointment,
  getAppointmentTypes,
  listPractitionerRoles,
  narrowedSlotQuery,
  pastBooking,
  searchSchedules,
  searchSlots,
  slotPractitioner,
  slotRange,
  utcParts,
} from '../../../core/api/appointments.js';
import { referenceLabel, roleName, roleSpecialities } from '../../../core/labels.js';
import { FieldError, HttpError } from '../../../core/errors.js';
import type { AppointmentCreate, PractitionerRole, Schedule, Slot } from '../../../core/schemas/appointment.js';
import { parseToken } from '../../../core/tokens.js';
import type { FormValues } from '../../components/Form.js';
import { useDesk } from '../../desk.js';
import { clean } from '../../format.js';
import { confirmation, useStepStack } from '../../steps.js';
import { useForm } from '../../hooks/useForm.js';

export interface Category {
  system?: string;
  code: string;
  display?: string;
}

/** A practitioner and schedule to search slots of (or every schedule). */
export interface Choice {
  label: string;
  schedule?: Schedule;
  practitionerId?: string;
}

export type SlotStep =
  | { kind: 'category' }
  | { kind: 'other' }
  | { kind: 'type' }
  | { kind: 'schedule' }
  | { kind: 'range' }
  | { kind: 'slots' }
  | { kind: 'book'; slot: Slot }
  | { kind: 'confirm'; slot: Slot; body: AppointmentCreate };

export const OTHER_FIELDS = [{ name: 'category', label: 'Category', placeholder: 'system|code, e.g. urn:pdesk:service-category|gp' }];
export const RANGE_FIELDS = [
  { name: 'from', label: 'From' },
  { name: 'to', label: 'To' },
];
export const BOOKING_FIELDS = [
  { name: 'patient', label: 'Patient', placeholder: 'id or Patient/<id>, e.g. pat-1' },
  { name: 'comment', label: 'Comment', placeholder: 'free text' },
  { name: 'status', label: 'Status', kind: 'choice' as const, options: BOOKING_STATUSES },
];

export const SLOT_LIMIT = 20_000;

/** `system|code` (A3, A4) of a category. */
export const categoryToken = (c: Category) => (c.system ? `${c.system}|${c.code}` : c.code);

export interface SlotBookingOptions {
  /** The clock (tests). */
  now?: () => Date;
}

export function useSlotBooking(o: SlotBookingOptions = {}) {
  const desk = useDesk();
  const { client, profile } = desk;
  const now = o.now ?? (() => new Date());
  const stack = useStepStack<SlotStep>({ kind: 'category' });
  const [categories, setCategories] = useState<Category[] | undefined>();
  const [category, setCategory] = useState<Category | undefined>();
  const [types, setTypes] = useState<TypeRow[]>([]);
  const [type, setType] = useState<TypeRow | undefined>();
  const [roles, setRoles] = useState<PractitionerRole[]>([]);
  const [schedules, setSchedules] = useState<Schedule[]>([]);
  const [choice, setChoice] = useState<Choice | undefined>();
  const [days, setDays] = useState<{ from: string; to: string } | undefined>();
  const [slots, setSlots] = useState<Slot[]>([]);
  /** When each list step was last read from the server. */
  const [loadedAt, setLoadedAt] = useState<{ categories?: Date; category?: Date; slots?: Date }>({});
  const other = useForm(OTHER_FIELDS, { category: '' });
  const range = useForm(RANGE_FIELDS, { from: 'today', to: '+6d' });
  const booking = useForm(BOOKING_FIELDS, { patient: '', comment: '', status: BOOKING_STATUSES[0] });

  /** Categories offered: those the practice's schedules carry (best effort: a server may want a filter). */
  const loadCategories = useCallback(async () => {
    const r = await desk.run('Loading service categories (A3)', (signal) => searchSchedules(desk.client, '', { signal, limit: 1000 }));
    const seen = new Map<string, Category>();
    if (r.ok)
      for (const s of r.value)
        for (const c of s.serviceCategory ?? [])
          for (const k of c.coding ?? []) {
            const cat = { system: k.system, code: k.code, display: k.display };
            if (!seen.has(categoryToken(cat))) seen.set(categoryToken(cat), cat);
          }
    setCategories([...seen.values()]);
    if (r.ok) setLoadedAt((l) => ({ ...l, categories: new Date() }));
  }, [desk]);

  // Loaded when the screen opens, and again if the desk's client changes; later loads are asked for with r.
  useEffect(() => {
    void loadCategories();
  }, [loadCategories]);

  /** A1, A2, A3 of a category; true when loaded. */
  const loadCategory = async (c: Category) => {
    const r = await desk.run(`Loading types, practitioners and schedules of ${c.code} (A1, A2, A3)`, (signal) =>
      Promise.all([
        getAppointmentTypes(client, c.code, { signal }),
        listPractitionerRoles(client, [], { signal }),
        searchSchedules(client, categoryToken(c), { signal }),
      ]),
    );
    if (!r.ok) return false;
    const [t, pr, sc] = r.value;
    setCategory(c);
    setTypes(t);
    setRoles(pr);
    setSchedules(sc);
    setLoadedAt((l) => ({ ...l, category: new Date() }));
    return true;
  };

  const pickCategory = async (c: Category) => {
    if (!(await loadCategory(c))) return;
    // Typed in the "other" form: back from the types goes to the list, not to the form.
    if (stack.current().kind === 'other') stack.replace({ kind: 'type' });
    else stack.push({ kind: 'type' });
  };

  const pickOther = (v: FormValues) => {
    const t = (v.category ?? '').trim();
    const token = parseToken(t);
    if (!t || token.system === '' || token.code === '') return other.fail(new FieldError('category', 'must be <system>|<code> or a code'));
    void pickCategory(token);
  };

  /** A4; `navigate`: show the slot list (else only its contents change: a refresh under a form). */
  const search = async (c: Category, ch: Choice, from: string, to: string, navigate = true, quiet = false) => {
    const r = await desk.run(
      `Searching free slots ${from} – ${to} (A4)`,
      (signal) =>
        searchSlots(
          client,
          narrowedSlotQuery(profile, {
            serviceCategory: categoryToken(c),
            from,
            to,
            schedule: ch.schedule?.id,
            practitioner: ch.practitionerId,
          }),
          { signal, limit: SLOT_LIMIT },
        ),
      quiet ? { quiet } : { okText: (v) => `${v.length} slot${v.length === 1 ? '' : 's'} from ${from} to ${to}.` },
    );
    if (!r.ok) return false;
    setDays({ from, to });
    setSlots(r.value);
    setLoadedAt((l) => ({ ...l, slots: new Date() }));
    // From the range form: the form gives way to the list (back from the list goes to the schedules).
    if (navigate && !stack.popTo((s) => s.kind === 'slots')) stack.replace({ kind: 'slots' });
    return true;
  };

  const submitRange = (v: FormValues) => {
    let days: { from: string; to: string };
    try {
      days = slotRange(v);
    } catch (e) {
      return range.fail(e);
    }
    if (category && choice) void search(category, choice, days.from, days.to);
  };

  const openSlot = (s: Slot) => {
    // The core's past rule, in the screen's words: the slot is not offered for booking.
    if (pastBooking(s.start, now())) {
      const at = utcParts(s.start);
      return desk.error(`Slot ${clean(s.id)} started at ${at.day} ${at.time} UTC: it is in the past and cannot be booked.`);
    }
    booking.set((b) => ({ ...b, comment: b.comment || (type?.display ?? type?.code ?? '') }));
    booking.restart();
    stack.push({ kind: 'book', slot: s });
  };

  const review = (v: FormValues) => {
    const top = stack.current();
    if (top.kind !== 'book') return;
    try {
      const body = bookingRequest(
        profile,
        { slot: top.slot, patient: v.patient ?? '', comment: v.comment ?? '', status: v.status },
        { now: now() },
      );
      stack.push({ kind: 'confirm', slot: top.slot, body });
    } catch (e) {
      booking.fail(e);
    }
  };

  const confirm = confirmation(stack, 'confirm', booking);

  const book = async () => {
    // The form cannot be sent again while the request runs (Form waits for desk.running()).
    const top = confirm.take();
    if (!top) return;
    const { slot, body } = top;
    const r = await desk.run('Booking (A6)', (signal) => createAppointment(client, body, { signal }), { sends: true });
    if (!r.ok) {
      // Someone else has the slot: the list is read again so it no longer offers it (the form stays as typed).
      if (r.error instanceof HttpError && r.error.status === 409 && category && choice && days)
        void search(category, choice, days.from, days.to, false, true);
      return;
    }
    const a = r.value.appointment ?? body;
    const at = utcParts(slot.start);
    const who = referenceLabel(slotPractitioner(slot));
    // The server's id (decisions.md §16), and the id sent when it kept another.
    const made = r.value.created;
    const id = made.id ?? a.id;
    desk.ok(
      `Booked appointment ${clean(id)} (${clean(a.status)}${made.differs ? `; the server's id, not the one sent: ${clean(body.id)}` : ''}): ${at.day} ${at.time} UTC${who ? ` with ${clean(who)}` : ''}.`,
    );
    setSlots((all) => all.filter((s) => s.id !== slot.id));
    booking.set((b) => ({ ...b, patient: '', comment: '' }));
    stack.popTo((s) => s.kind === 'slots');
  };

  /** `r`: read the current step again from the server. */
  const refresh = () => {
    const k = stack.current().kind;
    if (k === 'category') void loadCategories();
    else if ((k === 'type' || k === 'schedule') && category) void loadCategory(category);
    else if (k === 'slots' && category && choice && days) void search(category, choice, days.from, days.to);
    else return false;
  };

  const choices = useMemo<Choice[]>(() => {
    const rolesById = new Map(roles.map((r) => [r.id, r]));
    const out: Choice[] = [{ label: 'Any practitioner, every schedule' }];
    for (const s of schedules) {
      const actor = (s.actor ?? []).find((a) => a.reference.startsWith('PractitionerRole/')) ?? s.actor?.[0];
      const id = actor?.reference.split('/').pop();
      const role = id ? rolesById.get(id) : undefined;
      const name = (role && roleName(role)) ?? actor?.display ?? actor?.reference ?? '(no practitioner)';
      const spec =
        role &&
        roleSpecialities(role)
          .map((c) => c.display ?? c.code)
          .join(', ');
      out.push({
        label: clean(`${name}${id ? ` (${id})` : ''} · schedule ${s.id}${spec ? ` · ${spec}` : ''}`),
        schedule: s,
        practitionerId: id,
      });
    }
    return out;
  }, [roles, schedules]);

  return {
    stack,
    now,
    categories,
    category,
    types,
    type,
    choices,
    choice,
    days,
    slots,
    loadedAt,
    forms: { other, range, booking },
    pickCategory: (c: Category) => void pickCategory(c),
    pickOther,
    pickType: (t: TypeRow | undefined) => {
      setType(t);
      stack.push({ kind: 'schedule' });
    },
    pickChoice: (ch: Choice) => {
      setChoice(ch);
      stack.push({ kind: 'range' });
    },
    changeDates: () => stack.push({ kind: 'range' }),
    submitRange,
    openSlot,
    review,
    unconfirm: confirm.back,
    book: () => void book(),
    refresh,
  };
}

export type SlotBooking = ReturnType<typeof useSlotBooking>;
