/** `pdesk appointments cancel`: A7, cancel an appointment by declining it. */
import { appointmentIdOf, buildCancellation, cancelAppointment } from '../../../core/api/appointments.js';
import { UsageError } from '../../../core/errors.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';

export interface CancelOptions {
  appointmentId: string;
  /** Required unless `body` (src/cli/commands/appointments/index.ts). */
  actor?: string;
  comment?: string;
  body?: string;
}

export async function run(ctx: Context, opts: CancelOptions): Promise<void> {
  const id = appointmentIdOf(opts.appointmentId);
  let body = readBody(ctx, opts.body, 'appointment response');
  if (body !== undefined) {
    const named = (body as { appointment?: { reference?: unknown } } | null)?.appointment?.reference;
    if (typeof named === 'string' && named !== `Appointment/${id}`)
      throw new UsageError(`--body cancels ${named}, not Appointment/${id} given as <appointmentId>.`);
  } else body = buildCancellation(id, opts.actor!, opts.comment!);
  const res = await cancelAppointment(await ctx.client(), body);
  ctx.emitWrite(res.status, res.body, () => `Appointment ${id} cancelled (HTTP ${res.status}).`);
}
