/** Reachability probes (src/core/systems/probe.ts) against the sandbox and stub servers over real HTTP. */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PROBE_REQUEST, probeClient, probeParty } from '../../../src/core/systems/probe.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';
import { closeAfterEach, stubServer } from '../../helpers/http.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A server that accepts connections and never answers. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const s: Server = createServer((c) => sockets.add(c));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return closeAfterEach({
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const c of sockets) c.destroy();
        s.close(() => r());
      }),
  });
}

describe('probeParty', () => {
  it('the practice system answers A2 with _count=1 (ok); the portal GET of its base URL shows it reachable, with the status', async () => {
    sb = await startSandbox({ port: 0, log: () => undefined });
    const client = closeAfterEach(probeClient(Profile.parse(sandboxProfile(sb.url))));
    const practice = await probeParty(client, 'practice');
    expect(practice).toMatchObject({ party: 'practice', state: 'ok', status: 200 });
    expect(practice.text).toMatch(/^ok \d+ ms$/);
    const portal = await probeParty(client, 'portal');
    expect(portal).toMatchObject({ party: 'portal', state: 'reachable', status: 404 });
    expect(portal.text).toMatch(/^reachable \(HTTP 404\) \d+ ms$/);
    const sent = sb.received.map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`);
    expect(sent).toEqual(['GET /practice/PractitionerRole?_count=1', 'GET /portal/']);
    expect(PROBE_REQUEST.practice).toContain('_count=1');
  });

  it('a base URL that redirects is `error` naming the target, a redirect elsewhere and an answer too large too (never `not sent`)', async () => {
    const s = await stubServer((q, res) => {
      if (q.url!.startsWith('/moved/'))
        return void res.writeHead(200, { 'content-type': 'application/fhir+json' }).end('{"resourceType":"Bundle","entry":[]}');
      if (q.url!.startsWith('/big/'))
        return void res.writeHead(200, { 'content-type': 'application/fhir+json' }).end(`{"x":"${'x'.repeat(200_000)}"}`);
      if (q.url!.startsWith('/away/')) return void res.writeHead(302, { location: 'http://elsewhere.invalid/fhir/PractitionerRole' }).end();
      res.writeHead(301, { location: `/moved${q.url}` }).end();
    });
    const probe = async (base: string, limits?: Record<string, number>) =>
      probeParty(
        closeAfterEach(probeClient(Profile.parse({ ...sandboxProfile(s.url), practice: { baseUrl: `${s.url}${base}` }, limits }))),
        'practice',
      );
    const moved = await probe('/practice');
    expect(moved).toMatchObject({
      state: 'error',
      status: 301,
      text: 'redirect 301',
      error: `the base URL redirects to ${s.url}/moved/practice/PractitionerRole?_count=1`,
    });
    const away = await probe('/away');
    expect(away).toMatchObject({ state: 'error', status: 302, text: 'redirect 302' });
    expect(away.error).toContain('another origin');
    expect(await probe('/big', { responseMB: 0.1 })).toMatchObject({ state: 'error', text: 'too large' });
  });

  it('a refused credential is `refused`, a server error `error`, a closed port `unreachable` — with the reason', async () => {
    sb = await startSandbox({ port: 0, log: () => undefined, token: 'sandbox-secret-1' });
    const noToken = closeAfterEach(probeClient(Profile.parse(sandboxProfile(sb.url))));
    const refused = await probeParty(noToken, 'practice');
    expect(refused).toMatchObject({ state: 'refused', status: 401, error: 'credentials refused (HTTP 401)' });

    const stub = await stubServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/fhir+json' });
      res.end(
        JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'exception', diagnostics: 'db down' }] }),
      );
    });
    const broken = closeAfterEach(probeClient(Profile.parse(sandboxProfile(stub.url))));
    const err = await probeParty(broken, 'practice');
    expect(err).toMatchObject({ state: 'error', status: 500, text: 'HTTP 500' });
    expect(err.error).toContain('db down');
    // The portal has no GET operation: any answer but 401/403 shows it is there.
    expect(await probeParty(broken, 'portal')).toMatchObject({ state: 'reachable', status: 500 });

    const port = await closedPort();
    const gone = closeAfterEach(probeClient(Profile.parse(sandboxProfile(`http://127.0.0.1:${port}`))));
    const down = await probeParty(gone, 'practice');
    expect(down).toMatchObject({ state: 'unreachable', text: 'unreachable' });
    expect(down.error).toMatch(/connection refused/);
    expect(stub.received.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('a server that never answers is a time-out after the probe deadline, not the profile’s 30 s', async () => {
    const silent = await silentServer();
    const client = closeAfterEach(probeClient(Profile.parse(sandboxProfile(silent.url)), 300));
    const t0 = Date.now();
    const p = await probeParty(client, 'practice');
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(p).toMatchObject({ state: 'unreachable', text: 'time-out' });
    expect(p.error).toMatch(/within 300 ms/);
  });

  it('sends GET only: a profile routing A2 as a POST is refused before anything is sent (`config`)', async () => {
    const stub = await stubServer((_req, res) => res.end('{}'));
    const raw = { ...sandboxProfile(stub.url), routes: { A2: { method: 'POST' as const } } };
    const client = closeAfterEach(probeClient(Profile.parse(raw)));
    const p = await probeParty(client, 'practice');
    expect(p).toMatchObject({ state: 'config', text: 'not sent' });
    expect(p.error).toBe(
      'Profile "sandbox" is read-only (the Systems screen probes with GET only): A2 (POST /PractitionerRole?_count=1) was not sent.',
    );
    expect(stub.received).toEqual([]);
  });

  it('an abandoned probe ends at once', async () => {
    const silent = await silentServer();
    const client = closeAfterEach(probeClient(Profile.parse(sandboxProfile(silent.url))));
    const ctrl = new AbortController();
    const pending = probeParty(client, 'portal', { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 50);
    const p = await pending;
    expect(p.state).toBe('unreachable');
    expect(p.ms).toBeLessThan(2000);
  });
});
