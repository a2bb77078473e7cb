/** `pdesk slots list`: A4, the slots of a service category in a date range (both appointment API versions). */
import { searchSlots, slotIsPast, slotPractitioner, slotQuery, slotRange, utcParts } from '../../../core/api/appointments.js';
import { referenceLabel } from '../../../core/labels.js';
import type { Slot } from '../../../core/schemas/appointment.js';
import type { Context } from '../../context.js';
import { systemCode } from '../../options.js';

export interface ListOptions {
  serviceCategory: string;
  from: string;
  to: string;
  schedule?: string;
  status?: string;
  practitioner?: string[];
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const category = systemCode(opts.serviceCategory, '--service-category');
  const { from, to } = slotRange(opts, ctx.now());
  const q = { serviceCategory: category, from, to, schedule: opts.schedule, status: opts.status, practitioners: opts.practitioner };
  // Version-specific options are checked against the profile before anything is sent.
  slotQuery(await ctx.profile(), q);
  const now = ctx.now();
  // A slot that has begun is marked `past` (the JSON keeps the server's status beside it): it cannot be booked.
  const rows = (await searchSlots(await ctx.client(), q, { limit: ctx.limit })).map((r) => ({ ...r, past: slotIsPast(r, now) }));
  const id = (ref: string | undefined) => (ref ? ref.replace(/^Schedule\//, '') : '');
  ctx.emitList<Slot & { past: boolean }>(rows, [
    { header: 'ID', value: (r) => r.id },
    { header: 'DAY', value: (r) => utcParts(r.start).day },
    { header: 'START–END (UTC)', value: (r) => `${utcParts(r.start).time}–${utcParts(r.end).time}` },
    { header: 'PRACTITIONER', value: (r) => referenceLabel(slotPractitioner(r), { idOnly: true }), flex: true },
    { header: 'STATUS', value: (r) => (r.past ? 'past' : r.status) },
    { header: 'SCHEDULE', value: (r) => id(r.schedule?.reference) },
  ]);
}
