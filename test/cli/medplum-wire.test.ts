/**
 * Commands against the Medplum peer (a real FHIR engine, test/helpers/medplum/) with what deployments do on the
 * wire: redirects (a write is never done by a 3xx, a GET follows only what it may), `next` links on another origin
 * (followed on the profile's origin, or exit 6 saying the list is incomplete), and gzip. In-process, over real HTTP.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { peopleCsv } from '../helpers/bulk.js';
import { medplumPeerForFile } from '../helpers/medplum/peer.js';
import { SEED } from '../helpers/medplum/seed.js';
import { run } from '../helpers/run.js';
import type { ProfileInput } from '../../src/core/profile/schema.js';
import { readAudit } from '../../src/core/audit.js';

const mp = medplumPeerForFile();
const TOKEN = 'medplum-wire-token-1234';
const slots = ['slots', 'list', '--service-category', SEED.serviceCategory.gp, '--from', 'today', '--to', '+7d', '--json'];
const book = [
  'appointments',
  'book',
  '--patient',
  SEED.patients.emma,
  '--comment',
  'check-up',
  '--start',
  '2030-01-02T09:00:00Z',
  '--end',
  '2030-01-02T09:30:00Z',
  '--practitioner',
  SEED.practitionerRoles.berg,
  '--service-category',
  SEED.serviceCategory.gp,
  '--json',
];
const notify = ['notifications', 'send', '--email', SEED.emmaEmail, '--topic', 'News', '--text', 'Hello', '--json'];

/** A config folder for the peer whose parties both take a bearer token. */
function withToken(overrides: Partial<ProfileInput> = {}) {
  const { peer } = mp;
  return peer.configDir({
    practice: { baseUrl: peer.practiceUrl, auth: { type: 'bearer', token: TOKEN } },
    portal: { baseUrl: peer.portalUrl, auth: { type: 'bearer', token: TOKEN } },
    ...overrides,
  });
}

const audit = (dir: string) => readAudit(join(dir, 'audit', 'medplum.ndjson')).records;

async function appointmentsAt(party: 'practice' | 'portal' = 'practice') {
  const { peer } = mp;
  return (await peer.repos[party].searchResources({ resourceType: 'Appointment' })).length;
}

describe('a redirect is never a success', () => {
  test('appointments book behind a 307: exit 5 naming the Location and the setting; nothing stored, not re-sent; audited as not done', async () => {
    const { peer } = mp;
    const dir = withToken();
    const before = await appointmentsAt();
    peer.set({ redirect: { status: 307, to: { base: peer.movedUrl.practice }, methods: ['POST'] } });
    const r = await run(book, { configDir: dir });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `pdesk: A6 (POST /Appointment) was redirected to ${peer.movedUrl.practice}/Appointment (HTTP 307 Temporary Redirect) and not sent again, so it was not done: set practice.baseUrl in profile "medplum" to ${peer.movedUrl.practice} if the server has moved there.`,
    );
    expect(lines[1]).toBe(`  request: A6 POST ${peer.practiceUrl}/Appointment`);
    expect(r.stderr).not.toContain('created');
    // One POST, to the profile's URL; none to the new place.
    expect(peer.requests.filter((q) => q.method === 'POST').map((q) => q.url)).toEqual(['/practice/fhir/R4/Appointment']);
    expect(await appointmentsAt()).toBe(before);
    expect(audit(dir)).toEqual([
      expect.objectContaining({
        op: 'A6',
        method: 'POST',
        status: 307,
        error: {
          name: 'RedirectError',
          code: 'REDIRECT',
          message: `redirected to ${peer.movedUrl.practice}/Appointment; not sent again, not done`,
        },
      }),
    ]);
    // `pdesk audit` shows it as not done.
    const shown = await run(['audit', '--output', 'table'], { configDir: dir });
    expect(shown.stdout).toMatch(/A6\s+POST\s+.*\s307 REDIRECT\s/);
  });

  test.each([301, 302, 303, 308] as const)('notifications send answered %i: exit 5, never {"ok":true}', async (status) => {
    const { peer } = mp;
    peer.set({ redirect: { status, to: 'trailing-slash', methods: ['POST'] } });
    const r = await run(notify, { configDir: withToken() });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toMatch(
      new RegExp(
        `^pdesk: C5 \\(POST /Communication\\) was redirected to ${peer.portalUrl}/Communication/ \\(HTTP ${status} [A-Za-z ]+\\) and not sent again, so it was not done: set routes\\.C5\\.path in profile "medplum" to "/Communication/" if the server has moved there\\.$`,
      ),
    );
    expect(peer.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  test('a bulk send behind a redirect: the rows answered 3xx are failed (not sent), the run stops with exit 5, and a rerun sends every row once', async () => {
    const { peer } = mp;
    const dir = withToken();
    const csv = peopleCsv(6, 'redirected.csv');
    const args = ['notifications', 'send', '--csv', csv, '--topic', 'News', '--text', 'Hello {name}', '--json', '--concurrency', '1'];
    peer.set({ redirect: { status: 307, to: { base: peer.movedUrl.portal }, methods: ['POST'] } });
    const r = await run(args, { configDir: dir });
    expect(r.code).toBe(5);
    const summary = r.json() as { sent: number; failed: number; uncertain: number; failedCsv: string };
    expect(summary).toMatchObject({ sent: 0, failed: 1, uncertain: 0 });
    expect(r.stderr).toContain(`was redirected to ${peer.movedUrl.portal}/Communication (HTTP 307 Temporary Redirect)`);
    expect(readFileSync(summary.failedCsv, 'utf8')).toContain('307');
    expect(
      (await peer.repos.portal.searchResources({ resourceType: 'Communication' })).filter(
        (c) => (c as { topic?: { text?: string } }).topic?.text === 'News',
      ),
    ).toHaveLength(0);

    peer.set({ redirect: undefined });
    peer.requests.length = 0;
    const again = await run(args, { configDir: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ sent: 6, failed: 0, uncertain: 0 });
    const sent = (await peer.repos.portal.searchResources({ resourceType: 'Communication' })).filter(
      (c) => (c as { topic?: { text?: string } }).topic?.text === 'News',
    );
    expect(sent).toHaveLength(6);
  });

  test('a GET follows a redirect on its own origin (a trailing slash, a moved base), credentials kept', async () => {
    const { peer } = mp;
    const dir = withToken();
    for (const to of ['trailing-slash', { base: peer.movedUrl.practice }] as const) {
      await peer.reset();
      peer.set({ redirect: { status: 301, to, methods: ['GET'] } });
      const r = await run(slots, { configDir: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toHaveLength(30);
      for (const q of peer.requests) expect(q.headers.authorization).toBe(`Bearer ${TOKEN}`);
    }
  });

  test('a GET redirected to another origin stops with exit 5 naming it (not exit 6 "required field"), and sends it no credentials', async () => {
    const { peer } = mp;
    peer.set({ redirect: { status: 302, to: { origin: peer.localhostOrigin } } });
    const r = await run(['practitioners', 'list', '--json'], { configDir: withToken() });
    expect(r.code).toBe(5);
    expect(r.stderr.split('\n')[0]).toBe(
      `pdesk: A2 (GET /PractitionerRole) was redirected to ${peer.localhostOrigin}/practice/fhir/R4/PractitionerRole (HTTP 302 Found), another origin, which pdesk does not follow: set practice.baseUrl in profile "medplum" to ${peer.localhostOrigin}/practice/fhir/R4 if the server has moved there.`,
    );
    expect(r.stderr).not.toContain('required');
    expect(peer.requests.map((q) => q.origin)).toEqual([peer.origin]);
  });

  test('a redirect loop stops with exit 5', async () => {
    const { peer } = mp;
    peer.set({ redirect: { status: 302, to: { url: `${peer.practiceUrl}/PractitionerRole` }, methods: ['GET'] } });
    const r = await run(['practitioners', 'list', '--json'], { configDir: withToken() });
    expect(r.code).toBe(5);
    expect(r.stderr.split('\n')[0]).toBe(
      `pdesk: A2 (GET /PractitionerRole) is redirected in a loop (${peer.practiceUrl}/PractitionerRole → ${peer.practiceUrl}/PractitionerRole).`,
    );
    expect(peer.requests).toHaveLength(1);
  });
});

describe('every page or a clear error', () => {
  test("next links on another origin under the profile's base path are followed on the profile's origin: every slot, the token never sent elsewhere", async () => {
    const { peer } = mp;
    peer.set({ baseUrl: { origin: peer.localhostOrigin } });
    const r = await run(slots, { configDir: withToken() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toHaveLength(30);
    expect(peer.requests).toHaveLength(2);
    for (const q of peer.requests) {
      expect(q.origin).toBe(peer.origin);
      expect(q.headers.authorization).toBe(`Bearer ${TOKEN}`);
    }
  });

  test('with paging.rewriteOrigin false, or a link outside the base path: exit 6, the list incomplete and why, nothing printed', async () => {
    const { peer } = mp;
    peer.set({ baseUrl: { origin: peer.localhostOrigin } });
    const off = await run(slots, { configDir: withToken({ paging: { rewriteOrigin: false } }) });
    expect(off.code).toBe(6);
    expect(off.stdout).toBe('');
    expect(off.stderr.split('\n').slice(0, 2)).toEqual([
      `pdesk: The list is incomplete: the server's next link points to ${peer.localhostOrigin}, another origin than the profile's (${peer.origin}), and paging.rewriteOrigin is false in the profile.`,
      '  20 resources read on 1 page; the rest were not asked for.',
    ]);

    peer.set({ baseUrl: 'http://fhir.internal:8103/' });
    const other = await run(slots, { configDir: withToken() });
    expect(other.code).toBe(6);
    expect(other.stdout).toBe('');
    expect(other.stderr).toContain(
      "another origin than the profile's (" +
        peer.origin +
        "), and its path /fhir/R4/Slot is not under the profile's base path /practice/fhir/R4.",
    );
    expect(other.stderr).toContain(
      `If http://fhir.internal:8103/fhir/R4 is the same server under another address, set practice.baseUrl of profile "medplum" to it; or set paging.rewriteOrigin to true`,
    );
    for (const q of peer.requests) expect(q.origin).toBe(peer.origin);
  });
});

describe('compressed answers', () => {
  test.each(['accepted', 'always'] as const)('gzip %s: pdesk asks for gzip, deflate, br and reads every page', async (gzip) => {
    const { peer } = mp;
    peer.set({ gzip });
    const r = await run(slots, { configDir: withToken() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toHaveLength(30);
    for (const q of peer.requests) expect(q.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  test('gzip on a write answer: the created resource is read', async () => {
    const { peer } = mp;
    peer.set({ gzip: 'always' });
    const r = await run(book, { configDir: withToken() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ resourceType: 'Appointment', status: 'booked' });
  });
});
