/** `pdesk appointment-types list`: A1, the bookable appointment types of a service category. */
import { type TypeRow, getAppointmentTypes } from '../../../core/api/appointments.js';
import type { Context } from '../../context.js';

export interface ListOptions {
  serviceCategory: string;
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const rows = await getAppointmentTypes(await ctx.client(), opts.serviceCategory);
  ctx.emitList<TypeRow>(rows, [
    { header: 'CODE', value: (r) => r.code },
    { header: 'DISPLAY', value: (r) => r.display, flex: true },
  ]);
}
