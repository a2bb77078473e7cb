/**
 * The write audit trail (src/core/audit.ts): the record's fields, the body's hash over the exact bytes sent and
 * its redaction, file and folder modes, a torn last line skipped by readers and ended by the next writer, group
 * commit; and through the client: every write recorded once (answered, refused by the server, unanswered,
 * abandoned), reads never, and a trail that cannot be opened sends nothing.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, auditLine, auditPath, osUser, readAudit, redactBody } from '../../src/core/audit.js';
import { PdeskClient } from '../../src/core/client.js';
import { ConfigError, HttpError, NetworkError } from '../../src/core/errors.js';
import { registerSecret } from '../../src/core/redact.js';
import { Profile } from '../../src/profiles/schema.js';
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

describe('auditLine', () => {
  const profile = Profile.parse({ ...sandboxProfile('http://h'), name: 'p1', environment: 'production' });
  const entry = {
    op: 'A6' as const,
    method: 'POST',
    url: 'http://h/practice/Appointment',
    headers: { authorization: 'Bearer header-only-credential', 'content-type': 'application/fhir+json' },
    startedAt: Date.UTC(2026, 2, 1, 9, 30),
    ms: 12,
    status: 201,
  };

  it('has the time, user, profile, environment, operation, method, URL, status, duration and a SHA-256 of the bytes sent', () => {
    const text = '{"resourceType":"Appointment","comment":"Ünïcode"}';
    const rec = JSON.parse(auditLine(profile, { ...entry, bodyText: text, bodyIsJson: true }, { bodies: true, user: 'ann' }));
    expect(rec).toEqual({
      at: '2026-03-01T09:30:00.000Z',
      user: 'ann',
      profile: 'p1',
      environment: 'production',
      op: 'A6',
      method: 'POST',
      url: 'http://h/practice/Appointment',
      status: 201,
      ms: 12,
      bodySha256: createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'),
      body: { resourceType: 'Appointment', comment: 'Ünïcode' },
    });
    expect(osUser()).toMatch(/\S/);
  });

  it('redacts registered secrets and the credentials of its own headers in the body; the hash is of what was sent', () => {
    registerSecret('registered-secret-4242');
    const text = JSON.stringify({ note: 'a registered-secret-4242 and header-only-credential inside' });
    const line = auditLine(profile, { ...entry, bodyText: text, bodyIsJson: true }, { bodies: true });
    expect(line).not.toContain('registered-secret-4242');
    expect(line).not.toContain('header-only-credential');
    const rec = JSON.parse(line);
    expect(rec.body.note).toBe('a *** and *** inside');
    expect(rec.bodySha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(redactBody('x header-only-credential', entry.headers)).toBe('x ***');
  });

  it('audit.bodies false leaves the body out and keeps the hash; an error stands where the status would', () => {
    const rec = JSON.parse(
      auditLine(
        profile,
        { ...entry, status: undefined, error: { name: 'NetworkError', message: 'No answer', code: 'TIMEOUT' }, bodyText: '{}' },
        { bodies: false },
      ),
    );
    expect(rec.body).toBeUndefined();
    expect(rec.status).toBeUndefined();
    expect(rec.error).toEqual({ name: 'NetworkError', message: 'No answer', code: 'TIMEOUT' });
    expect(rec.bodySha256).toHaveLength(64);
  });

  it('a body that is not JSON is kept as text, on one line', () => {
    const line = auditLine(profile, { ...entry, bodyText: 'line one\nline two' }, { bodies: true });
    expect(line).not.toContain('\n');
    expect(JSON.parse(line).body).toBe('line one\nline two');
  });
});

describe('auditLine writes what JSON.stringify of the record would, key for key and byte for byte', () => {
  const reference = (p: Profile, e: Parameters<typeof auditLine>[1], user: string) =>
    JSON.stringify({
      at: new Date(e.startedAt).toISOString(),
      user,
      profile: p.name,
      ...(p.environment ? { environment: p.environment } : {}),
      ...(e.op ? { op: e.op } : {}),
      method: e.method,
      url: e.url,
      ...(e.status !== undefined ? { status: e.status } : {}),
      ...(e.error ? { error: e.error } : {}),
      ms: e.ms,
      ...(e.bodyText !== undefined ? { bodySha256: createHash('sha256').update(e.bodyText).digest('hex') } : {}),
    });
  const prod = Profile.parse({ ...sandboxProfile('http://h'), name: 'p1', environment: 'production' });
  const plain = Profile.parse({ ...sandboxProfile('http://h'), name: 'p2' });
  const base = { method: 'POST', url: 'http://h/portal/Communication', headers: {}, startedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 6), ms: 7 };
  const entries: Array<[Profile, Parameters<typeof auditLine>[1]]> = [
    [prod, { ...base, op: 'C5', status: 201, bodyText: '{"a":"\u00e9"}' }],
    [prod, { ...base, op: 'C5', status: 201, url: 'http://h/portal/Communication?x="q"', bodyText: 'é' }],
    [plain, { ...base, op: 'C5', status: 201 }],
    [plain, { ...base, method: 'PATCH', status: 500, ms: 0 }],
    [prod, { ...base, op: 'A6', error: { name: 'NetworkError', message: 'reset "x"', code: 'ECONNRESET' } }],
    [prod, { ...base, op: 'C5', status: 201, bodyText: '{"a":"\u00e9"}' }],
  ];
  it('for each record, in turns that change the profile, operation, method and URL between writes', () => {
    for (const [p, e] of entries) expect(auditLine(p, e, { bodies: false, user: 'ann' })).toBe(reference(p, e, 'ann'));
    // The user too: the same write by another user.
    expect(auditLine(prod, entries[0]![1], { bodies: false, user: 'bob' })).toBe(reference(prod, entries[0]![1], 'bob'));
  });
});

describe('AuditLog', () => {
  it('makes the folder 0700 and the file 0600; records are on disk when record() resolves, concurrent ones in one fsync', async () => {
    const dir = tempDir();
    const profile = profileFor('http://h');
    const log = new AuditLog(dir, profile);
    const base = { method: 'POST', url: 'http://h/portal/Communication', headers: {}, startedAt: Date.now(), ms: 1, status: 201 };
    await Promise.all(Array.from({ length: 20 }, (_, i) => log.record({ ...base, bodyText: JSON.stringify({ i }), bodyIsJson: true })));
    const w = await log.ready();
    expect(w.batches).toBeLessThan(20);
    expect(lines(log.path)).toHaveLength(20);
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
    await log.record({ method: 'PUT', url: 'http://h/x', headers: {}, startedAt: Date.now(), ms: 2, status: 200 });
    await log.close();
    const after = readAudit(path);
    expect(after.records.map((r) => r.method)).toEqual(['POST', 'PUT']);
    expect(after.warnings).toEqual([`the audit trail ${path}: line 2 is not a JSON record; skipped.`]);
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
    const recs = lines(path);
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
    const recs = lines(auditPath(dir, 'acme'));
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
    await c.call('C5', { body: {}, audited: (p) => (durable = p) });
    expect(durable).toBeInstanceOf(Promise);
    await durable;
    expect(lines(auditPath(dir, 'acme'))).toHaveLength(1);
  });
});
