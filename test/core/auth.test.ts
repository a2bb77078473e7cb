/**
 * Authentication (src/core/auth.ts) through the client over real HTTP to a tiny node:http server on port 0: each
 * auth kind (bearer, basic, OAuth2 client credentials with a secret or a private key).
 */
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PdeskClient, type RequestDescription } from '../../src/core/client.js';
import { DryRunStop } from '../../src/core/client/dry-run.js';
import { ConfigError, ExitCode, type PdeskError } from '../../src/core/errors.js';
import { validateProfile } from '../../src/core/profile/schema.js';
import { closeAfterEach, stubServer } from '../helpers/http.js';
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

describe('oauth2-client-credentials', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-auth-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A token endpoint at /token and a FHIR endpoint answering an empty Bundle; records every request. */
  async function oauthServer(token: (form: URLSearchParams, res: ServerResponse) => void) {
    const seen: Array<{ url: string; authorization?: string; form?: URLSearchParams }> = [];
    const s = await stubServer((req, res, { body }) => {
      if (req.url === '/token') {
        const form = new URLSearchParams(body);
        seen.push({ url: req.url, form });
        return token(form, res);
      }
      seen.push({ url: req.url!, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      res.end(JSON.stringify({ resourceType: 'Bundle', type: 'searchset', entry: [] }));
    });
    return { ...s, seen };
  }
  const grant = (access_token: string) => (_f: URLSearchParams, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token, token_type: 'Bearer', expires_in: 3600 }));
  };

  it('with a client secret: one token request, the token cached for the next calls', async () => {
    process.env.PDESK_TEST_OAUTH_SECRET = 'client-secret-31337';
    const s = await oauthServer(grant('access-token-1'));
    const c = client(s.url, {
      auth: {
        type: 'oauth2-client-credentials',
        tokenUrl: `${s.url}/token`,
        clientId: 'desk',
        clientSecretEnv: 'PDESK_TEST_OAUTH_SECRET',
        scope: 'system/*.read',
      },
    });
    await c.call('A2');
    await c.call('A5');
    expect(s.seen.map((r) => r.url)).toEqual(['/token', '/PractitionerRole', '/Appointment']);
    expect(Object.fromEntries(s.seen[0]!.form!)).toEqual({
      grant_type: 'client_credentials',
      client_id: 'desk',
      scope: 'system/*.read',
      client_secret: 'client-secret-31337',
    });
    expect(s.seen[1]!.authorization).toBe('Bearer access-token-1');
    expect(s.seen[2]!.authorization).toBe('Bearer access-token-1');
  });

  it('concurrent first calls (a bulk send) share one token request', async () => {
    process.env.PDESK_TEST_OAUTH_SECRET4 = 'client-secret-6809';
    const s = await oauthServer((form, res) => setTimeout(() => grant('access-token-shared')(form, res), 50));
    const c = client(s.url, {
      auth: {
        type: 'oauth2-client-credentials',
        tokenUrl: `${s.url}/token`,
        clientId: 'bulk',
        clientSecretEnv: 'PDESK_TEST_OAUTH_SECRET4',
      },
    });
    await Promise.all(Array.from({ length: 8 }, () => c.call('A2')));
    expect(s.seen.filter((r) => r.url === '/token')).toHaveLength(1);
    expect(s.seen.filter((r) => r.authorization === 'Bearer access-token-shared')).toHaveLength(8);
  });

  it('--dry-run sends no token request (the header shows as Bearer ***); a read a write depends on gets a token', async () => {
    process.env.PDESK_TEST_OAUTH_SECRET5 = 'client-secret-z80';
    const s = await oauthServer(grant('access-token-dry'));
    const profile = validateProfile(
      {
        name: 't',
        namespaces: { portal: 'p', practice: 'q' },
        practice: {
          baseUrl: s.url,
          auth: {
            type: 'oauth2-client-credentials',
            tokenUrl: `${s.url}/token`,
            clientId: 'dry',
            clientSecretEnv: 'PDESK_TEST_OAUTH_SECRET5',
          },
        },
        portal: { baseUrl: s.url },
      },
      'test',
    );
    const seen: RequestDescription[] = [];
    const c = new PdeskClient(profile, { dryRun: true, onDryRun: (r) => seen.push(r) });
    closeAfterEach(c);
    const stop = await dryRunStop(c.call('M3', { body: { resourceType: 'MedicationRequest' } }));
    expect(seen).toEqual([stop.request]);
    expect(stop.request.headers.authorization).toBe('Bearer ***');
    expect(s.seen).toEqual([]);
    await c.call('M2', { params: { id: 'mr-1' }, readForWrite: true });
    expect(s.seen.map((r) => r.url)).toEqual(['/token', '/MedicationRequest/mr-1']);
    expect(s.seen[1]!.authorization).toBe('Bearer access-token-dry');
  });

  it('with a private key: an RS256 client assertion for the token URL, signed by that key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(dir, 'client.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const s = await oauthServer(grant('access-token-2'));
    await client(s.url, {
      auth: { type: 'oauth2-client-credentials', tokenUrl: `${s.url}/token`, clientId: 'desk-jwt', privateKeyFile: keyFile },
    }).call('A2');
    const form = s.seen[0]!.form!;
    expect(form.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    expect(form.get('client_secret')).toBeNull();
    const [h, p, sig] = form.get('client_assertion')!.split('.');
    expect(createVerify('RSA-SHA256').update(`${h}.${p}`).verify(publicKey, Buffer.from(sig!, 'base64url'))).toBe(true);
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    expect(claims).toMatchObject({ iss: 'desk-jwt', sub: 'desk-jwt', aud: `${s.url}/token` });
    expect(claims.exp - claims.iat).toBe(300);
    expect(s.seen[1]!.authorization).toBe('Bearer access-token-2');
  });

  it("a refused token request gives the server's reason, with the secret it quotes redacted (exit 3)", async () => {
    process.env.PDESK_TEST_OAUTH_SECRET2 = 'client-secret-8086';
    const s = await oauthServer((form, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_client', error_description: `unknown secret ${form.get('client_secret')}` }));
    });
    const e = (await failure(
      client(s.url, {
        auth: {
          type: 'oauth2-client-credentials',
          tokenUrl: `${s.url}/token`,
          clientId: 'desk',
          clientSecretEnv: 'PDESK_TEST_OAUTH_SECRET2',
        },
      }).call('A2'),
    )) as PdeskError;
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toBe('The OAuth2 token request for practice failed: HTTP 401 Unauthorized.');
    expect(e.details).toEqual(['invalid_client: unknown secret ***', `token URL: ${s.url}/token`]);
    expect(s.seen.map((r) => r.url)).toEqual(['/token']);
  });

  it('a token server answering 5xx is a server error (exit 5), its text excerpted', async () => {
    process.env.PDESK_TEST_OAUTH_SECRET3 = 'client-secret-6502';
    const s = await oauthServer((_f, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('maintenance\u001b[31m until noon');
    });
    const e = (await failure(
      client(s.url, {
        auth: {
          type: 'oauth2-client-credentials',
          tokenUrl: `${s.url}/token`,
          clientId: 'desk',
          clientSecretEnv: 'PDESK_TEST_OAUTH_SECRET3',
        },
      }).call('A2'),
    )) as PdeskError;
    expect(e.exitCode).toBe(ExitCode.server);
    expect(e.details[0]).toBe('maintenance until noon');
  });
});

describe('bearer and basic', () => {
  /** A server answering an empty Bundle; records each Authorization header. */
  async function authServer() {
    const seen: Array<string | undefined> = [];
    const s = await stubServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      res.end(JSON.stringify({ resourceType: 'Bundle', entry: [] }));
    });
    return { ...s, seen };
  }

  it('bearer from an environment variable, a command (run once) and the profile; basic from a variable', async () => {
    const s = await authServer();
    process.env.PDESK_TEST_BEARER = 'env-token-1';
    process.env.PDESK_TEST_PASSWORD = 'pass word';
    await client(s.url, { auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_BEARER' } }).call('A2');
    const byCommand = client(s.url, { auth: { type: 'bearer', tokenCommand: 'echo cmd-token-$$' } });
    await byCommand.call('A2');
    await byCommand.call('A2');
    await client(s.url, { auth: { type: 'bearer', token: 'stored-token-1' } }).call('A2');
    await client(s.url, { auth: { type: 'basic', username: 'desk', passwordEnv: 'PDESK_TEST_PASSWORD' } }).call('A2');
    expect(s.seen[0]).toBe('Bearer env-token-1');
    expect(s.seen[1]).toMatch(/^Bearer cmd-token-\d+$/);
    expect(s.seen[2]).toBe(s.seen[1]);
    expect(s.seen[3]).toBe('Bearer stored-token-1');
    expect(s.seen[4]).toBe(`Basic ${Buffer.from('desk:pass word').toString('base64')}`);
  });

  it('a line break at the end of a variable (a token file with CRLF) is not part of the secret', async () => {
    const s = await authServer();
    process.env.PDESK_TEST_BEARER_CRLF = 'crlf-token-1\r\n';
    process.env.PDESK_TEST_PASSWORD_CRLF = 'crlf-password\r\n';
    await client(s.url, { auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_BEARER_CRLF' } }).call('A2');
    await client(s.url, { auth: { type: 'basic', username: 'desk', passwordEnv: 'PDESK_TEST_PASSWORD_CRLF' } }).call('A2');
    expect(s.seen).toEqual(['Bearer crlf-token-1', `Basic ${Buffer.from('desk:crlf-password').toString('base64')}`]);
  });

  it('a bearer token a header cannot carry is a configuration error naming the setting, not the value (nothing sent)', async () => {
    const s = await authServer();
    const e = (await failure(client(s.url, { auth: { type: 'bearer', token: 'stored\nX-Injected: 1' } }).call('A2'))) as PdeskError;
    expect(e).toBeInstanceOf(ConfigError);
    expect([e.message, ...e.details]).toEqual([
      'The practice bearer token contains a space, line break or control character.',
      'Check the token stored in the profile.',
    ]);
    expect(s.seen).toEqual([]);
  });

  it('an unset variable and a failing token command are configuration errors that print no secret', async () => {
    delete process.env.PDESK_TEST_UNSET;
    const unset = (await failure(
      client('http://127.0.0.1:9', { auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_UNSET' } }).call('A2'),
    )) as PdeskError;
    expect(unset.exitCode).toBe(ExitCode.config);
    expect(unset.message).toBe('The environment variable PDESK_TEST_UNSET (practice bearer token) is not set.');
    const failed = (await failure(
      client('http://127.0.0.1:9', { auth: { type: 'bearer', tokenCommand: 'T=half; echo $T-printed-token-77; exit 3' } }).call('A2'),
    )) as PdeskError;
    expect(failed.exitCode).toBe(ExitCode.config);
    expect(failed.message).toBe('The token command for practice bearer token failed with exit code 3.');
    expect(JSON.stringify(failed.details)).not.toContain('half-printed-token-77');
  });
});

describe('oauth2 with a private key file that cannot sign', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['not a PEM at all', () => 'hello'],
    ['an EC key', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()],
  ])('%s is a configuration error naming the file; no token request is sent', async (_what, pem) => {
    const file = join(dir, `${_what.replace(/\W/g, '-')}.pem`);
    writeFileSync(file, pem());
    let tokenRequests = 0;
    const s = await stubServer((_q, res) => {
      tokenRequests++;
      res.writeHead(500).end();
    });
    const e = (await failure(
      client(s.url, {
        auth: { type: 'oauth2-client-credentials', tokenUrl: `${s.url}/token`, clientId: 'desk', privateKeyFile: file },
      }).call('A2'),
    )) as PdeskError;
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toBe(`The private key file ${file} (practice OAuth2) cannot sign an RS256 client assertion.`);
    expect(e.details[0]).toMatch(/It must hold an RSA private key in PEM\.$/);
    expect(tokenRequests).toBe(0);
  });
});
