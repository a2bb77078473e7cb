/** `pdesk appointments list`: A5, appointments, query parameters passed through. */
import { searchAppointments, utcParts } from '../../../core/api/appointments.js';
import type { Appointment, Participant } from '../../../core/schemas/appointment.js';
import { rememberIds } from '../../completion/cache.js';
import type { Context } from '../../context.js';
import { keyValues } from '../../options.js';

export interface ListOptions {
  param?: string[];
}

function isPatient(p: Participant): boolean {
  return !!p.actor?.reference.startsWith('Patient/');
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const params = keyValues(opts.param);
  const rows = await searchAppointments(await ctx.client(), params, { limit: ctx.limit });
  const who = (a: Appointment, patient: boolean) =>
    (a.participant ?? [])
      .filter((p) => isPatient(p) === patient)
      .map((p) => `${p.actor?.display ?? p.actor?.reference ?? '?'}${p.status ? ` (${p.status})` : ''}`)
      .join(', ');
  ctx.emitList<Appointment>(rows, [
    { header: 'ID', value: (r) => r.id },
    { header: 'STATUS', value: (r) => r.status },
    {
      header: 'START (UTC)',
      value: (r) => {
        const s = utcParts(r.start);
        return s.day ? `${s.day} ${s.time}` : '';
      },
    },
    { header: 'PATIENT', value: (r) => who(r, true), flex: true },
    { header: 'PRACTITIONER', value: (r) => who(r, false), flex: true },
  ]);
  // For `appointments cancel <TAB>`: the ids of this list, with status and start (no patient names).
  await rememberIds(
    ctx,
    'appointments',
    rows.map((a) => {
      const s = utcParts(a.start);
      return { id: a.id ?? '', description: [a.status, s.day ? `${s.day} ${s.time} UTC` : ''].filter(Boolean).join(' ') };
    }),
  );
}
