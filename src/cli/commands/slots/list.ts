/** `pdesk slots list` — A4 search available slots (both appointment API versions). */
import { Command } from 'commander';
import type { Slot } from '../../../core/schemas/appointment.js';
import { action } from '../../context.js';
import { collectList, systemCode } from '../../options.js';
import { referenceLabel } from '../../../core/labels.js';
import { examples } from '../../help.js';

interface SlotsListOptions {
  serviceCategory: string;
  from: string;
  to: string;
  schedule?: string;
  status?: string;
  practitioner?: string[];
}

export function slotsCommand(): Command {
  const cmd = new Command('slots')
    .description('slots (A4)')
    .addHelpText('after', examples("pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\", '  --from today --to +7d'));
  cmd
    .command('list')
    .description('search the slots of a service category in a date range (A4)')
    .requiredOption('--service-category <system|code>', 'service category as <system>|<code>')
    .requiredOption('--from <date>', 'first day (YYYY-MM-DD, ISO 8601, today, tomorrow, +Nd)')
    .requiredOption('--to <date>', 'last day, covered whole (YYYY-MM-DD, ISO 8601, today, tomorrow, +Nd)')
    .option('--schedule <id>', 'only slots of this schedule (appointment API 2.0.0)')
    .option('--status <status>', 'slot status, e.g. free or busy (appointment API 2.0.0; the server defaults to free)')
    .option('--practitioner <id>', 'only slots of these practitioner roles (appointment API 1.0.0; repeatable or comma list)', collectList)
    .addHelpText(
      'after',
      examples(
        "pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\",
        '  --from today --to +7d',
        "pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\",
        '  --from tomorrow --to +14d --schedule 11 --json',
        "pdesk slots list --service-category 'urn:pdesk:service-category|gp' \\",
        '  --from today --to today --query "[?status==\'free\' && !past].id"',
      ),
    )
    .action(
      action(async (ctx, opts: SlotsListOptions) => {
        const category = systemCode(opts.serviceCategory, '--service-category');
        const { parseDay } = await import('../../../core/dates.js');
        const from = parseDay(opts.from, 'from', ctx.now());
        const to = parseDay(opts.to, 'to', ctx.now());
        const { searchSlots, slotIsPast, slotQuery, slotPractitioner, utcParts } = await import('../../../core/api/appointments.js');
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
      }),
    );
  return cmd;
}
