/**
 * State and loaders of the Meds screen: medication requests with their pharmacy (M1) → one request (M2) → a
 * reorder form (pharmacy as an Organization id, or `system|value` to search pharmacies by identifier with M4;
 * quantity, period, note) → a pick among several pharmacies found → a confirmation showing the body the core
 * builds (decisions.md §10) → the order (M3). The steps are a stack (src/tui/steps.tsx); every call runs
 * through desk.run.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  type ReorderInput,
  buildReorder,
  getMedicationRequest,
  listMedicationRequests,
  orderMedication,
  pharmacyQuery,
  reorderInput,
  searchPharmacies,
} from '../../../core/api/medication.js';
import { daysBetween } from '../../../core/dates.js';
import { FieldError } from '../../../core/errors.js';
import type { MedicationRequest, MedicationRequestCreate, MedicationRow, Organization } from '../../../core/schemas/medication.js';
import type { FormValues } from '../../components/Form.js';
import { useDesk } from '../../desk.js';
import { clean } from '../../format.js';
import { useJump } from '../../inspect/context.js';
import { useRefState } from '../../keys/useRefState.js';
import { idOf, quantityText } from './format.js';
import { confirmation, useStepStack } from '../../steps.js';
import { useForm } from '../../hooks/useForm.js';

/** A request to show or reorder, with its pharmacy as the list gave it. */
export interface Target {
  r: MedicationRequest;
  org?: Organization;
}

/** A reorder ready to send, with the chosen pharmacy when it is known (from the list or a search). */
export interface Order {
  body: MedicationRequestCreate;
  org?: Organization;
}

export type MedStep =
  | { kind: 'list' }
  | { kind: 'detail'; target: Target }
  | { kind: 'reorder'; target: Target }
  | { kind: 'pick'; target: Target; found: Organization[]; input: ReorderInput; at: Date }
  | { kind: 'confirm'; target: Target; order: Order };

export const REORDER_FIELDS = [
  { name: 'pharmacy', label: 'Pharmacy', placeholder: 'Organization id, or system|value' },
  { name: 'quantity', label: 'Quantity', placeholder: 'a positive number' },
  { name: 'start', label: 'Start', placeholder: 'today', note: 'YYYY-MM-DD, today, tomorrow or +Nd' },
  { name: 'end', label: 'End' },
  { name: 'note', label: 'Note', placeholder: "(optional) the patient's free text" },
];

const LIST_LIMIT = 5000;

/**
 * The reorder input of the form (the pharmacy apart, which may be a search): its fields as the core's reorder rule
 * has them, an empty field left out.
 */
export function inputOf(v: FormValues, now = new Date()): ReorderInput {
  const given = (name: string) => (v[name] ?? '').trim() || undefined;
  return reorderInput({ quantity: given('quantity'), start: given('start'), end: given('end'), note: given('note') }, now);
}

/** The length in days of R's period, as buildReorder uses it. */
export function periodLength(r: MedicationRequest): number {
  const p = r.extension?.find((e) => e.valuePeriod)?.valuePeriod;
  const d = p?.start && p?.end ? daysBetween(p.start, p.end) : -1;
  return d >= 0 ? d : 30;
}

export function useMedReorder() {
  const desk = useDesk();
  const stack = useStepStack<MedStep>({ kind: 'list' });
  const [rows, setRows] = useState<MedicationRow[] | undefined>();
  const [loadedAt, setLoadedAt] = useState<Date | undefined>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [, setSelected, selected] = useRefState<MedicationRow | undefined>(undefined);
  /** The request the form was last filled for: its values are kept when the same one is reordered again. */
  const [, setFormFor, formFor] = useRefState<string | undefined>(undefined);
  const form = useForm(REORDER_FIELDS, {});
  /** Pharmacies found by searches (M4): a pharmacy id typed later is shown with its name. */
  const found = useRef<Organization[]>([]);

  /** M1; `quiet`: no count in the status line (the first load, and the reload after an order whose confirmation stays). */
  const load = useCallback(
    async (quiet = false) => {
      const r = await desk.run(
        'Loading medication requests (M1)',
        (signal) => listMedicationRequests(desk.client, [], { signal, limit: LIST_LIMIT }),
        quiet ? {} : { okText: (v) => `${v.length} medication request${v.length === 1 ? '' : 's'}.` },
      );
      setLoadFailed(!r.ok);
      if (r.ok) {
        setRows(r.value);
        setLoadedAt(new Date());
      } else setRows((old) => old ?? []);
      return r.ok;
    },
    [desk],
  );

  // Loaded (quietly: a load finishing in the background must not write over what the operator did meanwhile)
  // when the screen opens, and again if the desk's client changes; later loads are asked for with r.
  useEffect(() => {
    void load(true);
  }, [load]);

  /** M2: read the request (also the first step of a reorder, decisions.md §10). */
  const read = async (id: string): Promise<MedicationRequest | undefined> => {
    const r = await desk.run(`Reading medication request ${clean(id)} (M2)`, (signal) => getMedicationRequest(desk.client, id, { signal }));
    return r.ok ? r.value : undefined;
  };

  const orgOf = (r: MedicationRequest) => rows?.find((x) => x.medicationRequest.id === r.id)?.organization;

  const showDetail = async (row: MedicationRow) => {
    const r = await read(row.medicationRequest.id);
    if (r) stack.push({ kind: 'detail', target: { r, org: row.organization ?? orgOf(r) } });
  };

  // An X-ray element (an order based on a request) opens here, read again with M2.
  useJump('meds', (j) => {
    if (j.screen !== 'meds') return;
    stack.reset();
    void (async () => {
      const r = await read(j.request);
      if (r) stack.push({ kind: 'detail', target: { r, org: orgOf(r) } });
    })();
  });

  /** `r` on the details: read the request again. */
  const reread = async () => {
    const top = stack.current();
    if (top.kind !== 'detail') return;
    const r = await read(top.target.r.id);
    if (r && stack.current() === top) stack.replace({ kind: 'detail', target: { r, org: top.target.org } });
  };

  const startReorder = (t: Target) => {
    if (formFor.current !== t.r.id) {
      const q = t.r.dispenseRequest?.initialFill?.quantity;
      form.restart({
        pharmacy: idOf(t.r.performer?.reference, 'Organization') ?? '',
        quantity: q ? String(q.value) : '',
        start: 'today',
        end: '',
        note: '',
      });
      setFormFor(t.r.id);
    }
    stack.push({ kind: 'reorder', target: t });
  };

  /** `o`: the request shown, or the one selected in the list (read first with M2). */
  const reorder = async () => {
    const top = stack.current();
    if (top.kind === 'detail') return startReorder(top.target);
    const row = selected.current;
    if (top.kind !== 'list' || !row) return;
    const r = await read(row.medicationRequest.id);
    if (r) startReorder({ r, org: row.organization });
  };

  /** The confirmation of an order: from the form, or instead of the pick among pharmacies. */
  const review = (t: Target, input: ReorderInput, pharmacy: string, org: Organization | undefined) => {
    try {
      const order = { body: buildReorder(desk.profile, t.r, { ...input, pharmacy }), org };
      if (stack.current().kind === 'pick') stack.replace({ kind: 'confirm', target: t, order });
      else stack.push({ kind: 'confirm', target: t, order });
    } catch (e) {
      stack.popTo((s) => s.kind === 'reorder');
      form.fail(e);
    }
  };

  const submit = async (v: FormValues) => {
    const top = stack.current();
    if (top.kind !== 'reorder') return;
    const t = top.target;
    let input: ReorderInput;
    let identifiers: string[] = [];
    const ph = (v.pharmacy ?? '').trim();
    try {
      input = inputOf(v);
      if (!ph) throw new FieldError('pharmacy', 'must not be empty: an Organization id, or <system>|<value> to search by identifier');
      if (!ph.includes('|')) {
        const id = reorderInput({ pharmacy: ph }).pharmacy!;
        const known = [t.org, ...found.current, ...(rows ?? []).map((x) => x.organization)].find((o) => o?.id === id);
        return review(t, input, id, known);
      }
      identifiers = ph
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      pharmacyQuery(identifiers);
    } catch (e) {
      // The pharmacy field takes the identifiers M4 searches by.
      return form.fail(e instanceof FieldError && e.field === 'identifier' ? e.as('pharmacy') : e);
    }
    const r = await desk.run(`Searching pharmacies by identifier ${ph} (M4)`, (signal) =>
      searchPharmacies(desk.client, identifiers, { signal, limit: 500 }),
    );
    if (!r.ok) return;
    found.current = [...r.value, ...found.current].slice(0, 100);
    if (r.value.length === 0) {
      desk.error(`No pharmacy has the identifier ${ph}.`);
      return form.focus('pharmacy');
    }
    if (r.value.length > 1) return stack.push({ kind: 'pick', target: t, found: r.value, input, at: new Date() });
    const org = r.value[0]!;
    form.set((x) => ({ ...x, pharmacy: org.id }));
    desk.info(`Pharmacy ${ph} is ${clean(org.id)} ${clean(org.name ?? '')}.`);
    review(t, input, org.id, org);
  };

  const pick = (o: Organization) => {
    const top = stack.current();
    if (top.kind !== 'pick') return;
    form.set((x) => ({ ...x, pharmacy: o.id }));
    review(top.target, top.input, o.id, o);
  };

  const confirm = confirmation(stack, 'confirm', form);

  const place = async () => {
    const top = confirm.take();
    if (!top) return;
    const { target: t, order: o } = top;
    const r = await desk.run(`Ordering a reorder of ${clean(t.r.id)} (M3)`, (signal) => orderMedication(desk.client, o.body, { signal }), {
      sends: true,
    });
    if (!r.ok) return;
    const created = r.value.medicationRequest;
    const id = r.value.created.id; // the server's (decisions.md §16): its answer's, else its Location's
    setFormFor(undefined);
    stack.reset();
    // Reload first: a request's start clears the status line, and the order's confirmation must stay.
    const reloaded = await load(true);
    desk.ok(
      `Ordered ${id ? clean(id) : 'it'} (${clean(created?.status ?? o.body.status)}): ${clean(o.body.medicationReference.display ?? o.body.medicationReference.reference)}, ${quantityText(o.body as MedicationRequest)} at ${clean(o.org?.name ?? o.body.performer.reference)}.${reloaded ? '' : ' The list could not be reloaded (r to try again).'}`,
    );
  };

  return {
    stack,
    rows,
    /** When M1 was last read. */
    loadedAt,
    loadFailed,
    form,
    select: setSelected,
    load: () => void load(),
    showDetail: (row: MedicationRow) => void showDetail(row),
    reread: () => void reread(),
    reorder: () => void reorder(),
    submit: (v: FormValues) => void submit(v),
    pick,
    unconfirm: confirm.back,
    place: () => void place(),
  };
}

export type MedReorder = ReturnType<typeof useMedReorder>;
