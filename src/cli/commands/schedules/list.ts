/** `pdesk schedules list`: A3, the schedules of a service category. */
import { conceptLabel, searchSchedules } from '../../../core/api/appointments.js';
import { referenceLabel } from '../../../core/labels.js';
import type { Schedule } from '../../../core/schemas/appointment.js';
import type { Context } from '../../context.js';
import { systemCode } from '../../options.js';

export interface ListOptions {
  serviceCategory: string;
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const category = systemCode(opts.serviceCategory, '--service-category');
  const rows = await searchSchedules(await ctx.client(), category, { limit: ctx.limit });
  ctx.emitList<Schedule>(rows, [
    { header: 'ID', value: (r) => r.id },
    { header: 'PRACTITIONER', value: (r) => (r.actor ?? []).map((a) => referenceLabel(a, { idOnly: true })).join(', '), flex: true },
    { header: 'SERVICE CATEGORY', value: (r) => conceptLabel(r.serviceCategory), flex: true },
  ]);
}
