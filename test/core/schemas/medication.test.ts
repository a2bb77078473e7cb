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

describe('standard FHIR R4 shapes (decisions.md §3)', () => {
  const mr = (id: string, performer?: string) => ({
    resourceType: 'MedicationRequest',
    id,
    status: 'active',
    intent: 'order',
    medicationReference: { reference: 'Medication/m1' },
    subject: { reference: 'Patient/p1' },
    ...(performer ? { performer: { reference: performer } } : {}),
    note: [{ text: 'Take with food', time: '2030-01-01' }, 'and water'],
  });
  const org = (id: string) => ({ resourceType: 'Organization', id, name: `Pharmacy ${id}` });

  it('M1: a searchset of {resource} entries, pharmacies _included and paired by performer; bare entries and search warnings too', () => {
    const list = parseMedicationList({
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        { fullUrl: 'x', resource: mr('r1', 'Organization/o2'), search: { mode: 'match' } },
        mr('r2', 'http://fhir.example/R4/Organization/o1'),
        { resource: mr('r3', 'Organization/o9') },
        { resource: org('o1'), search: { mode: 'include' } },
        { resource: org('o2'), search: { mode: 'include' } },
        { resource: { resourceType: 'OperationOutcome', issue: [] }, search: { mode: 'outcome' } },
      ],
    });
    expect(list.rows.map((r) => [r.medicationRequest.id, r.organization?.id])).toEqual([
      ['r1', 'o2'],
      ['r2', 'o1'],
      ['r3', undefined],
    ]);
    expect(list.rows[0]!.medicationRequest.note).toEqual([{ text: 'Take with food', time: '2030-01-01' }, 'and water']);
  });

  it('M1: a standard entry that breaks the interface is named at $.entry[i].resource; an interface pair as before', () => {
    const { subject: _s, ...noSubject } = mr('r1');
    expect(contract(() => parseMedicationList({ resourceType: 'Bundle', entry: [{ resource: noSubject }] })).path).toBe(
      '$.entry[0].resource.subject',
    );
    expect(contract(() => parseMedicationList({ resourceType: 'Bundle', entry: [{ organization: org('o1') }] })).path).toBe(
      '$.entry[0].medication-request',
    );
  });

  it('M2: a note is a string or an Annotation with text; anything else is named', () => {
    expect(parseResponse(MedicationRequest, mr('r1')).note).toHaveLength(2);
    expect(contract(() => parseResponse(MedicationRequest, { ...mr('r1'), note: [{ authorString: 'x' }] })).path).toBe('$.note[0].text');
  });
});
