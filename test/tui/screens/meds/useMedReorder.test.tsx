/** useMedReorder: list, details and the reorder steps against canned answers (no sandbox). */
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOptions } from '../../../../src/core/client.js';
import type { MedicationRequest, Organization } from '../../../../src/core/schemas/medication.js';
import { inputOf, periodLength, useMedReorder } from '../../../../src/tui/screens/meds/useMedReorder.js';
import { type RenderedHook, renderHook } from '../../hook-harness.js';

const org = (id: string, name: string, value: string): Organization => ({
  resourceType: 'Organization',
  id,
  name,
  identifier: [{ system: 'urn:pdesk:pharmacy-id', value }],
});
const PH1 = org('ph-1', 'Apotheek Centrum', 'PH001');
const PH3 = org('ph-3', 'Service Apotheek Zuid', 'PH003');
const MR1: MedicationRequest = {
  resourceType: 'MedicationRequest',
  id: 'mr-1',
  status: 'active',
  intent: 'order',
  medicationReference: { reference: 'Medication/med-1', display: 'Metformin 500 mg tablet' },
  subject: { reference: 'Patient/pat-1' },
  performer: { reference: 'Organization/ph-1' },
  dispenseRequest: { initialFill: { quantity: { value: 60, unit: 'tablet', system: 'http://unitsofmeasure.org', code: '{tbl}' } } },
  extension: [{ url: 'portal.example.medication-period', valuePeriod: { start: '2026-02-01', end: '2026-03-03' } }],
};
const list = { resourceType: 'Bundle', type: 'searchset', total: 1, entry: [{ 'medication-request': MR1, organization: PH1 }] };
const pharmacies = (o: CallOptions) => {
  const wanted = new Set(String(o.query?.[0]?.[1]).split(','));
  const hits = [PH1, PH3].filter((p) => wanted.has(`urn:pdesk:pharmacy-id|${p.identifier![0]!.value}`));
  return { resourceType: 'Bundle', type: 'searchset', total: hits.length, entry: hits.map((resource) => ({ resource })) };
};
const ordered = (o: CallOptions) => ({ ...(o.body as object), id: 'mr-9' });

let h: RenderedHook<ReturnType<typeof useMedReorder>> | undefined;
afterEach(() => h?.unmount());

async function toForm() {
  const hook = renderHook(() => useMedReorder(), { answers: { M1: list, M2: MR1, M4: pharmacies, M3: ordered } });
  await hook.until(() => expect(hook.current.rows).toHaveLength(1));
  hook.current.select(hook.current.rows![0]);
  hook.current.reorder();
  await hook.until(() => expect(hook.current.stack.top.kind).toBe('reorder'));
  return hook;
}

describe('inputOf and periodLength', () => {
  it('checks every field of the form, naming it', () => {
    const now = new Date(2026, 2, 2, 12);
    // An empty field is left out (the start then defaults to today in buildReorder).
    expect(inputOf({ quantity: ' 30 ', start: '', end: '', note: ' x ' }, now)).toEqual({ quantity: 30, note: 'x' });
    expect(inputOf({ start: 'today' }, now)).toEqual({ start: '2026-03-02' });
    expect(() => inputOf({ end: '2026-03-01' }, now)).toThrow(
      'end (2026-03-01) is before the default start, today (2026-03-02): give start too.',
    );
    expect(() => inputOf({ quantity: '0' }, now)).toThrow('quantity must be a positive number, not "0".');
    expect(() => inputOf({ start: '2026-03-05', end: '2026-03-01' }, now)).toThrow('end (2026-03-01) is before start (2026-03-05).');
    expect(() => inputOf({ start: 'someday' }, now)).toThrow(/^start must be a date/);
    expect(periodLength(MR1)).toBe(30);
    expect(periodLength({ ...MR1, extension: [] })).toBe(30);
  });
});

describe('useMedReorder', () => {
  it('o reads the request (M2) and opens the form prefilled; errors land on their field; one pharmacy found goes to the confirmation', async () => {
    h = await toForm();
    expect(h.fake.calls.map((c) => c.op)).toEqual(['M1', 'M2']);
    expect(h.current.form.values()).toEqual({ pharmacy: 'ph-1', quantity: '60', start: 'today', end: '', note: '' });
    h.current.submit({ ...h.current.form.values(), quantity: 'lots' });
    await h.until(() => expect(h!.text()).toBe('Quantity must be a positive number, not "lots".'));
    expect(h.current.form.bind.focusRequest?.field).toBe('quantity');
    h.current.form.bind.onChange({ ...h.current.form.values(), pharmacy: 'urn:pdesk:pharmacy-id|' }, 'note');
    h.current.submit(h.current.form.values());
    await h.until(() => expect(h!.text()).toBe('Pharmacy must be <system>|<value>, not "urn:pdesk:pharmacy-id|".'));
    expect(h.current.form.bind.focusRequest?.field).toBe('pharmacy');
    expect(h.fake.of('M4')).toHaveLength(0);
    h.current.submit({ ...h.current.form.values(), pharmacy: 'urn:pdesk:pharmacy-id|PH003' });
    await h.until(() => expect(h!.current.stack.top.kind).toBe('confirm'));
    expect(h.current.form.values().pharmacy).toBe('ph-3');
    const top = h.current.stack.top as { order: { body: { performer: { reference: string } }; org?: Organization } };
    expect(top.order.body.performer.reference).toBe('Organization/ph-3');
    expect(top.order.org?.name).toBe('Service Apotheek Zuid');
  });

  it('several pharmacies: a pick replaced by the confirmation, so n goes back to the form; y orders (M3) and reloads', async () => {
    h = await toForm();
    h.current.form.bind.onChange({ ...h.current.form.values(), note: 'call me' }, 'note');
    h.current.submit({ ...h.current.form.values(), pharmacy: 'urn:pdesk:pharmacy-id|PH001,urn:pdesk:pharmacy-id|PH003' });
    await h.until(() => expect(h!.current.stack.top.kind).toBe('pick'));
    h.current.pick(PH3);
    await h.until(() => expect(h!.current.stack.top.kind).toBe('confirm'));
    expect(h.current.stack.steps.map((s) => s.kind)).toEqual(['list', 'reorder', 'confirm']);
    h.current.unconfirm();
    await h.until(() => expect(h!.current.stack.top.kind).toBe('reorder'));
    expect(h.current.form.bind.focusRequest?.field).toBe('note');
    h.current.submit(h.current.form.values()); // ph-3 now, known from the search
    await h.until(() => expect(h!.current.stack.top.kind).toBe('confirm'));
    expect((h.current.stack.top as { order: { org?: Organization } }).order.org?.id).toBe('ph-3');
    expect(h.fake.of('M3')).toHaveLength(0);
    h.current.place();
    await h.until(() => expect(h!.text()).toBe('Ordered mr-9 (draft): Metformin 500 mg tablet, 60 tablet at Service Apotheek Zuid.'));
    expect(h.current.stack.steps).toEqual([{ kind: 'list' }]);
    expect(h.fake.of('M1')).toHaveLength(2);
    expect(h.fake.of('M3')[0]!.body).toMatchObject({ basedOn: [{ reference: 'MedicationRequest/mr-1' }], note: ['call me'] });
  });
});
