/** The slot list of the Slots screen: free slots grouped by UTC day, windowed (10,000 slots scroll without lag). */
import { slotPractitioner, utcParts } from '../../../core/api/appointments.js';
import { referenceLabel } from '../../../core/labels.js';
import type { Slot } from '../../../core/schemas/appointment.js';
import { ListView } from '../../components/ListView.js';
import type { SortColumn } from '../../components/sort.js';
import { useMemo } from 'react';
import { clean, fit, growWidths, longestOf } from '../../format.js';

function weekday(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? '' : ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]!;
}

/** UTC day of a slot; the common `…Z` form is read directly (grouping 10,000 slots stays cheap). */
const slotDay = (s: Slot) => (/^\d{4}-\d{2}-\d{2}T[^+]*Z$/i.test(s.start) ? s.start.slice(0, 10) : utcParts(s.start).day);

const who = (s: Slot) => referenceLabel(slotPractitioner(s), { idOnly: true }) || '(no practitioner)';

/** The practitioner column: 28, or as wide as the longest practitioner when the row has room after the slot ids. */
export function practitionerWidth(slots: readonly Slot[], width: number): number {
  const ids = Math.max(10, longestOf(slots.map((s) => clean(s.id))));
  return growWidths([11, 28, 6, 0], [0, longestOf(slots.map((s) => clean(who(s)))), 0, 0], width, ids)[1]!;
}

/** One slot row: time range, practitioner, status (`past` for a slot that has begun), id (server text cleaned). */
export function slotLine(s: Slot, past = false, whoW = 28): string {
  const a = utcParts(s.start);
  const b = utcParts(s.end);
  return clean(
    `${a.time}-${b.day === a.day ? b.time : `${b.day} ${b.time}`}  ${fit(who(s), whoW, true)}  ${fit(past ? 'past' : s.status, 6, true)}  ${s.id}`,
  );
}

export interface SlotListProps {
  slots: readonly Slot[];
  width: number;
  height: number;
  title?: string;
  onOpen?: (slot: Slot) => void;
  active?: boolean;
  /** Slots that have begun: drawn dim, with the status `past`. */
  past?: (slot: Slot) => boolean;
  /** When the slots were read (A4). */
  refreshedAt?: Date;
}

export function SlotList(p: SlotListProps) {
  const past = p.past;
  const whoW = useMemo(() => practitionerWidth(p.slots, p.width - 2), [p.slots, p.width]);
  return (
    <ListView<Slot>
      items={p.slots}
      width={p.width}
      height={p.height}
      title={p.title ?? 'Slots (times in UTC)'}
      header={`  TIME         ${'PRACTITIONER'.padEnd(whoW)}  STATUS  SLOT`}
      render={(s) => slotLine(s, past?.(s) ?? false, whoW)}
      filterText={filterOf}
      groupOf={slotDay}
      renderGroup={groupLine}
      itemKey={slotKey}
      onOpen={p.onOpen}
      openLabel="book"
      dim={past}
      sort={SORT}
      refreshedAt={p.refreshedAt}
      raw={rawSlot}
      empty="No free slots in this range (d: change dates, Esc: back)."
      active={p.active}
    />
  );
}
const filterOf = (s: Slot) => `${slotDay(s)} ${slotLine(s)}`;
const groupLine = (day: string, n: number) => `${weekday(day)} ${day} - ${n} slot${n === 1 ? '' : 's'}`;
const slotKey = (s: Slot) => s.id;
const rawSlot = (s: Slot) => ({ title: `Slot ${s.id} (A4)`, value: s, name: `slot-${s.id}` });
/** Sorted within each day (the days keep their order). */
const SLOT_COLUMNS: readonly SortColumn<Slot>[] = [
  { key: 't', name: 'time', value: (s) => s.start },
  { key: 'p', name: 'practitioner', value: (s) => slotPractitioner(s)?.display ?? slotPractitioner(s)?.reference },
  { key: 's', name: 'status', value: (s) => s.status },
  { key: 'i', name: 'id', value: (s) => s.id },
];
const SORT = { columns: SLOT_COLUMNS };
