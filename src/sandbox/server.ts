/**
 * The embedded sandbox: a practice system at `/practice` (A1–A7, C1, C2, M1–M4) and a portal at `/portal`
 * (C3, C4, C5) on one node:http server, following decisions.md exactly. This file is the HTTP plumbing:
 * routing (404 unknown route, 405 wrong method), optional bearer token (401), latency and fail rate (503
 * before any state change), broken and failing operations (`--break`, `--fail`: breaks.ts), a rate limit
 * (`--throttle`: every n-th request 429), content types (415),
 * JSON parsing (400), OperationOutcome error bodies, and the record of received requests. Handlers live in appointments.ts, chat.ts, notifications.ts, medication.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeOutcome } from '../core/outcome.js';
import * as appointments from './appointments.js';
import * as chat from './chat.js';
import { FHIR_JSON, type OpId } from '../core/ops.js';
import { communicationKind } from '../core/schemas/chat.js';
import { breakAnswer } from './breaks.js';
import { checkContentType, decodeSegment, Fail, MAX_BODY_BYTES, readBody } from '../listen/accept.js';
import type { Handler, Reply, SandboxRequest, World } from './http.js';
import * as medication from './medication.js';
import { Pushes } from './pushes.js';
import { seedState } from './seed.js';
import type { SandboxState } from './state.js';

export type { SandboxState } from './state.js';

export interface SandboxOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default '2.0.0'. */
  appointmentApi?: '1.0.0' | '2.0.0';
  /** Default false. */
  approvalFlow?: boolean;
  /** Delay every answer by this many ms. */
  latencyMs?: number;
  /** 0..1: answer 503 + OperationOutcome before any state change. */
  failRate?: number;
  /** Portal base URL to push C3 replies (and demo pushes) to; default its own /portal. */
  pushTo?: string;
  /** Delay of the automatic C3 reply to a C1 (default 1500). */
  replyDelayMs?: number;
  /** "Today" for seeding (default new Date()). */
  now?: Date;
  /** Deterministic randomness (fail rate). */
  seed?: number;
  /** When set, every request needs `Authorization: Bearer <token>`, else 401. */
  token?: string;
  /** Default true: keep `received`. */
  recordRequests?: boolean;
  /** Delay of the demo pushes made when `pushTo` is given (default 2000). */
  demoPushDelayMs?: number;
  /** Called after every answer with one line (`POST /practice/Appointment → 201 (2 ms)`); for `pdesk sandbox --verbose`. */
  onRequest?: (line: string) => void;
  /** Where push failures are reported (default: a line on stderr). */
  log?: (line: string) => void;
  /** Operations whose successful answers miss a required field (`--break`, breaks.ts). */
  breakOps?: readonly OpId[];
  /** Operations answered with this status and an OperationOutcome, before any change (`--fail <op>:<status>`). */
  failOps?: Partial<Record<OpId, number>>;
  /**
   * Every n-th request (counting all of them, from the first) is answered 429 Too Many Requests with
   * `Retry-After: 1` and an OperationOutcome, before any change (`--throttle <n>`): a rate-limited server.
   */
  throttleEvery?: number;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: unknown;
  at: string;
  /** The client's port: requests with the same one came over the same connection. */
  peerPort?: number;
}

export interface Sandbox {
  /** `http://127.0.0.1:<port>`; practice at `${url}/practice`, portal at `${url}/portal`. */
  url: string;
  port: number;
  /** Every request, body parsed JSON (or raw text if not JSON). */
  received: ReceivedRequest[];
  state: SandboxState;
  setFailRate(r: number): void;
  close(): Promise<void>;
}

interface Route {
  /** `/practice/Communication/{id}` split in segments; `{name}` captures one. */
  segments: string[];
  methods: Partial<Record<string, Handler>>;
  /** The operation each method performs; a function where the body decides (C3 or C5). */
  ops: Partial<Record<string, OpId | ((body: unknown) => OpId)>>;
}

const route = (path: string, methods: Route['methods'], ops: Route['ops']): Route => ({
  segments: path.split('/').filter(Boolean),
  methods,
  ops,
});

/** `POST /portal/Communication` is C3 or C5, told apart by the category code (interface.md). */
const portalCommunicationOp = (body: unknown): OpId => (communicationKind(body) === 'notification' ? 'C5' : 'C3');

/** The route table of decisions.md §2 (A1 depends on the version: the other version's path is unknown). */
function routes(appointmentApi: '1.0.0' | '2.0.0'): Route[] {
  return [
    route(
      appointmentApi === '2.0.0' ? '/practice/ValueSet' : '/practice/AppointmentType',
      { GET: appointments.getAppointmentTypes },
      { GET: 'A1' },
    ),
    route('/practice/PractitionerRole', { GET: appointments.listPractitionerRoles }, { GET: 'A2' }),
    route('/practice/Schedule', { GET: appointments.searchSchedules }, { GET: 'A3' }),
    route('/practice/Slot', { GET: appointments.searchSlots }, { GET: 'A4' }),
    route(
      '/practice/Appointment',
      { GET: appointments.searchAppointments, POST: appointments.createAppointment },
      { GET: 'A5', POST: 'A6' },
    ),
    route('/practice/AppointmentResponse', { POST: appointments.cancelAppointment }, { POST: 'A7' }),
    route('/practice/Communication', { POST: chat.receiveMessage, PATCH: chat.markRead }, { POST: 'C1', PATCH: 'C2' }), // C2 conditional
    route('/practice/Communication/{id}', { PATCH: chat.markRead }, { PATCH: 'C2' }),
    route(
      '/practice/MedicationRequest',
      { GET: medication.listMedicationRequests, POST: medication.orderMedication },
      { GET: 'M1', POST: 'M3' },
    ),
    route('/practice/MedicationRequest/{id}', { GET: medication.getMedicationRequest }, { GET: 'M2' }),
    route('/practice/Organization', { GET: medication.searchPharmacies }, { GET: 'M4' }),
    route('/portal/Communication', { POST: chat.receivePortalCommunication }, { POST: portalCommunicationOp }),
    route('/portal/Encounter/{id}', { PUT: chat.closeChat }, { PUT: 'C4' }),
  ];
}

function match(table: Route[], path: string): { route: Route; params: Record<string, string> } | undefined {
  const parts = path.split('/').filter(Boolean);
  outer: for (const r of table) {
    if (r.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const seg = r.segments[i]!;
      if (seg.startsWith('{')) params[seg.slice(1, -1)] = decodeSegment(parts[i]!);
      else if (seg !== parts[i]) continue outer;
    }
    return { route: r, params };
  }
  return undefined;
}

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function send(res: ServerResponse, reply: Reply): void {
  const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': FHIR_JSON,
    'content-length': Buffer.byteLength(text),
    ...reply.headers,
  });
  res.end(text);
}

const failReply = (f: Fail): Reply => ({ status: f.status, body: f.outcome, headers: f.headers });

export async function startSandbox(o: SandboxOptions = {}): Promise<Sandbox> {
  const appointmentApi = o.appointmentApi ?? '2.0.0';
  const state = seedState({ now: o.now ?? new Date(), appointmentApi, approvalFlow: o.approvalFlow ?? false });
  const received: ReceivedRequest[] = [];
  const record = o.recordRequests !== false;
  const latencyMs = Math.max(0, o.latencyMs ?? 0);
  let failRate = o.failRate ?? 0;
  const random = o.seed === undefined ? Math.random : prng(o.seed);
  const table = routes(appointmentApi);
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let pushes: Pushes | undefined;
  const world: World = {
    state,
    pushes: { scheduleReply: (m) => pushes?.scheduleReply(m) },
  };
  let ownUrl = '';

  const breakOps = new Set(o.breakOps ?? []);
  const failOps = o.failOps ?? {};
  const throttleEvery = o.throttleEvery && o.throttleEvery > 0 ? Math.floor(o.throttleEvery) : 0;
  let requests = 0;

  async function handle(req: IncomingMessage): Promise<Reply> {
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q < 0 ? '' : rawUrl.slice(q + 1);
    const buf = await readBody(req);
    const text = buf === 'too-large' ? '' : buf.toString('utf8');
    let body: unknown;
    let jsonError: string | undefined;
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch (e) {
        body = text;
        jsonError = (e as Error).message;
      }
    }
    if (record) {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      received.push({
        method,
        path: rawPath,
        query: rawQuery,
        headers,
        body,
        at: new Date().toISOString(),
        peerPort: req.socket.remotePort,
      });
    }
    const n = ++requests;
    if (latencyMs > 0) await sleep(latencyMs);
    if (o.token !== undefined && req.headers.authorization !== `Bearer ${o.token}`)
      throw new Fail(401, 'login', 'This sandbox needs Authorization: Bearer <token>.', undefined, {
        'www-authenticate': 'Bearer realm="pdesk-sandbox"',
      });
    if (throttleEvery && n % throttleEvery === 0)
      throw new Fail(
        429,
        'throttled',
        `The sandbox answers every ${throttleEvery}th request 429 (--throttle); nothing was changed.`,
        undefined,
        {
          'retry-after': '1',
        },
      );
    if (failRate > 0 && random() < failRate)
      throw new Fail(503, 'transient', 'The sandbox is simulating a failure (fail rate); nothing was changed.');
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const found = match(table, path);
    if (!found) throw new Fail(404, 'not-found', `No such route: ${path}.`);
    const handler = found.route.methods[method];
    if (!handler) {
      const allow = Object.keys(found.route.methods).join(', ');
      throw new Fail(405, 'not-supported', `Method ${method} is not allowed on ${path}; allowed: ${allow}.`, undefined, { allow });
    }
    const opOf = found.route.ops[method];
    const op = typeof opOf === 'function' ? opOf(body) : opOf;
    const failStatus = op && failOps[op];
    if (failStatus)
      throw new Fail(
        failStatus,
        failStatus >= 500 ? 'transient' : 'processing',
        `The sandbox is simulating a failure of ${op} (--fail); nothing was changed.`,
      );
    if (buf === 'too-large') throw new Fail(413, 'too-costly', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      checkContentType(method, path, req.headers['content-type']);
      if (jsonError !== undefined) throw new Fail(400, 'invalid', `The request body is not valid JSON: ${jsonError}.`, '$');
      if (body === undefined) throw new Fail(400, 'required', 'The request body is empty.', '$');
    }
    const request: SandboxRequest = {
      method,
      path,
      params: found.params,
      query: new URLSearchParams(rawQuery),
      body,
      origin: `http://${req.headers.host ?? ownUrl.replace(/^http:\/\//, '')}`,
    };
    const reply = await handler(world, request);
    if (op && breakOps.has(op) && reply.status < 300) return { ...reply, body: breakAnswer(op, reply.body, appointmentApi) };
    return reply;
  }

  const onRequest = o.onRequest;
  const server = createServer((req, res) => {
    const started = onRequest ? Date.now() : 0;
    handle(req)
      .catch((e: unknown): Reply => {
        if (e instanceof Fail) return failReply(e);
        log(`pdesk sandbox: internal error on ${req.method} ${req.url}: ${(e as Error)?.stack ?? String(e)}`);
        return { status: 500, body: makeOutcome('exception', `Internal sandbox error: ${(e as Error)?.message ?? String(e)}`) };
      })
      .then((reply) => {
        send(res, reply);
        onRequest?.(`${req.method} ${req.url} → ${reply.status} (${Date.now() - started} ms)`);
      })
      .catch(() => res.destroy());
  });
  server.keepAliveTimeout = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = o.host ?? '127.0.0.1';
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  ownUrl = `http://${shownHost}:${addr.port}`;
  pushes = new Pushes(state, { ownUrl, pushTo: o.pushTo, replyDelayMs: o.replyDelayMs ?? 1500, token: o.token, log });
  if (o.pushTo !== undefined) pushes.scheduleDemo(o.demoPushDelayMs);

  let closing: Promise<void> | undefined;
  return {
    url: ownUrl,
    port: addr.port,
    received,
    state,
    setFailRate(r: number) {
      if (!(r >= 0 && r <= 1)) throw new RangeError(`fail rate must be between 0 and 1, not ${r}`);
      failRate = r;
    },
    close() {
      closing ??= (async () => {
        await pushes!.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
