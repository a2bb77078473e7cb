/** X-ray of an appointment (src/core/xray/appointment.ts) against the sandbox, both appointment API versions. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildNotification } from '../../../src/core/api/notifications.js';
import { PdeskClient } from '../../../src/core/client.js';
import { searchAppointments } from '../../../src/core/api/appointments.js';
import { openFileStore } from '../../../src/core/store/file/index.js';
import { notificationRecord } from '../../../src/core/threads/index.js';
import { type CancelSource, CANCEL_SOURCES, cancelsFromParticipants, section, xrayAppointment } from '../../../src/core/xray/index.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';
import { tempDir } from '../../helpers/config.js';
import { writeStore } from '../../helpers/local-files.js';

let sb: Sandbox | undefined;
let client: PdeskClient | undefined;
afterEach(async () => {
  await client?.close();
  await sb?.close();
  sb = undefined;
  client = undefined;
});

async function setup(appointmentApi: '1.0.0' | '2.0.0' = '2.0.0') {
  sb = await startSandbox({ port: 0, log: () => undefined, appointmentApi });
  const profile = Profile.parse(sandboxProfile(sb.url, { appointmentApi }));
  // A read-only client, as the TUI's X-ray runs on the desk's client: nothing but GET may go out.
  client = new PdeskClient(profile, { readOnly: true });
  const appts = await searchAppointments(client);
  const byId = (id: string) => appts.find((a) => a.id === id)!;
  return { profile, client, byId };
}

const bySection = (nodes: { section: string; state: string; label: string }[], name: string) =>
  nodes.filter((n) => n.section.startsWith(name)).map((n) => `${n.state} ${n.label}`);

describe('xrayAppointment', () => {
  it('2.0.0: finds the booked slot among the busy ones, its schedule, the role, the patient; GET only', async () => {
    const { profile, client, byId } = await setup();
    const before = sb!.received.length;
    const x = await xrayAppointment({ client, profile }, byId('appt-1'));
    expect(x.title).toBe('Appointment appt-1');
    expect(bySection(x.nodes, 'Slot')).toEqual([
      expect.stringMatching(/^found slot-11-\d{8}-0900 · \d{4}-\d\d-\d\d 09:00–09:30 UTC · busy · Schedule\/11$/),
    ]);
    expect(bySection(x.nodes, 'Schedule')).toEqual(["found Schedule/11 · Dr. Anna Berg (PractitionerRole/1001) (the slot's schedule)"]);
    expect(bySection(x.nodes, 'Practitioner role')).toEqual(['found PractitionerRole/1001 · Dr. Anna Berg · 0100 General practice']);
    expect(bySection(x.nodes, 'Patient')).toEqual([
      'found Patient/pat-1 (Emma Jansen) · accepted (no operation reads a patient: shown as the appointment names it)',
    ]);
    expect(bySection(x.nodes, 'Cancel')).toEqual(['not-found no participant declined (no cancellation)']);
    expect(bySection(x.nodes, "Desk's store")).toEqual(["info no desk's store is open here"]);
    const slot = x.nodes.find((n) => n.section === 'Slot (A4)')!;
    expect(slot.resource).toMatchObject({ resourceType: 'Slot', status: 'busy' });
    expect(new Set(x.nodes.map((n) => n.key)).size).toBe(x.nodes.length);
    const sent = sb!.received.slice(before);
    expect(new Set(sent.map((r) => r.method))).toEqual(new Set(['GET']));
    // A4 free first, then busy; A3; A2 narrowed by _id.
    expect(sent.filter((r) => r.path === '/practice/Slot').map((r) => new URLSearchParams(r.query).get('status'))).toEqual([null, 'busy']);
    expect(sent.some((r) => r.path === '/practice/PractitionerRole' && r.query.includes('_id=1001'))).toBe(true);
  });

  it('1.0.0: a booked slot cannot be told (free slots only), said honestly; the schedule is found by its practitioner', async () => {
    const { profile, client, byId } = await setup('1.0.0');
    const x = await xrayAppointment({ client, profile }, byId('appt-1'));
    expect(bySection(x.nodes, 'Slot')).toEqual([
      expect.stringMatching(/^not-found not found: the server lists free slots only \(appointment API 1\.0\.0 has no status parameter\)/),
    ]);
    expect(bySection(x.nodes, 'Schedule')).toEqual([
      'found Schedule/11 · Dr. Anna Berg (PractitionerRole/1001) (the practitioner’s schedule)',
    ]);
  });

  it('a cancelled appointment: its freed slot, the participant who declined; the patient’s threads and notifications from the store', async () => {
    const { profile, client, byId } = await setup();
    const dir = tempDir();
    await writeStore(dir, 'sandbox', { open: 2 });
    const store = openFileStore(dir);
    for (const [email, topic, text] of [
      ['emma.jansen@example.org', 'Flu shot', 'Book it'],
      ['someone@example.org', 'Other', 'Not hers'],
    ] as const)
      await store.recordSent('sandbox', notificationRecord('sent', buildNotification(profile, { email, topic, text })), 'alice');
    const x3 = await xrayAppointment({ client, profile, store }, byId('appt-3'));
    expect(bySection(x3.nodes, 'Slot')).toEqual([expect.stringMatching(/^found slot-21-\d{8}-1300 · .* · free · Schedule\/21$/)]);
    expect(bySection(x3.nodes, 'Cancel')).toEqual([
      'found declined by Patient/pat-3 (Sara Bakker) (as the appointment shows it; the server keeps no A7 to read back)',
    ]);
    // pat-3 is in no thread; no address is known for pat-3 (the profile's check block names pat-1).
    expect(bySection(x3.nodes, 'Chat threads')).toEqual(['not-found no chat thread in the store names Patient/pat-3']);
    expect(bySection(x3.nodes, 'Notifications')).toEqual([
      'info notifications name a patient only by email address, and none is known for Patient/pat-3 (2 notifications in the store)',
    ]);
    const x1 = await xrayAppointment({ client, profile, store }, byId('appt-1'));
    const threads = x1.nodes.filter((n) => n.section.startsWith('Chat threads'));
    // Both threads' messages were made in the same millisecond: the store's newest-first order is a tie here.
    expect(threads.map((n) => n.jump)).toEqual(
      expect.arrayContaining([
        { screen: 'chat', thread: 'enc-1' },
        { screen: 'chat', thread: 'enc-0' },
      ]),
    );
    expect(threads).toHaveLength(2);
    expect(bySection(x1.nodes, 'Notifications')).toEqual([
      expect.stringMatching(/^found .* sent to emma\.jansen@example\.org · Flu shot · Book it$/),
    ]);
    await store.close();
  });

  it('cancel responses come from a list of sources: another source (the audit trail) is one more function', async () => {
    const { profile, client, byId } = await setup();
    expect(CANCEL_SOURCES).toEqual([cancelsFromParticipants]);
    const audit: CancelSource = (a) => [section('Cancel responses (A7)').found(`A7 sent by pdesk for ${a.id}`, { source: 'A7' as never })];
    const x = await xrayAppointment({ client, profile }, byId('appt-3'), [cancelsFromParticipants, audit]);
    expect(bySection(x.nodes, 'Cancel')).toEqual([
      expect.stringMatching(/^found declined by Patient\/pat-3/),
      'found A7 sent by pdesk for appt-3',
    ]);
  });

  it('a section whose request fails says so; the others are still gathered', async () => {
    sb = await startSandbox({ port: 0, log: () => undefined, failOps: { A3: 503 } });
    const profile = Profile.parse({ ...sandboxProfile(sb.url), retries: { max: 0 } });
    client = new PdeskClient(profile, { readOnly: true });
    const [a] = await searchAppointments(client);
    const x = await xrayAppointment({ client, profile }, a!);
    expect(bySection(x.nodes, 'Schedule')).toEqual([expect.stringMatching(/^error HTTP 503/)]);
    expect(bySection(x.nodes, 'Practitioner role')[0]).toMatch(/^found PractitionerRole\/1001/);
  });
});
