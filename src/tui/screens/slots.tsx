/**
 * Slots screen: service category → appointment type (A1) → practitioner and schedule (A2 + A3) → date range
 * → free slots (A4) grouped by day → Enter books the slot (A6) after a confirmation showing the body.
 * Esc goes one step back. Every call runs through desk.run (progress, Esc abandons, errors in the status line).
 */
import { Box, Text } from 'ink';
import type React from 'react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  type TypeRow,
  bookingFromSlot,
  buildAppointment,
  createAppointment,
  getAppointmentTypes,
  listPractitionerRoles,
  searchSchedules,
  searchSlots,
  slotPractitioner,
  utcParts,
} from '../../core/api/appointments.js';
import { referenceLabel } from '../../core/labels.js';
import { parseDay } from '../../core/dates.js';
import { UsageError } from '../../core/errors.js';
import type { AppointmentCreate, PractitionerRole, Schedule, Slot } from '../../core/schemas/appointment.js';
import { Confirm } from '../components/Confirm.js';
import { Form, type FormValues } from '../components/Form.js';
import { ListView } from '../components/ListView.js';
import { useDesk } from '../desk.js';
import { clean, fit, jsonLines } from '../format.js';
import { useKeys, useRefState } from '../keys.js';
import type { ScreenProps } from './types.js';
import { parseToken } from '../../core/tokens.js';

export interface Category {
  system?: string;
  code: string;
  display?: string;
}
/** `system|code` (A3, A4) of a category. */
const token = (c: Category) => (c.system ? `${c.system}|${c.code}` : c.code);
const catLabel = (c: Category) => clean(`${c.code}${c.display ? ` — ${c.display}` : ''}${c.system ? `   (${c.system})` : ''}`);

interface Choice {
  label: string;
  schedule?: Schedule;
  practitionerId?: string;
}

type Step = 'category' | 'other' | 'type' | 'schedule' | 'range' | 'slots' | 'book' | 'confirm';

const SLOT_LIMIT = 20_000;
const OTHER: Category = { code: '__other__', display: 'Other… type system|code' };

function weekday(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? '' : ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]!;
}

/** UTC day of a slot; the common `…Z` form is read directly (grouping 10,000 slots stays cheap). */
const slotDay = (s: Slot) => (/^\d{4}-\d{2}-\d{2}T[^+]*Z$/i.test(s.start) ? s.start.slice(0, 10) : utcParts(s.start).day);

/** One slot row: time range, practitioner, status, id (server text cleaned). */
export function slotLine(s: Slot): string {
  const a = utcParts(s.start);
  const b = utcParts(s.end);
  const who = referenceLabel(slotPractitioner(s), { idOnly: true });
  return clean(
    `${a.time}-${b.day === a.day ? b.time : `${b.day} ${b.time}`}  ${fit(who || '(no practitioner)', 28, true)}  ${fit(s.status, 6, true)}  ${s.id}`,
  );
}

export interface SlotListProps {
  slots: readonly Slot[];
  width: number;
  height: number;
  title?: string;
  onOpen?: (slot: Slot) => void;
  active?: boolean;
}

/** Free slots grouped by UTC day, windowed (10,000 slots scroll without lag). */
export function SlotList(p: SlotListProps) {
  return (
    <ListView<Slot>
      items={p.slots}
      width={p.width}
      height={p.height}
      title={p.title ?? 'Slots (times in UTC)'}
      header="  TIME         PRACTITIONER                  STATUS  SLOT"
      render={slotLine}
      filterText={filterOf}
      groupOf={slotDay}
      renderGroup={groupLine}
      itemKey={slotKey}
      onOpen={p.onOpen}
      openLabel="book"
      empty="No free slots in this range (d: change dates, Esc: back)."
      active={p.active}
    />
  );
}
const filterOf = (s: Slot) => `${slotDay(s)} ${slotLine(s)}`;
const groupLine = (day: string, n: number) => `${weekday(day)} ${day} - ${n} slot${n === 1 ? '' : 's'}`;
const slotKey = (s: Slot) => s.id;

export function SlotsScreen({ width, height }: ScreenProps) {
  const desk = useDesk();
  const { client, profile } = desk;
  const [step, setStep, stepRef] = useRefState<Step>('category');
  const [categories, setCategories] = useState<Category[] | undefined>();
  const [category, setCategory] = useState<Category | undefined>();
  const [other, setOther] = useState<FormValues>({ category: '' });
  const [types, setTypes] = useState<TypeRow[]>([]);
  const [type, setType] = useState<TypeRow | undefined>();
  const [roles, setRoles] = useState<PractitionerRole[]>([]);
  const [schedules, setSchedules] = useState<Schedule[]>([]);
  const [choice, setChoice] = useState<Choice | undefined>();
  const [range, setRange] = useState<FormValues>({ from: 'today', to: '+6d' });
  const [days, setDays] = useState<{ from: string; to: string } | undefined>();
  const [slots, setSlots] = useState<Slot[]>([]);
  const [slot, setSlot] = useState<Slot | undefined>();
  const [booking, setBooking] = useState<FormValues>({ patient: '', comment: '', status: 'booked' });
  const [body, setBody] = useState<AppointmentCreate | undefined>();

  /** Categories offered: those the practice's schedules carry (best effort: a server may want a filter). */
  const loadCategories = useCallback(async () => {
    const r = await desk.run('Loading service categories (A3)', (signal) => searchSchedules(client, '', { signal, limit: 1000 }));
    const seen = new Map<string, Category>();
    if (r.ok)
      for (const s of r.value)
        for (const c of s.serviceCategory ?? [])
          for (const k of c.coding ?? []) {
            const cat = { system: k.system, code: k.code, display: k.display };
            if (!seen.has(token(cat))) seen.set(token(cat), cat);
          }
    setCategories([...seen.values()]);
  }, [desk, client]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: load once when the screen mounts; later loads are asked for with r
  useEffect(() => {
    void loadCategories();
  }, []);

  const pickCategory = async (c: Category) => {
    const r = await desk.run(`Loading types, practitioners and schedules of ${c.code} (A1, A2, A3)`, (signal) =>
      Promise.all([
        getAppointmentTypes(client, c.code, { signal }),
        listPractitionerRoles(client, [], { signal }),
        searchSchedules(client, token(c), { signal }),
      ]),
    );
    if (!r.ok) return;
    const [t, pr, sc] = r.value;
    setCategory(c);
    setTypes(t);
    setRoles(pr);
    setSchedules(sc);
    setStep('type');
  };

  const search = async (c: Category, ch: Choice, from: string, to: string) => {
    const r = await desk.run(
      `Searching free slots ${from} – ${to} (A4)`,
      (signal) =>
        searchSlots(
          client,
          {
            serviceCategory: token(c),
            from,
            to,
            schedule: profile.appointmentApi === '2.0.0' ? ch.schedule?.id : undefined,
            practitioners: profile.appointmentApi === '1.0.0' && ch.practitionerId ? [ch.practitionerId] : undefined,
          },
          { signal, limit: SLOT_LIMIT },
        ),
      { okText: (v) => `${v.length} slot${v.length === 1 ? '' : 's'} from ${from} to ${to}.` },
    );
    if (!r.ok) return false;
    setDays({ from, to });
    setSlots(r.value);
    setStep('slots');
    return true;
  };

  const submitRange = (v: FormValues) => {
    let from: string;
    let to: string;
    try {
      from = parseDay(v.from ?? '', 'From');
      to = parseDay(v.to ?? '', 'To');
      if (from > to) throw new UsageError(`From (${from}) is after To (${to}).`);
    } catch (e) {
      desk.error(e);
      return;
    }
    if (category && choice) void search(category, choice, from, to);
  };

  const openSlot = (s: Slot) => {
    setSlot(s);
    setBooking((b) => ({ ...b, comment: b.comment || (type?.display ?? type?.code ?? '') }));
    setStep('book');
  };

  const submitBooking = (v: FormValues) => {
    if (!slot) return;
    try {
      const from = bookingFromSlot(slot);
      const b = buildAppointment(profile, {
        ...from,
        patient: v.patient ?? '',
        comment: v.comment ?? '',
        status: v.status === 'proposed' ? 'proposed' : 'booked',
      });
      setBody(b);
      setStep('confirm');
    } catch (e) {
      desk.error(e);
    }
  };

  const book = async () => {
    if (!body || !slot) return;
    setStep('book');
    const r = await desk.run('Booking (A6)', (signal) => createAppointment(client, body, { signal }), { sends: true });
    if (!r.ok) return; // the error is in the status line; the form keeps what was typed
    const a = r.value.appointment ?? body;
    desk.ok(`Booked appointment ${clean(a.id)} (${clean(a.status)}): ${slotLine(slot)}.`);
    setSlots((all) => all.filter((s) => s.id !== slot.id));
    setBooking((b) => ({ ...b, patient: '', comment: '' }));
    setBody(undefined);
    setStep('slots');
  };

  const choices = useMemo<Choice[]>(() => {
    const roleName = new Map(roles.map((r) => [r.id, r]));
    const out: Choice[] = [{ label: 'Any practitioner, every schedule' }];
    for (const s of schedules) {
      const actor = (s.actor ?? []).find((a) => a.reference.startsWith('PractitionerRole/')) ?? s.actor?.[0];
      const id = actor?.reference.split('/').pop();
      const role = id ? roleName.get(id) : undefined;
      const name = role?.name ?? actor?.display ?? actor?.reference ?? '(no practitioner)';
      const spec = role?.speciality?.coding?.map((c) => c.display ?? c.code).join(', ');
      out.push({
        label: clean(`${name}${id ? ` (${id})` : ''} · schedule ${s.id}${spec ? ` · ${spec}` : ''}`),
        schedule: s,
        practitionerId: id,
      });
    }
    return out;
  }, [roles, schedules]);

  const back: Partial<Record<Step, Step>> = {
    other: 'category',
    type: 'category',
    schedule: 'type',
    range: 'schedule',
    slots: 'schedule',
    book: 'slots',
    confirm: 'book',
  };
  useKeys(
    [
      {
        keys: ['esc'],
        label: back[step] ? 'back' : undefined,
        help: 'one step back',
        run: () => {
          const prev = back[stepRef.current];
          if (!prev) return false;
          setStep(prev);
        },
      },
      {
        keys: ['r'],
        label: 'refresh',
        help: 'reload this step from the server',
        run: () => {
          if (step === 'category') void loadCategories();
          else if ((step === 'type' || step === 'schedule') && category) void pickCategory(category);
          else if (step === 'slots' && category && choice && days) void search(category, choice, days.from, days.to);
          else return false;
        },
      },
      ...(step === 'slots' ? [{ keys: ['d'], label: 'dates', help: 'change the date range', run: () => setStep('range') }] : []),
    ],
    { active: step !== 'book' && step !== 'confirm' && step !== 'other' && step !== 'range' },
  );

  const crumbs = [
    category && step !== 'category' && step !== 'other'
      ? clean(category.code)
      : 'Pick a service category, then the type, practitioner and dates',
    step !== 'category' && step !== 'other' ? clean(type ? (type.display ?? type.code) : 'type') : '',
    ['range', 'slots', 'book', 'confirm'].includes(step) && choice ? fit(choice.label, 40) : '',
    ['slots', 'book', 'confirm'].includes(step) && days ? `${days.from} – ${days.to}` : '',
  ].filter(Boolean);
  const h = height - 1;

  let body2: React.ReactNode;
  switch (step) {
    case 'category':
      body2 = (
        <ListView<Category>
          items={categories ? [...categories, OTHER] : []}
          width={width}
          height={h}
          title="Service category"
          render={(c) => (c === OTHER ? clean(c.display) : catLabel(c))}
          onOpen={(c) => (c === OTHER ? setStep('other') : void pickCategory(c))}
          openLabel="pick"
          empty={categories ? '' : 'Loading…'}
        />
      );
      break;
    case 'other':
      body2 = (
        <Form
          title="Service category"
          fields={[{ name: 'category', label: 'Category', placeholder: 'system|code, e.g. urn:pdesk:service-category|gp' }]}
          values={other}
          onChange={setOther}
          onSubmit={(v) => {
            const t = (v.category ?? '').trim();
            const token = parseToken(t);
            if (!t || token.system === '' || token.code === '')
              return desk.error('The service category must be <system>|<code> or a code.');
            void pickCategory(token);
          }}
          onCancel={() => setStep('category')}
          submitLabel="load"
          width={width}
          height={h}
        />
      );
      break;
    case 'type':
      body2 = (
        <ListView<TypeRow>
          items={types.length ? types : [{ code: '', display: '(no appointment types; Enter to go on)' }]}
          width={width}
          height={h}
          title={`Appointment type (A1) — ${clean(category?.code)}`}
          render={(t) => clean(t.code ? `${fit(t.code, 16, true)}  ${t.display ?? ''}` : t.display)}
          onOpen={(t) => {
            setType(t.code ? t : undefined);
            setStep('schedule');
          }}
          openLabel="pick"
        />
      );
      break;
    case 'schedule':
      body2 = (
        <ListView<Choice>
          items={choices}
          width={width}
          height={h}
          title="Practitioner and schedule (A2, A3)"
          render={(c) => c.label}
          onOpen={(c) => {
            setChoice(c);
            setStep('range');
          }}
          openLabel="pick"
        />
      );
      break;
    case 'range':
      body2 = (
        <Form
          title="Date range (your local calendar dates)"
          intro={['YYYY-MM-DD, today, tomorrow or +Nd']}
          fields={[
            { name: 'from', label: 'From' },
            { name: 'to', label: 'To' },
          ]}
          values={range}
          onChange={setRange}
          onSubmit={submitRange}
          onCancel={() => setStep(days ? 'slots' : 'schedule')}
          submitLabel="search"
          width={width}
          height={h}
        />
      );
      break;
    case 'slots':
      body2 = null; // the slot list below
      break;
    case 'book':
      body2 = slot ? (
        <Form
          title="Book this slot (A6)"
          intro={[
            `${utcParts(slot.start).day} ${slotLine(slot)}`,
            clean(`Category ${category ? token(category) : ''}${type ? ` · type ${type.display ?? type.code}` : ''}`),
          ]}
          fields={[
            { name: 'patient', label: 'Patient', placeholder: 'id or Patient/<id>, e.g. pat-1' },
            { name: 'comment', label: 'Comment', placeholder: 'free text' },
            { name: 'status', label: 'Status', kind: 'choice', options: ['booked', 'proposed'] },
          ]}
          values={booking}
          onChange={setBooking}
          onSubmit={submitBooking}
          onCancel={() => setStep('slots')}
          submitLabel="review"
          width={width}
          height={h}
        />
      ) : null;
      break;
    case 'confirm':
      body2 = body ? (
        <Confirm
          question={`Book? POST Appointment (A6) to ${profile.name} with this body:`}
          lines={jsonLines(body)}
          yesLabel="book"
          onYes={() => void book()}
          onNo={() => setStep('book')}
          width={width}
          height={h}
        />
      ) : null;
      break;
  }
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <Text color="cyan" wrap="truncate">
        {fit(crumbs.join(' › '), width)}
      </Text>
      {/* Mounted (hidden) behind the booking form and its confirmation: back on it, the selection and the
          filter are as the operator left them. */}
      {step === 'slots' || step === 'book' || step === 'confirm' ? (
        <Box display={step === 'slots' ? 'flex' : 'none'} flexDirection="column" height={h} overflowY="hidden">
          <SlotList slots={slots} width={width} height={h} onOpen={openSlot} active={step === 'slots'} />
        </Box>
      ) : null}
      {body2}
    </Box>
  );
}
