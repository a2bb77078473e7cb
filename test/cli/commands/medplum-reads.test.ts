/**
 * Every read command against the Medplum peer (a practice system on a real FHIR engine holding standard R4 data,
 * test/helpers/medplum/), in-process over real HTTP: R4 shapes are read where the interface has its own
 * (decisions.md §3, §16): M1's standard `entry[].resource` (and its `_include`d pharmacies under the r4 dialect),
 * Annotation notes, PractitionerRole `specialty` and `practitioner.display`; A4's reference parameters typed under
 * the r4 dialect, as Medplum matches a bare id to nothing.
 */
import { describe, expect, test } from 'vitest';
import { medplumPeerForFile } from '../../helpers/medplum/peer.js';
import { PHARMACY_ID_SYSTEM, SEED } from '../../helpers/medplum/seed.js';
import { run } from '../../helpers/run.js';

const mp = medplumPeerForFile();
const gp = SEED.serviceCategory.gp;

/** A command against the peer; the requests the peer received during it. */
async function against(argv: string[], o: { dialect?: 'interface' | 'r4'; columns?: number } = {}) {
  const { peer } = mp;
  const dir = peer.configDir(o.dialect ? { dialect: o.dialect } : {});
  const from = peer.requests.length;
  const r = await run(argv, { configDir: dir, tty: { stdout: true }, columns: o.columns ?? 300 });
  return { r, requests: peer.requests.slice(from) };
}

const rows = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((l) => l.split(/\s{2,}/));

describe.each(['interface', 'r4'] as const)('dialect %s: every read command reads standard R4', (dialect) => {
  test('practitioners list: the table shows R4 practitioner.display and specialty; --json keeps them as received', async () => {
    const { r } = await against(['practitioners', 'list', '--output', 'table'], { dialect });
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual([
      [SEED.practitionerRoles.berg, 'Dr. Anna Berg', '0100 General practice'],
      [SEED.practitionerRoles.haddad, 'Dr. Omar Haddad', '0100 General practice'],
      [SEED.practitionerRoles.fischer, 'Lena Fischer', '2100 Physiotherapy'],
    ]);
    const j = await against(['practitioners', 'list', '--json'], { dialect });
    const roles = j.r.json<any[]>();
    expect(roles[0]).toMatchObject({ practitioner: { display: 'Dr. Anna Berg' }, specialty: [{ coding: [{ code: '0100' }] }] });
    expect(roles[0].name).toBeUndefined();
  });

  test('medications list: standard entries become {medicationRequest, organization} rows; notes as received', async () => {
    const { r, requests } = await against(['medications', 'list', '--json'], { dialect });
    expect(r.code, r.stderr).toBe(0);
    const list = r.json<any[]>();
    expect(list.map((x) => x.medicationRequest.id)).toEqual([SEED.medicationRequests.metformin, SEED.medicationRequests.salbutamol]);
    expect(list[0].medicationRequest.note).toEqual([{ text: SEED.metforminNote }]);
    const query = new URL(requests[0]!.url, 'http://x').searchParams;
    if (dialect === 'r4') {
      // The pharmacies come with the requests (_include), paired by performer.
      expect(query.get('_include')).toBe('MedicationRequest:intended-performer');
      expect(list.map((x) => x.organization?.name)).toEqual(['Apotheek Centrum', 'Apotheek Noord']);
    } else {
      expect(query.get('_include')).toBeNull();
      expect(list.map((x) => x.organization)).toEqual([undefined, undefined]);
    }
    const t = await against(['medications', 'list', '--output', 'table'], { dialect });
    expect(t.r.code, t.r.stderr).toBe(0);
    expect(rows(t.r.stdout)[0]).toEqual([
      SEED.medicationRequests.metformin,
      'active',
      'Metformin 500 mg tablet',
      `Patient/${SEED.patients.emma}`,
      dialect === 'r4' ? 'Apotheek Centrum' : `Organization/${SEED.pharmacies.centrum}`,
      '60 tablet',
      expect.stringMatching(/^\d{4}-\d\d-\d\d\.\.\d{4}-\d\d-\d\d$/),
    ]);
  });

  test('medications show: an R4 Annotation note is shown as its text', async () => {
    const { r } = await against(['medications', 'show', SEED.medicationRequests.metformin, '--output', 'table'], { dialect });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^note\\s+${SEED.metforminNote}$`, 'm'));
    const j = await against(['medications', 'show', SEED.medicationRequests.metformin, '--json'], { dialect });
    expect(j.r.json<any>().note).toEqual([{ text: SEED.metforminNote }]);
  });

  test('slots list --schedule: a typed reference under r4 (Medplum matches a bare id to nothing), the bare id of the interface otherwise', async () => {
    const argv = [
      'slots',
      'list',
      '--service-category',
      gp,
      '--from',
      'today',
      '--to',
      '+7d',
      '--schedule',
      SEED.schedules.haddad,
      '--json',
    ];
    const { r, requests } = await against(argv, { dialect });
    expect(r.code, r.stderr).toBe(0);
    const sent = new URL(requests[0]!.url, 'http://x').searchParams.get('schedule');
    if (dialect === 'r4') {
      expect(sent).toBe(`Schedule/${SEED.schedules.haddad}`);
      expect(r.json<any[]>()).toHaveLength(SEED.freeSlots.haddad);
    } else {
      expect(sent).toBe(SEED.schedules.haddad);
      expect(r.json<any[]>()).toEqual([]);
    }
  });

  test('the other read commands: schedules, slots over two pages, appointments, appointment types, pharmacies', async () => {
    const schedules = await against(['schedules', 'list', '--service-category', gp, '--json'], { dialect });
    expect(schedules.r.code, schedules.r.stderr).toBe(0);
    expect(schedules.r.json<any[]>().map((s) => s.id)).toEqual([SEED.schedules.berg, SEED.schedules.haddad]);
    const slots = await against(['slots', 'list', '--service-category', gp, '--from', 'today', '--to', '+6d', '--json'], { dialect });
    expect(slots.r.code, slots.r.stderr).toBe(0);
    expect(slots.r.json<any[]>()).toHaveLength(SEED.freeSlots.berg + SEED.freeSlots.haddad + 1);
    const appointments = await against(['appointments', 'list', '--json'], { dialect });
    expect(appointments.r.json<any[]>().map((a) => a.id)).toEqual([SEED.appointments.booked, SEED.appointments.cancelled]);
    const types = await against(['appointment-types', 'list', '--service-category', 'gp', '--json'], { dialect });
    expect(types.r.code, types.r.stderr).toBe(0);
    expect(types.r.json<any[]>()).toEqual(SEED.appointmentTypes.gp);
    const pharmacies = await against(['pharmacies', 'search', '--identifier', `${PHARMACY_ID_SYSTEM}|PH001`, '--json'], { dialect });
    expect(pharmacies.r.code, pharmacies.r.stderr).toBe(0);
    expect(pharmacies.r.json<any[]>().map((o) => o.name)).toEqual(['Apotheek Centrum']);
  });
});
