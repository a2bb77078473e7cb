/**
 * Appointment schemas (src/core/schemas/appointment.ts, bundle.ts) on payloads shaped like interface.md's tables
 * (decisions.md §3): numeric ids normalised to strings, bare and wrapped Bundle entries, both A1 shapes, unknown
 * fields kept, a missing required field or an enum violation named by its JSON path.
 */
import { describe, expect, it } from 'vitest';
import { typeRows } from '../../../src/core/api/appointments.js';
import { roleName, roleSpecialities } from '../../../src/core/labels.js';
import { BodyError, ContractError, ExitCode } from '../../../src/core/errors.js';
import {
  Appointment,
  AppointmentCreate,
  AppointmentResponseCreate,
  PractitionerRole,
  Schedule,
  Slot,
  checkBody,
  parseBody,
  parseBundle,
  parseResponse,
} from '../../../src/core/schemas/index.js';

const cc = (code: string) => ({ coding: [{ system: 'urn:sc', code, display: code.toUpperCase() }] });

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

describe('PractitionerRole (Bundle with entry[].resource)', () => {
  const bundle = {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: [
      {
        resource: {
          resourceType: 'PractitionerRole',
          id: 1001,
          name: 'Dr. Anna Berg',
          speciality: { coding: [{ code: '0100', display: 'GP' }] },
        },
      },
      { resource: { resourceType: 'PractitionerRole', id: 'pr-2', name: 'Dr. B', extra: { nested: [1, 2] } }, search: { mode: 'match' } },
    ],
  };

  it('normalises a numeric id (1.0.0 sample) to a string and keeps unknown fields', () => {
    const page = parseBundle(PractitionerRole, bundle);
    expect(page.resources.map((r) => r.id)).toEqual(['1001', 'pr-2']);
    expect(typeof page.resources[0]!.id).toBe('string');
    expect(page.resources[0]!.speciality?.coding?.[0]).toEqual({ code: '0100', display: 'GP' });
    expect((page.resources[1] as Record<string, unknown>).extra).toEqual({ nested: [1, 2] });
  });

  it('a missing id names $.entry[i].resource.id', () => {
    const bad = { ...bundle, entry: [bundle.entry[0], { resource: { resourceType: 'PractitionerRole', name: 'x' } }] };
    const e = contract(() => parseBundle(PractitionerRole, bad));
    expect(e.path).toBe('$.entry[1].resource.id');
    expect(e.message).toContain('$.entry[1].resource.id');
    expect(e.message).toContain('missing');
  });

  it('FHIR R4 roles: practitioner.display names them and specialty lists their codings (labels roleName, roleSpecialities)', () => {
    const r4 = parseResponse(PractitionerRole, {
      resourceType: 'PractitionerRole',
      id: 'r1',
      practitioner: { reference: 'Practitioner/p1', display: 'Dr. Anna Berg' },
      specialty: [{ coding: [{ code: '0100', display: 'GP' }] }, { coding: [{ code: '2100' }] }],
    });
    expect(roleName(r4)).toBe('Dr. Anna Berg');
    expect(roleSpecialities(r4)).toEqual([{ code: '0100', display: 'GP' }, { code: '2100' }]);
    const own = parseBundle(PractitionerRole, bundle).resources[0]!;
    expect(roleName({ ...own, practitioner: { display: 'other' } })).toBe('Dr. Anna Berg');
    expect(roleSpecialities({ ...own, specialty: [{ coding: [{ code: '9999' }] }] })).toEqual([{ code: '0100', display: 'GP' }]);
    expect(contract(() => parseResponse(PractitionerRole, { ...r4, specialty: { coding: [] } })).path).toBe('$.specialty');
  });

  it('a speciality code must be a string when present', () => {
    const bad = {
      resourceType: 'Bundle',
      entry: [{ resource: { resourceType: 'PractitionerRole', id: 1, speciality: { coding: [{ code: 100 }] } } }],
    };
    expect(contract(() => parseBundle(PractitionerRole, bad)).path).toBe('$.entry[0].resource.speciality.coding[0].code');
  });
});

describe('Schedule (bare entries, numeric ids)', () => {
  const bundle = {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: [
      { resourceType: 'Schedule', id: 11, serviceCategory: [cc('gp')], actor: [{ reference: 'PractitionerRole/1001' }] },
      { resource: { resourceType: 'Schedule', id: '12', actor: [{ reference: 'PractitionerRole/1002', display: 'Dr. B' }] } },
    ],
  };

  it('accepts the bare and the wrapped form in one Bundle', () => {
    const page = parseBundle(Schedule, bundle);
    expect(page.resources.map((s) => s.id)).toEqual(['11', '12']);
    expect(page.resources[0]!.actor?.[0]?.reference).toBe('PractitionerRole/1001');
  });

  it('a bare entry with a bad field names $.entry[i].<field>', () => {
    const bad = { resourceType: 'Bundle', entry: [{ resourceType: 'Schedule', id: 11, actor: [{ display: 'no reference' }] }] };
    expect(contract(() => parseBundle(Schedule, bad)).path).toBe('$.entry[0].actor[0].reference');
  });

  it('the wrong resource type is named', () => {
    const bad = { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Slot', id: 1 } }] };
    expect(contract(() => parseBundle(Schedule, bad)).path).toBe('$.entry[0].resource.resourceType');
  });
});

describe('Slot (2.0.0 sample: numeric id, schedule reference)', () => {
  const slot = {
    resourceType: 'Slot',
    id: 501,
    status: 'free',
    start: '2026-03-02T09:00:00Z',
    end: '2026-03-02T09:30:00Z',
    serviceCategory: [cc('gp')],
    extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' } }],
    schedule: { reference: 'Schedule/11' },
    comment: 'unknown to the interface',
  };
  const bundle = {
    resourceType: 'Bundle',
    type: 'searchset',
    total: 1,
    entry: [{ resource: slot }],
    link: [{ relation: 'next', url: '/Slot?page=2' }],
  };

  it('parses, normalises the id, keeps unknown fields, reads total and the next link', () => {
    const page = parseBundle(Slot, bundle);
    expect(page.resources[0]!.id).toBe('501');
    expect(page.resources[0]!.schedule).toEqual({ reference: 'Schedule/11' });
    expect((page.resources[0] as Record<string, unknown>).comment).toBe('unknown to the interface');
    expect(page.total).toBe(1);
    expect(page.next).toBe('/Slot?page=2');
  });

  it('accepts slot statuses other than free (busy)', () => {
    expect(parseResponse(Slot, { ...slot, status: 'busy' }).status).toBe('busy');
  });

  it.each(['start', 'end', 'status', 'id'])('a missing %s is named by its JSON path', (field) => {
    const { [field]: _gone, ...rest } = slot as Record<string, unknown>;
    const e = contract(() => parseBundle(Slot, { ...bundle, entry: [{ resource: rest }] }));
    expect(e.path).toBe(`$.entry[0].resource.${field}`);
    expect(e.message).toMatch(/required field is missing/);
  });

  it('a start that is not a date-time is named', () => {
    const e = contract(() => parseBundle(Slot, { ...bundle, entry: [{ resource: { ...slot, start: 'tomorrow' } }] }));
    expect(e.path).toBe('$.entry[0].resource.start');
    expect(e.message).toContain('ISO 8601');
  });

  it('a Bundle total must be a non-negative integer, and the body must be a Bundle', () => {
    expect(contract(() => parseBundle(Slot, { ...bundle, total: -1 })).path).toBe('$.total');
    expect(contract(() => parseBundle(Slot, { resourceType: 'OperationOutcome', issue: [] })).path).toBe('$.resourceType');
    expect(contract(() => parseBundle(Slot, [])).path).toBe('$');
  });
});

describe('A1: both shapes normalise to {code, display}', () => {
  it('ValueSet (2.0.0) compose.include[].concept[]', () => {
    const vs = {
      resourceType: 'ValueSet',
      status: 'active',
      compose: {
        include: [
          { concept: [{ code: 'consult', display: 'Consultation' }, { code: 'vacc' }] },
          { concept: [{ code: 'phone', display: 'Phone' }] },
        ],
      },
    };
    expect(typeRows(vs)).toEqual([
      { code: 'consult', display: 'Consultation' },
      { code: 'vacc', display: undefined },
      { code: 'phone', display: 'Phone' },
    ]);
  });

  it('AppointmentType (1.0.0) compose.include[].actor.concept', () => {
    const at = {
      resourceType: 'AppointmentType',
      compose: { include: [{ actor: { concept: { code: 'consult', display: 'Consultation' } } }] },
    };
    expect(typeRows(at)).toEqual([{ code: 'consult', display: 'Consultation' }]);
  });

  it('a concept without a code is named', () => {
    const vs = { resourceType: 'ValueSet', compose: { include: [{ concept: [{ code: 'a' }, { display: 'no code' }] }] } };
    expect(contract(() => typeRows(vs)).path).toBe('$.compose.include[0].concept[1].code');
    const at = { resourceType: 'AppointmentType', compose: { include: [{ actor: { concept: { display: 'x' } } }] } };
    expect(contract(() => typeRows(at)).path).toBe('$.compose.include[0].actor.concept.code');
  });

  it('an AppointmentType include without actor.concept is named, not skipped (required in responses)', () => {
    const at = {
      resourceType: 'AppointmentType',
      compose: { include: [{ actor: { concept: { code: 'a' } } }, { concept: [{ code: 'b' }] }] },
    };
    const e = contract(() => typeRows(at));
    expect(e.path).toBe('$.compose.include[1].actor');
    expect(e.message).toContain('required field is missing');
  });
});

describe('Appointment', () => {
  const appt = {
    resourceType: 'Appointment',
    id: 'a-1',
    status: 'booked',
    start: '2026-03-02T09:00:00Z',
    end: '2026-03-02T09:30:00Z',
    comment: 'Back pain',
    serviceCategory: [cc('gp')],
    participant: [
      { actor: { reference: 'Patient/p1', display: 'Pat' }, required: 'required', status: 'accepted' },
      { actor: { reference: 'PractitionerRole/1001' }, required: 'required', status: 'needs-action' },
    ],
  };

  it('reads a full appointment', () => {
    expect(parseResponse(Appointment, appt)).toMatchObject({ id: 'a-1', status: 'booked' });
    expect(parseResponse(Appointment, { resourceType: 'Appointment', id: 5, status: 'cancelled' }).id).toBe('5');
  });

  it('a status outside the enum is a contract error naming the path and the allowed values', () => {
    const e = contract(() => parseBundle(Appointment, { resourceType: 'Bundle', entry: [{ resource: { ...appt, status: 'fulfilled' } }] }));
    expect(e.path).toBe('$.entry[0].resource.status');
    expect(e.message).toMatch(/proposed.*booked.*cancelled/);
  });

  it('on create every field of the interface table is required (BodyError, exit 2)', () => {
    expect(parseBody(AppointmentCreate, appt).id).toBe('a-1');
    const { comment: _c, ...noComment } = appt;
    let err: unknown;
    try {
      parseBody(AppointmentCreate, noComment);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BodyError);
    expect((err as BodyError).exitCode).toBe(ExitCode.usage);
    expect((err as BodyError).path).toBe('$.comment');
    expect(checkBody(AppointmentCreate, { ...appt, participant: [appt.participant[0]] })).toMatchObject({
      ok: false,
      path: '$.participant',
    });
  });

  it('a cancellation takes only participantStatus declined and an Appointment reference', () => {
    const body = {
      actor: { reference: 'Patient/p1' },
      comment: 'ill',
      appointment: { reference: 'Appointment/a-1' },
      participantStatus: 'declined',
    };
    expect(checkBody(AppointmentResponseCreate, body).ok).toBe(true);
    expect(checkBody(AppointmentResponseCreate, { ...body, participantStatus: 'accepted' })).toMatchObject({
      ok: false,
      path: '$.participantStatus',
    });
    expect(checkBody(AppointmentResponseCreate, { ...body, appointment: { reference: 'Slot/1' } })).toMatchObject({
      ok: false,
      path: '$.appointment.reference',
    });
  });
});
