/**
 * A request's route, headers and auth: what the client resolves before its layers see the request. Header names
 * are case-insensitive: each is set once, whatever its spelling. Profile headers override the defaults; the
 * operation's content type and the auth setting override them.
 */
import { authHeader } from '../auth.js';
import { ACCEPT_ENCODING } from '../decode.js';
import { FHIR_JSON, type Party } from '../ops.js';
import type { Profile } from '../profile/schema.js';
import { readPemFile } from '../profile/secrets.js';
import { isSecretHeader, registerSecret } from '../redact.js';
import type { TlsFiles } from '../transport.js';

export const USER_AGENT = 'pdesk/0.1';

/** Set a header, replacing any other spelling of its name. */
function setHeader(h: Record<string, string>, name: string, value: string): void {
  for (const k of Object.keys(h)) if (k.toLowerCase() === name.toLowerCase()) delete h[k];
  h[name] = value;
}

const partyOf = (profile: Profile, party: Party) => (party === 'practice' ? profile.practice : profile.portal);

/** A party's TLS files (CA, client certificate and key), read once per client. */
export class PartyTls {
  private readonly files = new Map<Party, TlsFiles | undefined>();
  constructor(private readonly profile: Profile) {}

  of(party: Party): TlsFiles | undefined {
    if (!this.files.has(party)) {
      const t = partyOf(this.profile, party).tls;
      this.files.set(
        party,
        t && {
          ca: t.caFile ? readPemFile(t.caFile, 'CA') : undefined,
          cert: t.certFile ? readPemFile(t.certFile, 'client certificate') : undefined,
          key: t.keyFile ? readPemFile(t.keyFile, 'client key') : undefined,
        },
      );
    }
    return this.files.get(party);
  }
}

/**
 * The headers of a request to `party`: the defaults, `extra` (the profile's and the operation's), the content type
 * of a body, the party's Authorization. `offline`: nothing will be sent (a dry run, a refused write), so no OAuth2
 * token is asked for.
 */
export async function requestHeaders(
  profile: Profile,
  party: Party,
  extra: Record<string, string>,
  o: { contentType?: string; offline?: boolean; tls: PartyTls; env?: Readonly<Record<string, string | undefined>> },
): Promise<Record<string, string>> {
  const h: Record<string, string> = { accept: FHIR_JSON, 'accept-encoding': ACCEPT_ENCODING, 'user-agent': USER_AGENT };
  for (const [k, v] of Object.entries(extra)) {
    // A credential in a profile header (an API key) is a secret like a token: redacted wherever it shows.
    if (isSecretHeader(k)) registerSecret(v);
    setHeader(h, k, v);
  }
  if (o.contentType) setHeader(h, 'content-type', o.contentType);
  const auth = await authHeader(partyOf(profile, party).auth, party, o.tls.of(party), { offline: o.offline, env: o.env });
  if (auth) setHeader(h, 'authorization', auth);
  return h;
}
