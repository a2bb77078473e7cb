/** X-ray of a medication request (src/core/xray/medication.ts) against the sandbox. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildReorder, getMedicationRequest, listMedicationRequests, orderMedication } from '../../../src/core/api/medication.js';
import { PdeskClient } from '../../../src/core/client.js';
import { xrayMedication } from '../../../src/core/xray/index.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';

let sb: Sandbox | undefined;
const clients: PdeskClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await sb?.close();
  sb = undefined;
});

const lines = (nodes: { section: string; state: string; label: string; depth: number }[]) =>
  nodes.map((n) => `${n.section} | ${n.depth ? '  ' : ''}${n.state} ${n.label}`);

describe('xrayMedication', () => {
  it('the request now (M2), its pharmacy as M1 pairs it and as M4 finds it, the orders based on it and what it reorders', async () => {
    sb = await startSandbox({ port: 0, log: () => undefined });
    const profile = Profile.parse(sandboxProfile(sb.url));
    const writer = new PdeskClient(profile);
    const reader = new PdeskClient(profile, { readOnly: true });
    clients.push(writer, reader);
    const mr1 = await getMedicationRequest(writer, 'mr-1');
    const ordered = await orderMedication(writer, buildReorder(profile, mr1, { quantity: 30 }));
    const newId = ordered.medicationRequest!.id;

    const before = sb.received.length;
    const x = await xrayMedication({ client: reader, profile }, mr1);
    expect(lines(x.nodes)).toEqual([
      expect.stringMatching(/^Request \(M2\) \| found MedicationRequest\/mr-1 · active · Metformin 500 mg tablet · Patient\/pat-1/),
      'Pharmacy (M1, M4) | found Organization/ph-1 · Apotheek Centrum · urn:pdesk:pharmacy-id|PH001 (as M1 pairs it)',
      'Pharmacy (M1, M4) |   found M4 finds it by urn:pdesk:pharmacy-id|PH001: Organization/ph-1 · Apotheek Centrum · urn:pdesk:pharmacy-id|PH001',
      'Reorders (basedOn, M2) | info it is based on no earlier request',
      expect.stringMatching(new RegExp(`^Orders based on it \\(M1\\) \\| found MedicationRequest/${newId} · draft · Metformin`)),
    ]);
    expect(x.nodes.at(-1)!.jump).toEqual({ screen: 'meds', request: newId });
    expect(new Set(sb.received.slice(before).map((r) => r.method))).toEqual(new Set(['GET']));

    // From the reorder: what it is based on; given M1's rows, M1 is not read again.
    const rows = await listMedicationRequests(reader);
    const reorder = rows.find((r) => r.medicationRequest.id === newId)!.medicationRequest;
    const mark = sb.received.length;
    const y = await xrayMedication({ client: reader, profile }, reorder, rows);
    expect(lines(y.nodes).find((l) => l.startsWith('Reorders'))).toMatch(
      /^Reorders \(basedOn, M2\) \| found based on MedicationRequest\/mr-1 · active/,
    );
    expect(lines(y.nodes).find((l) => l.startsWith('Orders based on it'))).toBe(
      `Orders based on it (M1) | not-found M1 lists no request based on MedicationRequest/${newId} (${rows.length} read)`,
    );
    expect(sb.received.slice(mark).filter((r) => r.path === '/practice/MedicationRequest' && !r.query)).toEqual([]);
  });

  it('a request M2 no longer knows is "not found", not an error', async () => {
    sb = await startSandbox({ port: 0, log: () => undefined });
    const profile = Profile.parse(sandboxProfile(sb.url));
    const reader = new PdeskClient(profile, { readOnly: true });
    clients.push(reader);
    const [row] = await listMedicationRequests(reader);
    const ghost = { ...row!.medicationRequest, id: 'mr-gone', performer: undefined };
    const x = await xrayMedication({ client: reader, profile }, ghost);
    expect(lines(x.nodes).slice(0, 2)).toEqual([
      'Request (M2) | not-found not found: M2 answers 404 for mr-gone',
      'Pharmacy (M1, M4) | not-found the request names no Organization as performer',
    ]);
  });
});
