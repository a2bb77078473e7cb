/**
 * A failed TLS handshake in one plain sentence an operator can act on, instead of OpenSSL's own text (`write EPROTO
 * 805C…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:…`, with a newline inside). Both transports
 * report these errors with the codes node and OpenSSL give them (transport.ts words every other network error).
 */
import { nodeNet, nodeTls } from './builtins.js';

/** A party's TLS files as transport.ts passes them (its TlsFiles; not imported: transport.ts imports this module). */
interface TlsFiles {
  ca?: string;
  cert?: string;
  key?: string;
}

/** Certificate chains this machine cannot verify: the issuer is not among the trusted roots. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

const day = (validTo: string | undefined) => {
  const t = Date.parse(validTo ?? '');
  return Number.isNaN(t) ? undefined : new Date(t).toISOString().slice(0, 10);
};

/**
 * The certificate an https origin presents, read without judging it (for the date in "expired on …"): only the
 * handshake, nothing sent, the party's own TLS files. Undefined when it cannot be read within `timeoutMs`.
 */
function peerCertificate(
  url: URL,
  tls: TlsFiles | undefined,
  timeoutMs: number,
): Promise<{ valid_from?: string; valid_to?: string } | undefined> {
  const { connect, rootCertificates } = nodeTls();
  const { isIP } = nodeNet();
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port: Number(url.port || 443),
      ...(isIP(host) ? {} : { servername: host }),
      ...(tls?.ca ? { ca: [...rootCertificates, tls.ca] } : {}),
      ...(tls?.cert ? { cert: tls.cert } : {}),
      ...(tls?.key ? { key: tls.key } : {}),
      rejectUnauthorized: false,
    });
    const done = (cert?: { valid_from?: string; valid_to?: string }) => {
      socket.destroy();
      resolve(cert);
    };
    socket.setTimeout(timeoutMs, () => done());
    socket.once('error', () => done());
    socket.once('secureConnect', () => done(socket.getPeerCertificate() ?? undefined));
  });
}

/** OpenSSL's reason from its error text (`…:SSL routines:ssl3_get_record:wrong version number:…` → `wrong version number`). */
function opensslReason(e: { reason?: unknown; message?: unknown }): string | undefined {
  if (typeof e.reason === 'string' && e.reason) return e.reason.toLowerCase();
  return /SSL routines:[^:]*:([^:\n]+)/.exec(String(e.message ?? ''))?.[1]?.trim();
}

/**
 * The sentence for a TLS handshake failure of a request to `url`, or undefined when `e` is not one. `code` is the
 * error's code (transport.ts finds it along the cause chain).
 */
export async function tlsFailure(
  e: unknown,
  code: string | undefined,
  url: URL,
  tls: TlsFiles | undefined,
  timeoutMs: number,
): Promise<string | undefined> {
  if (url.protocol !== 'https:' || !code) return undefined;
  const err = (e ?? {}) as { reason?: unknown; message?: unknown; cert?: { subjectaltname?: string; subject?: { CN?: string } } };
  const host = url.hostname;
  const reason = opensslReason(err);
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || (code === 'EPROTO' && reason === 'wrong version number'))
    return `${url.origin} does not speak TLS: is the URL http://${url.host}?`;
  if (code === 'CERT_HAS_EXPIRED') {
    const on = day((await peerCertificate(url, tls, timeoutMs))?.valid_to);
    return `The TLS certificate of ${host} expired${on ? ` on ${on}` : ''}: the server needs a new one (pdesk does not connect with an expired certificate).`;
  }
  if (code === 'CERT_NOT_YET_VALID') {
    const from = day((await peerCertificate(url, tls, timeoutMs))?.valid_from);
    return `The TLS certificate of ${host} is not valid yet${from ? ` (from ${from})` : ''}: check the clocks of the server and of this machine.`;
  }
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
    return `${host} presents a self-signed TLS certificate: to trust it, set tls.caFile in the profile to that certificate.`;
  if (UNTRUSTED.has(code))
    return `The TLS certificate of ${host} is signed by a certificate authority this machine does not trust: set tls.caFile in the profile to that authority's certificate.`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = err.cert?.subjectaltname?.replace(/(DNS|IP Address):/g, '') || err.cert?.subject?.CN;
    return `The TLS certificate of ${host} does not name ${host}${names ? ` (it names ${names})` : ''}: use a host name the certificate names in the profile's URL.`;
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_'))
    return `The TLS handshake with ${host} failed${reason ? ` (${reason})` : ''}${
      reason?.includes('alert') && tls?.cert ? ': the server may not accept the client certificate of tls.certFile' : ''
    }.`;
  return undefined;
}
