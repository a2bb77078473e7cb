/**
 * A5–A7 run in-process against the sandbox, for both appointment API versions (2.0.0 with the approval flow off,
 * 1.0.0 with it on): list, book from `slots list --json` piped into `--slot-json -`, book by times, `--body`,
 * a busy slot (409), cancel (slot free again), usage errors that send nothing, and --dry-run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSandbox, type Env } from '../../helpers/run.js';

const GP = 'urn:pdesk:service-category|gp';
const PHYSIO = 'urn:pdesk:service-category|physio';
const DAY = 86_400_000;
/** UTC day `YYYY-MM-DD`, `n` days from today (the sandbox seeds relative to the UTC date; commands run with TZ=UTC). */
const day = (n = 0) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const compact = (d: string) => d.replace(/-/g, '');
const TZ = { TZ: 'UTC' };

describe.each([
  { api: '2.0.0' as const, approvalFlow: false },
  { api: '1.0.0' as const, approvalFlow: true },
])('appointment API $api, approval flow $approvalFlow: A5–A7', ({ api, approvalFlow }) => {
  let env: Env;
  const practitionerStatus = approvalFlow ? 'needs-action' : 'accepted';
  const run = (args: string[], input?: string) => env.run(args, { env: TZ, input });
  const received = () => env.sandbox.received as Array<(typeof env.sandbox.received)[number] & { body: any }>;
  const clear = () => {
    env.sandbox.received.length = 0;
  };
  const file = (name: string, value: unknown) => {
    const p = join(env.configDir, name);
    writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value));
    return p;
  };
  /** Slot filter of this version: a schedule (2.0.0) or a practitioner (1.0.0). */
  const only = (schedule: string, practitioner: string) => (api === '2.0.0' ? ['--schedule', schedule] : ['--practitioner', practitioner]);

  beforeAll(async () => {
    env = await withSandbox({ appointmentApi: api, approvalFlow });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('appointments list: JSON as received, pass-through params, table with participants (A5)', async () => {
    clear();
    const j = await run(['appointments', 'list', '--json']);
    expect(j.code, j.stderr).toBe(0);
    const all = j.json<Array<{ id: string; status: string; participant: unknown[] }>>();
    expect(all.map((a) => [a.id, a.status])).toEqual([
      ['appt-1', 'booked'],
      ['appt-2', 'proposed'],
      ['appt-3', 'cancelled'],
    ]);
    expect(all[1]!.participant).toHaveLength(2);
    expect(received()[0]).toMatchObject({ method: 'GET', path: '/practice/Appointment' });

    const t = await run(['appointments', 'list', '--param', 'status=proposed,cancelled', '--output', 'table']);
    expect(t.code, t.stderr).toBe(0);
    const lines = t.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+START \(UTC\)\s+PATIENT\s+PRACTITIONER$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      new RegExp(`^appt-2\\s+proposed\\s+${day(1)} 10:00\\s+Noah de Vries \\(accepted\\)\\s+Dr\\. Omar Haddad \\(needs-action\\)$`),
    );
    expect(lines[2]).toMatch(/^appt-3\s+cancelled\s+\S+ 13:00\s+Sara Bakker \(declined\)\s+Lena Fischer \(accepted\)$/);
    expect(received()[1]!.query).toBe('status=proposed%2Ccancelled');
  });

  it('book from `slots list --json` piped to --slot-json -, then the slot is no longer free; cancel frees it (A4, A6, A7)', async () => {
    const filter = ['slots', 'list', '--service-category', GP, '--from', '+2d', '--to', '+2d', ...only('12', '1002')];
    const listed = await run([...filter, '--limit', '1', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const [slot] = listed.json<Array<{ id: string; start: string; end: string }>>();
    expect(slot!.id).toBe(`slot-12-${compact(day(2))}-0900`);

    clear();
    // 2.0.0 pipes the printed array of one as is; 1.0.0 the slot object alone
    const piped = api === '2.0.0' ? listed.stdout : JSON.stringify(slot);
    const booked = await run(['appointments', 'book', '--patient', 'pat-1', '--comment', 'Back pain', '--slot-json', '-', '--json'], piped);
    expect(booked.code, booked.stderr).toBe(0);
    const appt = booked.json<{
      id: string;
      status: string;
      start: string;
      end: string;
      participant: Array<{ actor: { reference: string; display?: string }; status: string }>;
    }>();
    expect(appt).toMatchObject({ status: 'booked', start: slot!.start, end: slot!.end });
    expect(received()).toHaveLength(1);
    const post = received()[0]!;
    expect(post).toMatchObject({ method: 'POST', path: '/practice/Appointment' });
    expect(post.body.id).toBe(appt.id);
    expect(post.body.serviceCategory).toEqual([
      { coding: [{ system: 'urn:pdesk:service-category', code: 'gp', display: 'General practice' }] },
    ]);
    expect(post.body.participant).toEqual([
      { actor: { reference: 'Patient/pat-1' }, required: 'required', status: 'accepted' },
      { actor: { reference: 'PractitionerRole/1002', display: 'Dr. Omar Haddad' }, required: 'required', status: practitionerStatus },
    ]);
    expect(env.sandbox.state.slots.get(slot!.id)!.status).toBe('busy');

    const after = await run([...filter, '--json']);
    expect(after.code, after.stderr).toBe(0);
    const ids = after.json<Array<{ id: string }>>().map((s) => s.id);
    expect(ids).toHaveLength(11);
    expect(ids).not.toContain(slot!.id);

    clear();
    const cancelled = await run(['appointments', 'cancel', appt.id, '--actor', 'Patient/pat-1', '--comment', 'Feeling better', '--json']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.json()).toMatchObject({ resourceType: 'AppointmentResponse', participantStatus: 'declined' });
    expect(received()).toHaveLength(1);
    expect(received()[0]).toMatchObject({
      method: 'POST',
      path: '/practice/AppointmentResponse',
      body: {
        resourceType: 'AppointmentResponse',
        appointment: { reference: `Appointment/${appt.id}` },
        actor: { reference: 'Patient/pat-1' },
        participantStatus: 'declined',
        comment: 'Feeling better',
      },
    });
    const stored = env.sandbox.state.appointments.get(appt.id)!;
    expect(stored.status).toBe('cancelled');
    expect(stored.participant![0]!.status).toBe('declined');
    expect(env.sandbox.state.slots.get(slot!.id)!.status).toBe('free');
  });

  it('book by --start/--end/--practitioner/--service-category: times sent as UTC Z, confirmation table', async () => {
    clear();
    const d = day(3);
    const r = await run([
      'appointments',
      'book',
      '--patient',
      'Patient/pat-3',
      '--patient-display',
      'Sara Bakker',
      '--comment',
      'Knee check',
      '--start',
      `${d}T14:00:00+01:00`,
      '--end',
      `${d}T14:30+01:00`,
      '--practitioner',
      '2001',
      '--service-category',
      PHYSIO,
      '--status',
      'proposed',
      '--id',
      `by-times-${api}`,
      '--output',
      'table',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Appointment by-times-${api} created (HTTP 201), status proposed.`);
    expect(r.stdout).toContain(`${d} 13:00–13:30 UTC`);
    expect(r.stdout).toContain(`PractitionerRole/2001 [${practitionerStatus}]`);
    expect(r.stdout).toContain('Sara Bakker (pat-3) [accepted]');
    expect(received()[0]!.body).toMatchObject({
      id: `by-times-${api}`,
      status: 'proposed',
      start: `${d}T13:00:00Z`,
      end: `${d}T13:30:00Z`,
      comment: 'Knee check',
      serviceCategory: [{ coding: [{ system: 'urn:pdesk:service-category', code: 'physio' }] }],
      participant: [
        { actor: { reference: 'Patient/pat-3', display: 'Sara Bakker' }, status: 'accepted' },
        { actor: { reference: 'PractitionerRole/2001' }, status: practitionerStatus },
      ],
    });
    expect(env.sandbox.state.slots.get(`slot-21-${compact(d)}-1300`)!.status).toBe('busy');
  });

  it('booking a busy slot: exit 4, HTTP 409 Conflict and the OperationOutcome on stderr, nothing stored', async () => {
    const before = env.sandbox.state.appointments.size;
    const d = day(1);
    const r = await run([
      'appointments',
      'book',
      '--patient',
      'pat-2',
      '--comment',
      'x',
      '--start',
      `${d}T09:00:00Z`,
      '--end',
      `${d}T09:30:00Z`,
      '--practitioner',
      'PractitionerRole/1001',
      '--service-category',
      GP,
    ]);
    expect(r.code).toBe(4);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe('pdesk: HTTP 409 Conflict');
    expect(lines[1]).toBe(`  error conflict: Slot slot-11-${compact(d)}-0900 (${d}T09:00:00Z) is not free: it is busy. (at $.start)`);
    expect(r.stdout).toBe('');
    expect(env.sandbox.state.appointments.size).toBe(before);
  });

  it('--body sends a complete Appointment and a complete appointment response as is', async () => {
    const d = day(4);
    const appointment = {
      resourceType: 'Appointment',
      id: `from-body-${api}`,
      status: 'booked',
      start: `${d}T15:00:00Z`,
      end: `${d}T15:30:00Z`,
      comment: 'From a file',
      serviceCategory: [{ coding: [{ system: 'urn:pdesk:service-category', code: 'gp' }] }],
      participant: [
        { actor: { reference: 'Patient/pat-2' }, required: 'required', status: 'accepted' },
        { actor: { reference: 'PractitionerRole/1001' }, required: 'required', status: practitionerStatus },
      ],
      extra: 'kept',
    };
    clear();
    const r = await run(['appointments', 'book', '--body', file('appt.json', appointment), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(received()[0]!.body).toEqual(appointment);
    expect(env.sandbox.state.appointments.get(appointment.id)?.status).toBe('booked');

    const response = {
      resourceType: 'AppointmentResponse',
      appointment: { reference: `Appointment/${appointment.id}` },
      actor: { reference: 'PractitionerRole/1001' },
      participantStatus: 'declined',
      comment: 'Doctor ill',
    };
    const c = await run(['appointments', 'cancel', appointment.id, '--body', '-', '--output', 'table'], JSON.stringify(response));
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout.trim()).toBe(`Appointment ${appointment.id} cancelled (HTTP 201).`);
    expect(received()[1]!.body).toEqual(response);
    expect(env.sandbox.state.appointments.get(appointment.id)!.participant![1]!.status).toBe('declined');
    expect(env.sandbox.state.slots.get(`slot-11-${compact(d)}-1500`)!.status).toBe('free');
  });

  it('--dry-run prints the POST with its body and sends nothing', async () => {
    clear();
    const before = env.sandbox.state.appointments.size;
    const d = day(5);
    const r = await run([
      'appointments',
      'book',
      '--patient',
      'pat-1',
      '--comment',
      'dry',
      '--start',
      `${d}T09:00:00Z`,
      '--end',
      `${d}T09:30:00Z`,
      '--practitioner',
      '1001',
      '--service-category',
      GP,
      '--id',
      'dry-1',
      '--dry-run',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const req = r.json<{ method: string; url: string; headers: Record<string, string>; body: any }>();
    expect(req).toMatchObject({ method: 'POST', url: `${env.sandbox.url}/practice/Appointment` });
    expect(req.headers['content-type']).toBe('application/fhir+json');
    expect(req.body).toMatchObject({ id: 'dry-1', start: `${d}T09:00:00Z` });
    expect(req.body.participant[1].status).toBe(practitionerStatus);
    const c = await run(['appointments', 'cancel', 'appt-1', '--actor', 'Patient/pat-1', '--comment', 'dry', '--dry-run']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.json()).toMatchObject({ method: 'POST', url: `${env.sandbox.url}/practice/AppointmentResponse` });
    expect(received()).toHaveLength(0);
    expect(env.sandbox.state.appointments.size).toBe(before);
    expect(env.sandbox.state.appointments.get('appt-1')!.status).toBe('booked');
  });

  if (api === '2.0.0') {
    it('usage errors exit 2 naming the option (or the JSON path) and send nothing', async () => {
      clear();
      const slot = {
        resourceType: 'Slot',
        id: 's',
        status: 'free',
        start: 'soon',
        end: `${day(2)}T09:30:00Z`,
        extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1001' } }],
        serviceCategory: [{ coding: [{ code: 'gp' }] }],
      };
      const slotFile = file('bad-slot.json', [slot]);
      const times = ['--start', `${day(2)}T09:00:00Z`, '--end', `${day(2)}T09:30:00Z`];
      const book = ['appointments', 'book', '--patient', 'pat-1', '--comment', 'c'];
      const cases: Array<[string[], RegExp]> = [
        [[...book, '--slot-json', slotFile, '--start', `${day(2)}T09:00:00Z`], /^pdesk: --start cannot be used with --slot-json/],
        [
          [...book, ...times, '--practitioner', '1001'],
          /^pdesk: --service-category is required \(or give a complete Appointment with --body\)\.$/m,
        ],
        // Every missing option in one message.
        [
          ['appointments', 'book', '--start', `${day(2)}T09:00:00Z`],
          /^pdesk: --patient, --comment, --end, --practitioner and --service-category are required \(or give a complete Appointment with --body\)\.$/m,
        ],
        [
          ['appointments', 'book'],
          /^pdesk: --patient, --comment and --slot-json \(or --start, --end, --practitioner and --service-category\) are required \(or give a complete Appointment with --body\)\.$/m,
        ],
        [
          ['appointments', 'cancel', 'appt-1'],
          /^pdesk: --actor and --comment are required \(or give a complete appointment response with --body\)\.$/m,
        ],
        [[...book, '--slot-json', slotFile], /^pdesk: --slot-json is not a valid Slot at \$\[0\]\.start: expected an ISO 8601 date-time\./],
        [[...book, '--slot-json', file('two.json', [slot, slot])], /^pdesk: --slot-json must hold one Slot; the array has 2\./],
        [
          [...book, ...times, '--practitioner', '1001', '--service-category', GP, '--status', 'cancelled'],
          /^pdesk: --status must be one of booked, proposed, not "cancelled"\./,
        ],
        [
          [...book, '--start', 'noon', '--end', 'later', '--practitioner', '1001', '--service-category', GP],
          /^pdesk: --start must be a date/,
        ],
        [
          ['appointments', 'book', '--comment', 'c', '--body', file('x.json', { resourceType: 'Appointment' })],
          /^pdesk: --body sends a complete Appointment as is and cannot be combined with --comment\./,
        ],
        [
          ['appointments', 'book', '--body', file('bad-appt.json', { resourceType: 'Appointment', id: 'a', status: 'booked' })],
          /^pdesk: --body: The request body is invalid at \$\.start: required field is missing\./,
        ],
        [
          ['appointments', 'cancel', 'appt-1', '--actor', 'pat-1', '--comment', 'c'],
          /^pdesk: --actor must be Patient\/<id> or PractitionerRole\/<id>, not "pat-1"\./,
        ],
        // The cancel rule of both faces (core): a comment that says why, an appointment id.
        [
          ['appointments', 'cancel', 'appt-1', '--actor', 'Patient/pat-1', '--comment', ' '],
          /^pdesk: --comment must not be empty: say why the appointment is cancelled\./,
        ],
        [
          ['appointments', 'cancel', 'a/b', '--actor', 'Patient/pat-1', '--comment', 'c'],
          /^pdesk: <appointmentId> must be an appointment id, not "a\/b"\./,
        ],
        // The booking rule: the end after the start.
        [
          [...book, '--start', `${day(2)}T09:30:00Z`, '--end', `${day(2)}T09:00:00Z`, '--practitioner', '1001', '--service-category', GP],
          /^pdesk: --end \(\S+\) must be after --start \(\S+\)\./,
        ],
      ];
      for (const [args, message] of cases) {
        const r = await run(args);
        expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stdout).toBe('');
      }
      expect(received()).toHaveLength(0);
    });
  }
});

describe('a start that has passed', () => {
  let env: Env;
  beforeAll(async () => {
    env = await withSandbox();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('is refused with exit 2 naming the time, from a slot, from --start and from --body; nothing is sent', async () => {
    // Today at 12:00 UTC: the 09:00 slot of schedule 11 has begun.
    const noon = new Date(`${day()}T12:00:00Z`);
    const o = { env: TZ, now: () => noon };
    const slots = await env.run(
      ['slots', 'list', '--service-category', GP, '--from', 'today', '--to', 'today', '--schedule', '11', '--json'],
      o,
    );
    const past = slots.json<Array<{ id: string; start: string; past: boolean }>>().find((s) => s.past)!;
    const at = `${past.start.slice(0, 10)} ${past.start.slice(11, 16)} UTC`;
    // Core's past rule and its hint, in the command line's words.
    const expected = `pdesk: The appointment starts at ${at}, which has passed: nothing was sent.\n  --allow-past books it anyway.\n`;
    env.sandbox.received.length = 0;

    const fromSlot = await env.run(['appointments', 'book', '--patient', 'pat-1', '--comment', 'x', '--slot-json', '-'], {
      ...o,
      input: JSON.stringify(past),
    });
    expect(fromSlot.code).toBe(2);
    expect(fromSlot.stderr).toBe(expected);
    const byTimes = ['--start', past.start, '--end', `${day()}T12:30:00Z`, '--practitioner', '1001', '--service-category', GP];
    const fromTimes = await env.run(['appointments', 'book', '--patient', 'pat-1', '--comment', 'x', ...byTimes], o);
    expect(fromTimes.code).toBe(2);
    expect(fromTimes.stderr).toBe(expected);
    const body = { resourceType: 'Appointment', status: 'booked', start: past.start, end: `${day()}T09:30:00Z` };
    const fromBody = await env.run(['appointments', 'book', '--body', '-'], { ...o, input: JSON.stringify(body) });
    expect(fromBody.code).toBe(2);
    expect(fromBody.stderr).toBe(expected);
    const dry = await env.run(['appointments', 'book', '--patient', 'pat-1', '--comment', 'x', '--slot-json', '-', '--dry-run'], {
      ...o,
      input: JSON.stringify(past),
    });
    expect(dry.code).toBe(2);
    expect(env.sandbox.received).toHaveLength(0);

    // --allow-past books it.
    const allowed = await env.run(
      ['appointments', 'book', '--patient', 'pat-1', '--comment', 'x', '--slot-json', '-', '--allow-past', '--json'],
      {
        ...o,
        input: JSON.stringify(past),
      },
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.json()).toMatchObject({ resourceType: 'Appointment', start: past.start });
    expect(env.sandbox.received.map((r) => r.method)).toEqual(['POST']);
  });
});
