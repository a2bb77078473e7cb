/**
 * Sandbox handlers of the medication API (practice side): M1 list medication requests · M2 get one ·
 * M3 order (decisions.md §10) · M4 search pharmacies by identifier.
 */
import { MedicationRequestCreate, type MedicationRequest } from '../core/schemas/medication.js';
import { badRequest, validate } from '../listen/accept.js';
import { type Handler, listParam, notFound, page, searchset, unprocessable } from './http.js';
import { refId } from './state.js';
import { parseToken, tokenMatches } from '../core/tokens.js';

/**
 * M1: `GET /MedicationRequest`, optional `patient` and `status` filters. The Bundle carries `meta.versionId`
 * and entries `{ "medication-request": MR, "organization": ORG }` (interface "Bundles").
 */
export const listMedicationRequests: Handler = (w, req) => {
  const patients = listParam(req.query, 'patient').map((p) => refId(p, 'Patient') ?? p);
  const statuses = listParam(req.query, 'status');
  const all = [...w.state.medicationRequests.values()].filter(
    (m) =>
      (!patients.length || patients.includes(refId(m.subject.reference, 'Patient') ?? '\0')) &&
      (!statuses.length || statuses.includes(m.status)),
  );
  const p = page(req, all);
  return {
    status: 200,
    body: {
      resourceType: 'Bundle',
      meta: { versionId: String(w.state.medicationVersion) },
      type: 'searchset',
      total: p.total,
      link: p.link,
      entry: p.items.map((m) => {
        const org = w.state.organizations.get(refId(m.performer?.reference, 'Organization') ?? '');
        return { 'medication-request': m, ...(org ? { organization: org } : {}) };
      }),
    },
  };
};

/** M2: `GET /MedicationRequest/{id}`; unknown id → 404. */
export const getMedicationRequest: Handler = (w, req) => {
  const m = w.state.medicationRequests.get(req.params.id!);
  if (!m) throw notFound(`MedicationRequest ${req.params.id}`);
  return { status: 200, body: m };
};

/**
 * M3: `POST /MedicationRequest`. `basedOn` must name known requests and `performer` a known pharmacy (422
 * otherwise); the order gets a new id `mr-<n>` and is answered 201 with the stored request.
 */
export const orderMedication: Handler = (w, req) => {
  const body = validate(MedicationRequestCreate, req.body, 'MedicationRequest');
  const state = w.state;
  body.basedOn.forEach((b, i) => {
    const id = refId(b.reference, 'MedicationRequest');
    if (!b.reference.startsWith('MedicationRequest/') || !id || !state.medicationRequests.has(id))
      throw unprocessable(`basedOn names no known medication request: ${b.reference}.`, `$.basedOn[${i}].reference`);
  });
  const org = refId(body.performer.reference, 'Organization');
  if (!body.performer.reference.startsWith('Organization/') || !org || !state.organizations.has(org))
    throw unprocessable(`performer names no known pharmacy: ${body.performer.reference}.`, '$.performer.reference');
  let id: string;
  do id = `mr-${++state.counters.medicationRequest}`;
  while (state.medicationRequests.has(id));
  const stored = { ...body, id } as MedicationRequest;
  state.medicationRequests.set(id, stored);
  state.medicationVersion++;
  return { status: 201, body: stored, headers: { location: `MedicationRequest/${id}` } };
};

/** M4: `GET /Organization?identifier=<system>|<value>,…` (required); a bare value matches any system. */
export const searchPharmacies: Handler = (w, req) => {
  const tokens = listParam(req.query, 'identifier');
  if (!tokens.length) throw badRequest('Search parameter identifier is required: <system>|<value>, comma separated.', 'identifier');
  const wanted = tokens.map(parseToken);
  const found = [...w.state.organizations.values()].filter((o) =>
    o.identifier.some((i) => wanted.some((t) => tokenMatches(t, i.system, String(i.value)))),
  );
  return searchset(req, found);
};
