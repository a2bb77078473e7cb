/**
 * The steps of the Slots screen, one small component each: they draw what the hook (useSlotBooking.ts)
 * holds and call its actions. `active` is true for the top step only.
 */
import type { TypeRow } from '../../../core/api/appointments.js';
import { utcParts } from '../../../core/api/appointments.js';
import type { AppointmentCreate, Slot } from '../../../core/schemas/appointment.js';
import { Confirm } from '../../components/Confirm.js';
import { Form } from '../../components/Form.js';
import { ListView } from '../../components/ListView.js';
import { useDesk } from '../../desk.js';
import { clean, fit, jsonLines } from '../../format.js';
import {
  BOOKING_FIELDS,
  type Category,
  type Choice,
  OTHER_FIELDS,
  RANGE_FIELDS,
  type SlotBooking,
  categoryToken,
} from './useSlotBooking.js';
import { slotIsPast } from '../../../core/api/appointments.js';
import { useKeys } from '../../keys/useKeys.js';
import type { StepViewProps } from '../../steps.js';
import { SlotList, slotLine } from './slot-list.js';

export interface StepProps extends StepViewProps {
  s: SlotBooking;
}

const OTHER: Category = { code: '__other__', display: 'Other… type system|code' };
const catLabel = (c: Category) => clean(`${c.code}${c.display ? ` — ${c.display}` : ''}${c.system ? `   (${c.system})` : ''}`);

export function CategoryStep({ s, width, height, active }: StepProps) {
  return (
    <ListView<Category>
      items={s.categories ? [...s.categories, OTHER] : []}
      width={width}
      height={height}
      title="Service category"
      render={(c) => (c === OTHER ? clean(c.display) : catLabel(c))}
      refreshedAt={s.loadedAt.categories}
      onOpen={(c) => (c === OTHER ? s.stack.push({ kind: 'other' }) : s.pickCategory(c))}
      openLabel="pick"
      empty={s.categories ? '' : 'Loading…'}
      active={active}
    />
  );
}

export function OtherStep({ s, width, height, active }: StepProps) {
  return (
    <Form
      title="Service category"
      fields={OTHER_FIELDS}
      {...s.forms.other.bind}
      onSubmit={s.pickOther}
      onCancel={() => s.stack.pop()}
      submitLabel="load"
      width={width}
      height={height}
      active={active}
    />
  );
}

const NO_TYPES: TypeRow = { code: '', display: '(no appointment types; Enter to go on)' };

export function TypeStep({ s, width, height, active }: StepProps) {
  return (
    <ListView<TypeRow>
      items={s.types.length ? s.types : [NO_TYPES]}
      width={width}
      height={height}
      title={`Appointment type (A1) — ${clean(s.category?.code)}`}
      render={(t) => clean(t.code ? `${fit(t.code, 16, true)}  ${t.display ?? ''}` : t.display)}
      refreshedAt={s.loadedAt.category}
      raw={(t) =>
        t.code ? { title: `appointment type ${t.code} (A1, as pdesk reads either shape)`, value: t, name: `type-${t.code}` } : undefined
      }
      onOpen={(t) => s.pickType(t.code ? t : undefined)}
      openLabel="pick"
      active={active}
    />
  );
}

export function ScheduleStep({ s, width, height, active }: StepProps) {
  return (
    <ListView<Choice>
      items={s.choices}
      width={width}
      height={height}
      title="Practitioner and schedule (A2, A3)"
      render={(c) => c.label}
      refreshedAt={s.loadedAt.category}
      raw={(c) =>
        c.schedule ? { title: `Schedule ${c.schedule.id} (A3)`, value: c.schedule, name: `schedule-${c.schedule.id}` } : undefined
      }
      onOpen={s.pickChoice}
      openLabel="pick"
      active={active}
    />
  );
}

export function RangeStep({ s, width, height, active }: StepProps) {
  return (
    <Form
      title="Date range (your local calendar dates)"
      intro={['YYYY-MM-DD, today, tomorrow or +Nd']}
      fields={RANGE_FIELDS}
      {...s.forms.range.bind}
      onSubmit={s.submitRange}
      onCancel={() => s.stack.pop()}
      submitLabel="search"
      width={width}
      height={height}
      active={active}
    />
  );
}

export function SlotsStep({ s, width, height, active }: StepProps) {
  const desk = useDesk();
  useKeys([{ keys: ['d'], label: 'dates', help: 'change the date range', run: s.changeDates }], { active });
  const now = s.now();
  // Enter on a slot opens the booking form: under read-only it says why instead.
  const open = (slot: Parameters<typeof s.openSlot>[0]) => desk.guard('A6', 'booking a slot', () => s.openSlot(slot))();
  return (
    <SlotList
      slots={s.slots}
      width={width}
      height={height}
      onOpen={open}
      active={active}
      past={(x) => slotIsPast(x, now)}
      refreshedAt={s.loadedAt.slots}
    />
  );
}

export function BookStep({ s, slot, width, height, active }: StepProps & { slot: Slot }) {
  const { category, type } = s;
  return (
    <Form
      title="Book this slot (A6)"
      intro={[
        `${utcParts(slot.start).day} ${slotLine(slot)}`,
        clean(`Category ${category ? categoryToken(category) : ''}${type ? ` · type ${type.display ?? type.code}` : ''}`),
      ]}
      fields={BOOKING_FIELDS}
      {...s.forms.booking.bind}
      onSubmit={s.review}
      onCancel={() => s.stack.pop()}
      submitLabel="review"
      width={width}
      height={height}
      active={active}
    />
  );
}

export function ConfirmStep({ s, body, width, height, active }: StepProps & { body: AppointmentCreate }) {
  const { profile } = useDesk();
  return (
    <Confirm
      question={`Book? POST Appointment (A6) to ${profile.name} with this body:`}
      lines={jsonLines(body)}
      yesLabel="book"
      onYes={s.book}
      onNo={s.unconfirm}
      width={width}
      height={height}
      active={active}
    />
  );
}
