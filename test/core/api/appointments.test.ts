/** Unit tests of src/core/api/appointments.ts: A1 shapes, the A4 query per version, A6/A7 bodies, slot input, labels. */
import { describe, expect, it } from 'vitest';
import {
  bookingFromSlot,
  buildAppointment,
  buildCancellation,
  conceptLabel,
  getAppointmentTypes,
  parseSlotArg,
  searchSlots,
  serviceCategoryConcept,
  slotQuery,
  slotRange,
  narrowedSlotQuery,
  bookingRequest,
  pastBooking,
  PastBookingError,
  typeRows,
  utcParts,
} from '../../../src/core/api/appointments.js';
import { referenceLabel } from '../../../src/core/labels.js';
import type { PdeskClient } from '../../../src/core/client.js';
import { BodyError, ContractError, UsageError } from '../../../src/core/errors.js';
import { resolveRoute } from '../../../src/core/routes.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { fieldErrorOf, flagOf } from '../../helpers/errors.js';

const v2 = Profile.parse(sandboxProfile('http://127.0.0.1:1'));
const v1 = Profile.parse(sandboxProfile('http://127.0.0.1:1', { appointmentApi: '1.0.0', approvalFlow: true }));

const slot = {
  resourceType: 'Slot',
  id: 7,
  status: 'free',
  start: '2026-03-02T09:00:00Z',
  end: '2026-03-02T09:30:00Z',
  serviceCategory: [{ coding: [{ system: 'urn:pdesk:service-category', code: 'gp' }] }],
  extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' } }],
  schedule: { reference: 'Schedule/11' },
  extra: { kept: true },
};

/** A client stand-in that records calls and answers pages in order (only what readPages and A1 use). */
function fakeClient(profile: Profile, pages: unknown[]) {
  const calls: Array<{ op: string; query?: unknown; url?: string }> = [];
  let i = 0;
  const client = {
    profile,
    async call(op: string, o: { query?: unknown }) {
      calls.push({ op, query: o.query });
      return { status: 200, headers: {}, body: pages[i++] };
    },
    async next(op: string, url: string) {
      calls.push({ op, url });
      return { status: 200, headers: {}, body: pages[i++] };
    },
  };
  return { client: client as unknown as PdeskClient, calls };
}

const slotPage = (ids: number[], next?: string) => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: ids.map((id) => ({ resource: { ...slot, id } })),
  ...(next ? { link: [{ relation: 'next', url: next }] } : {}),
});

describe('A1 typeRows', () => {
  it('normalises a ValueSet and an AppointmentType (and a Bundle of them) to {code, display}', () => {
    const vs = {
      resourceType: 'ValueSet',
      status: 'active',
      compose: { include: [{ concept: [{ code: 'consult', display: 'Consultation' }, { code: 'followup' }] }] },
    };
    const at = {
      resourceType: 'AppointmentType',
      compose: { include: [{ actor: { concept: { code: 'vaccination', display: 'Vaccination' } } }] },
    };
    expect(typeRows(vs)).toEqual([
      { code: 'consult', display: 'Consultation' },
      { code: 'followup', display: undefined },
    ]);
    expect(typeRows(at)).toEqual([{ code: 'vaccination', display: 'Vaccination' }]);
    expect(typeRows({ resourceType: 'Bundle', entry: [{ resource: at }, vs] }).map((r) => r.code)).toEqual([
      'vaccination',
      'consult',
      'followup',
    ]);
  });

  it('names the JSON path of a concept without code (exit 6)', () => {
    const bad = { resourceType: 'ValueSet', compose: { include: [{ concept: [{ display: 'x' }] }] } };
    expect(() => typeRows(bad)).toThrow(ContractError);
    expect(() => typeRows(bad)).toThrow(/\$\.compose\.include\[0\]\.concept\[0\]\.code/);
  });

  it('sends service-category as given', async () => {
    const { client, calls } = fakeClient(v1, [{ resourceType: 'AppointmentType', compose: { include: [] } }]);
    expect(await getAppointmentTypes(client, 'gp')).toEqual([]);
    expect(calls).toEqual([{ op: 'A1', query: [['service-category', 'gp']] }]);
  });
});

describe('A4 slotQuery', () => {
  const base = { serviceCategory: 'urn:pdesk:service-category|gp', from: '2026-03-01', to: '2026-03-07' };

  it('2.0.0: schedule and status, dates repeated as schedule.date', () => {
    expect(slotQuery(v2, { ...base, schedule: '11', status: 'busy' })).toEqual([
      ['service-category', 'urn:pdesk:service-category|gp'],
      ['schedule.date', 'ge2026-03-01'],
      ['schedule.date', 'le2026-03-07'],
      ['schedule', '11'],
      ['status', 'busy'],
    ]);
    expect(slotQuery(v2, base)).toHaveLength(3); // status only when given
  });

  it('1.0.0: practitioners as one comma list', () => {
    expect(slotQuery(v1, { ...base, practitioners: ['1001', '1002'] }).at(-1)).toEqual(['schedule.actor:PractitionerRole', '1001,1002']);
  });

  it('version-mismatched options are field errors naming the field, which the CLI words as its option', () => {
    const schedule = fieldErrorOf(() => slotQuery(v1, { ...base, schedule: '11' }));
    expect(schedule.field).toBe('schedule');
    expect(schedule.render(flagOf)).toMatch(/^--schedule needs appointment API 2\.0\.0/);
    expect(fieldErrorOf(() => slotQuery(v1, { ...base, status: 'free' })).render(flagOf)).toMatch(/^--status needs/);
    expect(fieldErrorOf(() => slotQuery(v2, { ...base, practitioners: ['1001'] })).render(flagOf)).toBe(
      '--practitioner needs appointment API 1.0.0; this profile uses 2.0.0 (use --schedule).',
    );
  });

  it('slotRange: the days as local calendar days, from not after to (the range rule of both faces)', () => {
    const now = new Date('2026-03-01T12:00:00');
    expect(slotRange({ from: 'today', to: '+6d' }, now)).toEqual({ from: '2026-03-01', to: '2026-03-07' });
    const order = fieldErrorOf(() => slotRange({ from: '2026-03-08', to: '2026-03-07' }, now));
    expect(order).toBeInstanceOf(UsageError);
    expect(order.render(flagOf)).toBe('--from (2026-03-08) is after --to (2026-03-07).');
    expect(order.render((f) => f.toUpperCase())).toBe('FROM (2026-03-08) is after TO (2026-03-07).');
    expect(fieldErrorOf(() => slotRange({ from: 'someday', to: 'today' }, now)).field).toBe('from');
  });

  it('narrowedSlotQuery: the schedule under 2.0.0, the practitioner under 1.0.0 (a face that offers both)', () => {
    const q = { ...base, schedule: '11', practitioner: '1001' };
    expect(narrowedSlotQuery(v2, q)).toEqual({ serviceCategory: base.serviceCategory, from: base.from, to: base.to, schedule: '11' });
    expect(narrowedSlotQuery(v1, q)).toMatchObject({ schedule: undefined, practitioners: ['1001'] });
    expect(narrowedSlotQuery(v1, { ...q, practitioner: undefined }).practitioners).toBeUndefined();
    expect(() => slotQuery(v2, narrowedSlotQuery(v2, q))).not.toThrow();
    expect(() => slotQuery(v1, narrowedSlotQuery(v1, q))).not.toThrow();
  });

  it('encodes | and , and repeats schedule.date in the URL', () => {
    const url = resolveRoute(v1, 'A4', {}, slotQuery(v1, { ...base, practitioners: ['1001', '1002'] })).url;
    expect(url).toBe(
      'http://127.0.0.1:1/practice/Slot?service-category=urn%3Apdesk%3Aservice-category%7Cgp&schedule.date=ge2026-03-01&schedule.date=le2026-03-07&schedule.actor%3APractitionerRole=1001%2C1002',
    );
  });

  it('a mismatched option throws before anything is sent', async () => {
    const { client, calls } = fakeClient(v1, []);
    await expect(searchSlots(client, { ...base, schedule: '11' })).rejects.toThrow(UsageError);
    expect(calls).toEqual([]);
  });

  it('follows next links and stops at the limit', async () => {
    const { client, calls } = fakeClient(v2, [
      slotPage([1, 2], 'http://127.0.0.1:1/practice/Slot?page=2'),
      slotPage([3, 4], 'http://127.0.0.1:1/practice/Slot?page=3'),
      slotPage([5]),
    ]);
    const three = await searchSlots(client, base, { limit: 3 });
    expect(three.map((s) => s.id)).toEqual(['1', '2', '3']); // numeric ids become strings
    expect(calls).toHaveLength(2);
    expect(three[0]).toMatchObject({ extra: { kept: true } }); // unknown fields kept
  });

  it('reads every page without a limit', async () => {
    const { client } = fakeClient(v2, [slotPage([1], '/practice/Slot?page=2'), slotPage([2])]);
    expect((await searchSlots(client, base, { limit: 0 })).map((s) => s.id)).toEqual(['1', '2']);
  });
});

describe('A6 buildAppointment', () => {
  const input = {
    patient: 'pat-1',
    practitioner: '1001',
    start: '2026-03-02T09:00:00Z',
    end: '2026-03-02T09:30:00Z',
    comment: 'cough',
    serviceCategory: [serviceCategoryConcept('urn:pdesk:service-category|gp')],
  };

  it('two required participants; practitioner needs-action only with the approval flow', () => {
    const off = buildAppointment(v2, input);
    expect(off.status).toBe('booked');
    expect(off.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(off.participant).toEqual([
      { actor: { reference: 'Patient/pat-1' }, required: 'required', status: 'accepted' },
      { actor: { reference: 'PractitionerRole/1001' }, required: 'required', status: 'accepted' },
    ]);
    const on = buildAppointment(v1, { ...input, status: 'proposed', id: 'a-1', patientDisplay: 'Pat One' });
    expect(on).toMatchObject({ id: 'a-1', status: 'proposed' });
    expect(on.participant.map((p) => p.status)).toEqual(['accepted', 'needs-action']);
    expect(on.participant[0]!.actor.display).toBe('Pat One');
  });

  it('accepts typed references and refuses references to another resource type', () => {
    expect(
      buildAppointment(v2, { ...input, patient: 'Patient/pat-2', practitioner: 'PractitionerRole/2001' }).participant.map(
        (p) => p.actor.reference,
      ),
    ).toEqual(['Patient/pat-2', 'PractitionerRole/2001']);
    expect(fieldErrorOf(() => buildAppointment(v2, { ...input, patient: 'Practitioner/9' })).render(flagOf)).toMatch(
      /^--patient must be an id or Patient\/<id>/,
    );
    expect(fieldErrorOf(() => buildAppointment(v2, { ...input, practitioner: 'Patient/1' })).field).toBe('practitioner');
  });

  it('ids are FHIR ids: empty, spaces and punctuation are refused naming the field', () => {
    expect(fieldErrorOf(() => buildAppointment(v2, { ...input, patient: ' ' })).render(flagOf)).toBe('--patient must not be empty.');
    for (const bad of ['bad id!', 'Patient/bad id!', 'a/b', 'x'.repeat(65)])
      expect(fieldErrorOf(() => buildAppointment(v2, { ...input, patient: bad })).field).toBe('patient');
    expect(buildAppointment(v2, { ...input, patient: 'pat-1.a' }).participant[0]!.actor.reference).toBe('Patient/pat-1.a');
  });

  it('an invalid built body is a BodyError naming the path', () => {
    expect(() => buildAppointment(v2, { ...input, serviceCategory: [] })).toThrow(BodyError);
    expect(() => buildAppointment(v2, { ...input, serviceCategory: [] })).toThrow(/\$\.serviceCategory/);
  });

  it('serviceCategoryConcept splits system|code', () => {
    expect(serviceCategoryConcept('urn:x|gp')).toEqual({ coding: [{ system: 'urn:x', code: 'gp' }] });
    expect(serviceCategoryConcept('gp')).toEqual({ coding: [{ code: 'gp' }] });
  });
});

describe('booking from a slot', () => {
  it('takes start, end, category and practitioner from the slot', () => {
    expect(bookingFromSlot(parseSlotArg(slot))).toEqual({
      start: '2026-03-02T09:00:00Z',
      end: '2026-03-02T09:30:00Z',
      serviceCategory: slot.serviceCategory,
      practitioner: 'PractitionerRole/1001',
      practitionerDisplay: 'Dr. Anna Berg',
    });
  });

  it('converts a slot time with an offset to UTC Z', () => {
    const b = bookingFromSlot(parseSlotArg({ ...slot, start: '2026-03-02T10:00:00+01:00', end: '2026-03-02T10:30:00+01:00' }));
    expect([b.start, b.end]).toEqual(['2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z']);
  });

  it('parseSlotArg takes an array of exactly one and names the JSON path of a bad slot', () => {
    expect(parseSlotArg([slot]).id).toBe('7');
    expect(fieldErrorOf(() => parseSlotArg([slot, slot])).render(flagOf)).toMatch(/^--slot-json must hold one Slot; the array has 2/);
    expect(() => parseSlotArg([])).toThrow(/array has 0/);
    expect(fieldErrorOf(() => parseSlotArg({ ...slot, start: 'monday' })).render(flagOf)).toMatch(
      /^--slot-json is not a valid Slot at \$\.start: expected an ISO 8601 date-time/,
    );
    const { end: _end, ...noEnd } = slot;
    expect(() => parseSlotArg([noEnd])).toThrow(/at \$\[0\]\.end: required field is missing/);
    expect(() => parseSlotArg({ resourceType: 'Appointment' })).toThrow(/at \$\.resourceType/);
  });

  it('a slot without actor extension or category cannot be booked from', () => {
    expect(() => bookingFromSlot(parseSlotArg({ ...slot, extension: [] }))).toThrow(/urn:extension:actor/);
    expect(() => bookingFromSlot(parseSlotArg({ ...slot, serviceCategory: undefined }))).toThrow(/serviceCategory/);
  });
});

describe('bookingRequest: the one booking rule of both faces', () => {
  const slot = {
    resourceType: 'Slot' as const,
    id: 'slot-11-0900',
    status: 'free' as const,
    start: '2026-03-02T09:00:00Z',
    end: '2026-03-02T09:30:00Z',
    serviceCategory: [{ coding: [{ system: 'urn:pdesk:service-category', code: 'gp' }] }],
    schedule: { reference: 'Schedule/11' },
    extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1001' } }],
  };
  const before = { now: new Date('2026-03-02T08:00:00Z') };
  const who = { patient: 'pat-1', comment: 'Check-up' };
  const given = {
    start: '2026-03-02T10:00:00Z',
    end: '2026-03-02T10:30:00Z',
    practitioner: '1001',
    serviceCategory: 'urn:pdesk:service-category|gp',
  };

  it('books a slot, or times given one by one, as booked unless proposed is asked for', () => {
    expect(bookingRequest(v2, { ...who, slot }, before)).toMatchObject({ status: 'booked', start: slot.start, end: slot.end });
    expect(bookingRequest(v2, { ...who, slot, status: 'proposed' }, before).status).toBe('proposed');
    const byTimes = bookingRequest(v2, { ...who, ...given }, before);
    expect(byTimes).toMatchObject({ status: 'booked', start: given.start, end: given.end });
    expect(byTimes.serviceCategory).toEqual([{ coding: [{ system: 'urn:pdesk:service-category', code: 'gp' }] }]);
    expect(fieldErrorOf(() => bookingRequest(v2, { ...who, slot, status: 'cancelled' }, before)).render(flagOf)).toBe(
      '--status must be one of booked, proposed, not "cancelled".',
    );
  });

  it("takes the API version's shape: the practitioner's participation needs action under an approval flow", () => {
    const parts = (p: Profile) => bookingRequest(p, { ...who, slot }, before).participant.map((x) => x.status);
    expect(parts(v2)).toEqual(['accepted', 'accepted']);
    expect(parts(v1)).toEqual(['accepted', 'needs-action']);
  });

  it('an end not after the start, and a category without its system, are field errors', () => {
    expect(fieldErrorOf(() => bookingRequest(v2, { ...who, ...given, end: given.start }, before)).render(flagOf)).toBe(
      `--end (${given.start}) must be after --start (${given.start}).`,
    );
    expect(fieldErrorOf(() => bookingRequest(v2, { ...who, ...given, serviceCategory: 'gp' }, before)).render(flagOf)).toBe(
      '--service-category must be <system>|<code>, not "gp".',
    );
  });

  it('the past rule: a start that has begun is refused with a hint, unless the face allows it', () => {
    const after = { now: new Date('2026-03-02T09:00:01Z') };
    let e: unknown;
    try {
      bookingRequest(v2, { ...who, slot }, after);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(PastBookingError);
    expect((e as PastBookingError).message).toBe('The appointment starts at 2026-03-02 09:00 UTC, which has passed: nothing was sent.');
    expect((e as PastBookingError).hints).toEqual([{ kind: 'allow-past' }]);
    expect(bookingRequest(v2, { ...who, slot }, { ...after, allowPast: true }).start).toBe(slot.start);
    expect(pastBooking(slot.start, before.now)).toBeUndefined();
    expect(pastBooking('not a date', after.now)).toBeUndefined();
  });
});

describe('A7 buildCancellation', () => {
  it('builds the declined appointment response', () => {
    expect(buildCancellation('appt-1', 'Patient/pat-1', 'ill')).toEqual({
      resourceType: 'AppointmentResponse',
      appointment: { reference: 'Appointment/appt-1' },
      actor: { reference: 'Patient/pat-1' },
      participantStatus: 'declined',
      comment: 'ill',
    });
    expect(buildCancellation('Appointment/a', 'PractitionerRole/1001', 'x').appointment.reference).toBe('Appointment/a');
  });

  it('is the cancel rule of both faces: a comment that says why, an appointment id', () => {
    expect(fieldErrorOf(() => buildCancellation('a', 'Patient/pat-1', ' ')).render(flagOf)).toBe(
      '--comment must not be empty: say why the appointment is cancelled.',
    );
    expect(fieldErrorOf(() => buildCancellation('a/b', 'Patient/pat-1', 'x')).render(flagOf)).toBe(
      '<appointmentId> must be an appointment id, not "a/b".',
    );
  });

  it('refuses another actor form', () => {
    for (const bad of ['pat-1', 'Practitioner/1', 'Patient/', 'Patient/a/b', 'Patient/bad id'])
      expect(fieldErrorOf(() => buildCancellation('a', bad, 'x')).render(flagOf)).toMatch(
        /^--actor must be Patient\/<id> or PractitionerRole\/<id>/,
      );
  });
});

describe('table labels', () => {
  it('referenceLabel, conceptLabel, utcParts', () => {
    expect(referenceLabel({ reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' })).toBe('Dr. Anna Berg (PractitionerRole/1001)');
    expect(referenceLabel({ reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' }, { idOnly: true })).toBe('Dr. Anna Berg (1001)');
    expect(referenceLabel({ reference: 'PractitionerRole/1001' }, { idOnly: true })).toBe('PractitionerRole/1001');
    expect(referenceLabel({ reference: 'Patient/pat-1' })).toBe('Patient/pat-1');
    expect(referenceLabel(undefined)).toBe('');
    expect(conceptLabel([{ coding: [{ code: 'gp', display: 'General practice' }, { code: 'x' }] }, { text: 't' }])).toBe(
      'gp General practice, x, t',
    );
    expect(utcParts('2026-03-02T10:15:00+01:00')).toEqual({ day: '2026-03-02', time: '09:15' });
    expect(utcParts('2026-03-02T00:15:00+01:00')).toEqual({ day: '2026-03-01', time: '23:15' });
    expect(utcParts('2026-03-02T09:00:00Z')).toEqual({ day: '2026-03-02', time: '09:00' });
    expect(utcParts('2026-03-02T09:00')).toEqual({ day: '2026-03-02', time: '09:00' });
    expect(utcParts(undefined)).toEqual({ day: '', time: '' });
  });
});

describe('buildCancellation takes the id bare or as a reference', () => {
  it('Appointment/123 and 123 both name Appointment/123', async () => {
    const { buildCancellation } = await import('../../../src/core/api/appointments.js');
    for (const id of ['123', 'Appointment/123'])
      expect(buildCancellation(id, 'Patient/pat-1', 'x').appointment.reference).toBe('Appointment/123');
  });
});
