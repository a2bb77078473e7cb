/**
 * `next` links (src/core/paging.ts, decisions.md §3 "Paging"): where a link on another origin is asked, or why the
 * list is incomplete; and over real HTTP, that a list never goes on to a foreign origin, nor sends it the profile's
 * credentials, and never ends as if it were whole.
 */
import { describe, expect, it } from 'vitest';
import { PdeskClient } from '../../src/core/client.js';
import { readPages } from '../../src/core/pages.js';
import { ExitCode, IncompleteListError } from '../../src/core/errors.js';
import { nextPageUrl } from '../../src/core/paging.js';
import { validateProfile } from '../../src/core/profile/schema.js';
import { closeAfterEach, stubServer } from '../helpers/http.js';

const profile = (baseUrl: string, more: Record<string, unknown> = {}) =>
  validateProfile({ name: 'p', namespaces: { portal: 'a', practice: 'b' }, practice: { baseUrl }, portal: { baseUrl }, ...more }, 'test');

const BASE = 'http://127.0.0.1:8080/practice/fhir/R4';
const FROM = `${BASE}/Slot?date=ge2030-01-01`;

function incomplete(f: () => unknown): IncompleteListError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(IncompleteListError);
    expect((e as IncompleteListError).exitCode).toBe(ExitCode.contract);
    return e as IncompleteListError;
  }
  throw new Error('no IncompleteListError');
}

describe('nextPageUrl', () => {
  it('a link on the same origin, absolute or relative, is asked as it is', () => {
    expect(nextPageUrl(profile(BASE), BASE, FROM, `${BASE}/Slot?_offset=20`)).toBe(`${BASE}/Slot?_offset=20`);
    expect(nextPageUrl(profile(BASE), BASE, FROM, '?_offset=20')).toBe(`${BASE}/Slot?_offset=20`);
    expect(nextPageUrl(profile(BASE), BASE, FROM, '/other/Slot?p=2')).toBe('http://127.0.0.1:8080/other/Slot?p=2');
  });

  it("another origin under the base path is asked on the profile's origin by default, path and query kept, and logged", () => {
    const log: string[] = [];
    const url = nextPageUrl(profile(BASE), BASE, FROM, 'http://localhost:8080/practice/fhir/R4/Slot?_offset=20', (l) => log.push(l));
    expect(url).toBe(`${BASE}/Slot?_offset=20`);
    expect(log).toEqual([
      `next link on http://localhost:8080: asked on the profile's origin instead (paging.rewriteOrigin): ${BASE}/Slot?_offset=20`,
    ]);
  });

  it('paging.rewriteOrigin false refuses it; true follows a link outside the base path too', () => {
    const e = incomplete(() =>
      nextPageUrl(profile(BASE, { paging: { rewriteOrigin: false } }), BASE, FROM, 'http://localhost:8080/practice/fhir/R4/Slot?p=2'),
    );
    expect(e.message).toBe(
      "The list is incomplete: the server's next link points to http://localhost:8080, another origin than the profile's (http://127.0.0.1:8080), and paging.rewriteOrigin is false in the profile.",
    );
    expect(nextPageUrl(profile(BASE, { paging: { rewriteOrigin: true } }), BASE, FROM, 'https://fhir.internal/fhir/R4/Slot?p=2')).toBe(
      'http://127.0.0.1:8080/fhir/R4/Slot?p=2',
    );
  });

  it('another origin outside the base path: incomplete, naming the setting to change and the link', () => {
    const e = incomplete(() => nextPageUrl(profile(BASE), BASE, FROM, 'http://fhir.internal:8103/fhir/R4/Slot?p=2'));
    expect(e.message).toBe(
      "The list is incomplete: the server's next link points to http://fhir.internal:8103, another origin than the profile's (http://127.0.0.1:8080), and its path /fhir/R4/Slot is not under the profile's base path /practice/fhir/R4.",
    );
    expect(e.details).toEqual([
      'next link: http://fhir.internal:8103/fhir/R4/Slot?p=2',
      'pdesk sends a profile\'s requests and credentials only to its own origins. If http://fhir.internal:8103/fhir/R4 is the same server under another address, set practice.baseUrl of profile "p" to it; or set paging.rewriteOrigin to true to ask for such links on http://127.0.0.1:8080, their path kept.',
    ]);
  });

  it('a link that is no URL is incomplete too', () => {
    expect(incomplete(() => nextPageUrl(profile(BASE), BASE, FROM, 'http://[bad')).message).toBe(
      'The list is incomplete: the server\'s next link is not a URL ("http://[bad").',
    );
  });
});

describe('a list over real HTTP', () => {
  const page = (body: unknown) => {
    const b = body as { entry?: Array<{ resource: unknown }>; link?: Array<{ relation: string; url: string }> };
    return { items: (b.entry ?? []).map((e) => e.resource), next: b.link?.find((l) => l.relation === 'next')?.url };
  };

  it('a next link on a foreign origin is never asked, and never gets the token: exit 6 with how much was read', async () => {
    const foreign = await stubServer((_q, res) => res.writeHead(200).end('{}'));
    const s = await stubServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      res.end(
        JSON.stringify({
          resourceType: 'Bundle',
          entry: [{ resource: { id: 'a' } }, { resource: { id: 'b' } }],
          link: [{ relation: 'next', url: `${foreign.url}/elsewhere/Appointment?p=2` }],
        }),
      );
    });
    const c = closeAfterEach(
      new PdeskClient(
        profile(`${s.url}/fhir`, { practice: { baseUrl: `${s.url}/fhir`, auth: { type: 'bearer', token: 'paging-token-5555' } } }),
      ),
    );
    let e: unknown;
    await readPages(c, 'A5', {}, page, 0).catch((err: unknown) => (e = err));
    expect(e).toBeInstanceOf(IncompleteListError);
    expect((e as IncompleteListError).details[0]).toBe('2 resources read on 1 page; the rest were not asked for.');
    expect(foreign.received).toHaveLength(0);
    expect(s.received).toHaveLength(1);
  });
});
