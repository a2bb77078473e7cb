/** `pdesk appointment-types list` — A1 get bookable appointment types. */
import { Command } from 'commander';
import type { TypeRow } from '../../../core/api/appointments.js';
import { action } from '../../context.js';
import { examples } from '../../help.js';

export function appointmentTypesCommand(): Command {
  const cmd = new Command('appointment-types')
    .description('bookable appointment types (A1)')
    .addHelpText('after', examples('pdesk appointment-types list --service-category gp'));
  cmd
    .command('list')
    .description('list the bookable appointment types of a service category (A1)')
    .addHelpText(
      'after',
      examples('pdesk appointment-types list --service-category gp', 'pdesk appointment-types list --service-category physio --json'),
    )
    .requiredOption('--service-category <code>', 'the service category the appointment types relate to')
    .action(
      action(async (ctx, opts: { serviceCategory: string }) => {
        const { getAppointmentTypes } = await import('../../../core/api/appointments.js');
        const rows = await getAppointmentTypes(await ctx.client(), opts.serviceCategory);
        ctx.emitList<TypeRow>(rows, [
          { header: 'CODE', value: (r) => r.code },
          { header: 'DISPLAY', value: (r) => r.display, flex: true },
        ]);
      }),
    );
  return cmd;
}
