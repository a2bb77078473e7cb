/** Text of the Appointments screen: list rows by width, the detail lines. Server text is cleaned. */
import { conceptLabel, utcParts } from '../../../core/api/appointments.js';
import { referenceLabel } from '../../../core/labels.js';
import type { Appointment } from '../../../core/schemas/appointment.js';
import { clean, columns, fit } from '../../format.js';

/** Column widths for a row of `width` (the selection marker takes 2 more): the comment only when there is room. */
function widthsFor(width: number): number[] {
  const fixed = [10, 9, 16];
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

export function appointmentLine(a: Appointment, width: number): string {
  const w = widthsFor(width);
  const narrow = (w[3] ?? 0) < 22;
  const cells = [a.id, a.status, when(a), party(a, 'Patient', narrow), party(a, 'PractitionerRole', narrow)];
  if (w.length > 5) cells.push(a.comment ?? '');
  return clean(columns(cells, w, width));
}

export function headerFor(width: number): string {
  const w = widthsFor(width - 2);
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
