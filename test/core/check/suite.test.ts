/**
 * pdesk check's suite against the sandbox, in process: the read-only suite passes for both appointment API
 * versions with and without the approval flow and sends GET only; the write suite passes and leaves the
 * sandbox's slots as it found them, listing what it created; skip, omit, --only and the clean-up.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type CheckReport, runSuite, suiteInfo } from '../../../src/core/check/index.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../../src/sandbox/server.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function sandbox(o: SandboxOptions = {}) {
  sb = await startSandbox({ port: 0, replyDelayMs: 60_000, ...o });
  return { sb, profile: Profile.parse(sandboxProfile(sb.url, { appointmentApi: o.appointmentApi, approvalFlow: o.approvalFlow })) };
}

const byResult = (r: CheckReport, result: string) => r.results.filter((x) => x.result === result).map((x) => x.id);
const slotStatuses = (s: Sandbox) => new Map([...s.state.slots.values()].map((x) => [x.id, x.status]));

const READ_CHECKS = suiteInfo()
  .filter((c) => !c.write)
  .map((c) => c.id);
const WRITE_CHECKS = suiteInfo()
  .filter((c) => c.write)
  .map((c) => c.id);

describe.each([
  { appointmentApi: '2.0.0' as const, approvalFlow: false },
  { appointmentApi: '2.0.0' as const, approvalFlow: true },
  { appointmentApi: '1.0.0' as const, approvalFlow: false },
  { appointmentApi: '1.0.0' as const, approvalFlow: true },
])('appointment API $appointmentApi, approval flow $approvalFlow', (mode) => {
  test('the read-only suite passes and sends nothing but GET; every write check is omitted with the reason', async () => {
    const { sb, profile } = await sandbox(mode);
    const report = await runSuite({ profile });
    expect(byResult(report, 'pass')).toEqual(READ_CHECKS);
    expect(byResult(report, 'omit')).toEqual(WRITE_CHECKS);
    expect(report.summary).toEqual({ pass: READ_CHECKS.length, fail: 0, error: 0, skip: 0, omit: WRITE_CHECKS.length });
    for (const r of report.results.filter((x) => x.result === 'omit'))
      expect(r.messages[0]!.text).toBe('a write check: sent only with write');
    // Every check that ran rests on requests it lists; the sandbox received GET only.
    for (const r of report.results.filter((x) => x.result === 'pass')) expect(r.exchanges.length, r.id).toBeGreaterThan(0);
    expect(sb.received.length).toBeGreaterThan(8);
    expect(new Set(sb.received.map((q) => q.method))).toEqual(new Set(['GET']));
    expect(report.created).toEqual([]);
  });

  test('the write suite passes, lists what it created, and leaves every slot as it found it (booking cancelled)', async () => {
    const { sb, profile } = await sandbox(mode);
    const before = slotStatuses(sb);
    const appointmentsBefore = new Set(sb.state.appointments.keys());
    const report = await runSuite({ profile, write: true, inputs: { encounter: 'enc-check' } });
    expect(byResult(report, 'pass')).toEqual(suiteInfo().map((c) => c.id));
    expect(slotStatuses(sb)).toEqual(before);
    const booked = [...sb.state.appointments.values()].filter((a) => !appointmentsBefore.has(a.id));
    expect(booked).toHaveLength(1);
    expect(booked[0]!.status).toBe('cancelled');
    expect(report.created.map((c) => [c.op, c.resource.split('/')[0]])).toEqual([
      ['A6', 'Appointment'],
      ['C1', 'Communication'],
      ['C3', 'Communication'],
      ['C5', 'Communication'],
      ['M3', 'MedicationRequest'],
    ]);
    expect(report.created[0]).toMatchObject({ resource: `Appointment/${booked[0]!.id}`, note: 'cancelled by A7-cancel' });
    expect(sb.state.encounters.get('enc-check')?.status).toBe('finished');
    expect(sb.state.notifications).toHaveLength(1);
  });
});

describe('inputs, selection and clean-up', () => {
  test('a check missing an input is skipped naming it (as the face labels it); the profile supplies inputs not given', async () => {
    const { profile } = await sandbox();
    const bare = Profile.parse({ ...profile, check: undefined });
    const label = (f: string) => `--${f}`;
    const r = await runSuite({ profile: bare, write: true, label, only: ['A1', 'A2', 'C1', 'C5'] });
    expect(r.results.map((x) => [x.id, x.result])).toEqual([
      ['A1-types', 'skip'],
      ['A2-roles', 'pass'],
      ['C1-send', 'skip'],
      ['C1-closed-refused', 'skip'],
      ['C5-notify', 'skip'],
    ]);
    expect(r.results[0]!.messages[0]!.text).toBe('needs --serviceCategory (or check.serviceCategory in the profile)');
    expect(r.results[2]!.messages[0]!.text).toBe('needs --patient and --encounter (or check.patient and check.encounter in the profile)');
    // The sandbox profile's check block stands in for options; an option overrides it.
    const withProfile = await runSuite({ profile, only: ['A1'], inputs: { serviceCategory: 'urn:pdesk:service-category|physio' } });
    expect(withProfile.results[0]!.messages.map((m) => m.text)).toContain('2 appointment types for service category physio.');
  });

  test('--only runs a subset; a step needing an earlier one that was not selected says which to add', async () => {
    const { sb, profile } = await sandbox();
    const r = await runSuite({ profile, write: true, only: ['A4-free-only', 'A7'], label: (f) => `--${f}` });
    expect(r.results.map((x) => [x.id, x.result])).toEqual([
      ['A4-free-only', 'pass'],
      ['A7-cancel', 'skip'],
    ]);
    expect(r.results[1]!.messages[0]!.text).toBe('needs a booking made by A6-book: add it to --only');
    expect(sb.received.every((q) => q.method === 'GET')).toBe(true);
    await expect(runSuite({ profile, only: ['Z9'] })).rejects.toThrow(/only names no operation or check: "Z9"/);
  });

  test('a booking whose cancel step was not selected is cancelled after the run, and the report says so', async () => {
    const { sb, profile } = await sandbox();
    const before = slotStatuses(sb);
    const r = await runSuite({ profile, write: true, only: ['A6-book'] });
    expect(r.results[0]!.result).toBe('pass');
    expect(r.created).toHaveLength(1);
    expect(r.created[0]!.note).toBe('cancelled after the run (HTTP 201 Created)');
    expect(slotStatuses(sb)).toEqual(before);
  });

  test('a double booking the server accepts fails the check, is listed, and is cancelled after the run', async () => {
    const { sb, profile } = await sandbox();
    const r = await runSuite({
      profile,
      write: true,
      only: ['A6'],
      // A server that forgets a slot is booked: the booked slot is made free again behind the sandbox's back.
      onResult: (x) => {
        if (x.id !== 'A6-book') return;
        const [slotId] = [...sb.state.slotBookings].at(-1)!;
        sb.state.slots.get(slotId)!.status = 'free';
      },
    });
    expect(r.results.map((x) => [x.id, x.result])).toEqual([
      ['A6-book', 'pass'],
      ['A6-double-booking', 'fail'],
    ]);
    expect(r.results[1]!.messages[0]!.text).toMatch(/^a second booking of slot \S+ was accepted as Appointment\//);
    expect(r.created.map((c) => c.check)).toEqual(['A6-book', 'A6-double-booking']);
    for (const c of r.created) expect(c.note).toMatch(/^cancelled after the run/);
    const mine = [...sb.state.appointments.values()].filter((a) => r.created.some((c) => c.resource === `Appointment/${a.id}`));
    expect(mine.map((a) => a.status)).toEqual(['cancelled', 'cancelled']);
  });

  test('an aborted run skips the checks it did not reach; onStart and onResult report each check in order', async () => {
    const { profile } = await sandbox();
    const controller = new AbortController();
    const started: string[] = [];
    const r = await runSuite({
      profile,
      signal: controller.signal,
      onStart: (c) => started.push(c.id),
      onResult: (x) => {
        if (x.id === 'A2-roles') controller.abort();
      },
    });
    expect(started).toEqual(suiteInfo().map((c) => c.id));
    expect(r.results.slice(0, 2).map((x) => x.result)).toEqual(['pass', 'pass']);
    const rest = r.results.slice(2).filter((x) => !x.write);
    expect(rest.every((x) => x.result === 'skip' && x.messages[0]!.text === 'the run was stopped before this check')).toBe(true);
  });
});

describe('what the answers are checked for', () => {
  test('allowed variants are reported as info naming a path: numeric ids, bare entries, the A1 shape of the other version', async () => {
    const { profile } = await sandbox({ appointmentApi: '1.0.0' });
    const r = await runSuite({ profile, only: ['A2', 'A3'] });
    const a3 = r.results.find((x) => x.id === 'A3-schedules')!;
    expect(a3.messages).toContainEqual({
      type: 'info',
      text: '2 Bundle entries are the resource itself, without {resource: …} (an allowed variant, as in the Schedule sample)',
      path: '$.entry[0]',
    });
    expect(a3.messages).toContainEqual({
      type: 'info',
      text: '2 resources carry their id as a number (an allowed variant, read as a string)',
      path: '$.entry[0].id',
    });
    const a2 = r.results.find((x) => x.id === 'A2-roles')!;
    expect(a2.messages).toContainEqual({
      type: 'info',
      text: '3 resources carry their id as a number (an allowed variant, read as a string)',
      path: '$.entry[0].resource.id',
    });
    // A profile that says 2.0.0 against a 1.0.0 server: the AppointmentType shape is allowed, and said so.
    const v2 = Profile.parse({ ...profile, appointmentApi: '2.0.0', routes: { A1: { path: '/AppointmentType' } } });
    const a1 = await runSuite({ profile: v2, only: ['A1'] });
    expect(a1.results[0]!.result).toBe('pass');
    expect(a1.results[0]!.messages[0]).toEqual({
      type: 'info',
      text: 'answered an AppointmentType (the 1.0.0 shape); this profile speaks 2.0.0, and either shape is allowed.',
      path: '$.resourceType',
    });
  });

  test('paging: A4 follows next links over several pages; a slow answer is a warning naming the request', async () => {
    const { profile } = await sandbox({ latencyMs: 40 });
    const r = await runSuite({ profile, only: ['A4-slots'], slowMs: 30 });
    const a4 = r.results[0]!;
    expect(a4.result).toBe('pass');
    expect(a4.exchanges.length).toBeGreaterThan(2);
    expect(a4.messages).toContainEqual({ type: 'info', text: `read ${a4.exchanges.length} pages, following next links.` });
    const slow = a4.messages.filter((m) => m.type === 'warning');
    expect(slow).toHaveLength(a4.exchanges.length);
    expect(slow[0]!.text).toMatch(/^A4 GET http:\/\/127\.0\.0\.1:\d+\/practice\/Slot\?\S+ took \d+ ms \(more than 30 ms\)$/);
  });
});
