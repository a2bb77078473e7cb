/** Sandbox medication API (M1–M4): seed shapes through the core API, filters, order rules. */
import { afterEach, describe, expect, test } from 'vitest';
import { request } from 'undici';
import { buildReorder, getMedicationRequest, listMedicationRequests, searchPharmacies } from '../../src/core/api/medication.js';
import { PdeskClient } from '../../src/core/client.js';
import { HttpError } from '../../src/core/errors.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

const NOW = new Date('2026-03-02T08:00:00Z');
let sb: Sandbox;
let client: PdeskClient;

async function start() {
  sb = await startSandbox({ port: 0, now: NOW });
  client = new PdeskClient(Profile.parse(sandboxProfile(sb.url)));
}
afterEach(async () => {
  await client.close();
  await sb.close();
});

async function post(path: string, body: unknown) {
  const res = await request(`${sb.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: JSON.parse(await res.body.text()) };
}

describe('M1, M2', () => {
  test('the list Bundle parses: meta.versionId, total, entries with medication-request and organization', async () => {
    await start();
    const rows = await listMedicationRequests(client);
    expect(rows.map((r) => [r.medicationRequest.id, r.organization?.id])).toEqual([
      ['mr-1', 'ph-1'],
      ['mr-2', 'ph-2'],
      ['mr-3', 'ph-1'],
    ]);
    const mr1 = rows[0]!.medicationRequest;
    expect(mr1).toMatchObject({
      status: 'active',
      intent: 'order',
      medicationReference: { reference: 'Medication/med-1', display: 'Metformin 500 mg tablet' },
      subject: { reference: 'Patient/pat-1' },
      dispenseRequest: { initialFill: { quantity: { value: 60, unit: 'tablet', system: 'http://snomed.info/sct', code: '428673006' } } },
    });
    expect(mr1.extension![0]).toEqual({ url: 'portal.example.medication-period', valuePeriod: { start: '2026-01-28', end: '2026-02-27' } });
    expect(rows[1]!.medicationRequest.extension![0]!.valuePeriod).toEqual({ start: '2025-11-27', end: '2026-02-25' });
    expect(rows[2]!.medicationRequest.extension).toBeUndefined();
    const raw = await request(`${sb.url}/practice/MedicationRequest?patient=pat-2`);
    const body = (await raw.body.json()) as any;
    expect(body).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 1, meta: { versionId: '1' } });
    expect(body.entry[0]['medication-request'].id).toBe('mr-3');
  });

  test('M2 reads one; an unknown id is a 404 OperationOutcome', async () => {
    await start();
    expect((await getMedicationRequest(client, 'mr-2')).medicationReference.display).toBe('Lisinopril 10 mg tablet');
    const e = await getMedicationRequest(client, 'nope').catch((x) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect((e as HttpError).status).toBe(404);
    expect((e as HttpError).outcome?.issue[0]?.code).toBe('not-found');
  });
});

describe('M3 order', () => {
  test('a reorder is stored with a new id and answered 201; M1 shows it and bumps versionId', async () => {
    await start();
    const r = await getMedicationRequest(client, 'mr-1');
    const body = buildReorder(client.profile, r, { pharmacy: 'ph-3', note: 'Please prepare' }, NOW);
    const res = await post('/practice/MedicationRequest', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'mr-4',
      status: 'draft',
      intent: 'order',
      basedOn: [{ reference: 'MedicationRequest/mr-1' }],
      note: ['Please prepare'],
    });
    expect(sb.state.medicationRequests.get('mr-4')?.performer?.reference).toBe('Organization/ph-3');
    expect(sb.state.medicationVersion).toBe(2);
    const rows = await listMedicationRequests(client);
    expect(rows.at(-1)).toMatchObject({ medicationRequest: { id: 'mr-4' }, organization: { id: 'ph-3' } });
  });

  test('basedOn naming no known request → 422; unknown pharmacy → 422; invalid body → 400; nothing stored', async () => {
    await start();
    const r = await getMedicationRequest(client, 'mr-1');
    const body = buildReorder(client.profile, r, {}, NOW);
    const unknown = await post('/practice/MedicationRequest', { ...body, basedOn: [{ reference: 'MedicationRequest/mr-99' }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.issue[0].expression).toEqual(['$.basedOn[0].reference']);
    const pharmacy = await post('/practice/MedicationRequest', { ...body, performer: { reference: 'Organization/ph-99' } });
    expect(pharmacy.status).toBe(422);
    expect(pharmacy.body.issue[0].expression).toEqual(['$.performer.reference']);
    const active = await post('/practice/MedicationRequest', { ...body, status: 'active' });
    expect(active.status).toBe(400);
    expect(active.body.issue[0].expression).toEqual(['$.status']);
    expect(sb.state.medicationRequests.size).toBe(3);
  });
});

describe('M4 pharmacies', () => {
  test('identifier is required; a comma list of system|value pairs; Bundle with total', async () => {
    await start();
    const found = await searchPharmacies(client, ['urn:pdesk:pharmacy-id|PH001', 'urn:pdesk:pharmacy-id|PH003']);
    expect(found.map((o) => [o.id, o.name])).toEqual([
      ['ph-1', 'Apotheek Centrum'],
      ['ph-3', 'Service Apotheek Zuid'],
    ]);
    expect(found[0]!.address![0]!.city).toBe('Utrecht');
    const raw = await request(`${sb.url}/practice/Organization?identifier=urn%3Apdesk%3Apharmacy-id%7CPH002`);
    expect(await raw.body.json()).toMatchObject({
      resourceType: 'Bundle',
      type: 'searchset',
      total: 1,
      entry: [{ resource: { id: 'ph-2' } }],
    });
    const none = await request(`${sb.url}/practice/Organization?identifier=other%7CPH002`);
    expect(((await none.body.json()) as any).total).toBe(0);
    const missing = await request(`${sb.url}/practice/Organization`);
    expect(missing.statusCode).toBe(400);
    expect(((await missing.body.json()) as any).issue[0].expression).toEqual(['identifier']);
  });
});
