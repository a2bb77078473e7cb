/** `pdesk practitioners list`: A2, the practitioner roles, query parameters passed through. */
import { listPractitionerRoles } from '../../../core/api/appointments.js';
import { roleName, roleSpecialities } from '../../../core/labels.js';
import type { PractitionerRole } from '../../../core/schemas/appointment.js';
import type { Context } from '../../context.js';
import { keyValues } from '../../options.js';

export interface ListOptions {
  param?: string[];
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const params = keyValues(opts.param);
  const rows = await listPractitionerRoles(await ctx.client(), params, { limit: ctx.limit });
  ctx.emitList<PractitionerRole>(rows, [
    { header: 'ID', value: (r) => r.id },
    // The interface's name and speciality, or FHIR R4's practitioner.display and specialty.
    { header: 'NAME', value: (r) => roleName(r), flex: true },
    {
      header: 'SPECIALITY',
      value: (r) =>
        roleSpecialities(r)
          .map((c) => (c.display ? `${c.code} ${c.display}` : c.code))
          .join(', '),
      flex: true,
    },
  ]);
}
