import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { PdeskClient, type RequestDescription } from '../../src/core/client.js';
import { DryRunStop } from '../../src/core/client/dry-run.js';
import { MAX_EMPTY_PAGES, readPages } from '../../src/core/pages.js';
import { getMedicationRequest } from '../../src/core/api/medication.js';
import { ContractError, ExitCode, HttpError, IncompleteListError, TooLargeError } from '../../src/core/errors.js';
import { setDefaultTransport } from '../../src/core/transport-default.js';
import { HttpTransport } from '../../src/core/transport-http.js';
import { PoolTransport } from '../../src/core/transport-pool.js';
import { validateProfile } from '../../src/core/profile/schema.js';
import { makeCertificates } from '../helpers/certs.js';
import { closeAfterEach, listening, stubServer } from '../helpers/http.js';
import { rejectionOf } from '../helpers/errors.js';

function client(baseUrl: string, practice: Record<string, unknown> = {}) {
  const profile = validateProfile(
    {
      name: 't',
      namespaces: { portal: 'portal.test', practice: 'practice.test' },
      practice: { baseUrl, ...practice },
      portal: { baseUrl },
    },
    'test',
  );
  const c = new PdeskClient(profile);
  closeAfterEach(c);
  return c;
}

const failure = (p: Promise<unknown>) => rejectionOf(p);

/** The DryRunStop a --dry-run client stops with (control flow, not an Error). */
async function dryRunStop(p: Promise<unknown>): Promise<DryRunStop> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DryRunStop);
  expect(e).not.toBeInstanceOf(Error);
  return e as DryRunStop;
}

describe('a credential the server echoes back is redacted in the error itself (the TUI shows these lines too)', () => {
  const TOKEN = 'echoed-bearer-token-4711';
  const auth = { type: 'bearer', token: TOKEN };

  it('in OperationOutcome diagnostics', async () => {
    const s = await stubServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/fhir+json' });
      res.end(
        JSON.stringify({
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'login', diagnostics: `unknown token ${req.headers.authorization}` }],
        }),
      );
    });
    const e = await failure(client(s.url, { auth }).call('A2'));
    expect(e).toBeInstanceOf(HttpError);
    const text = [e.message, ...(e as HttpError).details].join('\n');
    expect(text).toContain('error login: unknown token Bearer ***');
    expect(text).not.toContain(TOKEN);
  });

  it('in a success body that is not JSON', async () => {
    const s = await stubServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<p>hello ${req.headers.authorization}</p>`);
    });
    const e = await failure(client(s.url, { auth }).call('A2'));
    expect(e).toBeInstanceOf(ContractError);
    const text = [e.message, ...(e as ContractError).details].join('\n');
    expect(text).toContain('<p>hello Bearer ***</p>');
    expect(text).not.toContain(TOKEN);
  });
});

describe('a credential in a profile header', () => {
  const headers = { 'X-Auth-Token': 'header-token-0815', 'Ocp-Apim-Subscription-Key': 'sub-key-4242', 'X-Api-Version': '2.0.0' };

  it('is redacted under --dry-run (by the name of the header), and the other headers are shown', async () => {
    const profile = validateProfile(
      {
        name: 't',
        namespaces: { portal: 'p', practice: 'q' },
        practice: { baseUrl: 'http://127.0.0.1:9', headers },
        portal: { baseUrl: 'http://127.0.0.1:9' },
      },
      'test',
    );
    const seen: RequestDescription[] = [];
    const c = new PdeskClient(profile, { dryRun: true, onDryRun: (r) => seen.push(r) });
    closeAfterEach(c);
    const stop = await dryRunStop(c.call('A2'));
    expect(seen).toEqual([stop.request]);
    expect(stop.request.headers).toMatchObject({ 'X-Auth-Token': '***', 'Ocp-Apim-Subscription-Key': '***', 'X-Api-Version': '2.0.0' });
  });

  it('is redacted when a server echoes it back', async () => {
    const s = await stubServer((req, res) => {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end(`key ${req.headers['ocp-apim-subscription-key']} is not valid for ${req.headers['x-auth-token']}`);
    });
    const e = (await failure(client(s.url, { headers }).call('A2'))) as HttpError;
    expect(e.details[0]).toBe('key *** is not valid for ***');
  });
});

describe('TLS files (private CA, client certificate)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-tls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const f = (name: string) => join(dir, name);

  let made = false;
  /** A private CA, a server certificate for 127.0.0.1 and a client certificate ("desk"), made once. */
  function certificates() {
    if (made) return;
    made = true;
    makeCertificates(dir, { subject: '/CN=pdesk test CA', days: 1 }, [
      { name: 'server', subject: '/CN=127.0.0.1', days: 1, altName: 'IP:127.0.0.1' },
      { name: 'client', subject: '/CN=desk', days: 1, altName: 'IP:127.0.0.1' },
    ]);
  }

  // Both transports: the undici pool (long-running work) and node:https (one-shot commands), token URL included.
  it.each(['pool', 'http'] as const)('apply to the API calls and to the OAuth2 token URL of the party (%s transport)', async (kind) => {
    certificates();
    setDefaultTransport(kind);
    onTestFinished(() => setDefaultTransport('pool'));
    const seen: string[] = [];
    const server = createHttpsServer(
      {
        key: readFileSync(f('server.key')),
        cert: readFileSync(f('server.pem')),
        ca: readFileSync(f('ca.pem')),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => {
        seen.push(`${req.url} ${(req.socket as TLSSocket).getPeerCertificate().subject?.CN} ${req.headers.authorization ?? ''}`.trim());
        req.resume().on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify(
              req.url === '/token' ? { access_token: 'tls-access-token', expires_in: 600 } : { resourceType: 'Bundle', entry: [] },
            ),
          );
        });
      },
    );
    const url = await listening(server, 'https');
    const tls = { caFile: f('ca.pem'), certFile: f('client.pem'), keyFile: f('client.key') };
    process.env.PDESK_TEST_TLS_SECRET = 'client-secret-tls';
    const plain = client(url, { tls });
    expect(plain.transport).toBeInstanceOf(kind === 'http' ? HttpTransport : PoolTransport);
    await plain.call('A2');
    await client(url, {
      tls,
      auth: { type: 'oauth2-client-credentials', tokenUrl: `${url}/token`, clientId: 'desk', clientSecretEnv: 'PDESK_TEST_TLS_SECRET' },
    }).call('A5');
    expect(seen).toEqual(['/PractitionerRole desk', '/token desk', '/Appointment desk Bearer tls-access-token']);
  });
});

describe('Retry-After', () => {
  it('longer than pdesk waits: not waited for, and the error says when to try again', async () => {
    let n = 0;
    const s = await stubServer((_q, res) => {
      n++;
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '120' });
      res.end('busy');
    });
    const started = Date.now();
    const e = (await failure(client(s.url).call('A2'))) as HttpError;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(n).toBe(1);
    expect(e.message).toBe('HTTP 503 Service Unavailable');
    expect(e.details).toEqual(['busy', 'The server asks to try again in 120 s.', `request: A2 GET ${s.url}/PractitionerRole`]);
  });
});

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

const contractError = (p: Promise<unknown>) => rejectionOf(p, ContractError);

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
    // The last page's request is named in core, for every face.
    expect(e.details).toEqual([
      `${MAX_EMPTY_PAGES} pages read; 0 resources so far. Nothing more was asked for.`,
      `request: A5 GET ${s.url}/page/${MAX_EMPTY_PAGES - 1}`,
    ]);
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

  it('full pages without end stop at the page bound with an IncompleteListError (exit 6) naming it', async () => {
    const s = await stubServer((_q, res, { n }) => bundle(res, [{ id: `r${n}` }], `/p/${n}`));
    const e = await failure(readPages(clientFor(s.url), 'A5', {}, page, 0, { maxPages: 25 }));
    expect(e).toBeInstanceOf(IncompleteListError);
    expect((e as IncompleteListError).exitCode).toBe(ExitCode.contract);
    expect(e.message).toMatch(
      /^The list is incomplete: the server still links a next page after 25 pages \([\d.]+ MB\), and pdesk reads at most 25 pages \(limits\.pages\)\.$/,
    );
    expect((e as IncompleteListError).details).toEqual([
      '25 resources read on 25 pages; nothing more was asked for.',
      'Narrow the search or read fewer resources; raise limits.pages in the profile if lists this long are expected.',
    ]);
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

describe('what every face gets from core', () => {
  it("an answer that breaks the interface names its request in core (the TUI's errors too, not only the CLI's)", async () => {
    const s = await stubServer((_q, res) =>
      res.writeHead(200, { 'content-type': 'application/fhir+json' }).end('{"resourceType":"MedicationRequest","id":"mr-1"}'),
    );
    const e = await contractError(getMedicationRequest(clientFor(s.url), 'mr-1'));
    expect(e.details).toContain(`request: M2 GET ${s.url}/MedicationRequest/mr-1`);
  });

  for (const kind of ['http', 'pool'] as const)
    it(`the profile's limits.responseMB bounds its answers on a transport another client made (${kind})`, async () => {
      const big = 'x'.repeat(200 * 1024);
      const s = await stubServer((_q, res) => res.writeHead(200, { 'content-type': 'application/fhir+json' }).end(`{"a":"${big}"}`));
      const shared = closeAfterEach(kind === 'http' ? new HttpTransport() : new PoolTransport());
      const profile = validateProfile(
        {
          name: 't',
          namespaces: { portal: 'p', practice: 'q' },
          practice: { baseUrl: s.url },
          portal: { baseUrl: s.url },
          limits: { responseMB: 0.1 },
        },
        'test',
      );
      const e = await failure(new PdeskClient(profile, { transport: shared }).call('A2'));
      expect(e).toBeInstanceOf(TooLargeError);
      expect(e.message).toContain('is larger than 0.1 MB, the most pdesk reads in one answer (limits.responseMB)');
      // The transport's own default still holds for a client whose profile sets none.
      const plain = clientFor(s.url, { transport: shared });
      expect((await plain.call('A2')).status).toBe(200);
    });
});
