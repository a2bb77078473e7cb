/**
 * The Medplum peer: a practice system and a portal built on a real third-party FHIR engine, for testing pdesk
 * against what it meets in the field. Each party is Medplum's `FhirRouter` over its own `MedplumRepository`
 * (./repo.ts: R4 validation, server ids, paging, Medplum's search rules), seeded with standard R4 data
 * (./seed.ts), on one node:http server on port 0:
 *
 *   practice  {origin}/practice/fhir/R4    (also served at /moved/practice/fhir/R4, a "moved" base)
 *   portal    {origin}/portal/fhir/R4      (also served at /moved/portal/fhir/R4)
 *
 * As a Medplum server does, it answers OperationOutcomes with their status, 201 with `Location`, `ETag` and
 * `Last-Modified` on create, `ETag` on every resource, and writes its configured base URL (`{origin}/practice/`
 * by default) into `Location`, `fullUrl`s and paging links.
 *
 * `peer.set({...})` flips what real deployments do in front of or around the engine (see `PeerSwitches`), at any
 * time; `peer.reset()` restores the defaults, empties the request log and reseeds both parties. Start one peer per
 * test file (`medplumPeerForFile()` does): the first start in a process loads the R4 definitions (./definitions.ts),
 * a second or two in a vitest worker; later starts and resets take tens of milliseconds.
 */
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { allOk, badRequest, getStatus, isCreated, normalizeOperationOutcome, notFound, parseSearchRequest } from '@medplum/core';
import { type FhirRequest, FhirRouter, type HttpMethod } from '@medplum/fhir-router';
import type { OperationOutcome, Resource, ValueSet } from '@medplum/fhirtypes';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ProfileInput } from '../../../src/core/profile/schema.js';
import { tempDir, writeProfiles } from '../config.js';
import { loadR4 } from './definitions.js';
import { MedplumRepository } from './repo.js';
import { MEDPLUM_NAMESPACES, SEED, portalSeed, practiceSeed } from './seed.js';

export type Party = 'practice' | 'portal';
const PARTIES: Party[] = ['practice', 'portal'];
const FHIR_PATH = 'fhir/R4';
/** Medplum's JSON body limit (`maxJsonSize`, 1 MB by default). */
const MAX_BODY = 1024 * 1024;
const JSON_TYPES = ['application/fhir+json', 'application/json', 'application/json-patch+json'];

export type RedirectTarget =
  /** Exactly this `Location`. */
  | { url: string }
  /** The same path and query on another origin: `https://127.0.0.1:<port>`, `peer.localhostOrigin`. */
  | { origin: string }
  /** The same path and query under another FHIR base URL (one of `peer.movedUrl`'s is served). */
  | { base: string }
  /** The same URL with `/` after the path. */
  | 'trailing-slash';

export interface RedirectSwitch {
  status: 301 | 302 | 303 | 307 | 308;
  to: RedirectTarget;
  /** Only these methods (default: all). */
  methods?: string[];
  /** Only paths (without the query) that match (default: all). */
  path?: RegExp;
}

export interface PeerSwitches {
  /**
   * Answer with a redirect (and an HTML body, as a load balancer does) instead of serving. A request already at
   * the target is served, so `origin`, `base` and `trailing-slash` redirects do not loop; a `url` target is
   * redirected again when `methods` and `path` match it too (a loop, for hop limits).
   */
  redirect?: RedirectSwitch;
  /**
   * Medplum's `baseUrl` setting, which it writes into `next` links, `fullUrl`s and `Location`: `{origin}` keeps each
   * party's path on another origin (`peer.localhostOrigin`, `http://fhir.internal:8103`); a string is the whole
   * setting for both parties (links become `{baseUrl}fhir/R4/…`, so the path prefix no longer matches the profile's).
   */
  baseUrl?: string | { origin: string };
  /** `Content-Encoding: gzip`: `'accepted'` when the request's `Accept-Encoding` takes it, `'always'` regardless. */
  gzip?: false | 'accepted' | 'always';
  /** A create answers 201 with `Location` (and `ETag`, `Last-Modified`) and no body, as `Prefer: return=minimal` servers do. */
  minimalCreate?: boolean;
  /** `Location` on create: `…/Type/{id}/_history/{vid}` (default) or `…/Type/{id}` (what Medplum itself sends). */
  location?: 'versioned' | 'plain';
}

const DEFAULT_SWITCHES: PeerSwitches = { gzip: false, minimalCreate: false, location: 'versioned' };

export interface PeerRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  /** `http://` + the Host header: which origin the client addressed. */
  origin: string;
  party?: Party;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface MedplumPeer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `http://localhost:<port>`: the same server under another origin. */
  localhostOrigin: string;
  /** The FHIR base URLs a profile points at. */
  practiceUrl: string;
  portalUrl: string;
  /** The same parties under another path: a target for `{base}` redirects that is served. */
  movedUrl: Record<Party, string>;
  /** Every request received, oldest first (reset by `reset()`). */
  requests: PeerRequest[];
  /** The parties' repositories, for tests to read or change stored resources directly. */
  repos: Record<Party, MedplumRepository>;
  /** Change switches (merged into the current ones). */
  set(switches: PeerSwitches): void;
  /** Default switches, an empty request log, both parties reseeded. */
  reset(): Promise<void>;
  /** A pdesk profile for this peer (appointment API 2.0.0, no auth, `check` defaults from the seed). */
  profile(overrides?: Partial<ProfileInput>): ProfileInput;
  /** A fresh config folder whose default profile is `profile(overrides)` (removed after the test file). */
  configDir(overrides?: Partial<ProfileInput>): string;
  close(): Promise<void>;
}

export interface PeerOptions {
  /** The clock the seed's dates are reckoned from, at every reset. */
  now?: () => Date;
}

function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (name === 'gzip' || name === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

const withSlash = (u: string) => (u.endsWith('/') ? u : `${u}/`);

/**
 * A 1.0.0 practice system answers A1 with an AppointmentType, which is no R4 resource: Medplum would refuse the
 * type. One built on Medplum serves it from a route of its own (`FhirRouter.add`) over its ValueSets, as here.
 */
function appointmentTypeRoute(router: FhirRouter): void {
  router.add('GET', 'AppointmentType', async (req, repo) => {
    const found = await repo.search(parseSearchRequest('ValueSet', req.query));
    const include = (found.entry ?? []).flatMap((e) =>
      ((e.resource as ValueSet).compose?.include ?? []).flatMap((inc) =>
        (inc.concept ?? []).map((c) => ({ actor: { concept: { code: c.code, display: c.display } } })),
      ),
    );
    return [allOk, { resourceType: 'AppointmentType', compose: { include } } as unknown as Resource];
  });
}

export async function startMedplumPeer(o: PeerOptions = {}): Promise<MedplumPeer> {
  loadR4();
  const now = o.now ?? (() => new Date());
  let switches: PeerSwitches = { ...DEFAULT_SWITCHES };
  const requests: PeerRequest[] = [];
  let origin = '';

  const partyBase = (party: Party): string => {
    const b = switches.baseUrl;
    if (typeof b === 'string') return withSlash(b);
    return `${b ? new URL(b.origin).origin : origin}/${party}/`;
  };
  const repos = {
    practice: new MedplumRepository(() => partyBase('practice')),
    portal: new MedplumRepository(() => partyBase('portal')),
  };
  const routers = { practice: new FhirRouter(), portal: new FhirRouter() };
  appointmentTypeRoute(routers.practice);

  const mounts = PARTIES.flatMap((party) => [
    { party, prefix: `/${party}/${FHIR_PATH}` },
    { party, prefix: `/moved/${party}/${FHIR_PATH}` },
  ]);
  const mountOf = (path: string) => mounts.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));

  function redirectLocation(req: IncomingMessage, reqOrigin: string, url: URL): string | undefined {
    const r = switches.redirect;
    if (!r) return undefined;
    if (r.methods && !r.methods.map((m) => m.toUpperCase()).includes(req.method!)) return undefined;
    if (r.path && !r.path.test(url.pathname)) return undefined;
    const to = r.to;
    if (to === 'trailing-slash') return url.pathname.endsWith('/') ? undefined : `${reqOrigin}${url.pathname}/${url.search}`;
    if ('url' in to) return to.url;
    if ('origin' in to) {
      const target = new URL(to.origin).origin;
      return target === reqOrigin ? undefined : `${target}${req.url}`;
    }
    const base = new URL(withSlash(to.base));
    const mount = mountOf(url.pathname);
    if (!mount || (base.origin === reqOrigin && url.pathname.startsWith(base.pathname))) return undefined;
    return `${base.href}${url.pathname.slice(mount.prefix.length + 1)}${url.search}`;
  }

  function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (body === undefined) {
      res.writeHead(status, { ...headers, 'Content-Length': '0' }).end();
      return;
    }
    let payload = Buffer.from(JSON.stringify(body));
    const out: Record<string, string> = { ...headers, 'Content-Type': 'application/fhir+json; charset=utf-8', Vary: 'Accept-Encoding' };
    if (switches.gzip === 'always' || (switches.gzip === 'accepted' && acceptsGzip(req.headers['accept-encoding']))) {
      payload = gzipSync(payload);
      out['Content-Encoding'] = 'gzip';
    }
    res.writeHead(status, { ...out, 'Content-Length': String(payload.length) }).end(payload);
  }

  const sendOutcome = (req: IncomingMessage, res: ServerResponse, outcome: OperationOutcome) => send(req, res, getStatus(outcome), outcome);

  async function serve(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const url = new URL(req.url!, 'http://peer');
    const reqOrigin = `http://${req.headers.host}`;
    const mount = mountOf(url.pathname);
    requests.push({
      method: req.method!,
      url: req.url!,
      origin: reqOrigin,
      party: mount?.party,
      headers: req.headers,
      body: raw.toString('utf8'),
    });

    const location = redirectLocation(req, reqOrigin, url);
    if (location) {
      const title = `${switches.redirect!.status} Redirect`;
      res.writeHead(switches.redirect!.status, { Location: location, 'Content-Type': 'text/html' });
      res.end(`<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`);
      return;
    }
    if (!mount) return sendOutcome(req, res, notFound);

    let body: unknown;
    if (raw.length > 0) {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!JSON_TYPES.includes(type)) return sendOutcome(req, res, badRequest('Unsupported content type'));
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return sendOutcome(req, res, badRequest('Content could not be parsed'));
      }
    }
    const rest = url.pathname
      .slice(mount.prefix.length + 1)
      .split('/')
      .map(decodeURIComponent)
      .join('/');
    const fhirReq: FhirRequest = {
      method: req.method as HttpMethod,
      url: `${rest}${url.search}`,
      pathname: '',
      body,
      params: {},
      query: {},
      headers: req.headers,
    };
    const [outcome, resource] = await routers[mount.party].handleRequest(fhirReq, repos[mount.party]);
    if (!resource) return sendOutcome(req, res, outcome);

    const headers: Record<string, string> = {};
    const meta = resource.meta;
    if (meta?.versionId) headers.ETag = `W/"${meta.versionId}"`;
    if (meta?.lastUpdated) headers['Last-Modified'] = new Date(meta.lastUpdated).toUTCString();
    const created = isCreated(outcome);
    if (created) {
      const at = repos[mount.party].fullUrl(resource.resourceType, resource.id!);
      headers.Location = switches.location === 'plain' || !meta?.versionId ? at : `${at}/_history/${meta.versionId}`;
    }
    send(req, res, getStatus(outcome), created && switches.minimalCreate ? undefined : resource, headers);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY) return sendOutcome(req, res, badRequest('Request entity too large'));
      serve(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        if (!res.headersSent) sendOutcome(req, res, normalizeOperationOutcome(err));
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  async function reset(): Promise<void> {
    switches = { ...DEFAULT_SWITCHES };
    requests.length = 0;
    const at = now();
    for (const [party, seed] of [
      ['practice', practiceSeed(at)],
      ['portal', portalSeed(at)],
    ] as const) {
      repos[party].clear();
      for (const r of seed) await repos[party].createResource(r, { assignedId: true });
    }
  }
  await reset();

  const peer: MedplumPeer = {
    origin,
    localhostOrigin: `http://localhost:${port}`,
    practiceUrl: `${origin}/practice/${FHIR_PATH}`,
    portalUrl: `${origin}/portal/${FHIR_PATH}`,
    movedUrl: { practice: `${origin}/moved/practice/${FHIR_PATH}`, portal: `${origin}/moved/portal/${FHIR_PATH}` },
    requests,
    repos,
    set(s) {
      switches = { ...switches, ...s };
    },
    reset,
    profile: (overrides = {}) => ({
      name: 'medplum',
      environment: 'test',
      appointmentApi: '2.0.0',
      approvalFlow: false,
      namespaces: { ...MEDPLUM_NAMESPACES },
      practice: { baseUrl: peer.practiceUrl, auth: { type: 'none' } },
      portal: { baseUrl: peer.portalUrl, auth: { type: 'none' } },
      check: { serviceCategory: SEED.serviceCategory.gp, patient: SEED.patients.emma, email: SEED.emmaEmail },
      ...overrides,
    }),
    configDir(overrides) {
      const dir = tempDir('pdesk-medplum-');
      writeProfiles(dir, [peer.profile(overrides)]);
      return dir;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return peer;
}

/**
 * One peer for the test file that calls this: started before its tests, reset before each, closed after them.
 * Read `.peer` inside tests and hooks.
 */
export function medplumPeerForFile(o: PeerOptions = {}): { readonly peer: MedplumPeer } {
  let started: MedplumPeer | undefined;
  let fresh = false;
  beforeAll(async () => {
    started = await startMedplumPeer(o);
    fresh = true;
  });
  beforeEach(async () => {
    if (!fresh) await started?.reset();
    fresh = false;
  });
  afterAll(async () => {
    await started?.close();
  });
  return {
    get peer() {
      if (!started) throw new Error('the Medplum peer starts in beforeAll: read .peer inside tests and hooks');
      return started;
    },
  };
}
