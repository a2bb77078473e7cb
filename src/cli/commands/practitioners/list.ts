/** `pdesk practitioners list` — A2 list practitioner roles. */
import { Command } from 'commander';
import type { PractitionerRole } from '../../../core/schemas/appointment.js';
import { roleName, roleSpecialities } from '../../../core/labels.js';
import { action } from '../../context.js';
import { collect, keyValues } from '../../options.js';
import { examples } from '../../help.js';

export function practitionersCommand(): Command {
  const cmd = new Command('practitioners')
    .description('practitioner roles (A2)')
    .addHelpText('after', examples('pdesk practitioners list'));
  cmd
    .command('list')
    .description('list practitioner roles; query parameters are passed through (A2)')
    .addHelpText('after', examples('pdesk practitioners list', 'pdesk practitioners list --param speciality=0100 --json'))
    .option('--param <key=value>', 'query parameter to pass through (repeatable)', collect)
    .action(
      action(async (ctx, opts: { param?: string[] }) => {
        const params = keyValues(opts.param);
        const { listPractitionerRoles } = await import('../../../core/api/appointments.js');
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
      }),
    );
  return cmd;
}
