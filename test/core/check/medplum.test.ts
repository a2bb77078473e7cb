/**
 * pdesk check against the Medplum peer (a real FHIR engine: R4 validation, server ids, no business logic), in
 * process: with the r4 dialect every check passes that the engine really passes, and every one it does not fails
 * naming the reason (no slot locking, no refusal of a closed chat, A7 that does not cancel, busy slots in a search
 * without status); checks with nothing to judge are skipped with the real cause; the clean-up goes by the server's
 * ids, reads back what it did, and lists what it could not undo. Report paths name the page.
 */
import type { Appointment, MedicationRequest } from '@medplum/fhirtypes';
import { describe, expect, test } from 'vitest';
import { type CheckReport, runSuite } from '../../../src/core/check/index.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { medplumPeerForFile } from '../../helpers/medplum/peer.js';
import { SEED } from '../../helpers/medplum/seed.js';

const mp = medplumPeerForFile();

const verdicts = (r: CheckReport) => Object.fromEntries(r.results.map((x) => [x.id, x.result]));
const result = (r: CheckReport, id: string) => r.results.find((x) => x.id === id)!;
const errors = (r: CheckReport, id: string) => result(r, id).messages.filter((m) => m.type === 'error');

async function appointments(): Promise<Appointment[]> {
  return mp.peer.repos.practice.searchResources<Appointment>({ resourceType: 'Appointment', filters: [] });
}

describe('the write suite with the r4 dialect', () => {
  test('passes what Medplum does and fails, with the reason, what it does not; the bookings it could not cancel are listed', async () => {
    const profile = Profile.parse(mp.peer.profile({ dialect: 'r4' }));
    const report = await runSuite({ profile, write: true, inputs: { encounter: SEED.encounters.open } });
    expect(report.dialect).toBe('r4');
    expect(verdicts(report)).toEqual({
      'A1-types': 'pass',
      'A2-roles': 'pass',
      'A3-schedules': 'pass',
      'A4-slots': 'pass',
      // Medplum lists the busy slot when no status is asked for.
      'A4-free-only': 'fail',
      'A5-appointments': 'pass',
      'A6-book': 'pass',
      // No slot locking.
      'A6-double-booking': 'fail',
      'A5-sees-booking': 'pass',
      // A7 is stored, the appointment stays booked.
      'A7-cancel': 'fail',
      'A4-slot-freed': 'skip',
      'C1-send': 'pass',
      'C3-reply': 'pass',
      'C2-mark-read': 'pass',
      'C4-close': 'pass',
      // No refusal of messages to a closed chat.
      'C1-closed-refused': 'fail',
      'C5-notify': 'pass',
      'M1-requests': 'pass',
      'M2-read': 'pass',
      'M4-pharmacies': 'pass',
      'M3-reorder': 'pass',
    });
    expect(errors(report, 'A4-free-only')[0]).toMatchObject({
      text: `slot ${SEED.busySlot} is "busy"; a search without status answers free slots only.`,
      path: expect.stringMatching(/^page [12] \$\.entry\[\d+\]\.resource\.status$/),
    });
    expect(errors(report, 'A6-double-booking')[0]!.text).toMatch(
      /^a second booking of slot \S+ was accepted as Appointment\/\S+ \(HTTP 201 Created\): the server does not lock booked slots/,
    );
    expect(errors(report, 'A7-cancel')[0]!.text).toMatch(
      /^A7 answered HTTP 201 Created, but A5 reads Appointment\/\S+ back as "booked", not cancelled: the server did not cancel it\.$/,
    );
    expect(result(report, 'A4-slot-freed').messages[0]!.text).toBe('needs a cancelled booking, which A7-cancel did not make');
    expect(errors(report, 'C1-closed-refused')[0]!.text).toMatch(
      /^a message to the closed chat \S+ was accepted \(HTTP 201 Created, Communication\/\S+\): the server does not refuse messages to a closed chat/,
    );

    // The server's ids: the booking is followed by the id Medplum gave, not the one sent.
    const booked = (await appointments()).filter((a) => a.comment?.startsWith('pdesk check:'));
    expect(booked).toHaveLength(2);
    const created = report.created.filter((c) => c.op === 'A6');
    expect(created.map((c) => c.resource).sort()).toEqual(booked.map((a) => `Appointment/${a.id}`).sort());
    expect(
      result(report, 'A6-book').messages.some((m) => /^stored as Appointment\/\S+ \(named by its answer\), not the id sent/.test(m.text)),
    ).toBe(true);
    // Neither booking could be cancelled (Medplum does not cancel on A7): both listed as not undone, with why.
    for (const c of created)
      expect(c).toMatchObject({
        undo: 'failed',
        note: expect.stringMatching(/^NOT cancelled: A7 answered HTTP 201 Created, but the appointment is still "booked"/),
      });
    expect(booked.map((a) => a.status)).toEqual(['booked', 'booked']);
    // The test messages are listed as what the interface cannot undo; C2 marked the message by the server's id.
    expect(report.created.filter((c) => c.op === 'C1' || c.op === 'C3').every((c) => c.undo === 'none')).toBe(true);
    const c1 = report.created.find((c) => c.check === 'C1-send')!.resource.replace('Communication/', '');
    expect(result(report, 'C2-mark-read').exchanges[0]!.url).toBe(`${mp.peer.practiceUrl}/Communication/${c1}`);
    // C4 kept the encounter's subject.
    expect(await mp.peer.repos.portal.readResource('Encounter', SEED.encounters.open)).toMatchObject({
      status: 'finished',
      subject: { display: 'Emma Jansen' },
    });
  });

  test('A7 that cancels passes, and the clean-up of a booking left behind cancels it by the server id and reads it back', async () => {
    // A practice system that does cancel on A7 (as the sandbox does): Medplum with that business rule added.
    const repo = mp.peer.repos.practice;
    const create = repo.createResource.bind(repo);
    repo.createResource = (async (resource: any, options?: any) => {
      const stored = await create(resource, options);
      if (resource.resourceType === 'AppointmentResponse' && resource.participantStatus === 'declined') {
        const id = String(resource.appointment.reference).split('/')[1]!;
        const a = await repo.readResource<Appointment>('Appointment', id);
        await repo.updateResource({ ...a, status: 'cancelled' });
      }
      return stored;
    }) as typeof repo.createResource;
    try {
      const profile = Profile.parse(mp.peer.profile({ dialect: 'r4' }));
      const report = await runSuite({ profile, write: true, only: ['A6-book', 'A6-double-booking', 'A7-cancel', 'A4-slot-freed'] });
      expect(verdicts(report)).toEqual({
        'A6-book': 'pass',
        'A6-double-booking': 'fail',
        'A7-cancel': 'pass',
        // The slot was never taken (Medplum has no slot locking): nothing to judge.
        'A4-slot-freed': 'skip',
      });
      expect(result(report, 'A4-slot-freed').messages[0]!.text).toMatch(
        /^A4 still offered slot \S+ as free after A6 booked it \(the server does not take booked slots\): there is no freeing to judge$/,
      );
      const booked = (await appointments()).filter((a) => a.comment?.startsWith('pdesk check:'));
      expect(booked.map((a) => a.status)).toEqual(['cancelled', 'cancelled']);
      expect(report.created.map((c) => [c.check, c.undo, c.note])).toEqual([
        ['A6-book', 'done', 'cancelled by A7-cancel'],
        ['A6-double-booking', 'done', 'cancelled after the run (HTTP 201 Created)'],
      ]);
      expect(report.created.map((c) => c.resource).sort()).toEqual(booked.map((a) => `Appointment/${a.id}`).sort());
    } finally {
      repo.createResource = create;
    }
  });
});

describe('a refusal check passes only on the refusal it tests', () => {
  test('the interface dialect: C1 to the closed chat is refused with 400 for its body, a fail naming that reason', async () => {
    const profile = Profile.parse(mp.peer.profile());
    const report = await runSuite({ profile, write: true, inputs: { encounter: SEED.encounters.closed }, only: ['C1', 'C4'] });
    expect(report.dialect).toBe('interface');
    expect(verdicts(report)).toEqual({ 'C1-send': 'fail', 'C4-close': 'pass', 'C1-closed-refused': 'fail' });
    expect(errors(report, 'C1-closed-refused')[0]!.text).toMatch(
      /^refused with HTTP 400 Bad Request, but not as a message to a closed chat: error structure: Expected single value for property \(at Communication\.subject\);.*The check passes on 409 Conflict or an OperationOutcome saying conflict, duplicate, business-rule, lock-error\.$/,
    );
  });
});

describe('nothing to judge is a skip, with the real cause', () => {
  test('no slots in the week: the A4 checks skip saying so, and A6-book names why it has nothing to book', async () => {
    const profile = Profile.parse(
      mp.peer.profile({ dialect: 'r4', check: { serviceCategory: 'urn:pdesk:service-category|dentist', patient: SEED.patients.emma } }),
    );
    const report = await runSuite({ profile, write: true, only: ['A3', 'A4', 'A6-book'] });
    expect(verdicts(report)).toMatchObject({
      'A3-schedules': 'skip',
      'A4-slots': 'skip',
      'A4-free-only': 'skip',
      'A4-slot-freed': 'skip',
      'A6-book': 'skip',
    });
    expect(result(report, 'A4-slots').messages.at(-1)!.text).toMatch(/^A4 finds no slots from \S+ to \S+: there is nothing to check$/);
    expect(result(report, 'A6-book').messages[0]!.text).toMatch(/^A4 lists no slots from \S+ to \S+: there is no slot to book$/);
  });

  test('M2, M3 and M4 skip naming M1 entries that break the interface, not "no medication request"', async () => {
    // Both requests name their medication by code (valid R4), where the interface requires medicationReference.
    for (const id of Object.values(SEED.medicationRequests)) {
      const { medicationReference, ...r } = await mp.peer.repos.practice.readResource<MedicationRequest>('MedicationRequest', id);
      await mp.peer.repos.practice.updateResource({ ...r, medicationCodeableConcept: { text: medicationReference!.display } });
    }
    const profile = Profile.parse(mp.peer.profile({ dialect: 'r4' }));
    const report = await runSuite({ profile, write: true, only: ['M1', 'M2', 'M3', 'M4'] });
    expect(verdicts(report)).toEqual({ 'M1-requests': 'fail', 'M2-read': 'skip', 'M4-pharmacies': 'skip', 'M3-reorder': 'skip' });
    expect(errors(report, 'M1-requests')[0]).toMatchObject({
      text: 'required field is missing',
      path: '$.entry[0].resource.medicationReference',
    });
    const because = 'M1 listed 2 medication requests, none matching the interface (see M1-requests)';
    expect(result(report, 'M2-read').messages[0]!.text).toBe(`${because}: none to read back`);
    expect(result(report, 'M4-pharmacies').messages[0]!.text).toBe(`${because}: no pharmacy to search for`);
    expect(result(report, 'M3-reorder').messages[0]!.text).toBe(`${because}: none of Patient/${SEED.patients.emma} to reorder`);
  });
});
