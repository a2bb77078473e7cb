/** Text of the Appointments screen: list rows by width, the detail lines. Server text is cleaned. */
import { conceptLabel, utcParts } from '../../../core/api/appointments.js';
import { referenceLabel } from '../../../core/labels.js';
import type { Appointment } from '../../../core/schemas/appointment.js';
import type { SortColumn } from '../../components/sort.js';
import { clean, columns, fit, growWidths, idWidth, longestOf } from '../../format.js';

/** What the other columns need at least: status, start, two names of 8, the gaps. */
const OTHERS_MIN = 9 + 16 + 8 + 8 + 2 * 4;

/** The id column's width for these appointments: the longest id, when the row has room (ids are never cut then). */
export const appointmentIdWidth = (items: readonly Appointment[] | undefined, width: number) =>
  idWidth(
    (items ?? []).map((a) => clean(a.id)),
    10,
    width,
    OTHERS_MIN,
  );

/** Column widths for a row of `width` (the selection marker takes 2 more): the comment only when there is room. */
function widthsFor(width: number, idW = 10): number[] {
  const fixed = [idW, 9, 16];
  const rest = width - fixed.reduce((a, b) => a + b, 0) - 2 * fixed.length;
  if (rest >= 80) return [...fixed, 26, 28, 0];
  const each = Math.max(8, Math.floor((rest - 2) / 2));
  return [...fixed, each, 0];
}

function when(a: Appointment): string {
  const s = utcParts(a.start);
  return s.day ? `${s.day} ${s.time}` : '';
}

/** Participants of a type: `Emma Jansen (pat-1)`, or only the name in a narrow column; a status other than accepted in brackets. */
function party(a: Appointment, type: string, narrow = false): string {
  return (a.participant ?? [])
    .filter((p) => p.actor?.reference.startsWith(`${type}/`))
    .map(
      (p) =>
        `${narrow && p.actor?.display ? p.actor.display : referenceLabel(p.actor, { idOnly: true })}${p.status && p.status !== 'accepted' ? ` [${p.status}]` : ''}`,
    )
    .join(', ');
}

/**
 * Column widths of these appointments on a row of `width`: the id in full, and on a wide terminal the patient and
 * practitioner columns as wide as their longest value (the comment takes the rest).
 */
export function appointmentWidths(items: readonly Appointment[] | undefined, width: number): number[] {
  const base = widthsFor(width, appointmentIdWidth(items, width));
  if (base.length < 6 || !items?.length) return base;
  const longest = (type: string) => longestOf(items.map((a) => clean(party(a, type))));
  return growWidths(base, [0, 0, 0, longest('Patient'), longest('PractitionerRole'), 0], width);
}

export function appointmentLine(a: Appointment, width: number, widths?: readonly number[]): string {
  const w = widths ?? widthsFor(width);
  const narrow = (w[3] ?? 0) < 22;
  const cells = [a.id, a.status, when(a), party(a, 'Patient', narrow), party(a, 'PractitionerRole', narrow)];
  if (w.length > 5) cells.push(a.comment ?? '');
  return clean(columns(cells, w, width));
}

export function headerFor(width: number, widths?: readonly number[]): string {
  const w = widths ?? widthsFor(width - 2);
  const names = ['ID', 'STATUS', 'START (UTC)', 'PATIENT', 'PRACTITIONER', 'COMMENT'].slice(0, w.length);
  return `  ${columns(names, w, width - 2)}`;
}

export function detailLines(a: Appointment): string[] {
  const s = utcParts(a.start);
  const e = utcParts(a.end);
  const out = [
    `Status     ${a.status}`,
    `When       ${s.day} ${s.time} – ${e.day === s.day ? e.time : `${e.day} ${e.time}`} UTC`,
    `Category   ${conceptLabel(a.serviceCategory)}`,
    `Comment    ${a.comment ?? ''}`,
    '',
    'Participants',
  ];
  for (const p of a.participant ?? [])
    out.push(
      `  ${fit(referenceLabel(p.actor, { idOnly: true }) || '(no actor)', 40, true)}  ${p.status ?? ''}${p.required ? `  (${p.required})` : ''}`,
    );
  return out.map((l) => clean(l));
}

const startMs = (a: Appointment) => {
  const t = a.start ? Date.parse(a.start) : Number.NaN;
  return Number.isNaN(t) ? undefined : t;
};
const partyName = (a: Appointment, type: string) =>
  a.participant?.find((p) => p.actor?.reference.startsWith(`${type}/`))?.actor?.display ??
  a.participant?.find((p) => p.actor?.reference.startsWith(`${type}/`))?.actor?.reference;

/** `s` columns of the list; by start (oldest first) unless the operator sorts otherwise. */
export const APPOINTMENT_COLUMNS: readonly SortColumn<Appointment>[] = [
  { key: 'i', name: 'id', value: (a) => a.id },
  { key: 's', name: 'status', value: (a) => a.status },
  { key: 't', name: 'start', value: startMs },
  { key: 'p', name: 'patient', value: (a) => partyName(a, 'Patient') },
  { key: 'r', name: 'practitioner', value: (a) => partyName(a, 'PractitionerRole') },
];
export const APPOINTMENT_SORT = { key: 't', desc: false } as const;
