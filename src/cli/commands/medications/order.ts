/**
 * `pdesk medications list|show|order` — M1 list medication requests, M2 get one, M3 order a medication (a
 * reorder: M2 read of the request being reordered, then M3; decisions.md §10).
 */
import { Command } from 'commander';
import type { ReorderInput } from '../../../core/api/medication.js';
import type { MedicationRequest, MedicationRow } from '../../../core/schemas/medication.js';
import { readBody } from '../../body.js';
import { action, type Context } from '../../context.js';
import { collect } from '../../options.js';
import { renderRecord } from '../../output.js';
import { noteTexts, periodText, quantityText, referenceLabel } from '../../../core/labels.js';
import { examples } from '../../help.js';

/** One MedicationRequest in table mode: the fields an operator reads, in a fixed order. */
function detail(r: MedicationRequest, width: number): string {
  const ref = (x?: { reference: string; display?: string }) => referenceLabel(x) || undefined;
  const fields: Record<string, string | undefined> = {
    id: r.id,
    status: r.status,
    intent: r.intent,
    medication: ref(r.medicationReference),
    patient: ref(r.subject),
    pharmacy: ref(r.performer),
    quantity: quantityText(r),
    period: periodText(r),
    authoredOn: r.authoredOn,
    basedOn: r.basedOn?.map((b) => b.reference).join(', '),
    note: noteTexts(r).join(' | '),
  };
  const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== ''));
  return renderRecord(present, width);
}

interface OrderOptions {
  reorder?: string;
  pharmacy?: string;
  quantity?: string;
  start?: string;
  end?: string;
  note?: string;
}

async function order(ctx: Context, opts: OrderOptions): Promise<void> {
  const { UsageError } = await import('../../../core/errors.js');
  const { localDay, parseDay } = await import('../../../core/dates.js');
  const { positiveNumber } = await import('../../options.js');
  const med = await import('../../../core/api/medication.js');
  const { emitCreated } = await import('../../created.js');
  // The server's id of the order (decisions.md §16); its Location when it answered without a body.
  const print = (res: Awaited<ReturnType<typeof med.orderMedication>>) => {
    const stored = res.medicationRequest;
    emitCreated(ctx, 'MedicationRequest', { status: res.status, body: stored, created: res.created }, () =>
      stored ? detail(stored, ctx.width) : `MedicationRequest ${res.created.id ?? '(no id named)'} ordered (HTTP ${res.status}).`,
    );
  };

  const given = readBody(ctx, 'MedicationRequest');
  if (given !== undefined) {
    const { MedicationRequestCreate, parseBody } = await import('../../../core/schemas/index.js');
    const body = parseBody(MedicationRequestCreate, given);
    print(await med.orderMedication(await ctx.client(), body));
    return;
  }

  // Every option is checked before anything is sent.
  if (opts.reorder === undefined)
    throw new UsageError('--reorder <id> is required: name the medication request to reorder (or give a complete one with --body).');
  // `--reorder MedicationRequest/mr-1` and `--reorder mr-1` both name mr-1; likewise Organization/<id>.
  const bareId = (value: string, type: string, option: string): string => {
    const id = value.trim().replace(new RegExp(`^${type}/`), '');
    if (!id || id.includes('/')) throw new UsageError(`${option} must be an id or ${type}/<id>, not "${value}".`);
    return id;
  };
  const now = ctx.now();
  const id = bareId(opts.reorder, 'MedicationRequest', '--reorder');
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

  const client = await ctx.client();
  // M2 first: a 404 exits 4 and nothing is ordered. Under --dry-run this read is still made (it changes nothing).
  const r = await med.getMedicationRequest(client, id, { readForWrite: true });
  const body = med.buildReorder(client.profile, r, input, now);
  print(await med.orderMedication(client, body));
}

export function medicationsCommand(): Command {
  const cmd = new Command('medications')
    .description('medication requests: list, show, order (M1–M3)')
    .addHelpText(
      'after',
      examples('pdesk medications list --param patient=pat-1', 'pdesk medications show mr-1', 'pdesk medications order --reorder mr-1'),
    );

  cmd
    .command('list')
    .description('list medication requests with their pharmacy (M1)')
    .addHelpText('after', examples('pdesk medications list', 'pdesk medications list --param patient=pat-1 --json'))
    .option('--param <key=value>', 'query parameter passed through, e.g. patient=pat-1 (repeatable)', collect)
    .action(
      action(async (ctx, opts: { param?: string[] }) => {
        const { keyValues } = await import('../../options.js');
        const params = keyValues(opts.param);
        const limit = ctx.limit;
        const { listMedicationRequests } = await import('../../../core/api/medication.js');
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
        const { rememberIds } = await import('../../completion/cache.js');
        await rememberIds(
          ctx,
          'medication-requests',
          rows.map(({ medicationRequest: m }) => ({
            id: m.id ?? '',
            description: `${m.status} ${m.medicationReference.display ?? m.medicationReference.reference ?? ''}`,
          })),
        );
      }),
    );

  cmd
    .command('show')
    .description('show one medication request (M2)')
    .addHelpText('after', examples('pdesk medications show mr-1', 'pdesk medications show mr-1 --json'))
    .argument('<id>', 'id of the MedicationRequest')
    .action(
      action(async (ctx, id: string) => {
        const { getMedicationRequest } = await import('../../../core/api/medication.js');
        const r = await getMedicationRequest(await ctx.client(), id);
        ctx.emitOne(r, () => detail(r, ctx.width));
      }),
    );

  cmd
    .command('order')
    .description('order a medication: a reorder of an existing request, read with M2 and sent with M3 (status draft, intent order)')
    .option('--reorder <id>', 'the MedicationRequest to reorder (read first with M2; an unknown id exits 4 and nothing is ordered)')
    .option('--pharmacy <organizationId>', "pharmacy (Organization id) where the patient collects it (default: the request's)")
    .option('--quantity <n>', "quantity value, a positive number (default: the request's; the unit is kept)")
    .option('--start <date>', 'first day of the period: YYYY-MM-DD, ISO 8601, today, tomorrow or +Nd (default today)')
    .option('--end <date>', "last day of the period (default: start plus the length of the request's period, or 30 days)")
    .option('--note <text>', "the patient's free text")
    .option('--body <file|->', 'send this complete MedicationRequest as is after validation (no M2 read; excludes the options above)')
    .addHelpText(
      'after',
      [
        '',
        'The order follows decisions.md §10: basedOn the reordered request, medication',
        'and patient copied, status draft, intent order, authoredOn now with the local',
        'UTC offset.',
        '',
        'With --dry-run the M2 read of the request being reordered IS made (it changes',
        'nothing, and the order is built from it); the M3 request is printed, not sent.',
        'With --body nothing is read.',
        examples(
          'pdesk medications order --reorder mr-1',
          'pdesk medications order --reorder mr-2 --pharmacy ph-2 --quantity 30 \\',
          "  --start tomorrow --note 'Collect after 16:00'",
          'pdesk medications order --reorder mr-1 --dry-run',
        ),
      ].join('\n'),
    )
    .action(action(async (ctx, opts: OrderOptions) => order(ctx, opts)));

  return cmd;
}
