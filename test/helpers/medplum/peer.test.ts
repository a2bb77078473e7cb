/**
 * The Medplum peer itself, over raw HTTP (undici, not pdesk): Medplum's answers (validation, server ids, paging,
 * search rules) and every switch. One peer for the file; each test starts from the seed with default switches.
 */
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { Profile } from '../../../src/core/profile/schema.js';
import { startMedplumPeer, medplumPeerForFile } from './peer.js';
import { SEED } from './seed.js';

const mp = medplumPeerForFile();
const fhir = { 'content-type': 'application/fhir+json' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function http(method: string, url: string, o: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await request(url, {
    method: method as 'GET',
    headers: { ...(o.body === undefined ? {} : fhir), ...o.headers },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const raw = Buffer.from(await res.body.arrayBuffer());
  const text = raw.toString('utf8');
  return { status: res.statusCode, headers: res.headers, raw, text, json: () => JSON.parse(text) };
}
const q = (s: string) => encodeURIComponent(s);
const appointment = (id = 'sent-by-the-client') => ({
  resourceType: 'Appointment',
  id,
  status: 'booked',
  start: '2030-01-02T09:00:00Z',
  end: '2030-01-02T09:30:00Z',
  participant: [
    { actor: { reference: `Patient/${SEED.patients.emma}` }, required: 'required', status: 'accepted' },
    { actor: { reference: `PractitionerRole/${SEED.practitionerRoles.berg}` }, required: 'required', status: 'accepted' },
  ],
});
const count = async (url: string) => (await http('GET', `${url}&_total=accurate&_count=0`)).json().total as number;

describe('Medplum as a deployment answers', () => {
  test('a body that is not valid R4 is refused with 400 and an OperationOutcome naming the field; nothing is stored', async () => {
    const { peer } = mp;
    const before = await count(`${peer.practiceUrl}/Communication?status=completed`);
    // The interface's C1 shape: sender is an array where R4 has one Reference.
    const res = await http('POST', `${peer.practiceUrl}/Communication`, {
      body: { resourceType: 'Communication', status: 'completed', sender: [{ reference: `Patient/${SEED.patients.emma}` }] },
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    expect(res.json()).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', details: { text: 'Expected single value for property' }, expression: ['Communication.sender'] }],
    });
    expect(await count(`${peer.practiceUrl}/Communication?status=completed`)).toBe(before);

    // An R4 `note` is an Annotation; the interface's string is refused, and so is a patch whose result is invalid.
    const mr = await http('GET', `${peer.practiceUrl}/MedicationRequest/${SEED.medicationRequests.metformin}`);
    const order = { ...mr.json(), id: undefined, meta: undefined, status: 'draft', note: ['please'] };
    const m3 = await http('POST', `${peer.practiceUrl}/MedicationRequest`, { body: order });
    expect(m3.status).toBe(400);
    expect(m3.json().issue[0].expression).toEqual(['MedicationRequest.note[0].text']);
    const marker = { url: 'portal.example.ResourceSeenAt', valueDateTime: '2030-01-02T10:15:00' };
    const msg = `${peer.practiceUrl}/Communication/${SEED.practiceMessages.question}`;
    const patch = (value: unknown) =>
      http('PATCH', msg, {
        body: [{ op: 'add', path: '/recipient/0/extension', value }],
        headers: { 'content-type': 'application/json-patch+json' },
      });
    const single = await patch(marker);
    expect(single.status).toBe(400);
    expect(single.json().issue[0].expression).toEqual(['Communication.recipient.extension']);
    const list = await patch([marker]);
    expect(list.status).toBe(200);
    expect(list.json().recipient[0].extension).toEqual([marker]);
  });

  test('a create gets a server id (a new UUID, not the one sent), Location with its version, ETag; 404 for an unknown id', async () => {
    const { peer } = mp;
    const res = await http('POST', `${peer.practiceUrl}/Appointment`, { body: appointment() });
    expect(res.status).toBe(201);
    const stored = res.json();
    expect(stored.id).toMatch(UUID);
    expect(stored.id).not.toBe('sent-by-the-client');
    const vid = stored.meta.versionId;
    expect(res.headers.location).toBe(`${peer.practiceUrl}/Appointment/${stored.id}/_history/${vid}`);
    expect(res.headers.etag).toBe(`W/"${vid}"`);
    expect((await http('GET', res.headers.location as string)).json()).toEqual(stored);

    const unknown = await http('GET', `${peer.practiceUrl}/Appointment/sent-by-the-client`);
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'not-found' }] });
    // An update needs a UUID of a resource that exists (no create by PUT), and a matching If-Match.
    const enc = { resourceType: 'Encounter', status: 'finished', class: { code: 'VR' } };
    expect(
      (await http('PUT', `${peer.portalUrl}/Encounter/thread-1`, { body: { ...enc, id: 'thread-1' } })).json().issue[0].details.text,
    ).toBe('Invalid id');
    const absent = '00000000-0000-4000-8000-0000000000ff';
    expect((await http('PUT', `${peer.portalUrl}/Encounter/${absent}`, { body: { ...enc, id: absent } })).status).toBe(404);
    const url = `${peer.portalUrl}/Encounter/${SEED.encounters.open}`;
    const stale = await http('PUT', url, { body: { ...enc, id: SEED.encounters.open }, headers: { 'if-match': 'W/"not-it"' } });
    expect(stale.status).toBe(412);
    const closed = await http('PUT', url, { body: { ...enc, id: SEED.encounters.open } });
    expect(closed.status).toBe(200);
    expect(closed.json().subject).toBeUndefined(); // a PUT replaces the whole resource
  });

  test('search pages with _count (default 20) and next links on the configured base; total only when asked', async () => {
    const { peer } = mp;
    const first = await http('GET', `${peer.practiceUrl}/Slot?schedule=${q(`Schedule/${SEED.schedules.berg}`)}&status=free`);
    const page1 = first.json();
    expect(page1).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(page1.total).toBeUndefined();
    expect(page1.entry).toHaveLength(20);
    expect(page1.entry[0].fullUrl).toBe(`${peer.practiceUrl}/Slot/${page1.entry[0].resource.id}`);
    const next = page1.link.find((l: { relation: string }) => l.relation === 'next').url;
    expect(next).toBe(`${peer.practiceUrl}/Slot?_count=20&_offset=20&schedule=${q(`Schedule/${SEED.schedules.berg}`)}&status=free`);
    const page2 = (await http('GET', next)).json();
    expect(page2.entry).toHaveLength(SEED.freeSlots.berg - 20);
    expect(page2.link.map((l: { relation: string }) => l.relation)).toEqual(['self', 'first', 'previous']);
    expect(new Set([...page1.entry, ...page2.entry].map((e: { resource: { id: string } }) => e.resource.id)).size).toBe(
      SEED.freeSlots.berg,
    );
    expect(await count(`${peer.practiceUrl}/Slot?status=free`)).toBe(SEED.freeSlots.berg + SEED.freeSlots.haddad + SEED.freeSlots.fischer);
  });

  test('the queries pdesk sends: chained schedule.date and schedule.actor, tokens, identifiers; unknown parameters are 400', async () => {
    const { peer } = mp;
    const today = new Date().toISOString().slice(0, 10);
    const inWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const a4 = `${peer.practiceUrl}/Slot?service-category=${q(SEED.serviceCategory.gp)}&schedule.date=ge${today}&schedule.date=le${inWeek}`;
    expect(await count(a4)).toBe(SEED.freeSlots.berg + 1 + SEED.freeSlots.haddad);
    expect(await count(`${a4}&schedule.date=le2000-01-01`)).toBe(0);
    // Medplum compares reference strings: a bare id matches nothing, `Type/id` does (subject/patient excepted).
    expect(await count(`${peer.practiceUrl}/Slot?schedule=${SEED.schedules.haddad}`)).toBe(0);
    const actor = (v: string) => `${peer.practiceUrl}/Slot?${q('schedule.actor:PractitionerRole')}=${q(v)}`;
    expect(await count(actor(SEED.practitionerRoles.fischer))).toBe(0);
    expect(await count(actor(`PractitionerRole/${SEED.practitionerRoles.fischer},PractitionerRole/${SEED.practitionerRoles.haddad}`))).toBe(
      SEED.freeSlots.fischer + SEED.freeSlots.haddad,
    );
    expect(await count(`${peer.practiceUrl}/Schedule?service-category=${q(SEED.serviceCategory.physio)}`)).toBe(1);
    expect(await count(`${peer.practiceUrl}/MedicationRequest?patient=${SEED.patients.emma}`)).toBe(1);
    const m4 = await http(
      'GET',
      `${peer.practiceUrl}/Organization?identifier=${q(`${SEED.pharmacyIds.centrum},${SEED.pharmacyIds.zuid}`)}`,
    );
    expect(m4.json().entry.map((e: { resource: { name: string } }) => e.resource.name)).toEqual([
      'Apotheek Centrum',
      'Service Apotheek Zuid',
    ]);

    // A1: a ValueSet search on the deployment's own search parameter; 1.0.0's AppointmentType from a custom route.
    const vs = (await http('GET', `${peer.practiceUrl}/ValueSet?service-category=gp`)).json();
    expect(vs.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual([SEED.valueSets.gp]);
    const at = (await http('GET', `${peer.practiceUrl}/AppointmentType?service-category=physio`)).json();
    expect(at.compose.include.map((i: { actor: { concept: unknown } }) => i.actor.concept)).toEqual(SEED.appointmentTypes.physio);

    for (const bad of ['Slot?not-a-parameter=1', 'Slot?_sort=nope', 'Slot?schedule.nope=1']) {
      const res = await http('GET', `${peer.practiceUrl}/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.json().issue[0].details.text, bad).toMatch(/^(Unknown search parameter: |Invalid search parameter at end of chain: )/);
    }
  });

  test('profile() is a valid pdesk profile for the two parties, with check defaults from the seed', () => {
    const { peer } = mp;
    const p = Profile.parse(peer.profile({ name: 'mp' }));
    expect(p).toMatchObject({ name: 'mp', practice: { baseUrl: peer.practiceUrl }, portal: { baseUrl: peer.portalUrl } });
    expect(p.check?.patient).toBe(SEED.patients.emma);
  });
});

describe('switches', () => {
  test('baseUrl: links, fullUrls and Location on another origin (the path kept), or a whole other base', async () => {
    const { peer } = mp;
    peer.set({ baseUrl: { origin: peer.localhostOrigin } });
    const page1 = (await http('GET', `${peer.practiceUrl}/Slot?status=free`)).json();
    const next = page1.link.find((l: { relation: string }) => l.relation === 'next').url as string;
    expect(next.startsWith(`${peer.localhostOrigin}/practice/fhir/R4/Slot?`)).toBe(true);
    expect(page1.entry[0].fullUrl.startsWith(`${peer.localhostOrigin}/practice/fhir/R4/Slot/`)).toBe(true);
    const page2 = await http('GET', next); // the same server under the other origin
    expect(page2.status).toBe(200);
    expect(peer.requests.at(-1)?.origin).toBe(peer.localhostOrigin);

    peer.set({ baseUrl: 'http://fhir.internal:8103' });
    const created = await http('POST', `${peer.portalUrl}/Communication`, { body: { resourceType: 'Communication', status: 'completed' } });
    expect(created.headers.location).toMatch(/^http:\/\/fhir\.internal:8103\/fhir\/R4\/Communication\/[0-9a-f-]{36}\/_history\//);
    peer.set({ location: 'plain' });
    const plain = await http('POST', `${peer.portalUrl}/Communication`, { body: { resourceType: 'Communication', status: 'completed' } });
    expect(plain.headers.location).toBe(`http://fhir.internal:8103/fhir/R4/Communication/${plain.json().id}`);
  });

  test('redirect: status and Location by target, filtered by method and path; nothing stored; targets are served', async () => {
    const { peer } = mp;
    peer.set({ redirect: { status: 307, to: { base: peer.movedUrl.practice }, methods: ['POST'] } });
    const before = await count(`${peer.practiceUrl}/Appointment?status=booked`);
    const moved = await http('POST', `${peer.practiceUrl}/Appointment?x=1`, { body: appointment() });
    expect(moved.status).toBe(307);
    expect(moved.headers.location).toBe(`${peer.movedUrl.practice}/Appointment?x=1`);
    expect(moved.headers['content-type']).toBe('text/html');
    expect(await count(`${peer.practiceUrl}/Appointment?status=booked`)).toBe(before); // GET is not redirected
    expect((await http('POST', `${peer.movedUrl.practice}/Appointment`, { body: appointment() })).status).toBe(201);

    peer.set({ redirect: { status: 301, to: 'trailing-slash', path: /\/Slot$/ } });
    const slash = await http('GET', `${peer.practiceUrl}/Slot?status=free`);
    expect([slash.status, slash.headers.location]).toEqual([301, `${peer.practiceUrl}/Slot/?status=free`]);
    expect((await http('GET', slash.headers.location as string)).json().entry).toHaveLength(20);
    expect((await http('GET', `${peer.practiceUrl}/Patient`)).status).toBe(200);

    peer.set({ redirect: { status: 308, to: { origin: 'https://127.0.0.1:8443' } } });
    const https = await http('GET', `${peer.portalUrl}/Encounter`);
    expect([https.status, https.headers.location]).toEqual([308, 'https://127.0.0.1:8443/portal/fhir/R4/Encounter']);
    peer.set({ redirect: { status: 302, to: { origin: peer.localhostOrigin } } });
    const other = await http('GET', `${peer.portalUrl}/Encounter`, { headers: { authorization: 'Bearer secret' } });
    expect(other.headers.location).toBe(`${peer.localhostOrigin}/portal/fhir/R4/Encounter`);
    expect((await http('GET', other.headers.location as string)).status).toBe(200);
    // The request log shows which origin got which headers.
    expect(peer.requests.slice(-2).map((r) => [r.origin, r.headers.authorization])).toEqual([
      [peer.origin, 'Bearer secret'],
      [peer.localhostOrigin, undefined],
    ]);

    peer.set({ redirect: { status: 302, to: { url: `${peer.origin}/elsewhere` } } });
    expect((await http('GET', `${peer.practiceUrl}/Patient`)).headers.location).toBe(`${peer.origin}/elsewhere`);
  });

  test('gzip when the request accepts it, or always; minimalCreate answers 201 with Location and no body', async () => {
    const { peer } = mp;
    const url = `${peer.practiceUrl}/Patient/${SEED.patients.emma}`;
    peer.set({ gzip: 'accepted' });
    const plain = await http('GET', url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await http('GET', url, { headers: { 'accept-encoding': 'br;q=1, gzip;q=0.5' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.raw).toString('utf8'))).toEqual(plain.json());
    expect((await http('GET', url, { headers: { 'accept-encoding': 'gzip;q=0' } })).headers['content-encoding']).toBeUndefined();
    peer.set({ gzip: 'always' });
    expect((await http('GET', url)).headers['content-encoding']).toBe('gzip');

    peer.set({ gzip: false, minimalCreate: true });
    const res = await http('POST', `${peer.practiceUrl}/Appointment`, { body: appointment() });
    expect([res.status, res.text, res.headers['content-length']]).toEqual([201, '', '0']);
    const got = await http('GET', res.headers.location as string);
    expect(got.json().comment).toBeUndefined();
    expect(res.headers.etag).toBe(`W/"${got.json().meta.versionId}"`);
  });

  test('reset restores the switches, empties the log and reseeds; close leaves nothing listening', async () => {
    const { peer } = mp;
    peer.set({ gzip: 'always', redirect: { status: 307, to: 'trailing-slash' } });
    await http('DELETE', `${peer.practiceUrl}/Appointment/${SEED.appointments.booked}/`);
    expect((await http('GET', `${peer.practiceUrl}/Appointment/${SEED.appointments.booked}/`)).status).toBe(404);
    await peer.reset();
    expect(peer.requests).toEqual([]);
    const back = await http('GET', `${peer.practiceUrl}/Appointment/${SEED.appointments.booked}`);
    expect([back.status, back.headers['content-encoding']]).toEqual([200, undefined]);

    const second = await startMedplumPeer(); // definitions are loaded once per process: quick
    expect((await http('GET', `${second.practiceUrl}/Patient?_count=1`)).status).toBe(200);
    await second.close();
    await expect(http('GET', `${second.practiceUrl}/Patient`)).rejects.toThrow(/ECONNREFUSED/);
  });
});
