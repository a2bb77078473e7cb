/**
 * Request traces from the command line, in-process against a sandbox that wants a bearer token: `--trace <file>`
 * and PDESK_TRACE record every request and answer of a run (headers and bodies, the token redacted, mode 0600);
 * `pdesk trace show` prints them; `--curl` prints curl lines that, run by bash with the token in the variable the
 * comment names, send the same requests to the sandbox again.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Env, tempDir, withSandbox, writeProfiles } from '../../../helpers/run.js';

const TOKEN = 'trace-cli-token-16180';
const vars = { SANDBOX_TOKEN: TOKEN };

let env: Env;
beforeAll(async () => {
  env = await withSandbox({ token: TOKEN });
  const auth = { type: 'bearer' as const, tokenEnv: 'SANDBOX_TOKEN' };
  writeProfiles(env.configDir, [
    { ...env.profile, practice: { baseUrl: `${env.sandbox.url}/practice`, auth }, portal: { baseUrl: `${env.sandbox.url}/portal`, auth } },
  ]);
});
afterAll(() => env.close());

const notify = ['notifications', 'send', '--email', 'emma.jansen@example.org', '--topic', 'Lab', '--text', "It's in: all fine."];
const message = [
  'chat',
  'send',
  '--thread',
  'enc-100',
  '--text',
  'Thanks',
  '--sender',
  'Patient/pat-1',
  '--recipient',
  'PractitionerRole/1001',
  '--subject',
  'Patient/pat-1',
];

describe('--trace and PDESK_TRACE', () => {
  it('record every exchange of a run, headers and bodies, without the token, in a 0600 file', async () => {
    const file = join(tempDir(), 'run.trace');
    expect((await env.run(['appointments', 'list', '--json', '--trace', file], { env: vars })).code).toBe(0);
    expect((await env.run([...notify, '--json'], { env: { ...vars, PDESK_TRACE: file } })).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // A write has a line as it leaves (`sending`, written ahead of its answer), then its exchange.
    expect(lines.map((l) => l.trace ?? `${l.op} ${l.method} ${l.sending ? 'sending' : l.status}`)).toEqual([
      'pdesk-trace',
      'A5 GET 200',
      'pdesk-trace',
      'C5 POST sending',
      'C5 POST 201',
    ]);
    expect(lines[0]).toMatchObject({ profile: 'sandbox', auth: { practice: { type: 'bearer' }, portal: { type: 'bearer' } } });
    for (const l of lines.slice(3)) {
      expect(l).toMatchObject({ party: 'portal', requestHeaders: { authorization: 'Bearer ***' } });
      expect(JSON.parse(l.requestBody).payload[0].contentString).toBe("It's in: all fine.");
    }
    expect(lines[3].startedAt).toBe(lines[4].startedAt);
    expect(JSON.parse(lines[1].responseBody).resourceType).toBe('Bundle');
  });

  it('a trace file that cannot be written is exit 2, before anything is sent', async () => {
    const before = env.sandbox.received.length;
    const r = await env.run([...notify, '--trace', '/nonexistent/dir/t.ndjson'], { env: vars });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('pdesk: --trace names /nonexistent/dir/t.ndjson, which cannot be written (ENOENT).\n');
    expect(env.sandbox.received.length).toBe(before);
  });
});

describe('pdesk trace show', () => {
  it('prints each request and answer readably, or as JSON', async () => {
    const file = join(tempDir(), 'show.trace');
    await env.run([...notify, '--trace', file], { env: vars });
    const r = await env.run(['trace', 'show', file], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^#1 \\S+ C5 POST ${env.sandbox.url}/portal/Communication → HTTP 201 Created \\(\\d+ ms\\)$`, 'm'));
    expect(r.stdout).toContain('  > authorization: Bearer ***');
    expect(r.stdout).toContain(`  >   "resourceType": "Communication",`);
    expect(r.stdout).toMatch(/^ {2}< content-type: application\/fhir\+json$/m);
    const json = (await env.run(['trace', 'show', file, '--json'])).json();
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ op: 'C5', method: 'POST', status: 201 });
  });

  it('--curl lines replay against the sandbox: same requests, the token from the variable the comment names', async () => {
    const file = join(tempDir(), 'replay.trace');
    expect((await env.run([...notify, '--trace', file], { env: vars })).code).toBe(0);
    expect((await env.run([...message, '--trace', file], { env: vars })).code).toBe(0);
    expect((await env.run(['medications', 'list', '--trace', file], { env: vars })).code).toBe(0);
    const traced = env.sandbox.received.slice(-3);
    const r = await env.run(['trace', 'show', file, '--curl']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(TOKEN);
    expect(r.stdout).toContain('#   PDESK_PORTAL_TOKEN:');
    expect(r.stdout).toContain('#   PDESK_PRACTICE_TOKEN:');
    const before = env.sandbox.received.length;
    // Asynchronously: the sandbox answers from this process, so a synchronous child would wait on it forever.
    const { stdout: out } = await promisify(execFile)('bash', ['-c', r.stdout], {
      encoding: 'utf8',
      env: { ...process.env, PDESK_PRACTICE_TOKEN: TOKEN, PDESK_PORTAL_TOKEN: TOKEN },
    });
    const replayed = env.sandbox.received.slice(before);
    expect(replayed.map((q) => `${q.method} ${q.path}?${q.query}`)).toEqual(traced.map((q) => `${q.method} ${q.path}?${q.query}`));
    expect(replayed.map((q) => q.body)).toEqual(traced.map((q) => q.body));
    expect(replayed.every((q) => q.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    // curl -i prints a body without a line break after it: the next status line follows it on the same line. The
    // notification is sent again (201); the chat message carries its id, so the portal knows it and answers 200
    // with the stored one (C3, nothing stored twice): the replay is the same request, and is safe to run.
    expect(out.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 201', 'HTTP/1.1 200', 'HTTP/1.1 200']);
  });

  it('a torn last line is skipped with a warning', async () => {
    const file = join(tempDir(), 'torn.trace');
    await env.run([...notify, '--trace', file], { env: vars });
    const { appendFileSync } = await import('node:fs');
    appendFileSync(file, '{"op":"C5","meth');
    const r = await env.run(['trace', 'show', file, '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toHaveLength(1);
    expect(r.stderr).toBe(`pdesk: warning: the trace ${file}: the last line (4) is incomplete, a write torn by a crash; skipped.\n`);
  });
});
