/**
 * Meds screen: medication requests with their pharmacy (M1) → Enter shows one (M2) → `o` reorders it: a form
 * with the pharmacy (an Organization id, or `system|value` to search pharmacies by identifier with M4),
 * quantity, period and note → a confirmation showing the body built by the core (decisions.md §10) → order
 * (M3). Every call runs through desk.run; a refusal leaves the form as typed with the error in the status line.
 */
import { Box } from 'ink';
import type React from 'react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  type ReorderInput,
  buildReorder,
  getMedicationRequest,
  listMedicationRequests,
  orderMedication,
  searchPharmacies,
} from '../../core/api/medication.js';
import { daysBetween, parseDay } from '../../core/dates.js';
import { UsageError } from '../../core/errors.js';
import type { MedicationRequest, MedicationRequestCreate, MedicationRow, Organization } from '../../core/schemas/medication.js';
import { Confirm } from '../components/Confirm.js';
import { Form, type FormValues } from '../components/Form.js';
import { ListView } from '../components/ListView.js';
import { Pane } from '../components/Pane.js';
import { useDesk } from '../desk.js';
import { clean, columns, jsonLines } from '../format.js';
import { useKeys } from '../keys.js';
import { detailLines, idOf, identifierText, medLayout, periodText, pharmacyLine, quantityText, refText } from './meds-format.js';
import type { ScreenProps } from './types.js';

type Step = 'list' | 'detail' | 'reorder' | 'pick' | 'confirm';

const LIST_LIMIT = 5000;

interface Target {
  r: MedicationRequest;
  /** The pharmacy as the list gave it. */
  org?: Organization;
}

interface Order {
  body: MedicationRequestCreate;
  /** The chosen pharmacy when it is known (from the list or a search). */
  org?: Organization;
}

/** The reorder input of the form, every field checked before anything is sent (the pharmacy apart). */
function inputOf(v: FormValues, now = new Date()): ReorderInput {
  const input: ReorderInput = {};
  const q = (v.quantity ?? '').trim();
  if (q) {
    const n = Number(q);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`Quantity must be a positive number, not "${q}".`);
    input.quantity = n;
  }
  input.start = parseDay((v.start ?? '').trim() || 'today', 'Start', now);
  if ((v.end ?? '').trim()) {
    input.end = parseDay(v.end!.trim(), 'End', now);
    if (input.end < input.start) throw new UsageError(`End (${input.end}) is before Start (${input.start}).`);
  }
  const note = (v.note ?? '').trim();
  if (note) input.note = note;
  return input;
}

/** The length in days of R's period, as buildReorder uses it. */
function periodLength(r: MedicationRequest): number {
  const p = r.extension?.find((e) => e.valuePeriod)?.valuePeriod;
  const d = p?.start && p?.end ? daysBetween(p.start, p.end) : -1;
  return d >= 0 ? d : 30;
}

export function MedsScreen({ width, height }: ScreenProps) {
  const desk = useDesk();
  const { client, profile } = desk;
  const [step, setStep] = useState<Step>('list');
  const [rows, setRows] = useState<MedicationRow[] | undefined>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [selected, setSelected] = useState<MedicationRow | undefined>();
  const [detail, setDetail] = useState<Target | undefined>();
  const [target, setTarget] = useState<Target | undefined>();
  const [values, setValues] = useState<FormValues>({});
  const [back, setBack] = useState<Step>('list');
  const [found, setFound] = useState<Organization[]>([]);
  const [pending, setPending] = useState<ReorderInput | undefined>();
  const [order, setOrder] = useState<Order | undefined>();

  /** M1; `quiet`: no count in the status line (the first load, and the reload after an order whose confirmation stays). */
  const load = useCallback(
    async (quiet = false) => {
      const r = await desk.run(
        'Loading medication requests (M1)',
        (signal) => listMedicationRequests(client, [], { signal, limit: LIST_LIMIT }),
        quiet ? {} : { okText: (v) => `${v.length} medication request${v.length === 1 ? '' : 's'}.` },
      );
      setLoadFailed(!r.ok);
      if (r.ok) setRows(r.value);
      else setRows((old) => old ?? []);
      return r.ok;
    },
    [desk, client],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: load once when the screen mounts; later loads are asked for with r
  useEffect(() => {
    // Quiet: a load finishing in the background must not write over what the operator did meanwhile.
    void load(true);
  }, []);

  const orgOf = (r: MedicationRequest) => rows?.find((x) => x.medicationRequest.id === r.id)?.organization;

  /** M2: read the request (also the first step of a reorder, decisions.md §10). */
  const read = async (id: string): Promise<MedicationRequest | undefined> => {
    const r = await desk.run(`Reading medication request ${clean(id)} (M2)`, (signal) => getMedicationRequest(client, id, { signal }));
    return r.ok ? r.value : undefined;
  };

  const showDetail = async (row: MedicationRow) => {
    const r = await read(row.medicationRequest.id);
    if (!r) return;
    setDetail({ r, org: row.organization ?? orgOf(r) });
    setStep('detail');
  };

  const startReorder = (t: Target, from: Step) => {
    if (target?.r.id !== t.r.id) {
      const q = t.r.dispenseRequest?.initialFill?.quantity;
      setValues({
        pharmacy: idOf(t.r.performer?.reference, 'Organization') ?? '',
        quantity: q ? String(q.value) : '',
        start: 'today',
        end: '',
        note: '',
      });
    }
    setTarget(t);
    setBack(from);
    setStep('reorder');
  };

  const reorderSelected = async () => {
    if (!selected) return;
    const r = await read(selected.medicationRequest.id);
    if (r) startReorder({ r, org: selected.organization }, 'list');
  };

  const review = (input: ReorderInput, pharmacy: string, org: Organization | undefined) => {
    if (!target) return;
    try {
      setOrder({ body: buildReorder(profile, target.r, { ...input, pharmacy }), org });
      setStep('confirm');
    } catch (e) {
      desk.error(e);
      setStep('reorder');
    }
  };

  const submit = async (v: FormValues) => {
    if (!target) return;
    let input: ReorderInput;
    try {
      input = inputOf(v);
    } catch (e) {
      return desk.error(e);
    }
    const ph = (v.pharmacy ?? '').trim();
    if (!ph) return desk.error('Pharmacy must not be empty: an Organization id, or <system>|<value> to search by identifier.');
    if (!ph.includes('|')) {
      const id = ph.replace(/^Organization\//, '');
      if (!id || id.includes('/')) return desk.error(`Pharmacy must be an Organization id or <system>|<value>, not "${ph}".`);
      const known = [target.org, ...found, ...(rows ?? []).map((x) => x.organization)].find((o) => o?.id === id);
      return review(input, id, known);
    }
    const identifiers = ph
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const r = await desk.run(`Searching pharmacies by identifier ${ph} (M4)`, (signal) =>
      searchPharmacies(client, identifiers, { signal, limit: 500 }),
    );
    if (!r.ok) return;
    if (r.value.length === 0) return desk.error(`No pharmacy has the identifier ${ph}.`);
    if (r.value.length === 1) {
      const org = r.value[0]!;
      setValues((x) => ({ ...x, pharmacy: org.id }));
      desk.info(`Pharmacy ${ph} is ${clean(org.id)} ${clean(org.name ?? '')}.`);
      return review(input, org.id, org);
    }
    setFound(r.value);
    setPending(input);
    setStep('pick');
  };

  const place = async () => {
    const o = order;
    if (!o || !target) return;
    setStep('reorder');
    const r = await desk.run(`Ordering a reorder of ${clean(target.r.id)} (M3)`, (signal) => orderMedication(client, o.body, { signal }), {
      sends: true,
    });
    if (!r.ok) return; // the error is in the status line; the form keeps what was typed
    const created = r.value.medicationRequest;
    setOrder(undefined);
    setTarget(undefined);
    setStep('list');
    // Reload first: a request's start clears the status line, and the order's confirmation must stay.
    const reloaded = await load(true);
    desk.ok(
      `Ordered ${created ? clean(created.id) : 'it'} (${clean(created?.status ?? o.body.status)}): ${clean(o.body.medicationReference.display ?? o.body.medicationReference.reference)}, ${quantityText(o.body as MedicationRequest)} at ${clean(o.org?.name ?? o.body.performer.reference)}.${reloaded ? '' : ' The list could not be reloaded (r to try again).'}`,
    );
  };

  useKeys(
    [
      {
        keys: ['o'],
        label: 'reorder',
        help: 'reorder the selected request: M2, form, confirmation, M3',
        run: () => void reorderSelected(),
      },
      { keys: ['r'], label: 'reload', help: 'reload the list (M1)', run: () => void load() },
    ],
    { active: step === 'list' },
  );
  useKeys(
    [
      { keys: ['o'], label: 'reorder', help: 'reorder this request', run: () => detail && startReorder(detail, 'detail') },
      {
        keys: ['r'],
        label: 'reload',
        help: 'read it again (M2)',
        run: () => {
          if (detail) void read(detail.r.id).then((r) => r && setDetail({ r, org: detail.org }));
        },
      },
      { keys: ['esc'], label: 'back', help: 'back to the list', run: () => setStep('list') },
    ],
    { active: step === 'detail' },
  );
  useKeys([{ keys: ['esc'], label: 'back', help: 'back to the reorder form', run: () => setStep('reorder') }], { active: step === 'pick' });

  const layout = useMemo(() => medLayout(width - 2), [width]);

  const list = (
    <Box display={step === 'list' ? 'flex' : 'none'} flexDirection="column" height={height} overflow="hidden">
      <ListView<MedicationRow>
        items={rows ?? []}
        width={width}
        height={height}
        title={`Medication requests (M1) — ${clean(profile.name)}`}
        header={`  ${columns(layout.header, layout.widths, width - 2)}`}
        render={(row, w) => columns(layout.values(row), layout.widths, w)}
        itemKey={(row) => row.medicationRequest.id}
        onSelect={setSelected}
        onOpen={(row) => void showDetail(row)}
        openLabel="details"
        active={step === 'list'}
        empty={loadFailed ? 'Not loaded (see the status line): r to try again.' : rows ? 'No medication requests.' : 'Loading…'}
      />
    </Box>
  );

  let body: React.ReactNode;
  switch (step) {
    case 'list':
      break;
    case 'detail':
      body = detail ? (
        <Pane
          title={`Medication request ${clean(detail.r.id)} (M2)`}
          color="cyan"
          lines={['', ...detailLines(detail.r, detail.org)]}
          width={width}
          height={height}
        />
      ) : null;
      break;
    case 'reorder': {
      if (!target) break;
      const r = target.r;
      const example = target.org?.identifier?.[0];
      body = (
        <Form
          title={`Reorder ${clean(r.id)} (M3): ${refText(r.medicationReference)}`}
          intro={[
            clean(
              `for ${refText(r.subject)} · now ${quantityText(r)} at ${target.org?.name ?? r.performer?.display ?? r.performer?.reference ?? '(no pharmacy)'}${target.org ? ` (${target.org.id})` : ''}`,
            ),
          ]}
          fields={[
            {
              name: 'pharmacy',
              label: 'Pharmacy',
              placeholder: 'Organization id, or system|value',
              note: clean(`an id, or system|value to search (M4)${example?.system ? `: ${example.system}|${example.value}` : ''}`),
            },
            {
              name: 'quantity',
              label: 'Quantity',
              placeholder: 'a positive number',
              note: clean(`unit kept: ${r.dispenseRequest?.initialFill?.quantity?.unit ?? '(none)'}`),
            },
            { name: 'start', label: 'Start', placeholder: 'today', note: 'YYYY-MM-DD, today, tomorrow or +Nd' },
            {
              name: 'end',
              label: 'End',
              placeholder: `start + ${periodLength(r)} days`,
              note: `blank: start + ${periodLength(r)} days (the length of ${clean(r.id)}'s period)`,
            },
            { name: 'note', label: 'Note', placeholder: "(optional) the patient's free text" },
          ]}
          values={values}
          onChange={setValues}
          onSubmit={(v) => void submit(v)}
          onCancel={() => setStep(back)}
          submitLabel="review"
          width={width}
          height={height}
        />
      );
      break;
    }
    case 'pick':
      body = (
        <ListView<Organization>
          items={found}
          width={width}
          height={height}
          title={`Pharmacies found (M4): pick one for the reorder of ${clean(target?.r.id)}`}
          header={`  ${columns(['ID', 'NAME', 'ADDRESS', 'IDENTIFIER'], [8, 24, 36, 0], width - 2)}`}
          render={pharmacyLine}
          itemKey={(o) => o.id}
          onOpen={(o) => {
            setValues((x) => ({ ...x, pharmacy: o.id }));
            if (pending) review(pending, o.id, o);
          }}
          openLabel="pick"
        />
      );
      break;
    case 'confirm':
      body = order ? (
        <Confirm
          question={clean(`Order? POST MedicationRequest (M3), a reorder of ${target?.r.id}:`)}
          lines={[
            clean(
              `${order.body.medicationReference.display ?? order.body.medicationReference.reference} for ${refText(order.body.subject)}`,
            ),
            clean(
              `at ${order.org?.name ? `${order.org.name} (${order.org.id})` : order.body.performer.reference}${order.org && identifierText(order.org) ? ` · ${identifierText(order.org)}` : ''}`,
            ),
            clean(`quantity ${quantityText(order.body as MedicationRequest)} · period ${periodText(order.body as MedicationRequest)}`),
            ...(order.body.note ? [clean(`note ${order.body.note.join(' | ')}`)] : []),
            '',
            ...jsonLines(order.body),
          ]}
          yesLabel="order"
          onYes={() => void place()}
          onNo={() => setStep('reorder')}
          width={width}
          height={height}
        />
      ) : null;
      break;
  }
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {list}
      {step === 'list' ? null : body}
    </Box>
  );
}
