/**
 * pdesk check catches a broken practice system: with the sandbox's `--break <op>` exactly the checks of that
 * operation fail, each naming the JSON path of the missing field; with `--fail A4:503` the A4 checks end `error`
 * and the checks that need A4's slots are skipped, saying why. Against a stub where the sandbox cannot produce
 * the case: A4 answers busy slots, slots outside the dates and of another category, and a paging loop.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { runSuite, suiteInfo } from '../../../src/core/check/index.js';
import { OP_IDS, type OpId } from '../../../src/core/ops.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { brokenPath } from '../../../src/sandbox/breaks.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';
import { stubServer } from '../../helpers/http.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/**
 * The checks that fail when `op`'s answers are broken: every check of the operation, except the two whose
 * expected answer is a refusal (4xx), which a broken success answer never reaches.
 */
function expectedFailures(op: OpId, write: boolean): string[] {
  return suiteInfo()
    .filter((c) => c.op === op && (write || !c.write) && c.id !== 'A6-double-booking' && c.id !== 'C1-closed-refused')
    .map((c) => c.id);
}

describe.each(['2.0.0', '1.0.0'] as const)('appointment API %s', (appointmentApi) => {
  test.each([...OP_IDS])('--break %s: exactly the checks of that operation fail, naming the path', async (op) => {
    sb = await startSandbox({ port: 0, appointmentApi, breakOps: [op], replyDelayMs: 60_000 });
    const profile = Profile.parse(sandboxProfile(sb.url, { appointmentApi }));
    const write = !['A1', 'A2', 'A3', 'A4', 'A5', 'M1', 'M2', 'M4'].includes(op);
    const report = await runSuite({ profile, write, inputs: { encounter: `enc-break-${op}` } });
    const failed = report.results.filter((r) => r.result !== 'pass' && r.result !== 'omit');
    expect(failed.map((r) => [r.id, r.result])).toEqual(expectedFailures(op, write).map((id) => [id, 'fail']));
    // The sandbox's week of slots comes on several pages: paths there name the page (`page 1 $.entry[0]…`).
    const path = op === 'A4' ? `page 1 ${brokenPath(op, appointmentApi)}` : brokenPath(op, appointmentApi);
    for (const r of failed) expect(r.messages.filter((m) => m.type === 'error').map((m) => m.path)).toContain(path);
  });
});

test('--fail A4:503: the A4 checks are errors; the bookings that need A4 are skipped, saying why; nothing is booked', async () => {
  sb = await startSandbox({ port: 0, failOps: { A4: 503 } });
  const profile = Profile.parse({ ...sandboxProfile(sb.url), retries: { max: 0 } });
  const report = await runSuite({ profile, write: true, only: ['A4', 'A6', 'A7'] });
  expect(report.results.map((r) => [r.id, r.result])).toEqual([
    ['A4-slots', 'error'],
    ['A4-free-only', 'error'],
    ['A6-book', 'skip'],
    ['A6-double-booking', 'skip'],
    ['A7-cancel', 'skip'],
    ['A4-slot-freed', 'skip'],
  ]);
  expect(report.results[0]!.messages[0]!.text).toMatch(/^HTTP 503 Service Unavailable; .*simulating a failure of A4/);
  expect(report.results[2]!.messages[0]!.text).toBe('needs an answer from A4, which failed: HTTP 503 Service Unavailable');
  expect(report.results[0]!.exchanges.map((e) => e.status)).toEqual([503]);
  expect(sb.received.filter((q) => q.method !== 'GET')).toEqual([]);
  expect(report.created).toEqual([]);
});

test('a 4xx to a conforming request is a failure, not an error', async () => {
  sb = await startSandbox({ port: 0, failOps: { M2: 404 } });
  const report = await runSuite({ profile: Profile.parse(sandboxProfile(sb.url)), only: ['M2'] });
  expect(report.results[0]!.result).toBe('fail');
  expect(report.results[0]!.messages[0]!.text).toMatch(/^HTTP 404 Not Found; /);
});

describe('answers the sandbox never gives (a stub practice system)', () => {
  const week = () => {
    const d = new Date();
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  };
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');
  const gp = [{ coding: [{ system: 'urn:pdesk:service-category', code: 'gp' }] }];
  const slot = (id: string, startMs: number, o: Record<string, unknown> = {}) => ({
    resourceType: 'Slot',
    id,
    status: 'free',
    start: iso(startMs),
    end: iso(startMs + 1_800_000),
    serviceCategory: gp,
    extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1' } }],
    schedule: { reference: 'Schedule/1' },
    ...o,
  });
  const stubProfile = (url: string) =>
    Profile.parse({ ...sandboxProfile(url), practice: { baseUrl: `${url}/practice` }, portal: { baseUrl: `${url}/portal` } });

  test('A4-free-only fails on a busy slot, a slot outside the dates and one of another category, naming each path', async () => {
    const t0 = week() + 86_400_000 + 9 * 3_600_000;
    const stub = await stubServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      res.end(
        JSON.stringify({
          resourceType: 'Bundle',
          type: 'searchset',
          total: 4,
          entry: [
            { resource: slot('ok', t0) },
            { resource: slot('busy', t0, { status: 'busy' }) },
            { resource: slot('late', t0 + 20 * 86_400_000) },
            { resource: slot('physio', t0, { serviceCategory: [{ coding: [{ system: 'urn:pdesk:service-category', code: 'physio' }] }] }) },
          ],
        }),
      );
    });
    const report = await runSuite({ profile: stubProfile(stub.url), only: ['A4-slots', 'A4-free-only'] });
    expect(report.results.map((r) => [r.id, r.result])).toEqual([
      ['A4-slots', 'pass'],
      ['A4-free-only', 'fail'],
    ]);
    expect(report.results[1]!.messages.filter((m) => m.type === 'error')).toEqual([
      { type: 'error', text: 'slot busy is "busy"; a search without status answers free slots only.', path: '$.entry[1].resource.status' },
      {
        type: 'error',
        text: expect.stringMatching(/^slot late starts \S+, outside the dates searched/),
        path: '$.entry[2].resource.start',
      },
      {
        type: 'error',
        text: 'slot physio is not of the service category searched (urn:pdesk:service-category|gp).',
        path: '$.entry[3].resource.serviceCategory',
      },
    ]);
  });

  test('every schema violation is listed, not only the first; a paging loop and plain JSON are reported', async () => {
    const stub = await stubServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          resourceType: 'Bundle',
          type: 'searchset',
          link: [{ relation: 'next', url: `http://${req.headers.host}/practice/Slot?page=2` }],
          entry: [{ resource: { resourceType: 'Slot', id: 's1' } }, { resource: { resourceType: 'Slot', status: 'free', start: 'soon' } }],
        }),
      );
    });
    const report = await runSuite({ profile: stubProfile(stub.url), only: ['A4-slots'] });
    const r = report.results[0]!;
    expect(r.result).toBe('fail');
    const errors = r.messages.filter((m) => m.type === 'error').map((m) => `${m.path} ${m.text}`);
    // Every path names its page: the list has more than one.
    expect(errors).toEqual([
      'page 1 $.entry[0].resource.status required field is missing',
      'page 1 $.entry[0].resource.start required field is missing',
      'page 1 $.entry[0].resource.end required field is missing',
      'page 1 $.entry[1].resource.id required field is missing',
      'page 1 $.entry[1].resource.start expected an ISO 8601 date-time',
      'page 1 $.entry[1].resource.end required field is missing',
      ...['status', 'start', 'end'].map((f) => `page 2 $.entry[0].resource.${f} required field is missing`),
      'page 2 $.entry[1].resource.id required field is missing',
      'page 2 $.entry[1].resource.start expected an ISO 8601 date-time',
      'page 2 $.entry[1].resource.end required field is missing',
      'page 2 $.link the next link repeats a page already read (paging loops).',
    ]);
    expect(r.messages).toContainEqual({
      type: 'warning',
      text: 'Content-Type is application/json; the interface sends application/fhir+json.',
    });
    expect(stub.received).toHaveLength(2);
  });
});
