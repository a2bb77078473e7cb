/**
 * `pdesk medications order` run in-process against the sandbox (M2 then M3, decisions.md §10): the reorder body
 * checked as the sandbox RECEIVED it (defaults and overrides), a 404 on the read orders nothing, invalid options exit
 * 2 with nothing sent, `--dry-run` reads but does not order, `--body` sends a complete resource unread. Orders run
 * with TZ=Europe/Amsterdam so that "today" and the UTC offset of authoredOn are the operator's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSandbox, type CliResult, type Env } from '../../../helpers/run.js';

describe('medications order (M2, then M3)', () => {
  const TZ = 'Europe/Amsterdam';
  let env: Env;
  let dir: string;
  beforeAll(async () => {
    env = await withSandbox();
    dir = mkdtempSync(join(tmpdir(), 'pdesk-med-'));
  });
  afterAll(async () => {
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[], input?: string) => env.run(args, { env: { TZ }, input });

  /** The calendar day and UTC offset in Amsterdam at `d`, computed without pdesk's date code. */
  function amsterdam(d = new Date()): { day: string; offset: string } {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
    const name = new Intl.DateTimeFormat('en-US', { timeZone: TZ, timeZoneName: 'longOffset' })
      .formatToParts(d)
      .find((p) => p.type === 'timeZoneName')!.value;
    return { day, offset: name.replace(/^GMT/, '') || '+00:00' };
  }
  const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

  interface Received {
    method: string;
    path: string;
    query: unknown;
    headers: Record<string, string | string[] | undefined>;
    body: any;
  }

  /** Run pdesk and return what the sandbox received meanwhile, plus "today" around the run. */
  async function order(
    args: string[],
    input?: string,
  ): Promise<{ r: CliResult; received: Received[]; today: string; before: Date; after: Date }> {
    const from = env.sandbox.received.length;
    const before = new Date();
    const r = await run(['medications', 'order', ...args], input);
    const after = new Date();
    const received = env.sandbox.received.slice(from) as Received[];
    const b = amsterdam(before).day;
    // A run across local midnight is not decidable from outside; use the day the process most likely saw.
    return { r, received, today: b, before, after };
  }

  const posts = (received: Received[]) => received.filter((x) => x.method === 'POST');
  const periodOf = (id: string) => env.sandbox.state.medicationRequests.get(id)!.extension?.[0]?.valuePeriod;

  describe('medications order --reorder: defaults (decisions.md §10)', () => {
    it('mr-1: M2 read then M3 with R’s medication, subject, performer, quantity and period length; prints the created request', async () => {
      const R = structuredClone(env.sandbox.state.medicationRequests.get('mr-1')!);
      const countBefore = env.sandbox.state.medicationRequests.size;
      const { r, received, today, before, after } = await order(['--reorder', 'mr-1', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(received.map((x) => `${x.method} ${x.path}`)).toEqual([
        'GET /practice/MedicationRequest/mr-1',
        'POST /practice/MedicationRequest',
      ]);
      const body = received[1]!.body;
      expect(String(received[1]!.headers['content-type'])).toContain('application/fhir+json');

      const length = daysBetween(R.extension![0]!.valuePeriod!.start!, R.extension![0]!.valuePeriod!.end!);
      expect(length).toBe(30);
      expect(Object.keys(body).sort()).toEqual(
        [
          'resourceType',
          'status',
          'intent',
          'basedOn',
          'medicationReference',
          'subject',
          'performer',
          'dispenseRequest',
          'extension',
          'authoredOn',
        ].sort(),
      );
      expect(body).toMatchObject({
        resourceType: 'MedicationRequest',
        status: 'draft',
        intent: 'order',
        basedOn: [{ reference: 'MedicationRequest/mr-1' }],
        medicationReference: R.medicationReference,
        subject: R.subject,
        performer: R.performer,
        dispenseRequest: { initialFill: { quantity: R.dispenseRequest!.initialFill!.quantity } },
        extension: [{ url: 'portal.example.medication-period', valuePeriod: { start: today, end: plusDays(today, 30) } }],
      });
      expect(R.extension![0]!.url).toBe('portal.example.medication-period');
      // authoredOn: now, with the local UTC offset of the process (Amsterdam).
      expect(body.authoredOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
      expect(body.authoredOn.slice(-6)).toBe(amsterdam(before).offset);
      const t = Date.parse(body.authoredOn);
      expect(t).toBeGreaterThanOrEqual(Math.floor(before.getTime() / 1000) * 1000);
      expect(t).toBeLessThanOrEqual(after.getTime());

      // The created request is printed, and the sandbox stored it.
      const printed = r.json();
      expect(printed).toMatchObject({
        resourceType: 'MedicationRequest',
        status: 'draft',
        intent: 'order',
        basedOn: [{ reference: 'MedicationRequest/mr-1' }],
      });
      expect(typeof printed.id).toBe('string');
      expect(env.sandbox.state.medicationRequests.size).toBe(countBefore + 1);
      expect(env.sandbox.state.medicationRequests.get(printed.id)).toMatchObject({ status: 'draft' });
    });

    it('mr-2: the period keeps R’s 90-day length and the pharmacy R’s ph-2', async () => {
      const p = periodOf('mr-2')!;
      expect(daysBetween(p.start!, p.end!)).toBe(90);
      const { r, received, today } = await order(['--reorder', 'mr-2', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const body = posts(received)[0]!.body;
      expect(body.extension).toEqual([
        { url: 'portal.example.medication-period', valuePeriod: { start: today, end: plusDays(today, 90) } },
      ]);
      expect(body.performer.reference).toBe('Organization/ph-2');
      expect(body.dispenseRequest.initialFill.quantity.value).toBe(90);
    });

    it('mr-3 (no period extension): 30 days and <portal>.medication-period', async () => {
      expect(periodOf('mr-3')).toBeUndefined();
      const { r, received, today } = await order(['--reorder', 'MedicationRequest/mr-3', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const body = posts(received)[0]!.body;
      expect(body.extension).toEqual([
        { url: 'portal.example.medication-period', valuePeriod: { start: today, end: plusDays(today, 30) } },
      ]);
      expect(body.basedOn).toEqual([{ reference: 'MedicationRequest/mr-3' }]);
      expect(body.subject.reference).toBe('Patient/pat-2');
      expect(body.dispenseRequest.initialFill.quantity).toEqual({ value: 1, unit: 'inhaler' });
    });

    it('copies the url of R’s period extension when it is not the default one', async () => {
      const base = structuredClone(env.sandbox.state.medicationRequests.get('mr-1')!);
      env.sandbox.state.medicationRequests.set('mr-x', {
        ...base,
        id: 'mr-x',
        extension: [{ url: 'other.example.supply-period', valuePeriod: { start: '2026-01-31', end: '2026-02-28' } }],
      });
      const { r, received, today } = await order(['--reorder', 'mr-x', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(posts(received)[0]!.body.extension).toEqual([
        { url: 'other.example.supply-period', valuePeriod: { start: today, end: plusDays(today, 28) } },
      ]);
    });
  });

  describe('medications order --reorder: overrides', () => {
    it('--pharmacy ph-3, --quantity 30, --start/--end, --note', async () => {
      const { r, received } = await order([
        '--reorder',
        'mr-1',
        '--pharmacy',
        'ph-3',
        '--quantity',
        '30',
        '--start',
        '2030-01-31',
        '--end',
        '2030-02-28',
        '--note',
        'Graag in één doosje',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const body = posts(received)[0]!.body;
      expect(body.performer).toEqual({ reference: 'Organization/ph-3' });
      expect(body.dispenseRequest.initialFill.quantity).toEqual({
        ...env.sandbox.state.medicationRequests.get('mr-1')!.dispenseRequest!.initialFill!.quantity,
        value: 30,
      });
      expect(body.dispenseRequest.initialFill.quantity.unit).toBe('tablet');
      expect(body.extension[0].valuePeriod).toEqual({ start: '2030-01-31', end: '2030-02-28' });
      expect(body.note).toEqual(['Graag in één doosje']);
      expect(r.json()).toMatchObject({ performer: { reference: 'Organization/ph-3' }, note: ['Graag in één doosje'] });
    });

    it('--start alone (relative form) keeps R’s period length; --start tomorrow with --end +31d', async () => {
      const a = await order(['--reorder', 'mr-2', '--start', '+7d', '--json']);
      expect(a.r.code, a.r.stderr).toBe(0);
      expect(posts(a.received)[0]!.body.extension[0].valuePeriod).toEqual({ start: plusDays(a.today, 7), end: plusDays(a.today, 97) });
      const b = await order(['--reorder', 'mr-3', '--start', 'tomorrow', '--end', '+31d', '--json']);
      expect(b.r.code, b.r.stderr).toBe(0);
      expect(posts(b.received)[0]!.body.extension[0].valuePeriod).toEqual({ start: plusDays(b.today, 1), end: plusDays(b.today, 31) });
    });

    it('--quantity accepts a decimal; --pharmacy accepts Organization/<id>', async () => {
      const { r, received } = await order(['--reorder', 'mr-3', '--quantity', '2.5', '--pharmacy', 'Organization/ph-2', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const body = posts(received)[0]!.body;
      expect(body.dispenseRequest.initialFill.quantity).toEqual({ value: 2.5, unit: 'inhaler' });
      expect(body.performer).toEqual({ reference: 'Organization/ph-2' });
    });

    it('table and ndjson output print the created request', async () => {
      const t = await order(['--reorder', 'mr-1', '--output', 'table']);
      expect(t.r.code, t.r.stderr).toBe(0);
      expect(t.r.stdout).toMatch(/^status\s+draft$/m);
      expect(t.r.stdout).toMatch(/^basedOn\s+MedicationRequest\/mr-1$/m);
      const n = await order(['--reorder', 'mr-1', '--output', 'ndjson']);
      expect(n.r.code, n.r.stderr).toBe(0);
      expect(n.r.stdout.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(n.r.stdout)).toMatchObject({ status: 'draft', intent: 'order' });
    });
  });

  describe('medications order: refusals', () => {
    it('an unknown --reorder id exits 4 after the M2 read, and nothing is ordered', async () => {
      const count = env.sandbox.state.medicationRequests.size;
      const { r, received } = await order(['--reorder', 'mr-404', '--json']);
      expect(r.code).toBe(4);
      expect(r.stderr.split('\n')[0]).toBe('pdesk: HTTP 404 Not Found');
      expect(r.stderr).toContain('mr-404');
      expect(received.map((x) => `${x.method} ${x.path}`)).toEqual(['GET /practice/MedicationRequest/mr-404']);
      expect(env.sandbox.state.medicationRequests.size).toBe(count);
      expect(r.stdout).toBe('');
    });

    it('an unknown pharmacy is refused by the server (422, exit 4) and not stored', async () => {
      const count = env.sandbox.state.medicationRequests.size;
      const { r, received } = await order(['--reorder', 'mr-1', '--pharmacy', 'ph-999']);
      expect(r.code).toBe(4);
      expect(r.stderr.split('\n')[0]).toBe('pdesk: HTTP 422 Unprocessable Entity');
      expect(posts(received)).toHaveLength(1);
      expect(env.sandbox.state.medicationRequests.size).toBe(count);
    });

    const invalid: Array<[string, string[], RegExp]> = [
      [
        'no --reorder',
        [],
        /^pdesk: --reorder is required \(name the medication request to reorder, or give a complete one with --body\)\.$/m,
      ],
      ['--quantity 0', ['--reorder', 'mr-1', '--quantity', '0'], /--quantity must be a positive number, not "0"/],
      ['--quantity -5', ['--reorder', 'mr-1', '--quantity=-5'], /--quantity must be a positive number, not "-5"/],
      ['--quantity abc', ['--reorder', 'mr-1', '--quantity', 'abc'], /--quantity must be a positive number, not "abc"/],
      ['--start not a date', ['--reorder', 'mr-1', '--start', '2026-13-45'], /--start must be a date/],
      ['--end not a date', ['--reorder', 'mr-1', '--end', 'next week'], /--end must be a date/],
      [
        '--end before --start',
        ['--reorder', 'mr-1', '--start', '2030-02-01', '--end', '2030-01-31'],
        /--end \(2030-01-31\) is before --start \(2030-02-01\)/,
      ],
      ['--end before today', ['--reorder', 'mr-1', '--end', 'yesterday'], /--end \(\d{4}-\d{2}-\d{2}\) is before the default start, today/],
      ['--pharmacy empty', ['--reorder', 'mr-1', '--pharmacy', ''], /--pharmacy must be an id or Organization\/<id>/],
      ['--reorder of another type', ['--reorder', 'Patient/pat-1'], /--reorder must be an id or MedicationRequest\/<id>/],
      ['--note empty', ['--reorder', 'mr-1', '--note', ' '], /--note must not be empty/],
      ['--body with --reorder', ['--body', '-', '--reorder', 'mr-1'], /--body .* cannot be combined with --reorder/],
    ];
    it.each(invalid)('%s exits 2 and sends nothing', async (_name, args, message) => {
      const { r, received } = await order(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^pdesk: /);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(received).toEqual([]);
    });
  });

  describe('medications order --dry-run and --body', () => {
    it('--dry-run makes the M2 read, prints the M3 request and does not send it', async () => {
      const count = env.sandbox.state.medicationRequests.size;
      const { r, received, today } = await order(['--reorder', 'mr-1', '--pharmacy', 'ph-3', '--dry-run']);
      expect(r.code, r.stderr).toBe(0);
      expect(received.map((x) => `${x.method} ${x.path}`)).toEqual(['GET /practice/MedicationRequest/mr-1']);
      expect(env.sandbox.state.medicationRequests.size).toBe(count);
      const printed = r.json();
      expect(printed).toMatchObject({ op: 'M3', method: 'POST', url: `${env.sandbox.url.replace(/\/$/, '')}/practice/MedicationRequest` });
      expect(printed.headers['content-type']).toBe('application/fhir+json');
      expect(printed.body).toMatchObject({
        status: 'draft',
        intent: 'order',
        basedOn: [{ reference: 'MedicationRequest/mr-1' }],
        performer: { reference: 'Organization/ph-3' },
        extension: [{ valuePeriod: { start: today, end: plusDays(today, 30) } }],
      });
    });

    it('--dry-run of an unknown id still exits 4 (the read is real)', async () => {
      const { r, received } = await order(['--reorder', 'mr-404', '--dry-run']);
      expect(r.code).toBe(4);
      expect(posts(received)).toHaveLength(0);
    });

    it('the help says what --dry-run does', async () => {
      const r = await run(['medications', 'order', '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain('With --dry-run the M2 read of the request being reordered IS made');
    });

    const complete = () => ({
      resourceType: 'MedicationRequest',
      status: 'draft',
      intent: 'order',
      basedOn: [{ reference: 'MedicationRequest/mr-2' }],
      medicationReference: { reference: 'Medication/med-2', display: 'Lisinopril 10 mg tablet' },
      subject: { reference: 'Patient/pat-1' },
      performer: { reference: 'Organization/ph-1' },
      dispenseRequest: { initialFill: { quantity: { value: 45, unit: 'tablet' } } },
      extension: [{ url: 'portal.example.medication-period', valuePeriod: { start: '2030-05-01', end: '2030-06-15' } }],
      authoredOn: '2030-04-30T09:00:00+02:00',
      note: ['from a file'],
    });

    it('--body <file> sends the complete request as is, without the M2 read', async () => {
      const file = join(dir, 'order.json');
      writeFileSync(file, JSON.stringify(complete()));
      const { r, received } = await order(['--body', file, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(received.map((x) => x.method)).toEqual(['POST']);
      expect(received[0]!.body).toEqual(complete());
      expect(r.json()).toMatchObject({ status: 'draft', note: ['from a file'] });
    });

    it('--body - reads standard input; --dry-run then sends nothing at all', async () => {
      const { r, received } = await order(['--body', '-', '--dry-run'], JSON.stringify(complete()));
      expect(r.code, r.stderr).toBe(0);
      expect(received).toEqual([]);
      expect(r.json().body).toEqual(complete());
    });

    it('an invalid --body exits 2 naming the JSON path, and nothing is sent', async () => {
      const bad = { ...complete(), status: 'active' };
      const { r, received } = await order(['--body', '-'], JSON.stringify(bad));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('$.status');
      expect(received).toEqual([]);
      const noBasedOn = { ...complete(), basedOn: undefined };
      const b = await order(['--body', '-'], JSON.stringify(noBasedOn));
      expect(b.r.code).toBe(2);
      expect(b.r.stderr).toContain('$.basedOn');
      expect(b.received).toEqual([]);
      const notJson = await order(['--body', '-'], '{nope');
      expect(notJson.r.code).toBe(2);
      expect(notJson.r.stderr).toContain('--body: standard input is not valid JSON');
    });
  });
});
