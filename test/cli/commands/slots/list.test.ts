/**
 * A1–A4 run in-process against the sandbox, for both appointment API versions: appointment-types, practitioners,
 * schedules and slots (version-specific options, dates, paging with --limit, ndjson, --dry-run, query encoding).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext, withSandbox, type Env } from '../../../helpers/run.js';

const GP = 'urn:pdesk:service-category|gp';
const DAY = 86_400_000;
/** UTC day `YYYY-MM-DD`, `n` days from today (the sandbox seeds relative to the UTC date; commands run with TZ=UTC). */
const day = (n = 0) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const compact = (d: string) => d.replace(/-/g, '');
const TZ = { env: { TZ: 'UTC' } };

/** The raw query string of a received request, as the client encoded it. */
const rawQuery = (r: { query: string }) => r.query;

describe.each([
  { api: '2.0.0' as const, typesPath: '/practice/ValueSet' },
  { api: '1.0.0' as const, typesPath: '/practice/AppointmentType' },
])('appointment API $api: A1–A4', ({ api, typesPath }) => {
  let env: Env;
  const run = (args: string[]) => env.run(args, TZ);
  const received = () => env.sandbox.received;
  const clear = () => {
    env.sandbox.received.length = 0;
  };

  beforeAll(async () => {
    env = await withSandbox({ appointmentApi: api });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('appointment-types list: {code, display} rows of the gp category (A1)', async () => {
    clear();
    const r = await run(['appointment-types', 'list', '--service-category', 'gp', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual([
      { code: 'consult', display: 'Consultation' },
      { code: 'followup', display: 'Follow-up visit' },
      { code: 'vaccination', display: 'Vaccination' },
    ]);
    expect(received()).toHaveLength(1);
    expect(received()[0]).toMatchObject({ method: 'GET', path: typesPath });
    expect(rawQuery(received()[0]!)).toBe('service-category=gp');
  });

  it('practitioners list: ids as strings, pass-through params, table (A2)', async () => {
    clear();
    const j = await run(['practitioners', 'list', '--json', '--param', 'speciality=0100', '--param', 'x=a b|c']);
    expect(j.code, j.stderr).toBe(0);
    const roles = j.json<Array<{ id: unknown; name: string }>>();
    expect(roles.map((p) => p.id)).toEqual(['1001', '1002']); // strings, also where 1.0.0 sends numbers
    expect(roles[0]!.name).toBe('Dr. Anna Berg');
    expect(received()[0]).toMatchObject({ method: 'GET', path: '/practice/PractitionerRole' });
    expect(rawQuery(received()[0]!)).toBe('speciality=0100&x=a%20b%7Cc');

    const t = await run(['practitioners', 'list', '--output', 'table']);
    expect(t.code, t.stderr).toBe(0);
    const lines = t.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+SPECIALITY$/);
    expect(t.stdout).toMatch(/1001\s+Dr\. Anna Berg\s+0100 General practice/);
    expect(t.stdout).toMatch(/2001\s+Lena Fischer\s+2100 Physiotherapy/);
  });

  it('practitioners list: a --param without = exits 2 and sends nothing', async () => {
    clear();
    const r = await run(['practitioners', 'list', '--param', 'name']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--param must be key=value, not "name"/);
    expect(received()).toHaveLength(0);
  });

  it('schedules list: bare entries, numeric ids as strings, system|code encoded (A3)', async () => {
    clear();
    const j = await run(['schedules', 'list', '--service-category', GP, '--json']);
    expect(j.code, j.stderr).toBe(0);
    const schedules = j.json<Array<{ id: unknown; actor: Array<{ reference: string }> }>>();
    expect(schedules.map((s) => s.id)).toEqual(['11', '12']);
    expect(schedules[0]!.actor[0]!.reference).toBe('PractitionerRole/1001');
    expect(received()[0]).toMatchObject({ method: 'GET', path: '/practice/Schedule' });
    expect(rawQuery(received()[0]!)).toBe('service-category=urn%3Apdesk%3Aservice-category%7Cgp');

    const t = await run(['--output', 'table', 'schedules', 'list', '--service-category', 'urn:pdesk:service-category|physio']);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout.split('\n')[0]).toMatch(/^ID\s+PRACTITIONER\s+SERVICE CATEGORY$/);
    expect(t.stdout).toMatch(/21\s+Lena Fischer \(2001\)\s+physio Physiotherapy/);
    expect(t.stdout).not.toContain('Dr. Anna Berg');
  });

  it('schedules list: a category without system exits 2 naming the option', async () => {
    clear();
    const r = await run(['schedules', 'list', '--service-category', 'gp']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--service-category must be <system>\|<code>, not "gp"/);
    expect(received()).toHaveLength(0);
  });

  it('slots list: free slots of the date range, dates sent as repeated schedule.date (A4)', async () => {
    clear();
    const r = await run(['slots', 'list', '--service-category', GP, '--from', 'today', '--to', 'tomorrow', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const slots = r.json<Array<{ id: string; status: string; start: string; schedule?: { reference: string } }>>();
    // 2 gp schedules × 12 slots × 2 days, minus appt-1 (11, tomorrow 09:00) and appt-2 (12, tomorrow 10:00)
    expect(slots).toHaveLength(46);
    const ids = slots.map((s) => s.id);
    expect(ids).toContain(`slot-11-${compact(day(1))}-0930`);
    expect(ids).toContain(`slot-12-${compact(day(0))}-1530`); // --to covers the whole day
    expect(ids).not.toContain(`slot-11-${compact(day(1))}-0900`);
    expect(ids).not.toContain(`slot-12-${compact(day(1))}-1000`);
    expect(ids.some((id) => id.startsWith('slot-21-'))).toBe(false);
    for (const s of slots) expect(s.status).toBe('free');
    if (api === '2.0.0') expect(slots[0]!.schedule?.reference).toMatch(/^Schedule\/1[12]$/);
    else expect(slots[0]!.schedule).toBeUndefined();
    expect(received()[0]).toMatchObject({ method: 'GET', path: '/practice/Slot' });
    expect(rawQuery(received()[0]!)).toBe(
      `service-category=urn%3Apdesk%3Aservice-category%7Cgp&schedule.date=ge${day(0)}&schedule.date=le${day(1)}`,
    );
  });

  it('slots list: table with day, UTC times, practitioner, status and schedule', async () => {
    const r = await run([
      'slots',
      'list',
      '--service-category',
      'urn:pdesk:service-category|physio',
      '--from',
      '+2d',
      '--to',
      day(2),
      '--output',
      'table',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+DAY\s+START–END \(UTC\)\s+PRACTITIONER\s+STATUS\s+SCHEDULE$/);
    expect(lines).toHaveLength(13);
    const sched = api === '2.0.0' ? '\\s+21' : '';
    expect(lines[1]).toMatch(
      new RegExp(`^slot-21-${compact(day(2))}-0900\\s+${day(2)}\\s+09:00–09:30\\s+Lena Fischer \\(2001\\)\\s+free${sched}$`),
    );
  });

  it('slots list: --limit stops following next links; --output ndjson prints one slot a line', async () => {
    clear();
    const r = await run([
      'slots',
      'list',
      '--service-category',
      GP,
      '--from',
      'today',
      '--to',
      '+13d',
      '--limit',
      '60',
      '--output',
      'ndjson',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(60);
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({ resourceType: 'Slot', status: 'free' });
    expect(new Set(lines.map((l) => JSON.parse(l).id)).size).toBe(60);
    // pages of 50: two requests, the second one the sandbox's next link
    expect(received().map((q) => q.path)).toEqual(['/practice/Slot', '/practice/Slot']);
  });

  it('slots list: bad dates exit 2 naming the option and send nothing', async () => {
    clear();
    const bad = await run(['slots', 'list', '--service-category', GP, '--from', '2026-13-45', '--to', 'tomorrow']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^pdesk: --from must be a date \(YYYY-MM-DD, ISO 8601, today, tomorrow or \+Nd\), not "2026-13-45"\./);
    const reversed = await run(['slots', 'list', '--service-category', GP, '--from', '+3d', '--to', 'today']);
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toMatch(/--from \(\d{4}-\d\d-\d\d\) is after --to/);
    expect(received()).toHaveLength(0);
  });

  it('slots list --dry-run prints the request and sends nothing', async () => {
    clear();
    const r = await run(['--dry-run', 'slots', 'list', '--service-category', GP, '--from', '2026-03-01', '--to', '2026-03-07']);
    expect(r.code, r.stderr).toBe(0);
    const req = r.json<{ method: string; url: string; headers: Record<string, string> }>();
    expect(req.method).toBe('GET');
    expect(req.url).toBe(
      `${env.sandbox.url}/practice/Slot?service-category=urn%3Apdesk%3Aservice-category%7Cgp&schedule.date=ge2026-03-01&schedule.date=le2026-03-07`,
    );
    expect(req.headers.accept).toBe('application/fhir+json');
    expect(received()).toHaveLength(0);
  });

  if (api === '2.0.0') {
    it('2.0.0: --schedule and --status are sent; --practitioner exits 2 and sends nothing', async () => {
      clear();
      const r = await run([
        'slots',
        'list',
        '--service-category',
        GP,
        '--from',
        'tomorrow',
        '--to',
        'tomorrow',
        '--schedule',
        '11',
        '--status',
        'busy',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json<Array<{ id: string }>>().map((s) => s.id)).toEqual([`slot-11-${compact(day(1))}-0900`]);
      expect(rawQuery(received()[0]!)).toMatch(/&schedule=11&status=busy$/);

      clear();
      const bad = await run([
        'slots',
        'list',
        '--service-category',
        GP,
        '--from',
        'today',
        '--to',
        'tomorrow',
        '--practitioner',
        '1001',
        '--dry-run',
      ]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^pdesk: --practitioner needs appointment API 1\.0\.0/);
      expect(bad.stdout).toBe('');
      expect(received()).toHaveLength(0);
    });
  } else {
    it('1.0.0: --practitioner as a comma list; --schedule and --status exit 2 and send nothing', async () => {
      clear();
      const r = await run([
        'slots',
        'list',
        '--service-category',
        GP,
        '--from',
        'tomorrow',
        '--to',
        'tomorrow',
        '--practitioner',
        '1002',
        '--practitioner',
        '2001,9999',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const slots = r.json<Array<{ id: string; extension: Array<{ valueReference: { reference: string } }> }>>();
      // 1002's gp slots of tomorrow except appt-2's; 2001 is physio, so none of its slots
      expect(slots).toHaveLength(11);
      for (const s of slots) expect(s.extension[0]!.valueReference.reference).toBe('PractitionerRole/1002');
      expect(rawQuery(received()[0]!)).toMatch(/&schedule\.actor%3APractitionerRole=1002%2C2001%2C9999$/);

      clear();
      for (const [option, value] of [
        ['--schedule', '11'],
        ['--status', 'busy'],
      ]) {
        const bad = await run(['slots', 'list', '--service-category', GP, '--from', 'today', '--to', 'tomorrow', option!, value!]);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toMatch(new RegExp(`^pdesk: ${option} needs appointment API 2\\.0\\.0`));
      }
      expect(received()).toHaveLength(0);
    });
  }
});

describe('slots that have begun', () => {
  let env: Env;
  beforeAll(async () => {
    env = await withSandbox();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('are marked past in the table and in the JSON (the server status kept beside it), by the clock of the run', async () => {
    // Today at 12:00 UTC: the seeded slots of the morning have begun, those of the afternoon have not.
    const noon = new Date(`${day()}T12:00:00Z`);
    const args = ['slots', 'list', '--service-category', GP, '--from', 'today', '--to', 'today', '--schedule', '11'];
    const j = await env.run([...args, '--json'], { ...TZ, now: () => noon });
    expect(j.code, j.stderr).toBe(0);
    const slots = j.json<Array<{ id: string; start: string; status: string; past: boolean }>>();
    expect(slots.length).toBeGreaterThan(2);
    for (const s of slots) expect(s.past, s.id).toBe(Date.parse(s.start) < noon.getTime());
    expect(slots.some((s) => s.past) && slots.some((s) => !s.past)).toBe(true);
    expect(slots.find((s) => s.past)!.status).toBe('free');

    const t = await env.run([...args, '--output', 'table'], { ...TZ, now: () => noon });
    const row = (id: string) => t.stdout.split('\n').find((l) => l.startsWith(id))!;
    const before = slots.find((s) => s.past)!;
    const after = slots.find((s) => !s.past)!;
    expect(row(before.id)).toMatch(/\spast\s/);
    expect(row(after.id)).toMatch(/\sfree\s/);
  });
});

describe('slots list: run(ctx, options), without a command line', () => {
  let env: Env;
  beforeAll(async () => {
    env = await withSandbox();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('searches the slots the options name and prints them; a bad option value is the usage error of the command line', async () => {
    const { run } = await import('../../../../src/cli/commands/slots/list.js');
    const t = testContext({ configDir: env.configDir, globals: { json: true } });
    try {
      await run(t.ctx, { serviceCategory: GP, from: day(2), to: day(2), schedule: '12' });
      const slots = t.json() as Array<{ id: string; status: string; past: boolean }>;
      expect(slots.map((s) => s.id)).toContain(`slot-12-${compact(day(2))}-0900`);
      expect(slots.every((s) => s.status === 'free' && s.past === false)).toBe(true);
      const get = env.sandbox.received.find((r) => r.path === '/practice/Slot')!;
      expect(get.query).toContain(`schedule.date=ge${day(2)}`);
      const sent = env.sandbox.received.length;
      await expect(run(t.ctx, { serviceCategory: 'gp', from: 'today', to: 'today' })).rejects.toThrow(
        '--service-category must be <system>|<code>, not "gp".',
      );
      expect(env.sandbox.received).toHaveLength(sent);
    } finally {
      await t.close();
    }
  });
});
