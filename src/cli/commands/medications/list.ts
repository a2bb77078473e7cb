/** `pdesk medications list`: M1, medication requests with their pharmacy, query parameters passed through. */
import { listMedicationRequests } from '../../../core/api/medication.js';
import { periodText, quantityText } from '../../../core/labels.js';
import type { MedicationRow } from '../../../core/schemas/medication.js';
import { rememberIds } from '../../completion/cache.js';
import type { Context } from '../../context.js';
import { keyValues } from '../../options.js';

export interface ListOptions {
  param?: string[];
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const params = keyValues(opts.param);
  const limit = ctx.limit;
  const rows = await listMedicationRequests(await ctx.client(), params, { limit });
  ctx.emitList<MedicationRow>(rows, [
    { header: 'ID', value: (r) => r.medicationRequest.id },
    { header: 'STATUS', value: (r) => r.medicationRequest.status },
    {
      header: 'MEDICATION',
      value: (r) => r.medicationRequest.medicationReference.display ?? r.medicationRequest.medicationReference.reference,
      flex: true,
    },
    { header: 'PATIENT', value: (r) => r.medicationRequest.subject.reference },
    { header: 'PHARMACY', value: (r) => r.organization?.name ?? r.medicationRequest.performer?.reference, flex: true },
    { header: 'QUANTITY', value: (r) => quantityText(r.medicationRequest) },
    { header: 'PERIOD', value: (r) => periodText(r.medicationRequest) },
  ]);
  // For `medications show <TAB>` and `--reorder <TAB>`: the ids of this list, with status and medication.
  await rememberIds(
    ctx,
    'medication-requests',
    rows.map(({ medicationRequest: m }) => ({
      id: m.id ?? '',
      description: `${m.status} ${m.medicationReference.display ?? m.medicationReference.reference ?? ''}`,
    })),
  );
}
