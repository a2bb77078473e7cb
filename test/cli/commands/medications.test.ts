/**
 * `pdesk medications list` and `show` run in-process against the sandbox (M1, M2): JSON, table and NDJSON output,
 * pass-through query parameters, a 404 with its OperationOutcome, percent-encoded path parameters. `medications
 * order`: medications/order.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSandbox, type Env } from '../../helpers/run.js';

describe('medications list and show (M1, M2)', () => {
  let env: Env;
  beforeAll(async () => {
    env = await withSandbox();
  });
  afterAll(async () => {
    await env?.close();
  });

  /** What the sandbox received during `fn`. */
  async function receivedDuring<T>(fn: () => Promise<T>) {
    const from = env.sandbox.received.length;
    const result = await fn();
    return { result, received: env.sandbox.received.slice(from) };
  }

  describe('medications list (M1)', () => {
    it('--json prints rows {medicationRequest, organization} as received', async () => {
      const { result: r, received } = await receivedDuring(() => env.run(['medications', 'list', '--json']));
      expect(r.code, r.stderr).toBe(0);
      const rows = r.json<Array<{ medicationRequest: any; organization: any }>>();
      expect(rows.map((x) => x.medicationRequest.id)).toEqual(['mr-1', 'mr-2', 'mr-3']);
      for (const row of rows) expect(Object.keys(row).sort()).toEqual(['medicationRequest', 'organization']);
      const mr1 = rows[0]!;
      expect(mr1.medicationRequest).toEqual(JSON.parse(JSON.stringify(env.sandbox.state.medicationRequests.get('mr-1'))));
      expect(mr1.organization).toMatchObject({ resourceType: 'Organization', id: 'ph-1', name: 'Apotheek Centrum' });
      expect(rows[1]!.organization.name).toBe('Apotheek Noord');
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ method: 'GET', path: '/practice/MedicationRequest' });
    });

    it('--param passes query parameters through (patient filter)', async () => {
      const { result: r, received } = await receivedDuring(() => env.run(['medications', 'list', '--param', 'patient=pat-2', '--json']));
      expect(r.code, r.stderr).toBe(0);
      expect(r.json<any[]>().map((x) => x.medicationRequest.id)).toEqual(['mr-3']);
      expect(received).toHaveLength(1);
      expect(received[0]!.query).toBe('patient=pat-2');
    });

    it('table: ID, STATUS, MEDICATION, PATIENT, PHARMACY, QUANTITY, PERIOD', async () => {
      // Piped, the table fits 100 columns: wide cells may be cut with "…", so a cell is its text or a prefix of it.
      const r = await env.run(['medications', 'list', '--output', 'table']);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.every((l) => l.length <= 100)).toBe(true);
      const cells = (line: string) => line.split(/\s{2,}/);
      const like = (actual: string[], expected: string[]) => {
        expect(actual).toHaveLength(expected.length);
        actual.forEach((a, i) => {
          if (a.endsWith('…')) expect(expected[i]!.startsWith(a.slice(0, -1)), `${a} vs ${expected[i]}`).toBe(true);
          else expect(a).toBe(expected[i]);
        });
      };
      expect(cells(lines[0]!)).toEqual(['ID', 'STATUS', 'MEDICATION', 'PATIENT', 'PHARMACY', 'QUANTITY', 'PERIOD']);
      const p1 = env.sandbox.state.medicationRequests.get('mr-1')!.extension![0]!.valuePeriod!;
      like(cells(lines[1]!), [
        'mr-1',
        'active',
        'Metformin 500 mg tablet',
        'Patient/pat-1',
        'Apotheek Centrum',
        '60 tablet',
        `${p1.start}..${p1.end}`,
      ]);
      // mr-3 has no period: the row ends after QUANTITY.
      like(cells(lines[3]!), ['mr-3', 'active', 'Salbutamol 100 µg inhaler', 'Patient/pat-2', 'Apotheek Centrum', '1 inhaler']);
      expect(lines).toHaveLength(4);
    });

    it('--output ndjson prints one row per line', async () => {
      const r = await env.run(['medications', 'list', '--output', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines.map((l) => JSON.parse(l).medicationRequest.id)).toEqual(['mr-1', 'mr-2', 'mr-3']);
      expect(JSON.parse(lines[2]!).organization.id).toBe('ph-1');
    });

    it('--limit stops after n rows', async () => {
      const r = await env.run(['medications', 'list', '--limit', '2', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json<any[]>()).toHaveLength(2);
    });

    it('a --param without = exits 2 and sends nothing', async () => {
      const { result: r, received } = await receivedDuring(() => env.run(['medications', 'list', '--param', 'patient']));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--param must be key=value, not "patient"');
      expect(received).toHaveLength(0);
    });
  });

  describe('medications show (M2)', () => {
    it('--json prints the MedicationRequest as received', async () => {
      const { result: r, received } = await receivedDuring(() => env.run(['medications', 'show', 'mr-2', '--json']));
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toEqual(JSON.parse(JSON.stringify(env.sandbox.state.medicationRequests.get('mr-2'))));
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ method: 'GET', path: '/practice/MedicationRequest/mr-2' });
    });

    it('table: the fields an operator reads', async () => {
      const r = await env.run(['medications', 'show', 'mr-1', '--output', 'table']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^id\s+mr-1$/m);
      expect(r.stdout).toMatch(/^status\s+active$/m);
      expect(r.stdout).toMatch(/^medication\s+Metformin 500 mg tablet \(Medication\/med-1\)$/m);
      expect(r.stdout).toMatch(/^pharmacy\s+Apotheek Centrum \(Organization\/ph-1\)$/m);
      expect(r.stdout).toMatch(/^quantity\s+60 tablet$/m);
      expect(r.stdout).toMatch(/^period\s+\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/m);
    });

    it('--output ndjson prints the resource on one line', async () => {
      const r = await env.run(['medications', 'show', 'mr-3', '--output', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ id: 'mr-3', resourceType: 'MedicationRequest' });
    });

    it('an unknown id exits 4 with HTTP 404 Not Found and the OperationOutcome', async () => {
      const r = await env.run(['medications', 'show', 'mr-404']);
      expect(r.code).toBe(4);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe('pdesk: HTTP 404 Not Found');
      expect(lines[1]).toMatch(/^ {2}error [a-z-]+: .*mr-404/);
      expect(r.stdout).toBe('');
    });

    it('the id is percent-encoded in the path', async () => {
      const { result: r, received } = await receivedDuring(() => env.run(['medications', 'show', 'a/b?c']));
      expect(r.code).toBe(4);
      expect(received).toHaveLength(1);
      expect(received[0]!.path).toBe('/practice/MedicationRequest/a%2Fb%3Fc');
    });
  });
});
