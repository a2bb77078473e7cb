/**
 * The write audit trail (src/core/audit.ts): the record's fields, the body's hash over the exact bytes sent and
 * its redaction, file and folder modes, a torn last line skipped by readers and ended by the next writer, group
 * commit; write-ahead: an intent on disk before the request leaves, completed after, joined by readAudit, and an
 * intent left alone read as outcome unknown; and through the client: every write recorded once (answered, refused
 * by the server, unanswered, abandoned), reads never, and a trail that cannot be opened sends nothing.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, auditPath, completionLine, intentLine, osUser, readAudit, redactBody } from '../../src/core/audit.js';
import { bootId } from '../../src/core/durable-log.js';
import { PdeskClient } from '../../src/core/client.js';
import { ConfigError, HttpError, NetworkError } from '../../src/core/errors.js';
import { registerSecret } from '../../src/core/redact.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { tempDir } from '../helpers/config.js';
import { closeAfterEach, stubServer } from '../helpers/http.js';

const TOKEN = 'audit-secret-token-90210';
process.env.PDESK_TEST_AUDIT_TOKEN = TOKEN;

function profileFor(url: string, more: Record<string, unknown> = {}): Profile {
  return Profile.parse({
    ...sandboxProfile(url, { name: 'acme' }),
    environment: 'test',
    practice: { baseUrl: `${url}/practice`, auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_AUDIT_TOKEN' } },
    retries: { max: 0 },
    ...more,
  });
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('intentLine and completionLine', () => {
  const profile = Profile.parse({ ...sandboxProfile('http://h'), name: 'p1', environment: 'production' });
  const entry = {
    op: 'A6' as const,
    method: 'POST',
    url: 'http://h/practice/Appointment',
    headers: { authorization: 'Bearer header-only-credential', 'content-type': 'application/fhir+json' },
    startedAt: Date.UTC(2026, 2, 1, 9, 30),
  };

  it('the intent has the time, user, profile, environment, operation, method, URL, id and a SHA-256 of the bytes sent', () => {
    const text = '{"resourceType":"Appointment","comment":"Ünïcode"}';
    const rec = JSON.parse(intentLine(profile, { ...entry, bodyText: text, bodyIsJson: true }, { bodies: true, user: 'ann', id: 'r.1' }));
    expect(rec).toEqual({
      at: '2026-03-01T09:30:00.000Z',
      user: 'ann',
      profile: 'p1',
      environment: 'production',
      op: 'A6',
      method: 'POST',
      url: 'http://h/practice/Appointment',
      id: 'r.1',
      bodySha256: createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'),
      body: { resourceType: 'Appointment', comment: 'Ünïcode' },
    });
    expect(osUser()).toMatch(/\S/);
    expect(JSON.parse(completionLine('r.1', { status: 201, ms: 12 }))).toEqual({ id: 'r.1', status: 201, ms: 12 });
  });

  it('redacts registered secrets and the credentials of its own headers in the body; the hash is of what was sent', () => {
    registerSecret('registered-secret-4242');
    const text = JSON.stringify({ note: 'a registered-secret-4242 and header-only-credential inside' });
    const line = intentLine(profile, { ...entry, bodyText: text, bodyIsJson: true }, { bodies: true, id: 'r.1' });
    expect(line).not.toContain('registered-secret-4242');
    expect(line).not.toContain('header-only-credential');
    const rec = JSON.parse(line);
    expect(rec.body.note).toBe('a *** and *** inside');
    expect(rec.bodySha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(redactBody('x header-only-credential', entry.headers)).toBe('x ***');
    expect(completionLine('r.1', { ms: 3, error: { name: 'NetworkError', message: 'reset by registered-secret-4242' } })).not.toContain(
      'registered-secret-4242',
    );
  });

  it('audit.bodies false leaves the body out and keeps the hash; an error stands where the status would', () => {
    const rec = JSON.parse(intentLine(profile, { ...entry, bodyText: '{}' }, { bodies: false, id: 'r.2', ahead: true }));
    expect(rec.body).toBeUndefined();
    expect(rec.ahead).toBe(true);
    expect(rec.bodySha256).toHaveLength(64);
    expect(JSON.parse(completionLine('r.2', { ms: 5, error: { name: 'NetworkError', message: 'No answer', code: 'TIMEOUT' } }))).toEqual({
      id: 'r.2',
      error: { name: 'NetworkError', message: 'No answer', code: 'TIMEOUT' },
      ms: 5,
    });
  });

  it('a body that is not JSON is kept as text, on one line', () => {
    const line = intentLine(profile, { ...entry, bodyText: 'line one\nline two' }, { bodies: true, id: 'r.3' });
    expect(line).not.toContain('\n');
    expect(JSON.parse(line).body).toBe('line one\nline two');
  });
});

describe('intentLine writes what JSON.stringify of the intent would, key for key and byte for byte', () => {
  const reference = (p: Profile, e: Parameters<typeof intentLine>[1], user: string) =>
    JSON.stringify({
      at: new Date(e.startedAt).toISOString(),
      user,
      profile: p.name,
      ...(p.environment ? { environment: p.environment } : {}),
      ...(e.op ? { op: e.op } : {}),
      method: e.method,
      url: e.url,
      id: 'x.7',
      ...(e.bodyText !== undefined ? { bodySha256: createHash('sha256').update(e.bodyText).digest('hex') } : {}),
    });
  const prod = Profile.parse({ ...sandboxProfile('http://h'), name: 'p1', environment: 'production' });
  const plain = Profile.parse({ ...sandboxProfile('http://h'), name: 'p2' });
  const base = { method: 'POST', url: 'http://h/portal/Communication', headers: {}, startedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 6) };
  const entries: Array<[Profile, Parameters<typeof intentLine>[1]]> = [
    [prod, { ...base, op: 'C5', bodyText: '{"a":"\u00e9"}' }],
    [prod, { ...base, op: 'C5', url: 'http://h/portal/Communication?x="q"', bodyText: 'é' }],
    [plain, { ...base, op: 'C5' }],
    [plain, { ...base, method: 'PATCH' }],
    [prod, { ...base, op: 'A6' }],
    [prod, { ...base, op: 'C5', bodyText: '{"a":"\u00e9"}' }],
  ];
  it('for each record, in turns that change the profile, operation, method and URL between writes', () => {
    for (const [p, e] of entries) expect(intentLine(p, e, { bodies: false, user: 'ann', id: 'x.7' })).toBe(reference(p, e, 'ann'));
    // The user too: the same write by another user.
    expect(intentLine(prod, entries[0]![1], { bodies: false, user: 'bob', id: 'x.7' })).toBe(reference(prod, entries[0]![1], 'bob'));
    for (const end of [
      { status: 201, ms: 7 },
      { error: { name: 'NetworkError', message: 'reset "x"', code: 'ECONNRESET' }, ms: 0 },
    ])
      expect(completionLine('x.7', end)).toBe(JSON.stringify({ id: 'x.7', ...end }));
  });
});

describe('AuditLog', () => {
  const base = { method: 'POST', url: 'http://h/portal/Communication', headers: {}, startedAt: Date.now() };

  it('makes the folder 0700 and the file 0600; intents are on disk when durable resolves, concurrent ones in one fsync', async () => {
    const dir = tempDir();
    const log = new AuditLog(dir, profileFor('http://h'));
    const w = await log.ready();
    const intents = Array.from({ length: 20 }, (_, i) => log.begin({ ...base, bodyText: JSON.stringify({ i }), bodyIsJson: true }));
    await Promise.all(intents.map((i) => i.durable));
    expect(intents.every((i) => i.done)).toBe(true);
    expect(w.batches).toBeLessThan(20);
    await Promise.all(intents.map((i) => log.complete(i, { status: 201, ms: 1 })));
    const all = lines(log.path);
    expect(all[0]).toMatchObject({ run: expect.any(String), pid: process.pid });
    expect(all).toHaveLength(41);
    expect(readAudit(log.path).records).toHaveLength(20);
    expect(statSync(log.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'audit')).mode & 0o777).toBe(0o700);
    expect(log.path).toBe(auditPath(dir, 'acme'));
    await log.close();
  });

  it('a torn last line (a crash mid-write) is skipped by readers with a warning, and ended by the next writer', async () => {
    const dir = tempDir();
    const path = auditPath(dir, 'acme');
    mkdirSync(join(dir, 'audit'), { recursive: true });
    writeFileSync(path, '{"at":"2026-03-01T09:00:00.000Z","method":"POST","url":"u","ms":1,"status":201}\n{"at":"2026-03-01T09:0', {
      mode: 0o600,
    });
    const before = readAudit(path);
    expect(before.records).toHaveLength(1);
    expect(before.warnings).toEqual([`the audit trail ${path}: the last line (2) is incomplete, a write torn by a crash; skipped.`]);
    const log = new AuditLog(dir, profileFor('http://h'));
    await log.ready();
    const i = log.begin({ ...base, method: 'PUT', url: 'http://h/x' });
    await i.durable;
    await log.complete(i, { status: 200, ms: 2 });
    await log.close();
    const after = readAudit(path);
    expect(after.records.map((r) => [r.method, r.status])).toEqual([
      ['POST', 201],
      ['PUT', 200],
    ]);
    expect(after.warnings).toEqual([`the audit trail ${path}: line 2 is not a JSON record; skipped.`]);
  });
});

describe('readAudit joins each intent with its completion', () => {
  const intent = (id: string, more: Record<string, unknown> = {}) => ({
    at: '2026-03-01T09:00:00.000Z',
    user: 'ann',
    profile: 'acme',
    op: 'C5',
    method: 'POST',
    url: 'http://h/portal/Communication',
    id,
    bodySha256: 'ab',
    ...more,
  });
  const write = (text: unknown[]) => {
    const path = auditPath(tempDir(), 'acme');
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text.map((l) => `${JSON.stringify(l)}\n`).join(''));
    return path;
  };

  it('answered, unanswered, unknown, withdrawn, written ahead and never started, and records from before write-ahead', () => {
    const path = write([
      { at: '2026-02-01T00:00:00.000Z', user: 'old', profile: 'acme', method: 'POST', url: 'u', status: 201, ms: 3 },
      { run: 'A', boot: bootId(), pid: 1 },
      { run: 'B', boot: 'another-boot', pid: 2 },
      intent('A.1'),
      intent('A.2'),
      intent('A.3'),
      intent('A.4'),
      intent('A.5', { ahead: true }),
      intent('A.6', { ahead: true }),
      intent('B.1', { ahead: true }),
      intent('A.7', { ahead: true }),
      { id: 'A.1', status: 201, ms: 12 },
      { id: 'A.2', error: { name: 'NetworkError', message: 'reset', code: 'ECONNRESET' }, ms: 30 },
      { id: 'A.4', sent: false },
      { id: 'A.6', started: '2026-03-01T09:00:05.000Z' },
      { id: 'A.7', started: '2026-03-01T09:00:06.000Z' },
      { id: 'A.7', status: 201, ms: 4 },
    ]);
    const { records, warnings } = readAudit(path);
    expect(warnings).toEqual([]);
    const shown = records.map((r) => [r.user, r.at, r.status ?? r.error?.code ?? r.outcome, r.ms]);
    expect(shown).toEqual([
      ['old', '2026-02-01T00:00:00.000Z', 201, 3],
      ['ann', '2026-03-01T09:00:00.000Z', 201, 12],
      ['ann', '2026-03-01T09:00:00.000Z', 'ECONNRESET', 30],
      ['ann', '2026-03-01T09:00:00.000Z', 'unknown', undefined], // A.3: written before it left, nothing after
      // A.4 withdrawn, A.5 written ahead and never started in this boot: never sent, left out.
      ['ann', '2026-03-01T09:00:05.000Z', 'unknown', undefined], // A.6: started, no answer recorded
      ['ann', '2026-03-01T09:00:00.000Z', 'unknown', undefined], // B.1: another boot may have lost its started line
      ['ann', '2026-03-01T09:00:06.000Z', 201, 4],
    ]);
    // Keys in AuditRecord's order; no record id, no `ahead`.
    expect(Object.keys(records[1]!)).toEqual(['at', 'user', 'profile', 'op', 'method', 'url', 'status', 'ms', 'bodySha256']);
    expect(Object.keys(records[3]!)).toEqual(['at', 'user', 'profile', 'op', 'method', 'url', 'outcome', 'bodySha256']);
  });
});

describe('the client audits every write where it sends it', () => {
  it('once per write, answered or refused by the server, with no secret in the file; reads are not audited', async () => {
    const dir = tempDir();
    const stub = await stubServer((req, res) => {
      const refuse = req.url === '/practice/AppointmentResponse';
      res.writeHead(refuse ? 409 : req.method === 'GET' ? 200 : 201, { 'content-type': 'application/fhir+json' });
      res.end(JSON.stringify(refuse ? { resourceType: 'OperationOutcome', issue: [] } : { resourceType: 'Bundle' }));
    });
    const c = closeAfterEach(new PdeskClient(profileFor(stub.url), { audit: { dir } }));
    await c.call('A5');
    await c.call('A6', { body: { resourceType: 'Appointment', note: `token ${TOKEN}` } });
    await expect(c.call('A7', { body: { resourceType: 'AppointmentResponse' } })).rejects.toBeInstanceOf(HttpError);
    await c.raw('DELETE', 'practice', '/Appointment/1');
    const path = auditPath(dir, 'acme');
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(TOKEN);
    const recs = readAudit(path).records as any[];
    expect(recs.map((r) => [r.op, r.method, r.status])).toEqual([
      ['A6', 'POST', 201],
      ['A7', 'POST', 409],
      [undefined, 'DELETE', 201],
    ]);
    expect(recs[0]).toMatchObject({ profile: 'acme', environment: 'test', url: `${stub.url}/practice/Appointment` });
    expect(recs[0].body.note).toBe('token ***');
    expect(stub.received.map((r) => r.method)).toEqual(['GET', 'POST', 'POST', 'DELETE']);
  });

  it('a write with no answer, or abandoned, is recorded with its error', async () => {
    const dir = tempDir();
    const stub = await stubServer(() => undefined); // never answers
    const c = closeAfterEach(new PdeskClient(profileFor(stub.url), { audit: { dir } }));
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 50);
    await expect(c.call('C5', { body: { resourceType: 'Communication' }, signal: ctrl.signal })).rejects.toBeInstanceOf(NetworkError);
    await stub.close();
    // A second client (no pooled connection): the server is gone.
    const c2 = closeAfterEach(new PdeskClient(profileFor(stub.url), { audit: { dir } }));
    await expect(c2.call('C5', { body: { resourceType: 'Communication' } })).rejects.toBeInstanceOf(NetworkError);
    const recs = readAudit(auditPath(dir, 'acme')).records;
    expect(recs.map((r) => [r.op, r.status, r.error?.code])).toEqual([
      ['C5', undefined, 'ABORTED'],
      ['C5', undefined, 'ECONNREFUSED'],
    ]);
  });

  it('a trail that cannot be opened stops the write before it is sent (exit 3)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'audit'), { mode: 0o500 });
    chmodSync(join(dir, 'audit'), 0o500);
    const stub = await stubServer((_q, res) => res.end());
    const c = closeAfterEach(new PdeskClient(profileFor(stub.url), { audit: { dir } }));
    const e = await c.call('A6', { body: {} }).catch((x) => x);
    chmodSync(join(dir, 'audit'), 0o700);
    if (process.getuid?.() === 0) return; // root writes anyway
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toBe(`The audit trail ${auditPath(dir, 'acme')} cannot be opened for writing (EACCES); nothing was sent.`);
    expect(stub.received).toHaveLength(0);
    expect(existsSync(auditPath(dir, 'acme'))).toBe(false);
  });

  it('hands the durability over to a caller that asks (a bulk send), who awaits it', async () => {
    const dir = tempDir();
    const stub = await stubServer((_q, res) => {
      res.writeHead(201);
      res.end();
    });
    const c = closeAfterEach(new PdeskClient(profileFor(stub.url), { audit: { dir } }));
    let durable: Promise<void> | undefined;
    await c.dispatch({ ...(await c.request('C5', { body: {} })), audited: (p) => (durable = p) });
    expect(durable).toBeInstanceOf(Promise);
    await durable;
    expect(readAudit(auditPath(dir, 'acme')).records.map((r) => r.status)).toEqual([201]);
  });

  it('writes ahead: the record is on disk before the request reaches the server, completed after the answer', async () => {
    const dir = tempDir();
    const path = auditPath(dir, 'acme');
    const seenByServer: unknown[][] = [];
    const stub = await stubServer((_q, res) => {
      // What the trail holds at the moment the server has the request.
      seenByServer.push(readAudit(path).records.map((r) => [r.op, r.status, r.outcome]));
      res.writeHead(201);
      res.end();
    });
    const c = closeAfterEach(new PdeskClient(profileFor(stub.url), { audit: { dir } }));
    await c.call('C5', { body: { resourceType: 'Communication', n: 1 } });
    await c.call('A6', { body: { resourceType: 'Appointment' } });
    expect(seenByServer).toEqual([
      [['C5', undefined, 'unknown']],
      [
        ['C5', 201, undefined],
        ['A6', undefined, 'unknown'],
      ],
    ]);
    expect(readAudit(path).records.map((r) => [r.op, r.status, r.outcome])).toEqual([
      ['C5', 201, undefined],
      ['A6', 201, undefined],
    ]);
  });

  it('an intent that cannot be written (a full disk) stops the write before it is sent', async () => {
    const { existsSync: exists, symlinkSync } = await import('node:fs');
    if (!exists('/dev/full')) return; // Linux: every write to /dev/full fails with ENOSPC
    const dir = tempDir();
    mkdirSync(join(dir, 'audit'), { recursive: true });
    symlinkSync('/dev/full', auditPath(dir, 'acme'));
    const stub = await stubServer((_q, res) => {
      res.writeHead(201);
      res.end();
    });
    const c = closeAfterEach(new PdeskClient(profileFor(stub.url), { audit: { dir } }));
    const e = await c.call('C5', { body: {} }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message).toMatch(/^Cannot write the audit trail .* \(ENOSPC\)\.$/);
    expect((e as { details: string[] }).details).toContain(
      'C5 was not sent: every write is recorded in the audit trail before it is sent.',
    );
    expect(stub.received).toHaveLength(0);
  });

  it("the caller's own record (beforeSend) comes after the intent and before the request; its failure sends nothing", async () => {
    const dir = tempDir();
    const path = auditPath(dir, 'acme');
    const stub = await stubServer((_q, res) => {
      res.writeHead(201);
      res.end();
    });
    const c = closeAfterEach(new PdeskClient(profileFor(stub.url), { audit: { dir } }));
    const order: string[] = [];
    await c.call('C5', {
      body: {},
      beforeSend: () => {
        order.push(`intent ${readAudit(path).records[0]?.outcome}`, `server ${stub.received.length}`);
      },
    });
    expect(order).toEqual(['intent unknown', 'server 0']);
    const e = await c.call('C5', { body: {}, beforeSend: () => Promise.reject(new Error('store full')) }).catch((x: unknown) => x);
    expect((e as Error).message).toBe('store full');
    expect(stub.received).toHaveLength(1);
    expect(readAudit(path).records).toHaveLength(1); // the withdrawn intent is left out
  });
});
