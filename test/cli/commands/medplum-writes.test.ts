/**
 * Every write command against the Medplum peer (R4 validation on, server-assigned ids), in-process over real HTTP.
 * With `"dialect": "r4"` each is accepted, and every body pdesk built passes Medplum's own validator
 * (`validateResource`); with the interface's dialect the bodies where the interface departs from R4 are refused
 * (the departures table of docs/interface.md). The server's id is what pdesk prints, records in the audit trail
 * and the thread store, and goes on with (C2 after C1); a 201 without a body prints its Location and id.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateResource } from '@medplum/core';
import type { Appointment, Communication, Encounter, Resource } from '@medplum/fhirtypes';
import { describe, expect, test } from 'vitest';
import { auditPath, readAudit } from '../../../src/core/audit.js';
import { openThreadStore } from '../../../src/core/threads/index.js';
import { medplumPeerForFile } from '../../helpers/medplum/peer.js';
import { SEED } from '../../helpers/medplum/seed.js';
import { run } from '../../helpers/run.js';

const mp = medplumPeerForFile();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const emma = `Patient/${SEED.patients.emma}`;
const berg = `PractitionerRole/${SEED.practitionerRoles.berg}`;

/** `chat send` (C1) of a message from Emma to Dr. Berg in `thread`. */
const chatSend = (thread: string) => [
  'chat',
  'send',
  '--thread',
  thread,
  '--text',
  'Hello',
  '--sender',
  emma,
  '--recipient',
  berg,
  '--subject',
  emma,
];

/** A config folder for the peer with the dialect, and a way to run commands in it and see what the peer received. */
function desk(dialect: 'interface' | 'r4') {
  const { peer } = mp;
  const dir = peer.configDir({ dialect });
  return {
    dir,
    async run(argv: string[], o: { table?: boolean } = {}) {
      const from = peer.requests.length;
      const r = await run(argv, { configDir: dir, ...(o.table ? { tty: { stdout: true }, columns: 200 } : {}) });
      return { r, requests: peer.requests.slice(from) };
    },
    audit: () => readAudit(auditPath(dir, 'medplum')).records,
  };
}

/** A bookable slot of Berg's, as `slots list --json` prints it, written to a file for --slot-json. */
async function slotFile(d: ReturnType<typeof desk>): Promise<string> {
  const { r } = await d.run(['slots', 'list', '--service-category', SEED.serviceCategory.gp, '--from', '+1d', '--to', '+1d', '--json']);
  const slot = r.json<any[]>().find((s) => s.status === 'free' && s.extension?.[0]?.valueReference?.reference === berg);
  const file = join(d.dir, 'slot.json');
  writeFileSync(file, JSON.stringify(slot));
  return file;
}

/** Every resource body pdesk sent (POST, PUT) passes Medplum's R4 validator. */
function expectValidR4(requests: Array<{ method: string; body: string }>): void {
  const bodies = requests.filter((q) => q.method === 'POST' || q.method === 'PUT').map((q) => JSON.parse(q.body) as Resource);
  expect(bodies.length).toBeGreaterThan(0);
  for (const b of bodies) expect(() => validateResource(b), JSON.stringify(b)).not.toThrow();
}

describe('dialect r4: every write command is accepted, its body valid R4, and the server id is the one used', () => {
  test('appointments book prints, audits and returns the id Medplum gave, saying it is not the one sent', async () => {
    const d = desk('r4');
    const slot = await slotFile(d);
    const book = ['appointments', 'book', '--patient', SEED.patients.emma, '--comment', 'Check-up', '--slot-json', slot];
    const { r, requests } = await d.run([...book, '--output', 'table'], { table: true });
    expect(r.code, r.stderr).toBe(0);
    expectValidR4(requests);
    const sentId = JSON.parse(requests.find((q) => q.method === 'POST')!.body).id;
    const stored = (await mp.peer.repos.practice.searchResources<Appointment>({ resourceType: 'Appointment', filters: [] })).find(
      (a) => a.comment === 'Check-up',
    )!;
    expect(stored.id).not.toBe(sentId);
    expect(r.stdout).toContain(`Appointment ${stored.id} created (HTTP 201), status booked.`);
    expect(r.stdout).toContain(`The server stored it as Appointment/${stored.id}, not under the id sent (${sentId}).`);
    const audited = d.audit().filter((a) => a.op === 'A6');
    expect(audited.map((a) => [a.status, a.id])).toEqual([[201, stored.id]]);

    // --json: the server's answer; the difference is said on stderr.
    const j = await d.run([...book, '--comment', 'Second', '--json']);
    expect(j.r.code, j.r.stderr).toBe(0);
    const answer = j.r.json<any>();
    expect(answer.id).toMatch(UUID);
    expect(answer.id).not.toBe(JSON.parse(j.requests.find((q) => q.method === 'POST')!.body).id);
    expect(j.r.stderr).toContain(`pdesk: note: the server stored the Appointment as Appointment/${answer.id}, not under the id sent`);

    // Cancelling by the id printed reaches the stored appointment (A7 201; Medplum itself does not cancel it).
    const c = await d.run(['appointments', 'cancel', answer.id, '--actor', emma, '--comment', 'No longer needed', '--json']);
    expect(c.r.code, c.r.stderr).toBe(0);
    expectValidR4(c.requests);
    expect(JSON.parse(c.requests[0]!.body).appointment.reference).toBe(`Appointment/${answer.id}`);
  });

  test('a 201 without a body (return=minimal): the Location and the id from it, in the table and in --json', async () => {
    const d = desk('r4');
    const slot = await slotFile(d);
    mp.peer.set({ minimalCreate: true });
    const book = ['appointments', 'book', '--patient', SEED.patients.emma, '--comment', 'Minimal', '--slot-json', slot];
    const t = await d.run([...book, '--output', 'table'], { table: true });
    expect(t.r.code, t.r.stderr).toBe(0);
    const id = /^Appointment (\S+) created \(HTTP 201\)/.exec(t.r.stdout)?.[1];
    expect(id).toMatch(UUID);
    expect(await mp.peer.repos.practice.readResource('Appointment', id!)).toMatchObject({ comment: 'Minimal' });
    expect(t.r.stdout).toMatch(new RegExp(`^  Location: ${mp.peer.practiceUrl}/Appointment/${id}/_history/\\S+$`, 'm'));
    const j = await d.run([...book, '--json']);
    const out = j.r.json<any>();
    expect(out).toEqual({
      ok: true,
      status: 201,
      id: expect.stringMatching(UUID),
      location: expect.stringContaining(`/Appointment/${out.id}/_history/`),
    });
    expect(out.id).not.toBe(JSON.parse(j.requests.at(-1)!.body).id);
    expect(d.audit().at(-1)).toMatchObject({ op: 'A6', status: 201, id: out.id });
  });

  test('chat send (C1): accepted, recorded under the server id; chat mark-read (C2) of that id is accepted; reply (C3)', async () => {
    const d = desk('r4');
    const thread = SEED.encounters.open;
    const send = await d.run([...chatSend(thread), '--json']);
    expect(send.r.code, send.r.stderr).toBe(0);
    expectValidR4(send.requests);
    const sentBody = JSON.parse(send.requests[0]!.body);
    expect(sentBody.sender).toEqual({ reference: emma });
    expect(sentBody.encounter.identifier).toEqual({ system: 'practice.example.encounter-id', value: thread });
    const id = send.r.json<any>().id;
    expect(id).not.toBe(sentBody.id);
    expect(await mp.peer.repos.practice.readResource('Communication', id)).toMatchObject({ identifier: [{ value: sentBody.id }] });
    const store = openThreadStore(d.dir, 'medplum');
    const view = await store.load();
    expect(view.messages(thread)!.map((m) => m.id)).toEqual([id]);
    await store.close();

    // C2 by the id pdesk printed: the default route addresses the stored message; the marker is R4's extension list.
    const mark = await d.run(['chat', 'mark-read', id, '--at', '2030-01-02T10:15:00', '--json']);
    expect(mark.r.code, mark.r.stderr).toBe(0);
    expect(mark.requests[0]!.url).toBe(`/practice/fhir/R4/Communication/${id}`);
    const patch = JSON.parse(mark.requests[0]!.body);
    expect(patch).toEqual([
      {
        op: 'add',
        path: '/recipient/0/extension',
        value: [{ url: 'portal.example.ResourceSeenAt', valueDateTime: expect.stringMatching(/^2030-01-02T10:15:00[+-]\d\d:\d\d$/) }],
      },
    ]);
    const marked = await mp.peer.repos.practice.readResource<Communication>('Communication', id);
    expect(() => validateResource(marked)).not.toThrow();
    expect(marked.recipient?.[0]?.extension).toEqual(patch[0].value);

    const reply = await d.run([
      'chat',
      'reply',
      '--thread',
      thread,
      '--text',
      'Hi',
      '--sender',
      berg,
      '--recipient',
      emma,
      '--subject',
      emma,
    ]);
    expect(reply.r.code, reply.r.stderr).toBe(0);
    expectValidR4(reply.requests);
  });

  test('chat close (C4): the Encounter is read and put back finished with If-Match, its subject and class kept', async () => {
    const d = desk('r4');
    const thread = SEED.encounters.open;
    const before = await mp.peer.repos.portal.readResource<Encounter>('Encounter', thread);
    const { r, requests } = await d.run(['chat', 'close', thread, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(requests.map((q) => q.method)).toEqual(['GET', 'PUT']);
    expect(requests[1]!.headers['if-match']).toBe(`W/"${before.meta!.versionId}"`);
    expectValidR4(requests);
    const after = await mp.peer.repos.portal.readResource<Encounter>('Encounter', thread);
    expect(after).toMatchObject({ status: 'finished', subject: before.subject, class: before.class, identifier: before.identifier });
    // --dry-run reads (it changes nothing) and prints the PUT it would send.
    const dry = await d.run(['chat', 'close', SEED.encounters.closed, '--dry-run']);
    expect(dry.r.code, dry.r.stderr).toBe(0);
    expect(dry.requests.map((q) => q.method)).toEqual(['GET']);
    expect(dry.r.json<any>()).toMatchObject({ method: 'PUT', body: { id: SEED.encounters.closed, subject: { display: 'Emma Jansen' } } });
  });

  test('notifications send (C5) and medications order (M3, notes as Annotations): accepted, the server ids printed', async () => {
    const d = desk('r4');
    const n = await d.run(['notifications', 'send', '--email', SEED.emmaEmail, '--topic', 'Lab', '--text', 'Results are in', '--json']);
    expect(n.r.code, n.r.stderr).toBe(0);
    expectValidR4(n.requests);
    expect(n.r.json<any>().id).toMatch(UUID);
    const o = await d.run(['medications', 'order', '--reorder', SEED.medicationRequests.metformin, '--note', 'Please', '--json']);
    expect(o.r.code, o.r.stderr).toBe(0);
    expectValidR4(o.requests);
    expect(JSON.parse(o.requests.at(-1)!.body).note).toEqual([{ text: 'Please' }]);
    const order = o.r.json<any>();
    expect(order).toMatchObject({ status: 'draft', note: [{ text: 'Please' }] });
    expect(d.audit().at(-1)).toMatchObject({ op: 'M3', status: 201, id: order.id });
  });
});

describe('a bulk send (C5, the same body in both dialects)', () => {
  test('every row is accepted as valid R4, and its audit record holds the id the Location of its answer named', async () => {
    const d = desk('r4');
    const csv = join(d.dir, 'people.csv');
    writeFileSync(csv, 'email,name\nemma@example.org,Emma\nnoah@example.org,Noah\nsara@example.org,Sara\n');
    const { r, requests } = await d.run(['notifications', 'send', '--csv', csv, '--topic', 'Lab', '--text', 'Hello {name}', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<any>()).toMatchObject({ sent: 3, failed: 0, uncertain: 0 });
    expectValidR4(requests);
    const stored = await mp.peer.repos.portal.searchResources<Communication>({ resourceType: 'Communication', filters: [] });
    const ids = d
      .audit()
      .filter((a) => a.op === 'C5')
      .map((a) => a.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids)).toEqual(new Set(stored.filter((c) => c.topic?.text === 'Lab').map((c) => c.id)));
  });
});

describe('dialect interface: where the interface departs from R4, Medplum refuses the body', () => {
  test('C1 (sender, subject, encounter.identifier as lists) and M3 (a note as a string) are 400; nothing is recorded', async () => {
    const d = desk('interface');
    const send = await d.run(chatSend(SEED.encounters.open));
    expect(send.r.code).toBe(4);
    expect(send.r.stderr).toMatch(/HTTP 400 Bad Request/);
    expect(JSON.parse(send.requests[0]!.body).sender).toEqual([{ reference: emma }]);
    const view = await openThreadStore(d.dir, 'medplum').load();
    expect(view.messages(SEED.encounters.open)).toBeUndefined();
    const o = await d.run(['medications', 'order', '--reorder', SEED.medicationRequests.metformin, '--note', 'Please']);
    expect(o.r.code).toBe(4);
    expect(o.r.stderr).toMatch(/note\[0\]/);
  });
});
