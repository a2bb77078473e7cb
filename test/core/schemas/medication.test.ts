/**
 * Medication schemas (src/core/schemas/medication.ts) on payloads shaped like interface.md's tables: M1 normalised to
 * {medicationRequest, organization}, M2–M4, a missing required field named by its JSON path.
 */
import { describe, expect, it } from 'vitest';
import { ContractError, ExitCode } from '../../../src/core/errors.js';
import { MedicationRequest, Organization, parseBundle, parseMedicationList, parseResponse } from '../../../src/core/schemas/index.js';

/** Run `fn`, expect a ContractError and return it. */
function contract(fn: () => unknown): ContractError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ContractError);
    expect((e as ContractError).exitCode).toBe(ExitCode.contract);
    return e as ContractError;
  }
  throw new Error('expected a ContractError');
}

describe('medication', () => {
  const mr = {
    resourceType: 'MedicationRequest',
    id: 'mr-1',
    status: 'active',
    intent: 'order',
    medicationReference: { reference: 'Medication/med-1', display: 'Ibuprofen 400' },
    subject: { reference: 'Patient/p1' },
    performer: { reference: 'Organization/ph-1' },
    extension: [{ url: 'x.medication-period', valuePeriod: { start: '2026-01-01', end: '2026-01-31' } }],
    dispenseRequest: { initialFill: { quantity: { value: 30, unit: 'tablet', system: 'http://unitsofmeasure.org', code: '{tbl}' } } },
    authoredOn: '2026-01-01T10:00:00+01:00',
    note: ['after meals'],
  };
  const org = {
    resourceType: 'Organization',
    id: 'ph-1',
    name: 'Pharmacy',
    address: [{ line: ['Main St 1'], city: 'Town', postalCode: '1234', country: 'NL' }],
  };

  it('M1 entries {medication-request, organization} normalise to {medicationRequest, organization}', () => {
    const list = parseMedicationList({
      resourceType: 'Bundle',
      meta: { versionId: '3' },
      type: 'searchset',
      total: 2,
      entry: [{ 'medication-request': mr, organization: org }, { 'medication-request': { ...mr, id: 2 } }],
    });
    expect(list.total).toBe(2);
    expect(list.rows[0]).toEqual({ medicationRequest: mr, organization: org });
    expect(list.rows[1]!.medicationRequest.id).toBe('2');
    expect(list.rows[1]!.organization).toBeUndefined();
  });

  it('M1: a bad nested field is named under its member', () => {
    const { subject: _s, ...noSubject } = mr;
    const e = contract(() =>
      parseMedicationList({ resourceType: 'Bundle', entry: [{ 'medication-request': noSubject, organization: org }] }),
    );
    expect(e.path).toBe('$.entry[0]["medication-request"].subject');
    const e2 = contract(() =>
      parseMedicationList({
        resourceType: 'Bundle',
        entry: [{ 'medication-request': mr, organization: { resourceType: 'Organization' } }],
      }),
    );
    expect(e2.path).toBe('$.entry[0].organization.id');
  });

  it('M2: required fields of a read request', () => {
    expect(parseResponse(MedicationRequest, mr).dispenseRequest?.initialFill?.quantity?.value).toBe(30);
    const { intent: _i, ...noIntent } = mr;
    expect(contract(() => parseResponse(MedicationRequest, noIntent)).path).toBe('$.intent');
    expect(
      contract(() => parseResponse(MedicationRequest, { ...mr, dispenseRequest: { initialFill: { quantity: { value: '30' } } } })).path,
    ).toBe('$.dispenseRequest.initialFill.quantity.value');
  });

  it('M4: Organization bundle with total', () => {
    const page = parseBundle(Organization, {
      resourceType: 'Bundle',
      type: 'searchset',
      total: 1,
      entry: [{ resource: { ...org, id: 9 } }],
    });
    expect(page.resources[0]!.id).toBe('9');
    expect(page.total).toBe(1);
  });
});
