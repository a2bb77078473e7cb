/**
 * Doctor's network probes of one origin: DNS (addresses and time), TCP connect time, and for https the TLS
 * certificate (subject, issuer, days to expiry, trust and host name against the party's CA setting). Each
 * returns messages; `ok` says whether the next probe can run.
 */
import { lookup } from 'node:dns/promises';
import { isIP, connect as netConnect } from 'node:net';
import { checkServerIdentity, connect as tlsConnect, type PeerCertificate, rootCertificates } from 'node:tls';
import type { CheckMessage } from '../check/model.js';
import { tlsFailure } from '../tls-failure.js';
import type { TlsFiles } from '../transport.js';
import { DOCTOR_LIMITS } from './model.js';

export interface Probe {
  ok: boolean;
  messages: CheckMessage[];
}

const DAY_MS = 86_400_000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

const host = (u: URL) => u.hostname.replace(/^\[|\]$/g, '');
const port = (u: URL) => Number(u.port || (u.protocol === 'https:' ? 443 : 80));

export async function probeDns(u: URL, timeoutMs: number): Promise<Probe> {
  const h = host(u);
  if (isIP(h)) return { ok: true, messages: [{ type: 'info', text: `${h} is an address: nothing to look up.` }] };
  const t0 = performance.now();
  try {
    const addrs = await withTimeout(lookup(h, { all: true }), timeoutMs, 'the lookup');
    const ms = Math.round(performance.now() - t0);
    return { ok: true, messages: [{ type: 'info', text: `${h} resolves to ${addrs.map((a) => a.address).join(', ')} (${ms} ms).` }] };
  } catch (e) {
    return {
      ok: false,
      messages: [{ type: 'error', text: `${h} cannot be resolved: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.` }],
    };
  }
}

export function probeTcp(u: URL, timeoutMs: number): Promise<Probe> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const socket = netConnect({ host: host(u), port: port(u) });
    const done = (p: Probe) => {
      socket.destroy();
      resolve(p);
    };
    socket.setTimeout(timeoutMs, () =>
      done({ ok: false, messages: [{ type: 'error', text: `no TCP connection to ${u.host} within ${timeoutMs} ms.` }] }),
    );
    socket.once('connect', () =>
      done({ ok: true, messages: [{ type: 'info', text: `TCP connection to ${u.host} in ${Math.round(performance.now() - t0)} ms.` }] }),
    );
    socket.once('error', (e: NodeJS.ErrnoException) =>
      done({ ok: false, messages: [{ type: 'error', text: `cannot connect to ${u.host}: ${e.code ?? e.message}.` }] }),
    );
  });
}

function name(subject: PeerCertificate['subject'] | undefined): string {
  if (!subject) return '(none)';
  return (
    Object.entries(subject)
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`)
      .join(', ') || '(empty)'
  );
}

/** The TLS certificate of an https origin, checked as pdesk's client checks it (the party's extra CA beside the roots). */
export function probeTls(u: URL, tls: TlsFiles | undefined, timeoutMs: number, now = Date.now()): Promise<Probe> {
  const h = host(u);
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: h,
      port: port(u),
      ...(isIP(h) ? {} : { servername: h }),
      ca: tls?.ca ? [...rootCertificates, tls.ca] : undefined,
      cert: tls?.cert,
      key: tls?.key,
      // Read the certificate whatever it is; trust, host name and expiry are judged below and reported.
      rejectUnauthorized: false,
    });
    const done = (p: Probe) => {
      socket.destroy();
      resolve(p);
    };
    socket.setTimeout(timeoutMs, () =>
      done({ ok: false, messages: [{ type: 'error', text: `no TLS handshake with ${u.host} within ${timeoutMs} ms.` }] }),
    );
    // A failed handshake in the plain sentence a request would get (tls-failure.ts), never a bare code.
    socket.once(
      'error',
      (e: NodeJS.ErrnoException) =>
        void tlsFailure(e, e.code, u, tls, timeoutMs).then((sentence) =>
          done({
            ok: false,
            messages: [{ type: 'error', text: sentence ?? `TLS handshake with ${u.host} failed: ${e.code ?? e.message}.` }],
          }),
        ),
    );
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const messages: CheckMessage[] = [];
      if (!cert?.valid_to) {
        done({ ok: false, messages: [{ type: 'error', text: `${u.host} presented no certificate.` }] });
        return;
      }
      const expires = Date.parse(cert.valid_to);
      const days = Math.floor((expires - now) / DAY_MS);
      messages.push({
        type: 'info',
        text: `certificate of ${u.host}: subject ${name(cert.subject)}, issuer ${name(cert.issuer)}, valid until ${new Date(expires).toISOString().slice(0, 10)}.`,
      });
      const ago = Math.max(1, Math.floor((now - expires) / DAY_MS));
      if (expires <= now)
        messages.push({ type: 'error', text: `the certificate of ${u.host} expired ${ago} day${ago === 1 ? '' : 's'} ago.` });
      else if (days < DOCTOR_LIMITS.certificateDays)
        messages.push({
          type: 'warning',
          text: `the certificate of ${u.host} expires in ${days} days (${new Date(expires).toISOString().slice(0, 10)}).`,
        });
      else messages.push({ type: 'info', text: `the certificate of ${u.host} expires in ${days} days.` });
      if (Date.parse(cert.valid_from) > now)
        messages.push({ type: 'error', text: `the certificate of ${u.host} is not valid before ${cert.valid_from}.` });
      const why = socket.authorizationError ? String(socket.authorizationError) : undefined;
      // Expiry is reported above; any other reason means pdesk's client would refuse the connection.
      if (why && why !== 'CERT_HAS_EXPIRED' && why !== 'CERT_NOT_YET_VALID')
        messages.push({
          type: 'error',
          text: `the certificate of ${u.host} is not trusted: ${why}${tls?.ca ? '' : ' (a private CA goes in the profile as tls.caFile)'}.`,
        });
      const mismatch = checkServerIdentity(h, cert);
      if (mismatch) messages.push({ type: 'error', text: `the certificate does not name ${h}: ${mismatch.message}` });
      done({ ok: !messages.some((m) => m.type === 'error'), messages });
    });
  });
}
