/**
 * `pdesk auth status [--json]` and `pdesk auth token --party`, in-process, with a profile whose practice system
 * wants a bearer token (the sandbox's, from a variable) and whose portal uses OAuth2 client credentials (a token
 * endpoint on port 0). status shows every party's state and no secret; token prints the secret alone on stdout,
 * and the token it prints is the one the sandbox takes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetTokens } from '../../../src/core/auth.js';
import { type Env, withSandbox, writeProfiles } from '../../helpers/run.js';

const TOKEN = 'auth-cli-bearer-31415';
const SECRET = 'auth-cli-client-secret-2718';
const ACCESS = 'auth-cli-oauth-access-1618';
const vars = { SANDBOX_TOKEN: TOKEN, PORTAL_SECRET: SECRET };
const noSecret = (text: string) => expect(text).not.toMatch(new RegExp(`${TOKEN}|${SECRET}|${ACCESS}`));

let env: Env;
let tokenRequests: () => number;
let closeServer: () => Promise<void>;
beforeAll(async () => {
  env = await withSandbox({ token: TOKEN });
  // A token endpoint for the whole file (the stub helper's servers close after each test).
  let requests = 0;
  const server = createServer((_q, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: ACCESS, expires_in: 3600, scope: 'system/*.read system/Communication.write' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closeServer = () => new Promise<void>((r) => server.close(() => r()));
  tokenRequests = () => requests;
  const tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  writeProfiles(env.configDir, [
    {
      ...env.profile,
      environment: 'staging',
      practice: { baseUrl: `${env.sandbox.url}/practice`, auth: { type: 'bearer', tokenEnv: 'SANDBOX_TOKEN' } },
      portal: {
        baseUrl: `${env.sandbox.url}/portal`,
        auth: { type: 'oauth2-client-credentials', tokenUrl, clientId: 'desk', clientSecretEnv: 'PORTAL_SECRET' },
      },
    },
  ]);
});
afterAll(async () => {
  await env.close();
  await closeServer();
});

describe('pdesk auth status', () => {
  it('per party: the kind, where the secret comes from, that it resolves, the OAuth2 expiry and scopes; nothing secret', async () => {
    forgetTokens();
    const r = await env.run(['auth', 'status'], { env: vars, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Profile sandbox (staging)');
    expect(r.stdout).toContain(
      `practice system  ${env.sandbox.url}/practice\n  auth      bearer\n  secret    environment variable SANDBOX_TOKEN\n  resolves  yes`,
    );
    expect(r.stdout).toContain(`portal  ${env.sandbox.url}/portal\n  auth      oauth2-client-credentials`);
    expect(r.stdout).toMatch(/^ {2}token {5}expires \S+ \(in (59|60) min\); scopes system\/\*\.read system\/Communication\.write$/m);
    noSecret(r.stdout + r.stderr);
  });

  it('--json: the same, as one object', async () => {
    forgetTokens();
    const r = await env.run(['auth', 'status', '--json'], { env: vars });
    expect(r.code, r.stderr).toBe(0);
    const s = r.json();
    expect(s).toMatchObject({
      profile: 'sandbox',
      environment: 'staging',
      parties: [
        { party: 'practice', type: 'bearer', source: 'environment variable SANDBOX_TOKEN', resolves: true },
        {
          party: 'portal',
          type: 'oauth2-client-credentials',
          resolves: true,
          token: { scopes: ['system/*.read', 'system/Communication.write'] },
        },
      ],
    });
    noSecret(r.stdout + r.stderr);
  });

  it('a secret that does not resolve: the state still shown, then exit 3 naming the party; with --dry-run no token is requested', async () => {
    forgetTokens();
    const r = await env.run(['auth', 'status'], { env: { SANDBOX_TOKEN: '', PORTAL_SECRET: SECRET }, tty: true });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('resolves  no');
    expect(r.stderr).toMatch(/^pdesk: The authentication of profile "sandbox" does not resolve for the practice system\.\n/);
    noSecret(r.stdout + r.stderr);
    forgetTokens();
    const before = tokenRequests();
    const dry = await env.run(['auth', 'status', '--dry-run', '--json'], { env: vars });
    expect(dry.json().parties[1]).toMatchObject({ problem: 'no token was requested (a dry run)' });
    expect(tokenRequests()).toBe(before);
  });
});

describe('pdesk auth token', () => {
  it('prints the bearer token alone on stdout, and it is the one the sandbox takes', async () => {
    const r = await env.run(['auth', 'token', '--party', 'practice'], { env: vars });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${TOKEN}\n`);
    expect(r.stderr).toBe('');
    const res = await request(`${env.sandbox.url}/practice/PractitionerRole`, {
      headers: { authorization: `Bearer ${r.stdout.trim()}` },
    });
    await res.body.dump();
    expect(res.statusCode).toBe(200);
  });

  it('prints the OAuth2 access token of the portal', async () => {
    forgetTokens();
    const r = await env.run(['auth', 'token', '--party', 'portal'], { env: vars });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${ACCESS}\n`);
    expect(r.stderr).toBe('');
  });

  it('a bad or missing --party is exit 2; a secret that does not resolve exit 3, printing nothing', async () => {
    const bad = await env.run(['auth', 'token', '--party', 'pharmacy'], { env: vars });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('pdesk: --party must be one of practice, portal, not "pharmacy".\n');
    expect((await env.run(['auth', 'token'], { env: vars })).code).toBe(2);
    const none = await env.run(['auth', 'token', '--party', 'practice'], { env: { SANDBOX_TOKEN: '' } });
    expect(none.code).toBe(3);
    expect(none.stdout).toBe('');
  });
});
