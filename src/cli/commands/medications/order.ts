/**
 * `pdesk medications order`: a reorder (decisions.md §10), M2 read of the request being reordered, then M3; or a
 * complete MedicationRequest sent as is (`--body`, no read).
 */
import { buildReorder, getMedicationRequest, orderMedication, reorderInput } from '../../../core/api/medication.js';
import { UsageError } from '../../../core/errors.js';
import { parseBody } from '../../../core/schemas/common.js';
import { MedicationRequestCreate } from '../../../core/schemas/medication.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';
import { emitCreated } from '../../created.js';
import { detail } from './detail.js';

/** `reorder` is required unless `body` (src/cli/commands/medications/index.ts). */
export interface OrderOptions {
  reorder?: string;
  pharmacy?: string;
  quantity?: string;
  start?: string;
  end?: string;
  note?: string;
  body?: string;
}

/** `--reorder MedicationRequest/mr-1` and `--reorder mr-1` both name mr-1; likewise Organization/<id>. */
function bareId(value: string, type: string, option: string): string {
  const id = value.trim().replace(new RegExp(`^${type}/`), '');
  if (!id || id.includes('/')) throw new UsageError(`${option} must be an id or ${type}/<id>, not "${value}".`);
  return id;
}

export async function run(ctx: Context, opts: OrderOptions): Promise<void> {
  // The server's id of the order (decisions.md §16); its Location when it answered without a body.
  const print = (res: Awaited<ReturnType<typeof orderMedication>>) => {
    const stored = res.medicationRequest;
    emitCreated(ctx, 'MedicationRequest', { status: res.status, body: stored, created: res.created }, () =>
      stored ? detail(stored, ctx.width) : `MedicationRequest ${res.created.id ?? '(no id named)'} ordered (HTTP ${res.status}).`,
    );
  };

  const given = readBody(ctx, opts.body, 'MedicationRequest');
  if (given !== undefined) {
    print(await orderMedication(await ctx.client(), parseBody(MedicationRequestCreate, given)));
    return;
  }

  const now = ctx.now();
  const id = bareId(opts.reorder!, 'MedicationRequest', '--reorder');
  // The options as the core's reorder rule has them, every one checked before anything is sent.
  const input = reorderInput(opts, now);
  const client = await ctx.client();
  // M2 first: a 404 exits 4 and nothing is ordered. Under --dry-run this read is still made (it changes nothing).
  const r = await getMedicationRequest(client, id, { readForWrite: true });
  print(await orderMedication(client, buildReorder(client.profile, r, input, now)));
}
