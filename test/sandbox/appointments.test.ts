/** Sandbox appointment API (A1–A7): seed shapes read through the core API, paging, booking rules, versions. */
import { afterEach, describe, expect, test } from 'vitest';
import { request } from 'undici';
import {
  getAppointmentTypes,
  listPractitionerRoles,
  searchAppointments,
  searchSchedules,
  searchSlots,
} from '../../src/core/api/appointments.js';
import { PdeskClient } from '../../src/core/client.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

const NOW = new Date('2026-03-02T08:00:00Z');
const GP = 'urn:pdesk:service-category|gp';
let sb: Sandbox | undefined;
let client: PdeskClient | undefined;

async function start(o: SandboxOptions = {}) {
  sb = await startSandbox({ port: 0, now: NOW, replyDelayMs: 60_000, ...o });
  client = new PdeskClient(Profile.parse(sandboxProfile(sb.url, { appointmentApi: o.appointmentApi, approvalFlow: o.approvalFlow })));
  return { sb, client };
}

afterEach(async () => {
  await client?.close();
  await sb?.close();
  sb = client = undefined;
});

async function call(method: string, url: string, body?: unknown) {
  const res = await request(url, {
    method: method as 'GET',
    headers: body === undefined ? {} : { 'content-type': 'application/fhir+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

function booking(o: { id?: string; start: string; end: string; practitioner?: string; practitionerStatus?: string }) {
  return {
    resourceType: 'Appointment',
    id: o.id ?? 'new-1',
    status: 'booked',
    start: o.start,
    end: o.end,
    comment: 'Back pain',
    serviceCategory: [{ coding: [{ system: 'urn:pdesk:service-category', code: 'gp' }] }],
    participant: [
      { actor: { reference: 'Patient/pat-9' }, required: 'required', status: 'accepted' },
      {
        actor: { reference: `PractitionerRole/${o.practitioner ?? '1001'}` },
        required: 'required',
        status: o.practitionerStatus ?? 'accepted',
      },
    ],
  };
}

describe('seed, appointment API 2.0.0', () => {
  test('A1–A5 answers parse with the core schemas and hold the agreed seed', async () => {
    const { client } = await start();
    expect(await getAppointmentTypes(client, 'gp')).toEqual([
      { code: 'consult', display: 'Consultation' },
      { code: 'followup', display: 'Follow-up visit' },
      { code: 'vaccination', display: 'Vaccination' },
    ]);
    expect((await getAppointmentTypes(client, 'physio')).map((t) => t.code)).toEqual(['assessment', 'treatment']);
    expect(await getAppointmentTypes(client, 'dentist')).toEqual([]);

    const roles = await listPractitionerRoles(client);
    expect(roles.map((r) => [r.id, r.name, r.speciality?.coding?.[0]?.code])).toEqual([
      ['1001', 'Dr. Anna Berg', '0100'],
      ['1002', 'Dr. Omar Haddad', '0100'],
      ['2001', 'Lena Fischer', '2100'],
    ]);
    expect(roles.map((r) => r.id)).toEqual(['1001', '1002', '2001']);

    const schedules = await searchSchedules(client, GP);
    expect(schedules.map((s) => [s.id, s.actor?.[0]?.reference])).toEqual([
      ['11', 'PractitionerRole/1001'],
      ['12', 'PractitionerRole/1002'],
    ]);

    const slots = await searchSlots(client, { serviceCategory: GP, from: '2026-03-03', to: '2026-03-03', schedule: '11' });
    // 12 slots a day, minus appt-1's (tomorrow 09:00), which is busy.
    expect(slots).toHaveLength(11);
    expect(slots[0]).toMatchObject({
      id: 'slot-11-20260303-0930',
      status: 'free',
      start: '2026-03-03T09:30:00Z',
      end: '2026-03-03T10:00:00Z',
      schedule: { reference: 'Schedule/11' },
      extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' } }],
    });
    expect(slots.map((s) => s.start)).toEqual([...slots.map((s) => s.start)].sort());

    const appts = await searchAppointments(client);
    expect(appts.map((a) => [a.id, a.status])).toEqual([
      ['appt-1', 'booked'],
      ['appt-2', 'proposed'],
      ['appt-3', 'cancelled'],
    ]);
    expect((await searchAppointments(client, [['patient', 'pat-2']])).map((a) => a.id)).toEqual(['appt-2']);
    expect((await searchAppointments(client, [['practitioner', 'PractitionerRole/2001']])).map((a) => a.id)).toEqual(['appt-3']);
    expect((await searchAppointments(client, [['status', 'booked,proposed']])).map((a) => a.id)).toEqual(['appt-1', 'appt-2']);
  });

  test('raw shapes: string role ids, numeric schedule ids, bare Schedule entries, Bundle content type', async () => {
    const { sb } = await start();
    const roles = await call('GET', `${sb.url}/practice/PractitionerRole`);
    expect(roles.headers['content-type']).toBe('application/fhir+json');
    expect(roles.body.entry[0].resource.id).toBe('1001');
    const sch = await call('GET', `${sb.url}/practice/Schedule?service-category=${encodeURIComponent(GP)}`);
    expect(sch.body.entry[0]).toMatchObject({ resourceType: 'Schedule', id: 11 });
    expect(sch.body.entry[0].resource).toBeUndefined();
    expect((await call('GET', `${sb.url}/practice/AppointmentType?service-category=gp`)).status).toBe(404);
  });

  test('A1 needs service-category; A4 refuses the 1.0.0 parameter', async () => {
    const { sb } = await start();
    const a1 = await call('GET', `${sb.url}/practice/ValueSet`);
    expect(a1.status).toBe(400);
    expect(a1.body.issue[0].expression).toEqual(['service-category']);
    const a4 = await call('GET', `${sb.url}/practice/Slot?schedule.actor%3APractitionerRole=1001`);
    expect(a4.status).toBe(400);
    expect(a4.body.issue[0].diagnostics).toContain('1.0.0');
  });

  test('A4 status: absent means free; status=busy finds the seeded busy slots; date le covers the whole day', async () => {
    const { client } = await start();
    const busy = await searchSlots(client, { serviceCategory: GP, from: '2026-03-01', to: '2026-03-20', status: 'busy' });
    expect(busy.map((s) => s.id)).toEqual(['slot-11-20260303-0900', 'slot-12-20260303-1000']);
    const lastDay = await searchSlots(client, { serviceCategory: 'physio', from: '2026-03-15', to: '2026-03-15' });
    expect(lastDay).toHaveLength(12);
    expect(lastDay.at(-1)!.start).toBe('2026-03-15T15:30:00Z');
    // 14 days from 2026-03-02: nothing on 2026-03-16.
    expect(await searchSlots(client, { serviceCategory: 'physio', from: '2026-03-16', to: '2026-03-20' })).toEqual([]);
  });
});

describe('seed, appointment API 1.0.0', () => {
  test('AppointmentType, numeric role ids, actor filter, no schedule reference on slots', async () => {
    const { sb, client } = await start({ appointmentApi: '1.0.0' });
    expect((await getAppointmentTypes(client, 'physio')).map((t) => t.display)).toEqual(['Intake assessment', 'Treatment session']);
    const raw = await call('GET', `${sb.url}/practice/PractitionerRole`);
    expect(raw.body.entry.map((e: { resource: { id: unknown } }) => e.resource.id)).toEqual([1001, 1002, 2001]);
    expect((await listPractitionerRoles(client)).map((r) => r.id)).toEqual(['1001', '1002', '2001']);
    expect((await call('GET', `${sb.url}/practice/ValueSet?service-category=gp`)).status).toBe(404);
    const slots = await searchSlots(client, { serviceCategory: GP, from: '2026-03-04', to: '2026-03-04', practitioners: ['1002', '2001'] });
    expect(slots).toHaveLength(12);
    expect(new Set(slots.map((s) => s.extension![0]!.valueReference!.reference))).toEqual(new Set(['PractitionerRole/1002']));
    expect(slots[0]!.schedule).toBeUndefined();
    const bad = await call('GET', `${sb.url}/practice/Slot?schedule=11`);
    expect(bad.status).toBe(400);
    expect(bad.body.issue[0].expression).toEqual(['schedule']);
  });
});

describe('paging', () => {
  test('at most 50 per page with an absolute next link while more remain; the client follows it', async () => {
    const { sb, client } = await start();
    const first = await call('GET', `${sb.url}/practice/Slot?service-category=gp`);
    expect(first.body.total).toBe(2 * 14 * 12 - 2);
    expect(first.body.entry).toHaveLength(50);
    const next = first.body.link.find((l: { relation: string }) => l.relation === 'next').url as string;
    expect(next.startsWith(`${sb.url}/practice/Slot?`)).toBe(true);
    expect(new URL(next).searchParams.get('_offset')).toBe('50');
    const small = await call('GET', `${sb.url}/practice/Appointment?_count=2`);
    expect(small.body.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual(['appt-1', 'appt-2']);
    const last = await call('GET', small.body.link.find((l: { relation: string }) => l.relation === 'next').url);
    expect(last.body.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual(['appt-3']);
    expect(last.body.link.some((l: { relation: string }) => l.relation === 'next')).toBe(false);
    const all = await searchSlots(client, { serviceCategory: 'gp', from: '2026-03-01', to: '2026-03-31' }, { limit: 0 });
    expect(all).toHaveLength(334);
    expect(new Set(all.map((s) => s.id)).size).toBe(334);
    expect(sb.received.filter((r) => r.path === '/practice/Slot').length).toBeGreaterThanOrEqual(7 + 1);
  });
});

describe('booking (A6) and cancelling (A7)', () => {
  test('a free slot books (201, slot busy); booking it again is 409; cancelling frees it', async () => {
    const { sb } = await start();
    const slot = sb.state.slots.get('slot-11-20260304-1030')!;
    expect(slot.status).toBe('free');
    const ok = await call('POST', `${sb.url}/practice/Appointment`, booking({ start: slot.start, end: slot.end }));
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ resourceType: 'Appointment', id: 'new-1', status: 'booked' });
    expect(slot.status).toBe('busy');
    expect(sb.state.appointments.get('new-1')?.status).toBe('booked');

    const again = await call('POST', `${sb.url}/practice/Appointment`, booking({ id: 'new-2', start: slot.start, end: slot.end }));
    expect(again.status).toBe(409);
    expect(again.body.resourceType).toBe('OperationOutcome');
    expect(again.body.issue[0].diagnostics).toMatch(/not free/);
    expect(sb.state.appointments.has('new-2')).toBe(false);

    const dup = await call(
      'POST',
      `${sb.url}/practice/Appointment`,
      booking({ id: 'new-1', start: '2026-03-04T11:00:00Z', end: '2026-03-04T11:30:00Z' }),
    );
    expect(dup.status).toBe(409);
    expect(dup.body.issue[0].diagnostics).toMatch(/already exists/);

    const none = await call(
      'POST',
      `${sb.url}/practice/Appointment`,
      booking({ id: 'new-3', start: '2026-03-04T08:00:00Z', end: '2026-03-04T08:30:00Z' }),
    );
    expect(none.status).toBe(409);
    expect(none.body.issue[0].diagnostics).toMatch(/no slot/);

    const cancel = await call('POST', `${sb.url}/practice/AppointmentResponse`, {
      resourceType: 'AppointmentResponse',
      appointment: { reference: 'Appointment/new-1' },
      actor: { reference: 'Patient/pat-9' },
      participantStatus: 'declined',
      comment: 'Feeling better',
    });
    expect(cancel.status).toBe(201);
    expect(cancel.body).toMatchObject({ resourceType: 'AppointmentResponse', participantStatus: 'declined' });
    expect(typeof cancel.body.id).toBe('string');
    expect(slot.status).toBe('free');
    const appt = sb.state.appointments.get('new-1')!;
    expect(appt.status).toBe('cancelled');
    expect(appt.participant![0]!.status).toBe('declined');
    expect(appt.participant![1]!.status).toBe('accepted');
  });

  test('cancelling a seeded appointment frees its slot; unknown appointment 404; non-participant 422', async () => {
    const { sb } = await start();
    const base = { resourceType: 'AppointmentResponse', participantStatus: 'declined', comment: 'x' };
    const unknown = await call('POST', `${sb.url}/practice/AppointmentResponse`, {
      ...base,
      appointment: { reference: 'Appointment/nope' },
      actor: { reference: 'Patient/pat-1' },
    });
    expect(unknown.status).toBe(404);
    const stranger = await call('POST', `${sb.url}/practice/AppointmentResponse`, {
      ...base,
      appointment: { reference: 'Appointment/appt-1' },
      actor: { reference: 'Patient/pat-2' },
    });
    expect(stranger.status).toBe(422);
    expect(stranger.body.issue[0].expression).toEqual(['$.actor.reference']);
    expect(sb.state.appointments.get('appt-1')!.status).toBe('booked');
    const ok = await call('POST', `${sb.url}/practice/AppointmentResponse`, {
      ...base,
      appointment: { reference: 'Appointment/appt-1' },
      actor: { reference: 'PractitionerRole/1001' },
    });
    expect(ok.status).toBe(201);
    expect(sb.state.slots.get('slot-11-20260303-0900')!.status).toBe('free');
    expect(sb.state.appointments.get('appt-1')!.participant![1]!.status).toBe('declined');
  });

  test('invalid body: 400 naming the JSON path; nothing stored', async () => {
    const { sb } = await start();
    const b = booking({ start: '2026-03-04T10:30:00Z', end: '2026-03-04T11:00:00Z' }) as Record<string, unknown>;
    delete b.comment;
    const res = await call('POST', `${sb.url}/practice/Appointment`, b);
    expect(res.status).toBe(400);
    expect(res.body.issue[0].expression).toEqual(['$.comment']);
    expect(res.body.issue[0].diagnostics).toContain('$.comment');
    expect(sb.state.appointments.size).toBe(3);
  });

  test('approval flow: the practitioner must be needs-action (422 otherwise); off: accepted', async () => {
    const { sb } = await start({ approvalFlow: true });
    const slot = sb.state.slots.get('slot-12-20260305-1300')!;
    const wrong = await call('POST', `${sb.url}/practice/Appointment`, booking({ start: slot.start, end: slot.end, practitioner: '1002' }));
    expect(wrong.status).toBe(422);
    expect(wrong.body.issue[0].expression).toEqual(['$.participant[1].status']);
    expect(slot.status).toBe('free');
    const right = await call(
      'POST',
      `${sb.url}/practice/Appointment`,
      booking({ start: slot.start, end: slot.end, practitioner: '1002', practitionerStatus: 'needs-action' }),
    );
    expect(right.status).toBe(201);
    expect(slot.status).toBe('busy');
  });

  test('approval flow off: a needs-action practitioner is refused (422)', async () => {
    const { sb } = await start();
    const slot = sb.state.slots.get('slot-12-20260305-1300')!;
    const refused = await call(
      'POST',
      `${sb.url}/practice/Appointment`,
      booking({ start: slot.start, end: slot.end, practitioner: '1002', practitionerStatus: 'needs-action' }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.issue[0].diagnostics).toMatch(/must be accepted/);
    expect(slot.status).toBe('free');
  });
});
