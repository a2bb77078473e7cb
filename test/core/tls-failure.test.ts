/**
 * A failed TLS handshake in one plain sentence (src/core/tls-failure.ts), for both transports, against servers with
 * openssl-made certificates: https:// to a plain HTTP server, an expired certificate (its date named), a self-signed
 * one, one from an authority this machine does not trust, one for another host name. Never OpenSSL's own text. And
 * the same sentence from a command, in-process.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode, NetworkError } from '../../src/core/errors.js';
import type { TlsFiles } from '../../src/core/transport.js';
import { HttpTransport } from '../../src/core/transport-http.js';
import { PoolTransport } from '../../src/core/transport-pool.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { makeCertificates } from '../helpers/certs.js';
import { closeAfterEach, listening, stubServer } from '../helpers/http.js';
import { run, tempDir, writeProfiles } from '../helpers/run.js';

const dir = mkdtempSync(join(tmpdir(), 'pdesk-tls-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string) => join(dir, name);

beforeAll(() =>
  makeCertificates(dir, { subject: '/CN=pdesk test CA', days: 2 }, [
    { name: 'valid', subject: '/CN=127.0.0.1', days: 2, altName: 'IP:127.0.0.1' },
    { name: 'expired', subject: '/CN=127.0.0.1', days: -1, altName: 'IP:127.0.0.1' },
    { name: 'other', subject: '/CN=127.0.0.1', days: 2, altName: 'DNS:practice.example.org' },
    { name: 'self', subject: '/CN=127.0.0.1', days: 2, selfSigned: true },
  ]),
);

/** An HTTPS server with the named certificate; its origin. */
async function httpsServer(cert: string): Promise<string> {
  const server = createHttpsServer({ key: readFileSync(f(`${cert}.key`)), cert: readFileSync(f(`${cert}.pem`)) }, (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/fhir+json' });
    res.end('{}');
  });
  return listening(server, 'https');
}

describe.each([
  ['undici pool', PoolTransport],
  ['node:http', HttpTransport],
] as const)('TLS handshake failures in one sentence (%s)', (_name, Transport) => {
  async function failure(url: string, tls?: TlsFiles): Promise<NetworkError> {
    const t = closeAfterEach(new Transport({ retriesMax: 2, sleep: async () => undefined }));
    const e = await t.request({ method: 'GET', url: `${url}/PractitionerRole`, headers: {}, tls }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(NetworkError);
    const n = e as NetworkError;
    expect(n.exitCode).toBe(ExitCode.server);
    // One line of plain words: no OpenSSL error string, no line break.
    expect(n.message).not.toMatch(/\n|SSL routines|error:[0-9A-F]{8}|EPROTO/);
    expect(n.details).toEqual([`GET ${url}/PractitionerRole`]);
    return n;
  }
  const ca = () => readFileSync(f('ca.pem'), 'utf8');

  it('https:// to a server that speaks plain HTTP: is the URL http://?', async () => {
    const plain = await stubServer((_q, res) => res.end('{}'));
    const url = plain.url.replace('http://', 'https://');
    const e = await failure(url);
    expect(e.message).toBe(`${url} does not speak TLS: is the URL ${plain.url}?`);
    expect(plain.received).toHaveLength(0);
  });

  it('an expired certificate names the day it expired', async () => {
    const url = await httpsServer('expired');
    const expired = new Date(new X509Certificate(readFileSync(f('expired.pem'))).validTo).toISOString().slice(0, 10);
    const e = await failure(url, { ca: ca() });
    expect(e.message).toBe(
      `The TLS certificate of 127.0.0.1 expired on ${expired}: the server needs a new one (pdesk does not connect with an expired certificate).`,
    );
  });

  it('a self-signed certificate, and one from an authority this machine does not trust, say to set tls.caFile', async () => {
    expect((await failure(await httpsServer('self'))).message).toBe(
      '127.0.0.1 presents a self-signed TLS certificate: to trust it, set tls.caFile in the profile to that certificate.',
    );
    expect((await failure(await httpsServer('valid'))).message).toBe(
      "The TLS certificate of 127.0.0.1 is signed by a certificate authority this machine does not trust: set tls.caFile in the profile to that authority's certificate.",
    );
  });

  it('a certificate for another host name says which name it has', async () => {
    const e = await failure(await httpsServer('other'), { ca: ca() });
    expect(e.message).toBe(
      "The TLS certificate of 127.0.0.1 does not name 127.0.0.1 (it names practice.example.org): use a host name the certificate names in the profile's URL.",
    );
  });

  it('a trusted certificate for the host connects (the sentences are for failures only)', async () => {
    const url = await httpsServer('valid');
    const t = closeAfterEach(new Transport({ retriesMax: 0 }));
    const r = await t.request({ method: 'GET', url: `${url}/x`, headers: {}, tls: { ca: ca() } });
    expect(r.status).toBe(200);
  });
});

it('a command against an https profile on a plain HTTP server prints the sentence, exit 5, no OpenSSL text', async () => {
  const plain = await stubServer((_q, res) => res.end('{}'));
  const url = plain.url.replace('http://', 'https://');
  const configDir = tempDir();
  writeProfiles(configDir, [sandboxProfile(url)]);
  const r = await run(['appointment-types', 'list', '--service-category', 'gp'], { configDir });
  expect(r.code).toBe(ExitCode.server);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toBe(`pdesk: ${url} does not speak TLS: is the URL ${plain.url}?`);
  expect(lines[1]).toBe(`  GET ${url}/practice/ValueSet?service-category=gp`);
  expect(r.stderr).not.toMatch(/SSL routines|EPROTO|error:[0-9A-F]{8}/);
});
