/**
 * The client (src/core/client.ts) over real HTTP to a stub server on port 0: paging (readPages) is bounded in
 * pages as well as resources, and --dry-run hands the request to its sink and stops with a signal that is not
 * an error.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DryRunStop, MAX_EMPTY_PAGES, PdeskClient, readPages, type RequestDescription } from '../../src/core/client.js';
import { ContractError, ExitCode } from '../../src/core/errors.js';
import { validateProfile } from '../../src/profiles/store.js';
import { closeAfterEach, stubServer } from '../helpers/http.js';

function clientFor(url: string, o: ConstructorParameters<typeof PdeskClient>[1] = {}): PdeskClient {
  const profile = validateProfile(
    { name: 't', namespaces: { portal: 'p', practice: 'q' }, practice: { baseUrl: url }, portal: { baseUrl: url } },
    'test',
  );
  return closeAfterEach(new PdeskClient(profile, o));
}

const bundle = (res: ServerResponse, entries: unknown[], next?: string) => {
  res.writeHead(200, { 'content-type': 'application/fhir+json' });
  res.end(
    JSON.stringify({
      resourceType: 'Bundle',
      entry: entries.map((resource) => ({ resource })),
      link: next ? [{ relation: 'next', url: next }] : [],
    }),
  );
};
const page = (body: unknown) => {
  const b = body as { entry?: Array<{ resource: unknown }>; link?: Array<{ relation: string; url: string }> };
  return { items: (b.entry ?? []).map((e) => e.resource), next: b.link?.find((l) => l.relation === 'next')?.url };
};

async function contractError(p: Promise<unknown>): Promise<ContractError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ContractError);
  return e as ContractError;
}

describe('readPages: pages are bounded, not only resources', () => {
  it('empty pages whose next link changes every time end with a ContractError after MAX_EMPTY_PAGES pages', async () => {
    const s = await stubServer((_q, res, { n }) => bundle(res, [], `/page/${n}`));
    const c = clientFor(s.url);
    const e = await contractError(readPages(c, 'A5', {}, page, 1000));
    expect(e.exitCode).toBe(ExitCode.contract);
    expect(e.path).toBe('$.link');
    expect(e.message).toBe(
      `The server's answer does not match the interface at $.link: the server sent ${MAX_EMPTY_PAGES} empty pages in a row, each with a new next link (it pages without end).`,
    );
    expect(e.details).toEqual([`${MAX_EMPTY_PAGES} pages read; 0 resources so far. Nothing more was asked for.`]);
    expect(s.received).toHaveLength(MAX_EMPTY_PAGES);
  });

  it('with no limit (0) too', async () => {
    const s = await stubServer((_q, res, { n }) => bundle(res, [], `/p?n=${n}`));
    const e = await contractError(readPages(clientFor(s.url), 'A5', {}, page, 0));
    expect(e.message).toContain('empty pages in a row');
    expect(s.received).toHaveLength(MAX_EMPTY_PAGES);
  });

  it('a few empty pages among full ones are read through', async () => {
    const s = await stubServer((_q, res, { n }) =>
      n > 12 ? bundle(res, [{ id: 'last' }]) : bundle(res, n % 4 === 0 ? [{ id: `r${n}` }] : [], `/p/${n}`),
    );
    const rows = await readPages(clientFor(s.url), 'A5', {}, page, 0);
    expect(rows).toEqual([{ id: 'r4' }, { id: 'r8' }, { id: 'r12' }, { id: 'last' }]);
    expect(s.received).toHaveLength(13);
  });

  it('full pages without end stop at the page bound with a ContractError naming it', async () => {
    const s = await stubServer((_q, res, { n }) => bundle(res, [{ id: `r${n}` }], `/p/${n}`));
    const e = await contractError(readPages(clientFor(s.url), 'A5', {}, page, 0, { maxPages: 25 }));
    expect(e.message).toBe(
      "The server's answer does not match the interface at $.link: the server still sends a next link after 25 pages (pdesk reads at most 25).",
    );
    expect(e.details).toEqual(['25 resources read. Narrow the search, or use --limit to read fewer.']);
    expect(s.received).toHaveLength(25);
  });

  it('--limit ends full pages before the page bound, without an error', async () => {
    const s = await stubServer((_q, res, { n }) => bundle(res, [{ id: `r${n}` }], `/p/${n}`));
    const rows = await readPages(clientFor(s.url), 'A5', {}, page, 20, { maxPages: 25 });
    expect(rows).toHaveLength(20);
    expect(s.received).toHaveLength(20);
  });

  it('a next link seen before ends the list quietly (a loop)', async () => {
    const s = await stubServer((_q, res, { n }) => bundle(res, [{ id: `r${n}` }], n % 2 ? '/b' : '/a'));
    const rows = await readPages(clientFor(s.url), 'A5', {}, page, 0);
    expect(rows).toEqual([{ id: 'r1' }, { id: 'r2' }, { id: 'r3' }]);
  });
});

describe('--dry-run', () => {
  it('hands the request to onDryRun and stops with DryRunStop, which is not an Error; nothing is sent', async () => {
    const s = await stubServer((_q, res) => res.writeHead(500).end());
    const seen: RequestDescription[] = [];
    const c = clientFor(s.url, { dryRun: true, onDryRun: (r) => seen.push(r) });
    const e = await c.call('C5', { body: { resourceType: 'Communication' } }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(DryRunStop);
    expect(e).not.toBeInstanceOf(Error);
    expect(seen).toEqual([(e as DryRunStop).request]);
    expect(seen[0]).toMatchObject({ op: 'C5', method: 'POST', url: `${s.url}/Communication`, body: { resourceType: 'Communication' } });
    expect(s.received).toEqual([]);
  });

  it('a read a write depends on (readForWrite) is sent all the same, and onDryRun does not see it', async () => {
    const s = await stubServer((_q, res) => bundle(res, []));
    const seen: RequestDescription[] = [];
    const c = clientFor(s.url, { dryRun: true, onDryRun: (r) => seen.push(r) });
    const res = await c.call('M2', { params: { id: 'mr-1' }, readForWrite: true });
    expect(res.status).toBe(200);
    expect(seen).toEqual([]);
    expect(s.received.map((r) => r.url)).toEqual(['/MedicationRequest/mr-1']);
  });
});
