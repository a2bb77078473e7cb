/**
 * X-ray of a medication request: the request as M2 reads it now, its pharmacy (the Organization M1 pairs with
 * it, confirmed by an M4 search of its identifier), the request it reorders (its `basedOn`, M2) and the
 * earlier orders based on it (requests M1 lists whose `basedOn` names it). GET only.
 */
import { getMedicationRequest, listMedicationRequests, searchPharmacies } from '../api/medication.js';
import { HttpError } from '../errors.js';
import type { MedicationRequest, MedicationRow, Organization } from '../schemas/medication.js';
import type { XrayContext } from './appointment.js';
import { type Xray, type XrayNode, gather, refId, section, xray } from './model.js';

const requestLine = (r: MedicationRequest) =>
  `MedicationRequest/${r.id} · ${r.status} · ${r.medicationReference.display ?? r.medicationReference.reference} · ${r.subject.reference}${r.authoredOn ? ` · authored ${r.authoredOn}` : ''}`;
const orgLine = (o: Organization) =>
  `Organization/${o.id} · ${o.name ?? '(no name)'}${o.identifier?.length ? ` · ${o.identifier.map((i) => (i.system ? `${i.system}|${i.value}` : i.value)).join(', ')}` : ''}`;

export async function xrayMedication(ctx: XrayContext, r: MedicationRequest, listed?: readonly MedicationRow[]): Promise<Xray> {
  const rowsP = listed ? Promise.resolve([...listed]) : listMedicationRequests(ctx.client, [], { signal: ctx.signal, limit: 5000 });
  const nowP = gather(
    'Request (M2)',
    async () => {
      const s = section('Request (M2)');
      try {
        const now = await getMedicationRequest(ctx.client, r.id, { signal: ctx.signal });
        return [s.found(requestLine(now), { source: 'M2', resource: now })];
      } catch (e) {
        if (e instanceof HttpError && e.status === 404) return [s.none(`not found: M2 answers 404 for ${r.id}`, { source: 'M2' })];
        throw e;
      }
    },
    ctx.signal,
  );

  const pharmacyP = gather(
    'Pharmacy (M1, M4)',
    async () => {
      const s = section('Pharmacy (M1, M4)');
      const orgId = refId(r.performer?.reference, 'Organization');
      if (!orgId) return [s.none('the request names no Organization as performer')];
      const rows = await rowsP;
      const paired =
        rows.find((x) => x.medicationRequest.id === r.id)?.organization ?? rows.find((x) => x.organization?.id === orgId)?.organization;
      if (!paired)
        return [s.none(`Organization/${orgId}: M1 pairs no pharmacy with it, and M4 needs an identifier to search by`, { source: 'M1' })];
      const out: XrayNode[] = [s.found(`${orgLine(paired)} (as M1 pairs it)`, { source: 'M1', resource: paired })];
      const ids = (paired.identifier ?? []).map((i) => (i.system ? `${i.system}|${i.value}` : String(i.value)));
      if (!ids.length) out.push(s.info('M4 not asked: the pharmacy carries no identifier', { depth: 1 }));
      else {
        const found = await searchPharmacies(ctx.client, ids, { signal: ctx.signal, limit: 100 });
        const hit = found.find((o) => o.id === paired.id);
        out.push(
          hit
            ? s.found(`M4 finds it by ${ids.join(', ')}: ${orgLine(hit)}`, { source: 'M4', resource: hit, depth: 1 })
            : s.none(`M4 by ${ids.join(', ')} does not find Organization/${paired.id} (${found.length} found)`, { source: 'M4', depth: 1 }),
        );
      }
      return out;
    },
    ctx.signal,
  );

  const basedOnP = gather(
    'Reorders (basedOn, M2)',
    async () => {
      const s = section('Reorders (basedOn, M2)');
      const ids = (r.basedOn ?? []).map((b) => refId(b.reference, 'MedicationRequest')).filter((x): x is string => !!x);
      if (!ids.length) return [s.info('it is based on no earlier request')];
      return Promise.all(
        ids.map(async (id) => {
          try {
            const b = await getMedicationRequest(ctx.client, id, { signal: ctx.signal });
            return s.found(`based on ${requestLine(b)}`, { source: 'M2', resource: b });
          } catch (e) {
            if (e instanceof HttpError && e.status === 404)
              return s.none(`based on MedicationRequest/${id}: M2 answers 404`, { source: 'M2' });
            throw e;
          }
        }),
      );
    },
    ctx.signal,
  );

  const ordersP = gather(
    'Orders based on it (M1)',
    async () => {
      const s = section('Orders based on it (M1)');
      const rows = await rowsP;
      const mine = rows
        .map((x) => x.medicationRequest)
        .filter((x) => x.basedOn?.some((b) => b.reference === `MedicationRequest/${r.id}`))
        .sort((a, b) => (b.authoredOn ?? '').localeCompare(a.authoredOn ?? ''));
      if (!mine.length) return [s.none(`M1 lists no request based on MedicationRequest/${r.id} (${rows.length} read)`, { source: 'M1' })];
      return mine.map((x) => s.found(requestLine(x), { source: 'M1', resource: x, jump: { screen: 'meds', request: x.id } }));
    },
    ctx.signal,
  );

  const [now, pharmacy, basedOn, orders] = await Promise.all([nowP, pharmacyP, basedOnP, ordersP]);
  return xray(`Medication request ${r.id}`, [...now, ...pharmacy, ...basedOn, ...orders]);
}
