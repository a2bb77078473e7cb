/**
 * The authentication state of a profile, per party (`pdesk auth status`): the kind of authentication, where its
 * secret comes from (a variable's name, a command, the profile file, a key file's path), whether it resolves, for
 * OAuth2 the token's expiry and scopes (a token is requested for that), for TLS the client certificate's expiry.
 * Nothing secret is in it. `accessToken` is the one function that hands a token out (`pdesk auth token`).
 */
import { X509Certificate } from 'node:crypto';
import type { AuthConfig, Profile, TlsConfig } from './profile/schema.js';
import { readPemFile, secretFromCommand, secretFromEnv, storedSecret } from './profile/secrets.js';
import { authHeader, oauthTokenExpiry, oauthTokenScope } from './auth.js';
import { ConfigError, PdeskError, UsageError } from './errors.js';
import type { Party } from './ops.js';
import { baseUrlFor } from './routes.js';
import type { TlsFiles } from './transport.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface TokenState {
  /** ISO 8601 instant the token expires. */
  expiresAt?: string;
  /** Seconds left when it was looked at. */
  expiresInS?: number;
  /** The scopes granted (the token answer's `scope`, else the token's own claim), else the scopes asked for. */
  scopes?: string[];
  tokenUrl: string;
}

export interface CertificateState {
  certFile: string;
  subject?: string;
  /** ISO 8601 instant the certificate expires. */
  expiresAt?: string;
  daysLeft?: number;
  problem?: string;
}

export interface PartyAuthState {
  party: Party;
  baseUrl: string;
  type: AuthConfig['type'];
  /** Where the secret comes from: a variable's name, a command, the profile file, a key file (never the secret). */
  source?: string;
  username?: string;
  /** The secret could be had (the variable is set, the command printed one, a token was granted). */
  resolves: boolean;
  /** Why it does not resolve, or what is worth knowing (a token not requested under --dry-run). */
  problem?: string;
  token?: TokenState;
  tls?: CertificateState;
}

export interface AuthState {
  profile: string;
  environment?: string;
  parties: PartyAuthState[];
}

const partyName = (p: Party) => (p === 'practice' ? 'practice system' : 'portal');
const block = (profile: Profile, party: Party) => (party === 'practice' ? profile.practice : profile.portal);

/** A party's TLS files, read as the client reads them. */
function tlsFiles(t: TlsConfig | undefined): TlsFiles | undefined {
  return (
    t && {
      ca: t.caFile ? readPemFile(t.caFile, 'CA') : undefined,
      cert: t.certFile ? readPemFile(t.certFile, 'client certificate') : undefined,
      key: t.keyFile ? readPemFile(t.keyFile, 'client key') : undefined,
    }
  );
}

function sourceOf(auth: AuthConfig | undefined): string | undefined {
  if (!auth || auth.type === 'none') return undefined;
  switch (auth.type) {
    case 'bearer':
      return auth.tokenEnv
        ? `environment variable ${auth.tokenEnv}`
        : auth.tokenCommand
          ? `command ${auth.tokenCommand}`
          : 'the profile file';
    case 'basic':
      return auth.passwordEnv ? `password in environment variable ${auth.passwordEnv}` : 'password in the profile file';
    case 'oauth2-client-credentials':
      return auth.clientSecretEnv
        ? `client secret in environment variable ${auth.clientSecretEnv}, token from ${auth.tokenUrl}`
        : `private key file ${auth.privateKeyFile}, token from ${auth.tokenUrl}`;
  }
}

/** The claims of a JWT access token (unverified: only to show its expiry and scopes), or undefined. */
function jwtClaims(token: string): { exp?: unknown; scope?: unknown; scp?: unknown } | undefined {
  const part = token.split('.')[1];
  if (!part || token.split('.').length !== 3) return undefined;
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function certificate(certFile: string, now: number): CertificateState {
  try {
    const cert = new X509Certificate(readPemFile(certFile, 'client certificate'));
    const expires = new Date(cert.validTo);
    return {
      certFile,
      subject: cert.subject.replace(/\n/g, ', '),
      expiresAt: expires.toISOString(),
      daysLeft: Math.floor((expires.getTime() - now) / 86_400_000),
    };
  } catch (e) {
    return { certFile, problem: e instanceof PdeskError ? e.message : `it holds no readable certificate (${(e as Error).message}).` };
  }
}

async function partyState(profile: Profile, party: Party, o: { env: Env; offline: boolean; now: number }): Promise<PartyAuthState> {
  const b = block(profile, party);
  const auth = b.auth;
  const out: PartyAuthState = {
    party,
    baseUrl: baseUrlFor(profile, party),
    type: auth?.type ?? 'none',
    resolves: true,
    ...(sourceOf(auth) ? { source: sourceOf(auth) } : {}),
    ...(auth?.type === 'basic' ? { username: auth.username } : {}),
  };
  if (b.tls?.certFile) out.tls = certificate(b.tls.certFile, o.now);
  const fail = (e: unknown) => {
    out.resolves = false;
    out.problem = e instanceof PdeskError ? e.message : (e as Error).message;
  };
  const what = `${party}`;
  try {
    if (auth?.type === 'bearer') {
      if (auth.tokenEnv) secretFromEnv(auth.tokenEnv, `${what} bearer token`, o.env);
      else if (auth.tokenCommand) secretFromCommand(auth.tokenCommand, `${what} bearer token`, o.env);
      else storedSecret(auth.token!);
    } else if (auth?.type === 'basic') {
      if (auth.passwordEnv) secretFromEnv(auth.passwordEnv, `${what} password`, o.env);
      else storedSecret(auth.password!);
    } else if (auth?.type === 'oauth2-client-credentials') {
      const asked = auth.scope ? auth.scope.split(/\s+/).filter(Boolean) : undefined;
      out.token = { tokenUrl: auth.tokenUrl, ...(asked ? { scopes: asked } : {}) };
      if (o.offline) {
        if (auth.clientSecretEnv) secretFromEnv(auth.clientSecretEnv, `${what} client secret`, o.env);
        else readPemFile(auth.privateKeyFile!, 'private key');
        out.problem = 'no token was requested (a dry run)';
      } else {
        const header = (await authHeader(auth, what, tlsFiles(b.tls), { env: o.env }))!;
        const token = header.replace(/^Bearer /, '');
        const expiry = oauthTokenExpiry(auth);
        const claims = jwtClaims(token);
        const granted = oauthTokenScope(auth) ?? (typeof claims?.scope === 'string' ? claims.scope : undefined);
        const scopes = granted?.split(/\s+/).filter(Boolean) ?? (Array.isArray(claims?.scp) ? claims.scp.map(String) : asked);
        const expiresAt = expiry ?? (typeof claims?.exp === 'number' ? claims.exp * 1000 : undefined);
        out.token = {
          tokenUrl: auth.tokenUrl,
          ...(expiresAt !== undefined
            ? { expiresAt: new Date(expiresAt).toISOString(), expiresInS: Math.round((expiresAt - o.now) / 1000) }
            : {}),
          ...(scopes ? { scopes } : {}),
        };
      }
    }
  } catch (e) {
    fail(e);
  }
  return out;
}

/** Every party's authentication state; an OAuth2 token is requested unless `offline` (--dry-run). */
export async function authState(profile: Profile, o: { env?: Env; offline?: boolean; now?: number } = {}): Promise<AuthState> {
  const opts = { env: o.env ?? process.env, offline: !!o.offline, now: o.now ?? Date.now() };
  const parties: PartyAuthState[] = [];
  for (const party of ['practice', 'portal'] as const) parties.push(await partyState(profile, party, opts));
  return { profile: profile.name, ...(profile.environment ? { environment: profile.environment } : {}), parties };
}

/**
 * The bearer or OAuth2 access token of a party, for use in other tools (`pdesk auth token`). A party with no
 * authentication or basic authentication has none: a ConfigError says so.
 */
export async function accessToken(profile: Profile, party: Party, o: { env?: Env } = {}): Promise<string> {
  const env = o.env ?? process.env;
  const b = block(profile, party);
  const auth = b.auth;
  const who = `The ${partyName(party)} of profile "${profile.name}"`;
  if (!auth || auth.type === 'none') throw new ConfigError(`${who} uses no authentication: there is no token to print.`);
  if (auth.type === 'basic')
    throw new ConfigError(`${who} uses basic authentication: there is no token to print.`, [
      'Only a bearer or OAuth2 access token is printed.',
    ]).hint({ kind: 'auth-status', profile: profile.name });
  const header = await authHeader(auth, party, auth.type === 'oauth2-client-credentials' ? tlsFiles(b.tls) : undefined, { env });
  if (!header) throw new UsageError(`${who} has no token.`);
  return header.replace(/^Bearer /, '');
}
