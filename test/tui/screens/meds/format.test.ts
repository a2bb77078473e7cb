/** Columns and details of the Meds screen (src/tui/screens/meds/format.ts). */
import { describe, expect, it } from 'vitest';
import type { MedicationRequest, MedicationRow, Organization } from '../../../../src/core/schemas/medication.js';
import { addressText, detailLines, idOf, medLayout, pharmacyLine, pharmacyWidths } from '../../../../src/tui/screens/meds/format.js';

const org: Organization = {
  resourceType: 'Organization',
  id: 'ph-1',
  name: 'Apotheek Centrum',
  identifier: [{ system: 'urn:pdesk:pharmacy-id', value: 'PH001' }],
  address: [{ line: ['Oudegracht 120'], city: 'Utrecht', postalCode: '3511 AX', country: 'NL' }],
};
const r: MedicationRequest = {
  resourceType: 'MedicationRequest',
  id: 'mr-1',
  status: 'active',
  intent: 'order',
  medicationReference: { reference: 'Medication/med-1', display: 'Metformin 500 mg tablet' },
  subject: { reference: 'Patient/pat-1' },
  performer: { reference: 'Organization/ph-1' },
  dispenseRequest: { initialFill: { quantity: { value: 60, unit: 'tablet' } } },
  extension: [{ url: 'x', valuePeriod: { start: '2026-02-01', end: '2026-03-03' } }],
};
const row: MedicationRow = { medicationRequest: r, organization: org };

describe('meds format', () => {
  it('shows the period column only when there is room', () => {
    expect(medLayout(78).header).not.toContain('PERIOD');
    expect(medLayout(128).header).toContain('PERIOD');
    expect(medLayout(128).values(row)).toEqual([
      'mr-1',
      'active',
      'Metformin 500 mg tablet',
      'pat-1',
      'Apotheek Centrum',
      '60 tablet',
      '2026-02-01..2026-03-03',
    ]);
  });

  it('on a wide terminal the columns grow to their longest value (the period takes the rest)', () => {
    const long: MedicationRow = {
      medicationRequest: {
        ...r,
        medicationReference: { reference: 'Medication/m', display: 'Amoxicillin/clavulanic acid 875/125 mg tablet' },
      },
      organization: { ...org, name: 'Apotheek De Gezonde Wereld Centrum-Oost' },
    };
    const l = medLayout(198, ['mr-1'], [row, long]);
    expect(l.widths.slice(2, 5)).toEqual([
      'Amoxicillin/clavulanic acid 875/125 mg tablet'.length,
      8,
      'Apotheek De Gezonde Wereld Centrum-Oost'.length,
    ]);
    expect(medLayout(128, ['mr-1']).widths).toEqual(medLayout(128, ['mr-1'], []).widths);
  });

  it('detail lines, address and pharmacy lines', () => {
    expect(addressText(org)).toBe('Oudegracht 120, 3511 AX Utrecht NL');
    expect(pharmacyLine(org, 120)).toMatch(/^ph-1\s+Apotheek Centrum\s+Oudegracht 120, 3511 AX Utrecht NL\s+urn:pdesk:pharmacy-id\|PH001$/);
    const lines = detailLines(r, org);
    expect(lines).toContain('quantity      60 tablet');
    expect(lines.find((l) => l.startsWith('  address'))).toContain('Utrecht');
    expect(detailLines(r, undefined).some((l) => l.startsWith('  address'))).toBe(false);
    expect(idOf('Organization/ph-2', 'Organization')).toBe('ph-2');
    expect(idOf('Patient/ph-2', 'Organization')).toBeUndefined();
  });

  it('a pharmacy id is never cut when the row has room for it and the name', () => {
    const long = 'pharmacy-0123456789-abcdef';
    const widths = pharmacyWidths(100, ['ph-1', long]);
    expect(widths[0]).toBe(long.length);
    expect(pharmacyLine({ ...org, id: long }, 100, widths)).toMatch(new RegExp(`^${long}\\s+Apotheek Centrum`));
    expect(pharmacyWidths(100, ['ph-1'])[0]).toBe(8);
    expect(pharmacyWidths(30, [long])[0]).toBeLessThan(long.length); // too narrow: it gives way to the name
  });
});
