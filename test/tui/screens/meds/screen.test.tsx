/** Meds screen against a real sandbox: list (M1), detail (M2), reorder with pharmacy search (M4) and order (M3). */
import { afterEach, describe, expect, it } from 'vitest';
import { type Desk, KEY, lines, openDesk } from '../../harness.js';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const CLEAR = '\u0015'; // ^U
const orders = (d: Desk) => d.sandbox.received.filter((r) => r.method === 'POST' && r.path === '/practice/MedicationRequest');
const newRequests = (d: Desk) => [...d.sandbox.state.medicationRequests.values()].filter((m) => !['mr-1', 'mr-2', 'mr-3'].includes(m.id));

/** From the list to the reorder form of the selected request (mr-1 first). */
async function toReorder(d: Desk) {
  await d.waitFor('Metformin 500 mg tablet');
  await d.press('o');
  await d.waitFor('Reorder mr-1 (M3)');
}

/** Fill the form: pharmacy, quantity (empty strings keep the prefilled value), then submit. */
async function fillReorder(d: Desk, pharmacy: string, quantity: string, note = '') {
  if (pharmacy) {
    await d.press(CLEAR);
    await d.type(pharmacy);
  }
  await d.press(KEY.enter);
  if (quantity) {
    await d.press(CLEAR);
    await d.type(quantity);
  }
  await d.press(KEY.enter, KEY.enter, KEY.enter); // start today, end default
  if (note) await d.type(note);
  await d.press(KEY.enter); // review
}

describe('Meds screen', () => {
  it('lists requests with their pharmacy at 80 columns, adds the period when wide, and shows one with M2', async () => {
    desk = await openDesk({ screen: 'meds', size: { columns: 80, rows: 24 } });
    let f = await desk.waitFor('Metformin 500 mg tablet');
    expect(f).toContain('1/3');
    expect(f).toMatch(/mr-1\s+active\s+Metformin 500 mg tablet\s+pat-1\s+Apotheek Centrum\s+60 tablet/);
    expect(f).toMatch(/mr-2\s+active\s+Lisinopril/);
    expect(lines(f).length).toBeLessThanOrEqual(23);
    for (const l of lines(f)) expect(l.length).toBeLessThanOrEqual(80);
    await desk.press(KEY.enter);
    f = await desk.waitFor('Medication request mr-1 (M2)');
    expect(desk.sandbox.received.some((r) => r.method === 'GET' && r.path === '/practice/MedicationRequest/mr-1')).toBe(true);
    expect(f).toMatch(/pharmacy\s+Organization\/ph-1 \(Apotheek Centrum\)|pharmacy\s+Apotheek Centrum \(Organization\/ph-1\)/);
    expect(f).toMatch(/address\s+Oudegracht 120, 3511 AX Utrecht NL/);
    expect(f).toMatch(/identifier\s+urn:pdesk:pharmacy-id\|PH001/);
    expect(f).toMatch(/period\s+\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}/);
    await desk.press(KEY.esc);
    await desk.waitFor('Medication requests (M1)');

    const wide = await openDesk({ screen: 'meds', size: { columns: 130, rows: 30 } });
    try {
      f = await wide.waitFor('Metformin 500 mg tablet');
      expect(f).toMatch(
        /mr-1\s+active\s+Metformin 500 mg tablet\s+pat-1\s+Apotheek Centrum\s+60 tablet\s+\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}/,
      );
    } finally {
      await wide.close();
    }
  });

  it('reorders mr-1 at a pharmacy found by identifier (M4): confirmation shows the body, the sandbox holds the draft', async () => {
    desk = await openDesk({ screen: 'meds' });
    await toReorder(desk);
    expect(desk.frame()).toContain('urn:pdesk:pharmacy-id|PH001'); // the example identifier comes from the current pharmacy
    await fillReorder(desk, 'urn:pdesk:pharmacy-id|PH002', '30', 'please call when ready');
    let f = await desk.waitFor('Order? POST MedicationRequest (M3)');
    expect(
      desk.sandbox.received.some(
        (r) => r.path === '/practice/Organization' && decodeURIComponent(r.query).includes('identifier=urn:pdesk:pharmacy-id|PH002'),
      ),
    ).toBe(true);
    expect(f).toContain('Order? POST MedicationRequest (M3), a reorder of mr-1:');
    expect(f).toContain('at Apotheek Noord (ph-2) · urn:pdesk:pharmacy-id|PH002');
    expect(f).toContain('quantity 30 tablet');
    expect(f).toContain('"status": "draft"');
    expect(orders(desk)).toHaveLength(0); // nothing ordered before the confirmation
    await desk.press(KEY.pgdn);
    await desk.waitFor('"reference": "Organization/ph-2"');
    await desk.press('y');
    f = await desk.waitFor(/Ordered mr-\d+ \(draft\): Metformin 500 mg tablet, 30 tablet at Apotheek Noord\./);
    expect(f).toContain('Apotheek Noord');
    const created = newRequests(desk);
    expect(created).toHaveLength(1);
    const mr = created[0]!;
    expect(mr.status).toBe('draft');
    expect(mr.intent).toBe('order');
    expect(mr.basedOn).toEqual([{ reference: 'MedicationRequest/mr-1' }]);
    expect(mr.performer?.reference).toBe('Organization/ph-2');
    expect(mr.medicationReference.reference).toBe('Medication/med-1');
    expect(mr.subject.reference).toBe('Patient/pat-1');
    expect(mr.dispenseRequest?.initialFill?.quantity).toMatchObject({ value: 30, unit: 'tablet' });
    expect(mr.note).toEqual(['please call when ready']);
    const period = mr.extension?.[0]?.valuePeriod;
    expect(period?.start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // 30 days: the length of mr-1's period.
    expect((Date.parse(period!.end!) - Date.parse(period!.start!)) / 86_400_000).toBe(30);
    // The list is reloaded and holds the new draft.
    await desk.waitFor(new RegExp(`${mr.id}\\s+draft\\s+Metformin`));
  });

  it('the pharmacy pick list shows when it was searched, sorts by a column (s, letter) and shows a pharmacy raw (y)', async () => {
    desk = await openDesk({ screen: 'meds' });
    await toReorder(desk);
    await fillReorder(desk, 'urn:pdesk:pharmacy-id|PH001,urn:pdesk:pharmacy-id|PH003', '');
    let f = await desk.waitFor('Pharmacies found (M4)');
    expect(f).toMatch(/Pharmacies found \(M4\).* \d\d:\d\d:\d\d · 1\/2/);
    const names = () =>
      desk!
        .frame()
        .split('\n')
        .filter((l) => /^[> ] ph-\d/.test(l))
        .map((l) => l.slice(2).split(/\s+/)[0]);
    expect(names()).toEqual(['ph-1', 'ph-3']);
    await desk.press('s', 'n', 's', 'n'); // by name, then reversed
    await desk.waitFor('name ↓');
    expect(names()).toEqual(['ph-3', 'ph-1']);
    expect(desk.frame()).toMatch(/^> ph-1/m); // the selection stays on its row
    await desk.press('y');
    f = await desk.waitFor('Raw · Organization ph-1 (M4)');
    expect(f).toContain('"resourceType": "Organization"');
    expect(f).toContain('"Apotheek Centrum"');
    await desk.press(KEY.esc);
    await desk.waitFor('Pharmacies found (M4)');
    expect(desk.sandbox.received.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('several pharmacies found: pick one; an unknown identifier and a refused pharmacy id keep the form', async () => {
    desk = await openDesk({ screen: 'meds' });
    await toReorder(desk);
    // No match: said in the status line, nothing ordered, the form stays.
    await fillReorder(desk, 'urn:pdesk:pharmacy-id|NOPE', '');
    let f = await desk.waitFor('No pharmacy has the identifier urn:pdesk:pharmacy-id|NOPE.');
    expect(f).toContain('Reorder mr-1 (M3)');
    // Two matches: a list to pick from (the cursor is back on the pharmacy field).
    expect(f).toMatch(/› Pharmacy\s+urn:pdesk:pharmacy-id\|NOPE/);
    await fillReorder(desk, 'urn:pdesk:pharmacy-id|PH001,urn:pdesk:pharmacy-id|PH003', '');
    f = await desk.waitFor('Pharmacies found (M4)');
    expect(f).toContain('Apotheek Centrum');
    expect(f).toContain('Service Apotheek Zuid');
    await desk.press('j', KEY.enter);
    f = await desk.waitFor('Order? POST MedicationRequest (M3)');
    expect(f).toContain('at Service Apotheek Zuid (ph-3) · urn:pdesk:pharmacy-id|PH003');
    await desk.press('n'); // back to the form, nothing sent
    await desk.waitFor('Reorder mr-1 (M3)');
    expect(desk.frame()).toContain('ph-3');
    // A pharmacy id the sandbox does not know: 422, the form keeps what was typed.
    await fillReorder(desk, 'ph-999', '45');
    await desk.waitFor('Order? POST MedicationRequest (M3)');
    await desk.press('y');
    f = await desk.waitFor('HTTP 422');
    expect(f).toContain('performer names no known pharmacy');
    expect(f).toContain('Reorder mr-1 (M3)');
    expect(f).toContain('ph-999');
    expect(f).toContain('45');
    expect(orders(desk)).toHaveLength(1);
    expect(newRequests(desk)).toHaveLength(0);
    // The cursor is on the field edited last. A bad quantity is refused before anything is sent, and the
    // cursor goes to it.
    expect(f).toMatch(/› Quantity\s+45/);
    await desk.press(CLEAR);
    await desk.type('-3');
    await desk.press(KEY.enter, KEY.enter, KEY.enter, KEY.enter);
    f = await desk.waitFor('Quantity must be a positive number, not "-3".');
    expect(f).toMatch(/› Quantity\s+-3/);
    expect(orders(desk)).toHaveLength(1);
  });

  it('? lists the keys, / filters, Esc walks back from the form to the detail and the list', async () => {
    desk = await openDesk({ screen: 'meds' });
    await desk.waitFor('Metformin 500 mg tablet');
    await desk.press('?');
    let f = await desk.waitFor('Help — keys');
    expect(f).toContain('Meds screen');
    expect(f).toContain('reorder the selected request');
    expect(f).toContain('filter the list');
    await desk.press(KEY.esc);
    await desk.waitFor('Medication requests (M1)');
    await desk.press('/');
    await desk.type('salbu');
    f = await desk.waitFor('/salbu');
    expect(f).toContain('Salbutamol');
    expect(f).not.toContain('Metformin');
    await desk.press(KEY.enter); // keep the filter
    await desk.press(KEY.enter); // open mr-3
    await desk.waitFor('Medication request mr-3 (M2)');
    await desk.press('o');
    await desk.waitFor('Reorder mr-3 (M3)');
    f = desk.frame();
    expect(f).toContain('start + 30 days'); // mr-3 has no period: 30 days
    await desk.press(KEY.esc);
    await desk.waitFor('Medication request mr-3 (M2)');
    await desk.press(KEY.esc);
    f = await desk.waitFor('Medication requests (M1)');
    expect(f).toContain('/salbu');
    await desk.press(KEY.esc); // clears the filter
    await desk.waitFor('Metformin');
    expect(desk.quitCalls).toBe(0);
  });
});
