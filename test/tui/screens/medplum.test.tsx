/**
 * The TUI against the Medplum peer (a real FHIR engine that assigns its own ids and validates R4) with the r4
 * dialect: a booking and a chat message show the id the server gave them, saying it is not the one sent, and the
 * thread store records that id; a close under r4 reads the Encounter first and keeps it whole.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Appointment, Communication, Encounter } from '@medplum/fhirtypes';
import { afterEach, describe, expect, it } from 'vitest';
import { openThreadStore } from '../../../src/core/threads/index.js';
import { medplumPeerForFile } from '../../helpers/medplum/peer.js';
import { SEED } from '../../helpers/medplum/seed.js';
import { type Desk, KEY, openDesk } from '../harness.js';

const mp = medplumPeerForFile();
let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const size = { columns: 220, rows: 40 };
const open = (screen: 'slots' | 'chat', configDir?: string) =>
  openDesk({ screen, size, profile: () => mp.peer.profile({ dialect: 'r4' }), ...(configDir ? { root: { configDir } } : {}) });

describe('the desk on a FHIR server with the r4 dialect', () => {
  it('books a slot and shows the id Medplum gave the appointment, not the one it sent', async () => {
    desk = await open('slots');
    const d = desk;
    await d.waitFor('gp — General practice');
    await d.press(KEY.enter);
    await d.waitFor('Consultation');
    await d.press(KEY.enter);
    await d.waitFor('Practitioner and schedule');
    await d.press('j', KEY.enter); // Dr. Anna Berg's schedule
    await d.waitFor('Date range');
    await d.press('\u0015');
    await d.type('tomorrow');
    await d.press(KEY.enter, KEY.enter);
    await d.waitFor('Slots (times in UTC)');
    await d.press(KEY.enter);
    await d.waitFor('Book this slot (A6)');
    await d.type(SEED.patients.emma);
    await d.press(KEY.enter, KEY.enter, KEY.enter);
    await d.waitFor('Book? POST Appointment (A6)');
    await d.press('y');
    const f = await d.waitFor(/Booked appointment \S+ \(booked/);
    const stored = (await mp.peer.repos.practice.searchResources<Appointment>({ resourceType: 'Appointment', filters: [] })).find((a) =>
      a.participant?.some((p) => p.actor?.reference === `Patient/${SEED.patients.emma}` && a.comment === 'Consultation'),
    )!;
    const sent = JSON.parse(mp.peer.requests.find((q) => q.method === 'POST')!.body).id;
    expect(stored.id).not.toBe(sent);
    expect(f).toContain(`Booked appointment ${stored.id} (booked; the server's id, not the one sent: ${sent}): `);
  });

  it('a message is recorded and shown under the server id; a close reads the Encounter and keeps its subject', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdesk-tui-medplum-'));
    desk = await open('chat', dir);
    const d = desk;
    await d.waitFor('Chat threads');
    await d.press('n');
    await d.waitFor('New chat message');
    await d.press('\u0015');
    await d.type(SEED.encounters.open);
    await d.press(KEY.enter, KEY.enter); // as portal (C1)
    await d.type(`Patient/${SEED.patients.emma}`);
    await d.press(KEY.enter);
    await d.type(`PractitionerRole/${SEED.practitionerRoles.berg}`);
    await d.press(KEY.enter);
    await d.type(`Patient/${SEED.patients.emma}`);
    await d.press(KEY.enter, KEY.enter);
    await d.type('A question from the desk');
    await d.press(KEY.enter);
    await d.waitFor('Send? POST Communication (C1)');
    await d.press('y');
    const f = await d.waitFor(/Sent C1 in \S+ \(HTTP 201\), recorded: \S+\./);
    const id = /recorded: (\S+)\./.exec(f)![1]!;
    const stored = await mp.peer.repos.practice.readResource<Communication>('Communication', id);
    expect(stored.payload?.[0]?.contentString).toBe('A question from the desk');
    expect(f).toContain(`The server stored it under that id, not the one sent (${stored.identifier![0]!.value}).`);
    const view = await openThreadStore(dir, 'medplum').load();
    expect(view.messages(SEED.encounters.open)!.map((m) => m.id)).toEqual([id]);

    await d.press('x');
    const ask = await d.waitFor(`Close chat ${SEED.encounters.open}?`);
    expect(ask).toContain('The Encounter is read from the portal first (GET), then put back with status finished');
    await d.press('y');
    await d.waitFor(/Closed chat \S+ \(HTTP 200\); recorded\./);
    const closed = await mp.peer.repos.portal.readResource<Encounter>('Encounter', SEED.encounters.open);
    expect(closed).toMatchObject({ status: 'finished', subject: { display: 'Emma Jansen' } });
  });
});
