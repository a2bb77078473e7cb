/**
 * `pdesk medications order`: a reorder (decisions.md §10), M2 read of the request being reordered, then M3; or a
 * complete MedicationRequest sent as is (`--body`, no read).
 */
import { type ReorderInput, buildReorder, getMedicationRequest, orderMedication } from '../../../core/api/medication.js';
import { localDay, parseDay } from '../../../core/dates.js';
import { UsageError } from '../../../core/errors.js';
import { parseBody } from '../../../core/schemas/common.js';
import { MedicationRequestCreate } from '../../../core/schemas/medication.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';
import { emitCreated } from '../../created.js';
import { positiveNumber } from '../../options.js';
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

/** What the options change of the reordered request, every option checked before anything is sent. */
function reorderInput(opts: OrderOptions, now: Date): ReorderInput {
  const input: ReorderInput = {};
  if (opts.pharmacy !== undefined) input.pharmacy = bareId(opts.pharmacy, 'Organization', '--pharmacy');
  if (opts.quantity !== undefined) input.quantity = positiveNumber(opts.quantity, '--quantity');
  if (opts.start !== undefined) input.start = parseDay(opts.start, 'start', now);
  if (opts.end !== undefined) input.end = parseDay(opts.end, 'end', now);
  if (input.end !== undefined && input.end < (input.start ?? localDay(now)))
    throw new UsageError(
      input.start !== undefined
        ? `--end (${input.end}) is before --start (${input.start}).`
        : `--end (${input.end}) is before the default start, today (${localDay(now)}): give --start too.`,
    );
  if (opts.note !== undefined) {
    if (opts.note.trim() === '') throw new UsageError('--note must not be empty.');
    input.note = opts.note;
  }
  return input;
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
  const input = reorderInput(opts, now);
  const client = await ctx.client();
  // M2 first: a 404 exits 4 and nothing is ordered. Under --dry-run this read is still made (it changes nothing).
  const r = await getMedicationRequest(client, id, { readForWrite: true });
  print(await orderMedication(client, buildReorder(client.profile, r, input, now)));
}
