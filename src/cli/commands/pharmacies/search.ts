/** `pdesk pharmacies search`: M4, pharmacies (Organization) by identifier. */
import { pharmacyQuery, searchPharmacies } from '../../../core/api/medication.js';
import type { Organization } from '../../../core/schemas/medication.js';
import type { Context } from '../../context.js';

export interface SearchOptions {
  identifier?: string[];
}

export async function run(ctx: Context, opts: SearchOptions): Promise<void> {
  const identifiers = opts.identifier ?? [];
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
}
