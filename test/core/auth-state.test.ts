/**
 * A profile's authentication state (src/core/auth-state.ts): per party the kind, where the secret comes from,
 * whether it resolves, an OAuth2 token's expiry and scopes (from a token endpoint on port 0), a client
 * certificate's expiry (made with openssl); nothing secret in any of it. And `accessToken`, the one way a token
 * is handed out.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessToken, authState } from '../../src/core/auth-state.js';
import { forgetTokens } from '../../src/core/auth.js';
import { ConfigError } from '../../src/core/errors.js';
import { Profile } from '../../src/core/profile/schema.js';
import { tempDir } from '../helpers/config.js';
import { stubServer } from '../helpers/http.js';

const base = (practice: Record<string, unknown>, portal: Record<string, unknown> = {}) =>
  Profile.parse({
    name: 'acme',
    environment: 'production',
    namespaces: { portal: 'portal.test', practice: 'practice.test' },
    practice: { baseUrl: 'https://practice.test/fhir', ...practice },
    portal: { baseUrl: 'https://portal.test', ...portal },
  });

describe('authState', () => {
  it('bearer from a variable, basic with a stored password: where each comes from and that it resolves, nothing secret', async () => {
    const p = base(
      { auth: { type: 'bearer', tokenEnv: 'ACME_TOKEN' } },
      { auth: { type: 'basic', username: 'desk', password: 'stored-password-5150' } },
    );
    const s = await authState(p, { env: { ACME_TOKEN: 'bearer-value-8086' } });
    expect(s).toEqual({
      profile: 'acme',
      environment: 'production',
      parties: [
        {
          party: 'practice',
          baseUrl: 'https://practice.test/fhir',
          type: 'bearer',
          source: 'environment variable ACME_TOKEN',
          resolves: true,
        },
        {
          party: 'portal',
          baseUrl: 'https://portal.test',
          type: 'basic',
          username: 'desk',
          source: 'password in the profile file',
          resolves: true,
        },
      ],
    });
    expect(JSON.stringify(s)).not.toMatch(/bearer-value-8086|stored-password-5150/);
  });

  it('a secret that does not resolve says why', async () => {
    const s = await authState(base({ auth: { type: 'bearer', tokenCommand: 'exit 3' } }), { env: {} });
    expect(s.parties[0]).toMatchObject({
      resolves: false,
      source: 'command exit 3',
      problem: 'The token command for practice bearer token failed with exit code 3.',
    });
    expect(s.parties[1]).toEqual({ party: 'portal', baseUrl: 'https://portal.test', type: 'none', resolves: true });
  });

  it('OAuth2: the token is requested, its expiry and the scopes granted are shown; offline (--dry-run) none is requested', async () => {
    forgetTokens();
    const stub = await stubServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'oauth-access-2600', expires_in: 3600, scope: 'system/*.read system/Appointment.write' }));
    });
    const p = base({
      auth: {
        type: 'oauth2-client-credentials',
        tokenUrl: `${stub.url}/token`,
        clientId: 'desk',
        clientSecretEnv: 'ACME_SECRET',
        scope: 'system/*.read',
      },
    });
    const now = Date.now();
    const s = await authState(p, { env: { ACME_SECRET: 'client-secret-1337' }, now });
    const t = s.parties[0]!.token!;
    expect(t.scopes).toEqual(['system/*.read', 'system/Appointment.write']);
    expect(t.expiresInS).toBeGreaterThan(3590);
    expect(t.expiresInS).toBeLessThanOrEqual(3600);
    expect(Date.parse(t.expiresAt!)).toBeGreaterThan(now);
    expect(JSON.stringify(s)).not.toMatch(/oauth-access-2600|client-secret-1337/);
    const offline = await authState(p, { env: { ACME_SECRET: 'x' }, offline: true });
    expect(offline.parties[0]).toMatchObject({
      resolves: true,
      problem: 'no token was requested (a dry run)',
      token: { scopes: ['system/*.read'] },
    });
    expect(stub.received).toHaveLength(1);
    forgetTokens();
  });

  it("TLS: the client certificate's subject and expiry; an unreadable one says so", async () => {
    const dir = tempDir();
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'c.key', '-out', 'c.pem', '-days', '10', '-subj', '/CN=desk-client'],
      {
        cwd: dir,
        stdio: 'ignore',
      },
    );
    const s = await authState(
      base({ tls: { certFile: join(dir, 'c.pem'), keyFile: join(dir, 'c.key') } }, { tls: { certFile: join(dir, 'none.pem') } }),
    );
    expect(s.parties[0]!.tls).toMatchObject({ certFile: join(dir, 'c.pem'), subject: 'CN=desk-client' });
    expect([9, 10]).toContain(s.parties[0]!.tls!.daysLeft);
    expect(s.parties[1]!.tls!.problem).toBe(`Cannot read the client certificate file ${join(dir, 'none.pem')}: ENOENT.`);
  });
});

describe('accessToken', () => {
  it('a bearer token or an OAuth2 access token; none and basic have none (exit 3)', async () => {
    forgetTokens();
    expect(await accessToken(base({ auth: { type: 'bearer', tokenEnv: 'T' } }), 'practice', { env: { T: 'bearer-1234' } })).toBe(
      'bearer-1234',
    );
    const stub = await stubServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'oauth-9999', expires_in: 60 }));
    });
    const p = base({}, { auth: { type: 'oauth2-client-credentials', tokenUrl: `${stub.url}/t`, clientId: 'c', clientSecretEnv: 'S' } });
    expect(await accessToken(p, 'portal', { env: { S: 'secret-x' } })).toBe('oauth-9999');
    await expect(accessToken(p, 'practice')).rejects.toThrow(
      new ConfigError('The practice system of profile "acme" uses no authentication: there is no token to print.'),
    );
    const basic = base({ auth: { type: 'basic', username: 'u', passwordEnv: 'P' } });
    await expect(accessToken(basic, 'practice', { env: { P: 'pw-12345' } })).rejects.toThrow(
      'The practice system of profile "acme" uses basic authentication: there is no token to print.',
    );
    forgetTokens();
  });
});
