/**
 * The push receiver of `pdesk listen` (decisions.md §8), also run in-process by the TUI (`tui --listen`).
 * A stand-in party: C1 and C2 as the practice system under `/practice`, C3, C4 and C5 as the portal under
 * `/portal`, at the default routes of decisions.md §2 (C2 also in its conditional form
 * `PATCH /practice/Communication?identifier=<system>|<id>`); `GET /healthz` says whether it can take pushes.
 *
 * Before a byte of the body is read, a request is checked: bearer token (401), route (404/405), declared size
 * (413) and content type (415); a refusal then closes the connection, so an unwelcome body is never read. Then
 * the body is read within its bound (413), parsed and checked with the core schema (400 with an
 * OperationOutcome naming the JSON path), recorded in the desk store (src/core/store/types.ts: the local files,
 * or the team store on PostgreSQL) and answered only once the store says it is durable (fsynced, or its
 * transaction committed): POST 201 (200 for a message or notification already stored), PUT and PATCH 200. A
 * message to a closed thread gets 409 and is not stored. A read marker for a message the store has never seen is
 * recorded all the same. If the store cannot write, the answer is 500 and nothing is acknowledged. Several
 * receivers may share one team store: a push of the same Communication id arriving at two of them is stored once
 * and acknowledged by each.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_BODY_DEPTH, describeJsonProblem, readJson } from '../core/json.js';
import { makeOutcome } from '../core/outcome.js';
import { ChatCommunication, ReadMarker, threadOf } from '../core/schemas/chat.js';
import { Notification } from '../core/schemas/notification.js';
import { FieldError } from '../core/errors.js';
import type { DeskRecord, DeskStore, HealthCheck, RecordResult } from '../core/store/types.js';
import { type StoreRecord, type ThreadStore, readAtOf, storeRecord } from '../core/threads/index.js';
import { FHIR_JSON } from '../core/ops.js';
import { parseToken } from '../core/tokens.js';
import { checkContentType, decodeSegment, Fail, portalCommunicationKind, validate, validateClose } from './accept.js';
import {
  BodyBudget,
  createListenServer,
  DEFAULT_LIMITS,
  DEFAULT_SHUTDOWN_SECONDS,
  Gone,
  type ListenLimits,
  readBoundedBody,
  stopServer,
  type TlsFiles,
} from './server.js';

export const DEFAULT_LISTEN_PORT = 4020;
export { MAX_BODY_BYTES } from './accept.js';
export { DEFAULT_LIMITS, DEFAULT_SHUTDOWN_SECONDS, type ListenLimits, type TlsFiles } from './server.js';
const EXTENSION_PATH = /^\/recipient\/\d+\/extension(\/-)?$/;

export interface ReceiverOptions {
  /** Default 4020; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Where pushes are recorded: a desk store (with `profile`), or one profile's local thread store as its owner
   * opened it (the TUI's), through the file engine.
   */
  store: DeskStore | ThreadStore;
  /** The profile whose records these are (default: a thread store's own). */
  profile?: string;
  /** When set, every push needs `Authorization: Bearer <token>` (else 401); `GET /healthz` does not. */
  token?: string;
  /** HTTPS with this certificate and key. */
  tls?: TlsFiles;
  /** Limits on connections, time and bodies (DEFAULT_LIMITS for what is not given). */
  limits?: Partial<ListenLimits>;
  /** Called with each record once it is stored and acknowledged (not for one stored before). */
  onRecord?: (record: StoreRecord) => void;
  /** Internal errors (a store that cannot write); default: a line on stderr. */
  log?: (line: string) => void;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` (https with TLS): the practice side is `${url}/practice`, the portal side `${url}/portal`. */
  url: string;
  port: number;
  server: Server;
  /** Requests being received or answered now. */
  readonly inProgress: number;
  /**
   * Stop accepting, close idle connections, let requests in progress finish for at most `graceMs` (default
   * DEFAULT_SHUTDOWN_SECONDS), then close what is left (the store stays open: its owner closes it). Resolves
   * with the number of requests cut off at the deadline (none of them was acknowledged).
   */
  stop(o?: { graceMs?: number }): Promise<{ cut: number }>;
  /** `stop()` with the default deadline. */
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  record?: StoreRecord;
  /** Close the connection after the answer (the request's body was not read). */
  close?: boolean;
}

/** A refusal before the body is read. */
class Early extends Fail {}

const digest = (s: string) => createHash('sha256').update(s).digest();

type Op = 'C1' | 'C2' | 'C2?' | 'C3/C5' | 'C4' | 'health';

const notAllowed = (method: string, path: string, methods: string[]) =>
  new Early(405, 'not-supported', `Method ${method} is not allowed on ${path}; allowed: ${methods.join(', ')}.`, undefined, {
    allow: methods.join(', '),
  });

/** The operation of a method and path, or a 404/405 refusal. */
function route(method: string, path: string): { op: Op; param?: string } {
  const parts = path.split('/').filter(Boolean);
  const seg = (i: number) => decodeSegment(parts[i]!);
  const allow = (methods: string[], op: Op, param?: string) => {
    if (methods.includes(method)) return { op, param };
    throw notAllowed(method, path, methods);
  };
  if (parts.length === 2 && parts[0] === 'practice' && parts[1] === 'Communication')
    return allow(['POST', 'PATCH'], method === 'PATCH' ? 'C2?' : 'C1');
  if (parts.length === 3 && parts[0] === 'practice' && parts[1] === 'Communication') return allow(['PATCH'], 'C2', seg(2));
  if (parts.length === 2 && parts[0] === 'portal' && parts[1] === 'Communication') return allow(['POST'], 'C3/C5');
  if (parts.length === 3 && parts[0] === 'portal' && parts[1] === 'Encounter') return allow(['PUT'], 'C4', seg(2));
  throw new Early(
    404,
    'not-found',
    `No such route: ${path} (pdesk listen serves /practice/Communication and /portal/Communication, /portal/Encounter/{id}, and GET /healthz).`,
  );
}

/** A thread store is the file engine's store of one profile. */
const isThreadStore = (s: DeskStore | ThreadStore): s is ThreadStore => 'loadIndex' in s;

export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  let store: DeskStore;
  let profile: string;
  if (isThreadStore(o.store)) {
    const { FileDeskStore } = await import('../core/store/file/index.js');
    store = FileDeskStore.over(o.store);
    profile = o.profile ?? o.store.profile;
  } else {
    store = o.store;
    if (o.profile === undefined) throw new Error('startReceiver: a desk store needs the profile');
    profile = o.profile;
  }
  await store.prepare(profile);
  const limits: ListenLimits = { ...DEFAULT_LIMITS, ...o.limits };
  const budget = new BodyBudget(limits.maxBufferedBytes);
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const expected = o.token !== undefined ? digest(`Bearer ${o.token}`) : undefined;
  let stopping = false;

  /** Record what was received; `closed` for a message to a closed thread, and the record to report once stored. */
  async function record(r: DeskRecord): Promise<{ result: RecordResult; record?: StoreRecord }> {
    let result: RecordResult;
    try {
      result = await store.recordReceived(profile, r);
    } catch (e) {
      // An id the store cannot hold (too long for the team store's index) is the sender's to fix, never a 5xx to retry.
      if (e instanceof FieldError)
        throw new Fail(400, 'invalid', e.message, e.field === 'thread' ? '$.encounter.identifier[0].value' : '$.id');
      throw e;
    }
    if (result.outcome !== 'stored') return { result };
    return {
      result,
      record: storeRecord(r.kind === 'read' && result.thread !== undefined ? { ...r, thread: result.thread } : r, 'received'),
    };
  }

  /** Everything that can be refused before the body is read, in this order: a refusal closes the connection. */
  function beforeBody(req: IncomingMessage): { op: Op; param?: string; path: string; query: URLSearchParams } {
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    if (path === '/healthz') {
      if (method !== 'GET' && method !== 'HEAD') throw notAllowed(method, path, ['GET', 'HEAD']);
      return { op: 'health', path, query };
    }
    if (expected) {
      const got = req.headers.authorization;
      if (typeof got !== 'string' || !timingSafeEqual(digest(got), expected))
        throw new Early(401, 'login', 'This receiver needs Authorization: Bearer <token>.', undefined, {
          'www-authenticate': 'Bearer realm="pdesk-listen"',
        });
    }
    const r = route(method, path);
    if (Number(req.headers['content-length']) > limits.maxBodyBytes)
      throw new Early(413, 'too-costly', `The request body is larger than ${limits.maxBodyBytes} bytes.`);
    try {
      checkContentType(method, path, req.headers['content-type']);
    } catch (e) {
      if (e instanceof Fail) throw new Early(e.status, e.code, e.diagnostics, e.expression, e.headers);
      throw e;
    }
    return { ...r, path, query };
  }

  async function health(): Promise<Answer> {
    let checks: HealthCheck[];
    try {
      checks = await store.health();
    } catch (e) {
      checks = [{ name: 'store', ok: false, detail: `the store cannot say (${(e as Error).message})` }];
    }
    checks = [{ name: 'listen', ok: !stopping, detail: stopping ? 'stopping' : 'taking pushes' }, ...checks];
    const ok = checks.every((c) => c.ok);
    return { status: ok ? 200 : 503, body: { ok, checks }, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): Promise<Answer> {
    const { op, param, path, query } = beforeBody(req);
    if (op === 'health') {
      // A body sent with it is not read: the connection ends with the answer.
      const withBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
      return { ...(await health()), close: withBody };
    }
    if (expectsContinue) res.writeContinue();
    let buf: Buffer;
    try {
      buf = await readBoundedBody(req, limits, budget);
    } catch (e) {
      if (e instanceof Fail) return { status: e.status, body: e.outcome, headers: e.headers, close: true };
      throw e;
    }
    const text = buf.toString('utf8');
    if (text.trim() === '') throw new Fail(400, 'required', 'The request body is empty.', '$');
    // Bounded as what pdesk sends (src/core/json.ts): too deep, or not JSON, is a 400, never a 5xx to retry.
    const read = readJson(text, { maxDepth: MAX_BODY_DEPTH });
    if (!read.ok)
      throw new Fail(400, 'invalid', `The request body at ${read.problem.path}: ${describeJsonProblem(read.problem)}.`, read.problem.path);
    const body = read.value;

    const at = new Date().toISOString();
    switch (op) {
      case 'C1':
        return receiveMessage('C1', body, at);
      case 'C3/C5': {
        if (portalCommunicationKind(body) === 'chat') return receiveMessage('C3', body, at);
        const n = validate(Notification, body, 'notification');
        const { result, record: stored } = await record({ kind: 'notification', op: 'C5', at, resource: n });
        return { status: result.outcome === 'stored' ? 201 : 200, body: n, record: stored };
      }
      case 'C2':
      case 'C2?': {
        let id = param;
        if (op === 'C2?') {
          const token = query.get('identifier');
          if (!token)
            throw new Fail(400, 'required', 'A conditional patch needs the search parameter identifier=<system>|<value>.', 'identifier');
          id = parseToken(token).code;
          if (!id) throw new Fail(400, 'invalid', `The identifier "${token}" has no value.`, 'identifier');
        }
        const marker = validate(ReadMarker, body, 'read marker');
        marker.forEach((m, i) => {
          if (!EXTENSION_PATH.test(m.path))
            throw new Fail(
              400,
              'invalid',
              `Invalid read marker at $[${i}].path: expected /recipient/<n>/extension, not ${m.path}.`,
              `$[${i}].path`,
            );
        });
        // The store names the marker's thread from the message it holds, if it holds it.
        const { record: stored } = await record({ kind: 'read', op: 'C2', at, id: id!, readAt: readAtOf(marker), resource: marker });
        return {
          status: 200,
          body: makeOutcome('informational', `Read marker for Communication ${id} recorded.`, 'information'),
          record: stored,
        };
      }
      case 'C4': {
        const enc = validateClose(body, param!);
        const { record: stored } = await record({ kind: 'close', op: 'C4', at, thread: param!, resource: enc });
        return { status: 200, body: enc, record: stored };
      }
    }
    throw new Error(`unrouted ${path}`);
  }

  async function receiveMessage(op: 'C1' | 'C3', body: unknown, at: string): Promise<Answer> {
    const m = validate(ChatCommunication, body, 'Communication');
    const thread = threadOf(m);
    const { result, record: stored } = await record({ kind: 'message', op, at, thread, id: String(m.id), resource: m });
    if (result.outcome === 'closed')
      throw new Fail(409, 'conflict', `Chat ${thread} is closed: it accepts no new messages.`, '$.encounter.identifier[0].value');
    const location = { location: `Communication/${encodeURIComponent(m.id)}` };
    return { status: result.outcome === 'stored' ? 201 : 200, body: m, headers: location, record: stored };
  }

  function send(req: IncomingMessage, res: ServerResponse, a: Answer): void {
    if (res.headersSent || res.destroyed) return;
    const text = a.body === undefined ? '' : JSON.stringify(a.body);
    const headers: Record<string, string | number> = { 'content-type': FHIR_JSON, 'content-length': Buffer.byteLength(text), ...a.headers };
    // A body left unread, or a stop under way: the connection ends after this answer (node closes it once
    // the answer is out, without reading the rest).
    if (a.close || stopping) headers.connection = 'close';
    res.writeHead(a.status, headers);
    res.end(req.method === 'HEAD' ? undefined : text);
  }

  const inflight = new Set<Promise<void>>();
  const onRequest = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => {
    const done: Promise<void> = handle(req, res, expectsContinue)
      .catch((e: unknown): Answer | undefined => {
        if (e instanceof Early) return { status: e.status, body: e.outcome, headers: e.headers, close: true };
        if (e instanceof Fail) return { status: e.status, body: e.outcome, headers: e.headers };
        if (e instanceof Gone) return undefined;
        log(`pdesk listen: could not store ${req.method} ${req.url}: ${(e as Error)?.message ?? String(e)}`);
        return {
          status: 500,
          body: makeOutcome('exception', 'The message could not be stored; it was not accepted. Send it again later.'),
        };
      })
      .then((a) => {
        if (!a) return;
        send(req, res, a);
        if (a.record) {
          try {
            o.onRecord?.(a.record);
          } catch {
            /* a printing problem never affects what was stored */
          }
        }
      })
      .catch(() => {
        res.destroy();
      })
      .finally(() => inflight.delete(done));
    inflight.add(done);
  };
  const server = await createListenServer(limits, onRequest, o.tls);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? DEFAULT_LISTEN_PORT, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = o.host ?? '127.0.0.1';
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let closingAll: Promise<{ cut: number }> | undefined;
  const receiver: Receiver = {
    url: `${o.tls ? 'https' : 'http'}://${shownHost}:${addr.port}`,
    port: addr.port,
    server,
    get inProgress() {
      return inflight.size;
    },
    stop(c = {}) {
      closingAll ??= (async () => {
        stopping = true;
        const cut = await stopServer(server, inflight, c.graceMs ?? DEFAULT_SHUTDOWN_SECONDS * 1000);
        // A desk made here over the owner's thread store holds nothing of its own to close but what it watches.
        if (isThreadStore(o.store)) await store.close();
        return { cut };
      })();
      return closingAll;
    },
    async close() {
      await receiver.stop();
    },
  };
  return receiver;
}
