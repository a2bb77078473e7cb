/**
 * pdesk doctor in process: a healthy sandbox profile; an unset secret variable; TLS certificates made with
 * openssl (valid, expiring within 30 days, expired) on HTTPS stubs, one of which sends a Date header five
 * minutes ahead; an OAuth2 token that lives 30 s from a key file others can read; an invalid profile; a torn
 * thread store and a journal with an uncertain row.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type DoctorReport, runDoctor } from '../../../src/core/doctor/index.js';
import type { ProfileInput } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';
import { makeCertificates } from '../../helpers/certs.js';
import { listening, stubServer } from '../../helpers/http.js';
import { medplumPeerForFile } from '../../helpers/medplum/peer.js';

const dir = mkdtempSync(join(tmpdir(), 'pdesk-doctor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string) => join(dir, name);
const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const step = (r: DoctorReport, id: string) => {
  const s = r.results.find((x) => x.id === id);
  if (!s) throw new Error(`no step ${id}`);
  return s;
};
const texts = (r: DoctorReport, id: string, type?: string) =>
  step(r, id)
    .messages.filter((m) => !type || m.type === type)
    .map((m) => m.text);

function configDir(): string {
  return mkdtempSync(join(dir, 'config-'));
}

describe('a healthy profile', () => {
  test('the sandbox: every step passes or is omitted (plain HTTP, no OAuth2); only GET is sent', async () => {
    sb = await startSandbox({ port: 0 });
    const raw = sandboxProfile(sb.url);
    const seen: string[] = [];
    const r = await runDoctor({ name: 'sandbox', raw, configDir: configDir(), onResult: (x) => seen.push(x.id) });
    expect(r.results.map((x) => x.id)).toEqual(seen);
    expect(r.summary).toEqual({ pass: 12, fail: 0, error: 0, skip: 0, omit: 4 });
    expect(r.results.filter((x) => x.result === 'omit').map((x) => x.id)).toEqual([
      'practice-tls',
      'practice-token',
      'portal-tls',
      'portal-token',
    ]);
    expect(texts(r, 'practice-roundtrip')).toEqual([expect.stringMatching(/^A2 answered HTTP 200 OK in \d+ ms\.$/)]);
    expect(texts(r, 'practice-clock')).toEqual(["the server's clock is within 1 s of this machine's."]);
    expect(texts(r, 'portal-roundtrip')[0]).toMatch(
      /^the base URL answered HTTP 404 Not Found in \d+ ms \(the portal has no GET operation/,
    );
    expect(new Set(sb.received.map((q) => q.method))).toEqual(new Set(['GET']));
  });
});

describe('a round trip judges the answer as the commands do (a hostile practice system)', () => {
  /** A practice system whose A2 answers with `send`, and a portal that answers 404. */
  async function practice(send: Parameters<typeof stubServer>[0]) {
    const s = await stubServer((req, res, info) => {
      if (req.url!.startsWith('/portal')) return void res.writeHead(404).end();
      send(req, res, info);
    });
    return { s, raw: { ...sandboxProfile(s.url), practice: { baseUrl: `${s.url}/practice` }, portal: { baseUrl: `${s.url}/portal` } } };
  }
  const json = (text: string) => (_q: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/fhir+json' });
    res.end(text);
  };

  test.each([
    [
      'an empty 200',
      json(''),
      /^A2 answered HTTP 200 OK in \d+ ms, but the answer has no body: every command that reads A2 would fail \(exit 6\)\.$/,
    ],
    [
      'null',
      json('null'),
      /^A2 answered HTTP 200 OK in \d+ ms, but the server's answer does not match the interface at \$: .* Every command that reads A2 would fail \(exit 6\)\.$/,
    ],
    [
      'a Patient',
      json('{"resourceType":"Patient","id":"p1"}'),
      /^A2 answered HTTP 200 OK in \d+ ms, but the server's answer does not match the interface at \$\.resourceType: .*Bundle/,
    ],
    [
      'a Bundle of Patients',
      json('{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Patient"}}]}'),
      /does not match the interface at \$\.entry\[0\]\.resource/,
    ],
    [
      '100,000-deep arrays',
      json(`{"resourceType":"Bundle","entry":[],"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
      /^A2 answered in \d+ ms, but the server's answer does not match the interface at \$\.deep\[0\]\[0\]\[0\]\[0\]\[0\]…\[0\]: the value is nested more than 1000 levels deep \(pdesk reads at most 1000\)\. Every command that reads A2 would fail \(exit 6\)\.$/,
    ],
  ])('%s fails practice-roundtrip', async (_what, send, text) => {
    const { raw } = await practice(send);
    const r = await runDoctor({ name: 'hostile', raw, configDir: configDir() });
    expect(step(r, 'practice-roundtrip').result).toBe('fail');
    expect(texts(r, 'practice-roundtrip', 'error')).toEqual([expect.stringMatching(text)]);
  });

  test('a redirect loop, or redirects without end, fail practice-roundtrip naming where they point', async () => {
    const loop = await practice((req, res) => res.writeHead(302, { location: req.url! }).end());
    const r = await runDoctor({ name: 'hostile', raw: loop.raw, configDir: configDir() });
    expect(step(r, 'practice-roundtrip').result).toBe('fail');
    const at = `${loop.s.url}/practice/PractitionerRole`;
    expect(texts(r, 'practice-roundtrip', 'error')).toEqual([`A2 (GET /PractitionerRole) is redirected in a loop (${at} → ${at}).`]);

    // /PractitionerRole → /PractitionerRole/1 → /PractitionerRole/2 → …
    const endless = await practice((req, res) => {
      const n = Number(/\/(\d+)$/.exec(req.url!)?.[1] ?? 0);
      res.writeHead(307, { location: `/practice/PractitionerRole/${n + 1}` }).end();
    });
    const r2 = await runDoctor({ name: 'hostile', raw: endless.raw, configDir: configDir() });
    expect(texts(r2, 'practice-roundtrip', 'error')).toEqual([
      `A2 (GET /PractitionerRole) was redirected more than 5 times; pdesk stopped at ${endless.s.url}/practice/PractitionerRole/6.`,
    ]);
    expect(endless.s.received.filter((q) => q.url.startsWith('/practice'))).toHaveLength(6);
  });

  test('an answer over the size bound is reported as too large, naming the bound and the setting, not as "Cannot reach"', async () => {
    const { raw } = await practice(json(`{"resourceType":"Bundle","entry":[],"x":"${'x'.repeat(2 * 1024 * 1024)}"}`));
    const r = await runDoctor({ name: 'hostile', raw: { ...raw, limits: { responseMB: 1 } }, configDir: configDir() });
    expect(texts(r, 'practice-roundtrip', 'error')).toEqual([
      expect.stringMatching(
        /^The answer from http:\/\/127\.0\.0\.1:\d+ is larger than 1 MB, the most pdesk reads in one answer \(limits\.responseMB\)\.$/,
      ),
    ]);
  });

  test("a portal 5xx is named as the portal's base URL, not as A2", async () => {
    const s = await stubServer((req, res) => {
      if (req.url!.startsWith('/portal')) return void res.writeHead(500).end();
      json('{"resourceType":"Bundle","entry":[]}')(req, res);
    });
    const raw = { ...sandboxProfile(s.url), practice: { baseUrl: `${s.url}/practice` }, portal: { baseUrl: `${s.url}/portal` } };
    const r = await runDoctor({ name: 'hostile', raw, configDir: configDir() });
    expect(step(r, 'practice-roundtrip').result).toBe('pass');
    expect(texts(r, 'portal-roundtrip', 'error')).toEqual(["the portal's base URL answered HTTP 500 Internal Server Error."]);
  });
});

describe('a base URL that redirects (the Medplum peer)', () => {
  const mp = medplumPeerForFile();
  test.each(['trailing-slash', 'moved'] as const)(
    '%s: the round trip fails naming the target and the setting, though reads follow it',
    async (to) => {
      const { peer } = mp;
      peer.set({
        redirect: { status: 301, to: to === 'moved' ? { base: peer.movedUrl.practice } : 'trailing-slash', path: /^\/practice\// },
      });
      const r = await runDoctor({ name: 'medplum', raw: peer.profile(), configDir: configDir() });
      expect(step(r, 'practice-roundtrip').result).toBe('fail');
      const [error] = texts(r, 'practice-roundtrip', 'error');
      const target = to === 'moved' ? `${peer.movedUrl.practice}/PractitionerRole` : `${peer.practiceUrl}/PractitionerRole/`;
      expect(error).toBe(
        `the practice system's base URL redirects: GET ${peer.practiceUrl}/PractitionerRole answered HTTP 301 Moved Permanently pointing to ${target}. Reads follow it, but a write there is not done: ${
          to === 'moved'
            ? `set practice.baseUrl in profile "medplum" to ${peer.movedUrl.practice}`
            : 'set routes.A2.path in profile "medplum" to "/PractitionerRole/"'
        }.`,
      );
      expect(step(r, 'portal-roundtrip').result).toBe('pass');
    },
  );

  test('a redirect to another origin fails naming it; the portal answers', async () => {
    const { peer } = mp;
    peer.set({ redirect: { status: 308, to: { origin: peer.localhostOrigin }, path: /^\/practice\// } });
    const r = await runDoctor({ name: 'medplum', raw: peer.profile(), configDir: configDir() });
    expect(texts(r, 'practice-roundtrip', 'error')).toEqual([
      expect.stringContaining(
        `was redirected to ${peer.localhostOrigin}/practice/fhir/R4/PractitionerRole (HTTP 308 Permanent Redirect), another origin`,
      ),
    ]);
    expect(peer.requests.every((q) => q.origin === peer.origin)).toBe(true);
  });

  test('a healthy Medplum peer passes both round trips', async () => {
    const r = await runDoctor({ name: 'medplum', raw: mp.peer.profile(), configDir: configDir() });
    expect(step(r, 'practice-roundtrip').result).toBe('pass');
    expect(step(r, 'portal-roundtrip').result).toBe('pass');
  });
});

test('an unset secret variable fails the secrets step naming it', async () => {
  sb = await startSandbox({ port: 0 });
  delete process.env.PDESK_TEST_DOCTOR_UNSET;
  const raw = {
    ...sandboxProfile(sb.url),
    practice: { baseUrl: `${sb.url}/practice`, auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_DOCTOR_UNSET' } },
  };
  const r = await runDoctor({ name: 'sandbox', raw, configDir: configDir() });
  expect(step(r, 'secrets').result).toBe('fail');
  expect(texts(r, 'secrets', 'error')).toEqual([
    'practice system: The environment variable PDESK_TEST_DOCTOR_UNSET (practice bearer token) is not set.',
  ]);
  expect(step(r, 'practice-roundtrip').result).toBe('fail');
  expect(step(r, 'portal-roundtrip').result).toBe('pass');
});

test('an invalid profile fails the first step and every step that needs it is skipped', async () => {
  const r = await runDoctor({ name: 'broken', raw: { name: 'broken', namespaces: { portal: 'p' } }, configDir: configDir() });
  expect(step(r, 'profile').result).toBe('fail');
  expect(texts(r, 'profile')[0]).toMatch(/^Invalid profile in profile "broken" at \$\.namespaces\.practice/);
  const skipped = r.results.filter((x) => x.result === 'skip');
  expect(skipped).toHaveLength(13);
  expect(skipped.every((x) => x.messages[0]!.text === 'needs a valid profile')).toBe(true);
  expect(step(r, 'thread-store').result).toBe('pass');
});

describe('TLS certificates and the clock (HTTPS stubs, openssl-made certificates)', () => {
  beforeAll(() => {
    makeCertificates(dir, { subject: '/CN=pdesk doctor test CA', days: 400 }, [
      { name: 'valid', subject: '/CN=127.0.0.1/O=valid', days: 365, altName: 'IP:127.0.0.1' },
      { name: 'soon', subject: '/CN=127.0.0.1/O=soon', days: 10, altName: 'IP:127.0.0.1' },
      { name: 'expired', subject: '/CN=127.0.0.1/O=expired', days: -1, altName: 'IP:127.0.0.1' },
    ]);
  });

  /** An HTTPS practice system and portal with the named certificate; its Date header `skewMs` off ours. */
  async function httpsStub(cert: string, skewMs = 0): Promise<string> {
    const server = createHttpsServer({ key: readFileSync(f(`${cert}.key`)), cert: readFileSync(f(`${cert}.pem`)) }, (req, res) => {
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'application/fhir+json', date: new Date(Date.now() + skewMs).toUTCString() });
        res.end('{"resourceType":"Bundle","type":"searchset","entry":[]}');
      });
    });
    return listening(server, 'https');
  }
  const profile = (url: string): ProfileInput => ({
    ...sandboxProfile(url),
    practice: { baseUrl: `${url}/practice`, tls: { caFile: f('ca.pem') } },
    portal: { baseUrl: `${url}/portal`, tls: { caFile: f('ca.pem') } },
  });

  test('a valid certificate passes with its subject and days left; a server clock 5 minutes ahead is a warning', async () => {
    const url = await httpsStub('valid', 300_000);
    const r = await runDoctor({ name: 'tls', raw: profile(url), configDir: configDir() });
    expect(step(r, 'practice-tls').result).toBe('pass');
    expect(texts(r, 'practice-tls')[0]).toMatch(
      /^certificate of 127\.0\.0\.1:\d+: subject CN=127\.0\.0\.1, O=valid, issuer CN=pdesk doctor test CA, valid until \d{4}-/,
    );
    expect(texts(r, 'practice-tls')[1]).toMatch(/^the certificate of 127\.0\.0\.1:\d+ expires in 36[45] days\.$/);
    expect(texts(r, 'practice-tls', 'warning')).toEqual([]);
    expect(step(r, 'practice-roundtrip').result).toBe('pass');
    expect(step(r, 'practice-clock').result).toBe('pass');
    expect(texts(r, 'practice-clock', 'warning')).toEqual([
      expect.stringMatching(
        /^the server's clock is (299|300|301) s ahead of this machine's: date searches shift, and signed tokens \(JWT\)/,
      ),
    ]);
  });

  test('a server clock within a minute is fine', async () => {
    const url = await httpsStub('valid', -20_000);
    const r = await runDoctor({ name: 'tls', raw: profile(url), configDir: configDir() });
    expect(texts(r, 'practice-clock')).toEqual([expect.stringMatching(/^the server's clock is within (19|20|21) s of this machine's\.$/)]);
  });

  test('a certificate expiring within 30 days is a warning', async () => {
    const url = await httpsStub('soon');
    const r = await runDoctor({ name: 'tls', raw: profile(url), configDir: configDir() });
    expect(step(r, 'practice-tls').result).toBe('pass');
    expect(texts(r, 'practice-tls', 'warning')).toEqual([
      expect.stringMatching(/^the certificate of 127\.0\.0\.1:\d+ expires in (9|10) days \(\d{4}-\d{2}-\d{2}\)\.$/),
    ]);
  });

  test('an expired certificate fails, and so does the round trip pdesk refuses to make over it', async () => {
    const url = await httpsStub('expired');
    const r = await runDoctor({ name: 'tls', raw: profile(url), configDir: configDir() });
    expect(step(r, 'practice-tls').result).toBe('fail');
    expect(texts(r, 'practice-tls', 'error')).toEqual([expect.stringMatching(/^the certificate of 127\.0\.0\.1:\d+ expired 1 day ago\.$/)]);
    expect(step(r, 'practice-roundtrip').result).toBe('fail');
    expect(step(r, 'practice-clock').result).toBe('skip');
  });

  test('an https URL of a server that speaks plain HTTP: the handshake failure in a sentence, not a bare code', async () => {
    const stub = await stubServer((_q, res) => res.writeHead(200).end('{}'));
    const url = stub.url.replace('http://', 'https://');
    const r = await runDoctor({ name: 'tls', raw: profile(url), configDir: configDir() });
    expect(step(r, 'practice-tls').result).toBe('fail');
    expect(texts(r, 'practice-tls', 'error')).toEqual([`${url} does not speak TLS: is the URL http://${new URL(url).host}?`]);
  });

  test('a certificate from a CA the profile does not name is not trusted', async () => {
    const url = await httpsStub('valid');
    const raw = { ...sandboxProfile(url), practice: { baseUrl: `${url}/practice` }, portal: { baseUrl: `${url}/portal` } };
    const r = await runDoctor({ name: 'tls', raw, configDir: configDir() });
    expect(texts(r, 'practice-tls', 'error')).toEqual([
      expect.stringMatching(/is not trusted: UNABLE_TO_VERIFY_LEAF_SIGNATURE \(a private CA goes in the profile as tls\.caFile\)\.$/),
    ]);
  });
});

test('an OAuth2 token is obtained and its short lifetime is a warning; a private key others can read is a warning', async () => {
  ssl('genrsa', '-out', 'oauth.key', '2048');
  chmodSync(f('oauth.key'), 0o644);
  const stub = await stubServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url === '/token' ? '{"access_token":"doctor-token-123456","expires_in":30}' : '{"resourceType":"Bundle","entry":[]}');
  });
  const raw = {
    ...sandboxProfile(stub.url),
    practice: {
      baseUrl: `${stub.url}/practice`,
      auth: { type: 'oauth2-client-credentials', tokenUrl: `${stub.url}/token`, clientId: 'desk', privateKeyFile: f('oauth.key') },
    },
  };
  const r = await runDoctor({ name: 'oauth', raw, configDir: configDir() });
  expect(step(r, 'practice-token').result).toBe('pass');
  expect(texts(r, 'practice-token')[0]).toMatch(new RegExp(`^token obtained from ${stub.url}/token in \\d+ ms, valid for (29|30) s\\.$`));
  expect(texts(r, 'practice-token', 'warning')[0]).toMatch(/^the token lives only (29|30) s/);
  expect(texts(r, 'secrets', 'warning')).toEqual([
    `the practice system OAuth2 private key file ${f('oauth.key')} is readable by others (mode 0644): chmod 600 ${f('oauth.key')}.`,
  ]);
  expect(step(r, 'portal-token').result).toBe('omit');
  expect(JSON.stringify(r)).not.toContain('doctor-token-123456');
});

test('a torn thread store and a journal with an uncertain row are warnings; failed rows are noted', async () => {
  sb = await startSandbox({ port: 0 });
  const cfg = configDir();
  mkdirSync(join(cfg, 'threads'));
  writeFileSync(join(cfg, 'threads', 'sandbox.ndjson'), 'not a record\n{"v":1,"kind":"mess');
  mkdirSync(join(cfg, 'journals', 'sandbox'), { recursive: true });
  const header = {
    journal: 'pdesk-notifications',
    version: 1,
    template: 't1',
    emailColumn: 'email',
    csv: '/tmp/x.csv',
    created: '2026-01-01T00:00:00Z',
  };
  const row = (n: number, state: string) =>
    JSON.stringify({ row: n, hash: '0123456789abcdef', state, ...(state === 'ok' ? { status: 201 } : {}) });
  const journal = join(cfg, 'journals', 'sandbox', 'x.csv-1.journal.ndjson');
  writeFileSync(journal, [JSON.stringify(header), row(1, 'sending'), row(2, 'ok'), row(3, 'failed'), ''].join('\n'));
  const r = await runDoctor({ name: 'sandbox', raw: sandboxProfile(sb.url), configDir: cfg });
  expect(step(r, 'thread-store').result).toBe('pass');
  expect(texts(r, 'thread-store', 'warning')).toEqual([
    expect.stringMatching(/line 1 is not a valid record \(not JSON\); skipped\.$/),
    expect.stringMatching(/the last line \(2\) is incomplete, a write torn by a crash and never acknowledged; skipped\.$/),
  ]);
  expect(texts(r, 'journals', 'warning')).toEqual([
    `${journal}: 1 rows may have been sent without an answer recorded; check them with the portal, then rerun the send, resending uncertain rows to send them again.`,
  ]);
  expect(texts(r, 'journals', 'info')).toEqual([`${journal}: 1 rows failed; a rerun of the send tries them again.`]);
  expect(readFileSync(journal, 'utf8').split('\n')).toHaveLength(5); // read only: nothing appended or cut
});
