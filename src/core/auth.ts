/**
 * Authentication per party (decisions.md §11): none, bearer (env, command, stored), basic, and OAuth2 client
 * credentials (client secret or private-key JWT), the token cached until shortly before it expires.
 */
import type { AuthConfig } from './profile/schema.js';
import { readPemFile, secretFromCommand, secretFromEnv, storedSecret } from './profile/secrets.js';
import { ConfigError, ExitCode, NetworkError, PdeskError, excerpt, statusLine } from './errors.js';
import { REDACTED, redact, registerSecret } from './redact.js';
import type { RawResponse, TlsFiles } from './transport.js';
import { createTransport } from './transport-default.js';
import { nodeCrypto } from './builtins.js';

const oauthCache = new Map<string, { token: string; expiresAt: number; scope?: string }>();

function b64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

function clientAssertion(clientId: string, tokenUrl: string, keyPem: string): string {
  // node:crypto on use (core/builtins.ts): only a private-key JWT needs it.
  const { createPrivateKey, createSign, randomUUID } = nodeCrypto();
  const key = createPrivateKey(keyPem);
  if (key.asymmetricKeyType !== 'rsa')
    throw new Error(`it holds a${key.asymmetricKeyType === 'ec' ? 'n' : ''} ${key.asymmetricKeyType} key`);
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const now = Math.floor(Date.now() / 1000);
  const payload = b64url(JSON.stringify({ iss: clientId, sub: clientId, aud: tokenUrl, jti: randomUUID(), iat: now, exp: now + 300 }));
  const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(key);
  return `${header}.${payload}.${b64url(signature)}`;
}

/** `invalid_client: Client authentication failed` from an OAuth2 error body, else a short excerpt of it. */
function oauthReason(text: string): string {
  try {
    const b = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof b?.error === 'string')
      return excerpt(typeof b.error_description === 'string' ? `${b.error}: ${b.error_description}` : b.error);
  } catch {
    /* not JSON */
  }
  return excerpt(text);
}

/** Token requests under way: concurrent calls (a bulk send, the TUI) wait for the same one instead of each asking. */
const oauthPending = new Map<string, Promise<string>>();

type OAuthConfig = Extract<AuthConfig, { type: 'oauth2-client-credentials' }>;

const cacheKey = (auth: OAuthConfig) => `${auth.tokenUrl}|${auth.clientId}|${auth.scope ?? ''}`;

/** When the cached OAuth2 token of `auth` expires (ms since the epoch), if one was obtained: `pdesk doctor` shows its lifetime. */
export function oauthTokenExpiry(auth: OAuthConfig): number | undefined {
  return oauthCache.get(cacheKey(auth))?.expiresAt;
}

/** The scopes the token server granted with the cached token (its `scope`), if it said: `pdesk auth status`. */
export function oauthTokenScope(auth: OAuthConfig): string | undefined {
  return oauthCache.get(cacheKey(auth))?.scope;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Forget every cached OAuth2 token. A one-shot process never needs this; a program run in-process (tests) calls
 * it when the run ends, so no token outlives the run that fetched it.
 */
export function forgetTokens(): void {
  oauthCache.clear();
}

function oauthToken(auth: OAuthConfig, what: string, tls: TlsFiles | undefined, env: Env): Promise<string> {
  const key = cacheKey(auth);
  const cached = oauthCache.get(key);
  if (cached && cached.expiresAt > Date.now() + 30_000) return Promise.resolve(cached.token);
  let pending = oauthPending.get(key);
  if (!pending) {
    pending = requestToken(auth, what, tls, key, env).finally(() => oauthPending.delete(key));
    oauthPending.set(key, pending);
  }
  return pending;
}

async function requestToken(auth: OAuthConfig, what: string, tls: TlsFiles | undefined, key: string, env: Env): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.clientId });
  if (auth.scope) form.set('scope', auth.scope);
  if (auth.clientSecretEnv) form.set('client_secret', secretFromEnv(auth.clientSecretEnv, `${what} client secret`, env));
  else if (auth.privateKeyFile) {
    form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const keyPem = readPemFile(auth.privateKeyFile, 'private key');
    let assertion: string;
    try {
      assertion = clientAssertion(auth.clientId, auth.tokenUrl, keyPem);
    } catch (e) {
      // A certificate, a public key or an EC key where an RSA private key belongs: a setting to fix, not a crash.
      throw new ConfigError(`The private key file ${auth.privateKeyFile} (${what} OAuth2) cannot sign an RS256 client assertion.`, [
        `${(e as Error).message}. It must hold an RSA private key in PEM.`,
      ]);
    }
    form.set('client_assertion', assertion);
  }
  // The party's TLS setting (extra CA, client certificate) applies to its token URL too: a deployment with a
  // private CA usually serves both from it, and a certificate-bound client (RFC 8705) needs its certificate.
  // Through the transport this process chose (a one-shot command then loads no undici), never retried: a POST.
  const transport = createTransport({ requestMs: 30_000, retriesMax: 0 });
  let res: RawResponse;
  try {
    res = await transport.request({
      method: 'POST',
      url: auth.tokenUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      tls,
    });
  } catch (e) {
    throw new NetworkError(`Cannot reach the OAuth2 token URL ${auth.tokenUrl}.`, [redact(String((e as Error).message))]);
  } finally {
    void transport.close();
  }
  const text = res.text;
  if (res.status !== 200) {
    // The server's reason (RFC 6749 §5.2 `error`, `error_description`), else an excerpt; redacted, since it may
    // quote what was sent. A 4xx is the profile's credentials (exit 3), a 5xx the token server (exit 5).
    const details = [redact(oauthReason(text)), `token URL: ${auth.tokenUrl}`].filter(Boolean);
    const message = `The OAuth2 token request for ${what} failed: ${statusLine(res.status)}.`;
    if (res.status >= 500) throw new PdeskError(message, ExitCode.server, details);
    throw new ConfigError(message, details);
  }
  let body: { access_token?: string; expires_in?: number; scope?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ConfigError(`The OAuth2 token answer for ${what} is not JSON.`);
  }
  if (!body.access_token) throw new ConfigError(`The OAuth2 token answer for ${what} has no access_token.`);
  registerSecret(body.access_token);
  oauthCache.set(key, {
    token: body.access_token,
    expiresAt: Date.now() + (body.expires_in ?? 300) * 1000,
    ...(typeof body.scope === 'string' ? { scope: body.scope } : {}),
  });
  return body.access_token;
}

/**
 * The Authorization header for a party's auth config, or none. `offline` (a --dry-run that sends nothing): an
 * OAuth2 token is not requested, and the header shows as `Bearer ***` like any redacted one.
 */
export async function authHeader(
  auth: AuthConfig | undefined,
  what: string,
  tls?: TlsFiles,
  o: { offline?: boolean; env?: Env } = {},
): Promise<string | undefined> {
  const env = o.env ?? process.env;
  if (!auth || auth.type === 'none') return undefined;
  switch (auth.type) {
    case 'bearer': {
      const token = auth.tokenEnv
        ? secretFromEnv(auth.tokenEnv, `${what} bearer token`, env)
        : auth.tokenCommand
          ? secretFromCommand(auth.tokenCommand, `${what} bearer token`, env)
          : storedSecret(auth.token!);
      // A header cannot carry a control character (undici refuses it as if the server were unreachable) and a
      // bearer token has no spaces: say which setting is wrong, without the value.
      if (/[\u0000-\u0020\u007f]/.test(token))
        throw new ConfigError(`The ${what} bearer token contains a space, line break or control character.`, [
          `Check ${auth.tokenEnv ? `the environment variable ${auth.tokenEnv}` : auth.tokenCommand ? `the output of the token command` : 'the token stored in the profile'}.`,
        ]);
      return `Bearer ${token}`;
    }
    case 'basic': {
      const password = auth.passwordEnv ? secretFromEnv(auth.passwordEnv, `${what} password`, env) : storedSecret(auth.password!);
      const encoded = Buffer.from(`${auth.username}:${password}`).toString('base64');
      registerSecret(encoded);
      return `Basic ${encoded}`;
    }
    case 'oauth2-client-credentials':
      return `Bearer ${o.offline ? REDACTED : await oauthToken(auth, what, tls, env)}`;
  }
}
