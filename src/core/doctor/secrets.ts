/**
 * Doctor: can the profile's secrets be resolved? Per party: the auth setting's environment variable is set, its
 * token command runs, a private key file is readable, private (no group or other access) and an RSA key; TLS
 * files are readable and the client key is private. Nothing secret is shown: names and paths only.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { AuthConfig, Profile, TlsConfig } from '../profile/schema.js';
import { secretFromCommand, secretFromEnv } from '../profile/secrets.js';
import type { Party } from '../ops.js';
import type { CheckMessage } from '../check/model.js';

const partyName = (p: Party) => (p === 'practice' ? 'practice system' : 'portal');

/** A file pdesk must read: readable; with `secret`, not open to group or others. */
function fileMessages(path: string, what: string, secret: boolean): CheckMessage[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return [
      { type: 'error', text: `the ${what} file ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).` },
    ];
  }
  const out: CheckMessage[] = [];
  if (secret) {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077)
      out.push({
        type: 'warning',
        text: `the ${what} file ${path} is readable by others (mode ${mode.toString(8).padStart(4, '0')}): chmod 600 ${path}.`,
      });
  }
  if (!/-----BEGIN [A-Z0-9 ]+-----/.test(text)) out.push({ type: 'error', text: `the ${what} file ${path} holds no PEM block.` });
  else out.push({ type: 'info', text: `the ${what} file ${path} is readable.` });
  return out;
}

function authMessages(auth: AuthConfig | undefined, party: Party, vars?: Readonly<Record<string, string | undefined>>): CheckMessage[] {
  const who = partyName(party);
  const env = (name: string, what: string): CheckMessage => {
    try {
      secretFromEnv(name, `${party} ${what}`, vars);
      return { type: 'info', text: `${who}: the environment variable ${name} (${what}) is set.` };
    } catch (e) {
      return { type: 'error', text: `${who}: ${(e as Error).message}` };
    }
  };
  const stored = (what: string): CheckMessage => ({
    type: 'warning',
    text: `${who}: the ${what} is stored in the profile file; an environment variable or a command keeps it out of the file.`,
  });
  if (!auth || auth.type === 'none') return [{ type: 'info', text: `${who}: no authentication.` }];
  switch (auth.type) {
    case 'bearer':
      if (auth.tokenEnv) return [env(auth.tokenEnv, 'bearer token')];
      if (auth.tokenCommand) {
        try {
          secretFromCommand(auth.tokenCommand, `${party} bearer token`);
          return [{ type: 'info', text: `${who}: the token command ran and printed a token.` }];
        } catch (e) {
          return [{ type: 'error', text: `${who}: ${(e as Error).message}` }];
        }
      }
      return [stored('bearer token')];
    case 'basic':
      return [auth.passwordEnv ? env(auth.passwordEnv, 'password') : stored('password')];
    case 'oauth2-client-credentials': {
      if (auth.clientSecretEnv) return [env(auth.clientSecretEnv, 'OAuth2 client secret')];
      const file = fileMessages(auth.privateKeyFile!, `${who} OAuth2 private key`, true);
      if (file.some((m) => m.type === 'error')) return file;
      try {
        const key = createPrivateKey(readFileSync(auth.privateKeyFile!, 'utf8'));
        if (key.asymmetricKeyType !== 'rsa')
          file.push({
            type: 'error',
            text: `${who}: the private key is ${key.asymmetricKeyType}; RS256 client assertions need an RSA key.`,
          });
      } catch (e) {
        file.push({
          type: 'error',
          text: `${who}: the private key file ${auth.privateKeyFile} holds no private key (${(e as Error).message}).`,
        });
      }
      return file;
    }
  }
}

function tlsMessages(tls: TlsConfig | undefined, party: Party): CheckMessage[] {
  if (!tls) return [];
  const who = partyName(party);
  return [
    ...(tls.caFile ? fileMessages(tls.caFile, `${who} CA`, false) : []),
    ...(tls.certFile ? fileMessages(tls.certFile, `${who} client certificate`, false) : []),
    ...(tls.keyFile ? fileMessages(tls.keyFile, `${who} client key`, true) : []),
  ];
}

/** Every message about the secrets and TLS files of both parties. */
export function secretMessages(profile: Profile, vars?: Readonly<Record<string, string | undefined>>): CheckMessage[] {
  return (['practice', 'portal'] as const).flatMap((party) => {
    const block = party === 'practice' ? profile.practice : profile.portal;
    return [...authMessages(block.auth, party, vars), ...tlsMessages(block.tls, party)];
  });
}
