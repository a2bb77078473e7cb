/** `pdesk schedules list` — A3 search schedules. */
import { Command } from 'commander';
import type { Schedule } from '../../../core/schemas/appointment.js';
import { action } from '../../context.js';
import { systemCode } from '../../options.js';
import { referenceLabel } from '../../../core/labels.js';
import { examples } from '../../help.js';

export function schedulesCommand(): Command {
  const cmd = new Command('schedules')
    .description('schedules (A3)')
    .addHelpText('after', examples("pdesk schedules list --service-category 'urn:pdesk:service-category|gp'"));
  cmd
    .command('list')
    .description('list the schedules of a service category (A3)')
    .addHelpText(
      'after',
      examples(
        "pdesk schedules list --service-category 'urn:pdesk:service-category|gp'",
        "pdesk schedules list --service-category 'urn:pdesk:service-category|gp' --json",
      ),
    )
    .requiredOption('--service-category <system|code>', 'service category as <system>|<code>')
    .action(
      action(async (ctx, opts: { serviceCategory: string }) => {
        const category = systemCode(opts.serviceCategory, '--service-category');
        const { searchSchedules, conceptLabel } = await import('../../../core/api/appointments.js');
        const rows = await searchSchedules(await ctx.client(), category, { limit: ctx.limit });
        ctx.emitList<Schedule>(rows, [
          { header: 'ID', value: (r) => r.id },
          { header: 'PRACTITIONER', value: (r) => (r.actor ?? []).map((a) => referenceLabel(a, { idOnly: true })).join(', '), flex: true },
          { header: 'SERVICE CATEGORY', value: (r) => conceptLabel(r.serviceCategory), flex: true },
        ]);
      }),
    );
  return cmd;
}
