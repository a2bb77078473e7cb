/** `pdesk pharmacies search` — M4 search pharmacies (Organization) by identifier. */
import { Command } from 'commander';
import type { Organization } from '../../../core/schemas/medication.js';
import { action } from '../../context.js';
import { collectList } from '../../options.js';
import { examples } from '../../help.js';

export function pharmaciesCommand(): Command {
  const cmd = new Command('pharmacies')
    .description('pharmacies (M4)')
    .addHelpText('after', examples("pdesk pharmacies search --identifier 'urn:pdesk:pharmacy-id|PH001'"));
  cmd
    .command('search')
    .description('search pharmacies by identifier (M4)')
    .option('--identifier <system|value>', 'identifier of a pharmacy, <system>|<value> (required; repeatable or a comma list)', collectList)
    .addHelpText(
      'after',
      examples(
        "pdesk pharmacies search --identifier 'urn:pdesk:pharmacy-id|PH001'",
        'pdesk pharmacies search \\',
        '  --identifier "urn:pdesk:pharmacy-id|PH001,urn:pdesk:pharmacy-id|PH002"',
      ),
    )
    .action(
      action(async (ctx, opts: { identifier?: string[] }) => {
        const identifiers = opts.identifier ?? [];
        const { pharmacyQuery, searchPharmacies } = await import('../../../core/api/medication.js');
        pharmacyQuery(identifiers); // a missing or malformed identifier exits 2 before the profile is even read
        const limit = ctx.limit;
        const rows = await searchPharmacies(await ctx.client(), identifiers, { limit });
        ctx.emitList<Organization>(rows, [
          { header: 'ID', value: (o) => o.id },
          { header: 'NAME', value: (o) => o.name, flex: true },
          {
            header: 'IDENTIFIER',
            value: (o) => o.identifier?.map((i) => (i.system ? `${i.system}|${i.value}` : i.value)).join(', '),
            flex: true,
          },
          { header: 'CITY', value: (o) => o.address?.find((a) => a.city)?.city },
        ]);
      }),
    );
  return cmd;
}
