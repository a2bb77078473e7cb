/**
 * Checks of the medication API (M1–M4). Read-only: M1 lists requests paired with their pharmacies · M2 reads one
 * of them back by id · M4 finds M1's pharmacies by identifier, its `total` agreeing with the entries. With
 * `write`: M3 reorders one of the test patient's requests and echoes the ordered fields.
 */
import { dialectOf, orderWire } from '../api/dialect.js';
import { buildReorder, medicationListQuery, pharmacySearchQuery } from '../api/medication.js';
import { createdId } from '../created.js';
import { FieldError } from '../errors.js';
import { isMedicationPair, type MedicationRow, MedicationRequest, Organization, referencedId } from '../schemas/medication.js';
import type { SchemaIssue } from '../schemas/common.js';
import { validateAll } from '../schemas/common.js';
import { parseToken, tokenMatches } from '../tokens.js';
import { checkAnswer, checkSchema, echo } from './answers.js';
import { type CheckContext, defineCheck } from './context.js';
import { type EntryReader, emptyBecause, resourceEntries, type Search, search } from './search.js';
import { CHECK_TEXT, rawField } from './text.js';

/**
 * An M1 entry: the interface's `{medication-request, organization}` (interface.md "Bundles"), each part validated;
 * or a standard searchset entry, `{resource}` (or bare): a MedicationRequest is a result, an Organization (its
 * pharmacy, `_include`d) or an OperationOutcome is not (`medicationList` pairs the pharmacies by `performer`).
 */
const medicationEntries: EntryReader<MedicationRow> = (entry, at, variants) => {
  if (!isMedicationPair(entry)) {
    const raw = rawField(entry, 'resource') ?? entry;
    const type = rawField(raw, 'resourceType');
    if (type === 'Organization' || type === 'OperationOutcome') return { raw, path: at, issues: [], included: true };
    const r = resourceEntries(MedicationRequest)(entry, at, variants);
    return { ...r, value: r.value && { medicationRequest: r.value } };
  }
  const issues: SchemaIssue[] = [];
  const mrRaw = rawField(entry, 'medication-request');
  const orgRaw = rawField(entry, 'organization');
  const mrPath = `${at}["medication-request"]`;
  variants.scan(mrRaw, mrPath);
  variants.scan(orgRaw, `${at}.organization`);
  const mr = validateAll(MedicationRequest, mrRaw, mrPath);
  if (!mr.ok) issues.push(...mr.issues);
  const org = orgRaw === undefined ? undefined : validateAll(Organization, orgRaw, `${at}.organization`);
  if (org && !org.ok) issues.push(...org.issues);
  const value = mr.ok && (!org || org.ok) ? { medicationRequest: mr.data, organization: org?.ok ? org.data : undefined } : undefined;
  return { raw: entry, path: at, value, issues };
};

/**
 * M1, read once per run (M1-requests, M2, M4 and M3 use it); under the r4 dialect with `_include` of each request's
 * pharmacy, paired with it here by `performer`.
 */
function medicationList(c: CheckContext): Promise<Search<MedicationRow>> {
  return c.run.shared('M1', async () => {
    const query = medicationListQuery(c.profile, []);
    const s = await search(c.client, 'M1', { query, signal: c.signal }, medicationEntries);
    const pharmacies = new Map<string, Organization>();
    for (const raw of s.included) {
      const org = rawField(raw, 'resourceType') === 'Organization' ? validateAll(Organization, raw) : undefined;
      if (org?.ok) pharmacies.set(org.data.id, org.data);
    }
    for (const row of s.valid)
      row.organization ??= pharmacies.get(referencedId(row.medicationRequest.performer?.reference, 'Organization') ?? '');
    return s;
  });
}

/** Why M4 has no identifier to search by, naming the real cause. */
function noPharmacyIdentifiers(list: Search<MedicationRow>): string {
  if (!list.valid.length) return `${emptyBecause(list, 'medication requests', 'M1-requests')}: no pharmacy to search for`;
  if (!list.valid.some((r) => r.organization))
    return `M1 lists ${list.valid.length} medication requests, none with its pharmacy (organization): no identifier to search by`;
  return "M1's pharmacies carry no identifier with a system to search by";
}

/** Up to three distinct `system|value` identifiers of the pharmacies M1 pairs with its requests. */
function pharmacyIdentifiers(rows: readonly MedicationRow[]): string[] {
  const out: string[] = [];
  for (const r of rows)
    for (const i of r.organization?.identifier ?? []) {
      const token = `${i.system ?? ''}|${i.value}`;
      if (i.system && !out.includes(token) && !token.includes(',')) out.push(token);
      if (out.length === 3) return out;
    }
  return out;
}

export const medicationChecks = [
  defineCheck({
    id: 'M1-requests',
    op: 'M1',
    area: 'medication',
    title: 'M1 lists medication requests, each paired with its pharmacy',
    async run(c) {
      const s = await medicationList(c);
      c.addAll(s.messages);
      let unpaired = 0;
      let first: string | undefined;
      for (const item of s.items)
        if (item.value && !item.value.organization) {
          unpaired++;
          first ??= isMedicationPair(item.raw) ? `${item.path}.organization` : `${item.path}.performer`;
        }
      if (unpaired) c.warning(`${unpaired} requests come without their pharmacy (organization).`, first);
      if (!s.items.length) c.nothingToJudge('M1 lists no medication requests: there is nothing to check');
      c.note(`${s.items.length} medication requests.`);
    },
  }),
  defineCheck({
    id: 'M2-read',
    op: 'M2',
    area: 'medication',
    title: 'M2 reads back a medication request M1 listed',
    async run(c) {
      const list = await c.prerequisite('M1', () => medicationList(c));
      const wanted = list.valid[0]?.medicationRequest.id;
      if (!wanted) return c.skip(`${emptyBecause(list, 'medication requests', 'M1-requests')}: none to read back`);
      const res = await c.client.call('M2', { params: { id: wanted }, signal: c.signal });
      checkAnswer(c, 'M2', res);
      const got = checkSchema(c, MedicationRequest, res.body);
      if (got && got.id !== wanted) c.error(`is MedicationRequest ${got.id}, but ${wanted} was asked for.`, '$.id');
      if (got) c.note(`read MedicationRequest/${wanted} (${got.status}).`);
    },
  }),
  defineCheck({
    id: 'M4-pharmacies',
    op: 'M4',
    area: 'medication',
    title: "M4 finds M1's pharmacies by identifier; total agrees with the entries",
    async run(c) {
      const list = await c.prerequisite('M1', () => medicationList(c));
      const identifiers = pharmacyIdentifiers(list.valid);
      if (!identifiers.length) return c.skip(noPharmacyIdentifiers(list));
      const s = await search(
        c.client,
        'M4',
        { query: pharmacySearchQuery(c.profile, identifiers), signal: c.signal },
        resourceEntries(Organization),
        {
          searchset: true,
        },
      );
      // `total` is given for M4 (interface.md "Bundles"); the generic paging check only warns about a mismatch.
      c.addAll(s.messages.filter((m) => m.path !== '$.total'));
      if (s.total === undefined) c.error('required field is missing: M4 answers carry total.', '$.total');
      else if (s.complete && s.total !== s.items.length)
        c.error(`total is ${s.total}, but the answer holds ${s.items.length} pharmacies.`, '$.total');
      const tokens = identifiers.map(parseToken);
      for (const item of s.items) {
        const org = item.value;
        if (!org) continue;
        const matches = (org.identifier ?? []).some((i) => tokens.some((t) => tokenMatches(t, i.system, String(i.value))));
        if (!matches) c.error(`pharmacy ${org.id} has none of the identifiers searched for.`, `${item.path}.identifier`);
      }
      for (const [k, t] of tokens.entries())
        if (!s.valid.some((o) => (o.identifier ?? []).some((i) => tokenMatches(t, i.system, String(i.value)))))
          c.warning(`no pharmacy found for ${identifiers[k]}, which M1 names.`);
      c.note(`${s.items.length} pharmacies for ${identifiers.join(', ')}.`);
    },
  }),

  // ------------------------------------------------------------------ writes (--write)
  defineCheck({
    id: 'M3-reorder',
    op: 'M3',
    area: 'medication',
    title: "M3 reorders one of the patient's requests, and echoes the ordered fields",
    needs: ['patient'],
    write: true,
    async run(c) {
      const patient = `Patient/${c.input('patient').replace(/^Patient\//, '')}`;
      const list = await c.prerequisite('M1', () => medicationList(c));
      const mine = list.valid.filter((r) => r.medicationRequest.subject.reference === patient);
      const row = mine.find((r) => r.medicationRequest.status === 'active') ?? mine[0];
      if (!row)
        return c.skip(
          list.valid.length
            ? `M1 lists ${list.valid.length} medication requests, none of ${patient}: none to reorder`
            : `${emptyBecause(list, 'medication requests', 'M1-requests')}: none of ${patient} to reorder`,
        );
      let body: ReturnType<typeof buildReorder>;
      try {
        body = buildReorder(c.profile, row.medicationRequest, { note: CHECK_TEXT.reorder }, c.run.settings.now);
      } catch (e) {
        if (e instanceof FieldError) return c.skip(`cannot reorder MedicationRequest/${row.medicationRequest.id}: ${e.message}`);
        throw e;
      }
      // In the profile's dialect (notes as Annotations under r4: decisions.md §16).
      const res = await c.client.call('M3', { body: orderWire(dialectOf(c.profile), body), signal: c.signal });
      const raw = res.body as Record<string, unknown> | undefined;
      const id = createdId(res, 'MedicationRequest').id; // the server's: its answer's, else its Location's
      c.run.recordCreated({
        resource: id ? `MedicationRequest/${id}` : 'MedicationRequest (no id in the answer)',
        op: 'M3',
        check: c.info.id,
        note: `reorder of MedicationRequest/${row.medicationRequest.id}`,
        undo: 'none',
      });
      checkAnswer(c, 'M3', res);
      checkSchema(c, MedicationRequest, raw);
      if (raw) echoOrder(c, body, raw);
      c.note(`ordered ${id ? `MedicationRequest/${id}` : 'a medication request'}, a reorder of ${row.medicationRequest.id}.`);
    },
  }),
];

/** M3 echoes what was ordered (interface.md: "the stored request, echoing what was ordered"). */
function echoOrder(c: CheckContext, sent: ReturnType<typeof buildReorder>, got: Record<string, unknown>): void {
  const ref = (v: unknown) => (v as { reference?: unknown } | undefined)?.reference;
  echo(c, '$.status', sent.status, got.status);
  echo(c, '$.intent', sent.intent, got.intent);
  echo(c, '$.basedOn[0].reference', sent.basedOn[0]?.reference, ref((got.basedOn as unknown[] | undefined)?.[0]));
  echo(c, '$.medicationReference.reference', sent.medicationReference.reference, ref(got.medicationReference));
  echo(c, '$.subject.reference', sent.subject.reference, ref(got.subject));
  echo(c, '$.performer.reference', sent.performer.reference, ref(got.performer));
  const quantity = (got.dispenseRequest as { initialFill?: { quantity?: { value?: unknown } } } | undefined)?.initialFill?.quantity?.value;
  echo(c, '$.dispenseRequest.initialFill.quantity.value', sent.dispenseRequest.initialFill.quantity.value, quantity);
  const period = (got.extension as Array<{ valuePeriod?: { start?: unknown; end?: unknown } }> | undefined)?.find(
    (e) => e?.valuePeriod,
  )?.valuePeriod;
  const sentPeriod = sent.extension[0]!.valuePeriod;
  echo(c, '$.extension[0].valuePeriod.start', sentPeriod.start, period?.start);
  echo(c, '$.extension[0].valuePeriod.end', sentPeriod.end, period?.end);
}
