/**
 * Error handling of the entry point (src/cli/main.ts, runProgram and reportError), run in-process (cli.md exit
 * codes; DEVELOPERS.md ground rules): exit code AND message for bad options, bad profiles, a server that is down,
 * 4xx/5xx answers, answers that break the interface (a pager without end too), non-JSON bodies, hostile control
 * sequences, secrets in --verbose and --dry-run, retries (idempotent only), and every field error worded as an
 * option its command has. The sandbox cannot produce most of these answers, so a tiny node:http server on port 0
 * answers what each test needs (still real HTTP). test/process/exit-codes.test.ts checks the process's own codes.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProfileInput } from '../../src/core/profile/schema.js';
import { type CliResult, run as runPdesk, tempDir, writeProfiles } from '../helpers/run.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

const TOKEN = 'err-T0KEN-7b6a5c4d3e';
const GP = 'urn:pdesk:service-category|gp';
let handler: Handler = (_q, res) => res.writeHead(500).end();
let received: Received[] = [];
let server: ReturnType<typeof createServer>;
let origin: string;
let configDir: string;

function profile(extra: Partial<ProfileInput> = {}): ProfileInput {
  return {
    name: 'fake',
    namespaces: { portal: 'portal.example', practice: 'practice.example' },
    practice: { baseUrl: `${origin}/practice`, auth: { type: 'bearer', tokenEnv: 'PDESK_ERR_TOKEN' } },
    portal: { baseUrl: `${origin}/portal`, auth: { type: 'none' } },
    ...extra,
  };
}

const run = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runPdesk(args, { configDir, env: { PDESK_ERR_TOKEN: TOKEN, ...env } });

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/fhir+json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const outcome = (code: string, diagnostics: string) => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code, diagnostics }],
});
const valueSet = (display: string) => ({
  resourceType: 'ValueSet',
  status: 'active',
  compose: { include: [{ concept: [{ code: 'consult', display }] }] },
});
const slot = (extra: Record<string, unknown> = {}) => ({
  resourceType: 'Slot',
  id: 's-1',
  status: 'free',
  start: '2099-03-02T09:00:00Z',
  end: '2099-03-02T09:30:00Z',
  ...extra,
});
const bookArgs = [
  'appointments',
  'book',
  '--patient',
  'p1',
  '--comment',
  'x',
  '--start',
  '2099-03-02T09:00:00Z',
  '--end',
  '2099-03-02T09:30:00Z',
  '--practitioner',
  '1001',
  '--service-category',
  GP,
];

/** No stack trace: no `    at fn (file:line)` lines. */
const noStack = (r: CliResult) => expect(r.stderr).not.toMatch(/^\s+at .+[:(]/m);
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() });
      handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  configDir = tempDir('pdesk-errors-');
  writeProfiles(configDir, [profile()]);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(configDir, { recursive: true, force: true });
});
beforeEach(() => {
  received = [];
  writeProfiles(configDir, [profile()]);
});

describe('usage and configuration errors', () => {
  it.each([
    [['appointment-types', 'list', '--service-category', 'gp', '--bogus'], "pdesk: Unknown option '--bogus'."],
    [['appointment-types', 'list'], "pdesk: Required option '--service-category <code>' not specified."],
    // Every missing required option in one message.
    [['slots', 'list'], "pdesk: Required options '--service-category <system|code>', '--from <date>' and '--to <date>' not specified."],
    [['slots', 'list', '--from', 'today'], "pdesk: Required options '--service-category <system|code>' and '--to <date>' not specified."],
    [
      ['appointment-types', 'list', '--service-category', 'gp', '--output', 'xml'],
      'pdesk: --output must be one of table, json, ndjson, not "xml".',
    ],
    [['slots', 'list', '--service-category', GP, '--from', 'someday', '--to', 'today'], 'pdesk: --from must be a date'],
    [['appointments', 'list', '--limit', '-3'], 'pdesk: --limit must be a non-negative whole number, not "-3".'],
  ])('%j exits 2 with one sentence naming the option, nothing sent', async (args, first) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]!.startsWith(first)).toBe(true);
    expect(lines[0]).toMatch(/\.$/);
    expect(lines.length).toBeLessThanOrEqual(3);
    noStack(r);
    expect(r.stdout).toBe('');
    expect(received).toHaveLength(0);
  });

  it.each([
    [['slots', 'lst'], "pdesk: Unknown command 'lst': did you mean list?"],
    [['slot', 'list'], "pdesk: Unknown command 'slot': did you mean slots?"],
    // A misspelt required option is named as unknown, not reported as the required one missing.
    [
      ['slots', 'list', '--servce-category', GP, '--from', 'today', '--to', 'today'],
      "pdesk: Unknown option '--servce-category': did you mean --service-category?",
    ],
    [['appointment-types', 'list', '--service-category', 'gp', '--limt', '3'], "pdesk: Unknown option '--limt': did you mean --limit?"],
  ])('a typo %j exits 2 with one sentence and the suggestion on it', async (args, first) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toEqual([first, '  Run with --help for usage.', '']);
    expect(r.stdout).toBe('');
    expect(received).toHaveLength(0);
  });

  it('a command group without its subcommand prints its help on stderr and exits 2', async () => {
    for (const group of ['slots', 'profile', 'chat']) {
      const r = await run([group]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`Usage: pdesk ${group} [options] [command]`);
      expect(r.stderr).toMatch(/^Commands:$/m);
      expect(r.stdout).toBe('');
    }
    const help = await run(['slots', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: pdesk slots [options] [command]');
  });

  it('--help of a command lists its options, the global options and examples, within 80 columns', async () => {
    const slots = await run(['slots', 'list', '--help']);
    expect(slots.code).toBe(0);
    const global = slots.stdout.slice(slots.stdout.indexOf('Global Options:'));
    for (const flag of ['--profile <name>', '--json', '--limit <n>', '--output <format>', '--dry-run', '--verbose', '--no-color'])
      expect(global).toContain(flag);
    for (const [args, example] of [
      [['slots', 'list', '--help'], '--from today --to +7d'],
      [['appointments', 'book', '--help'], '--slot-json slot.json'],
      [['pharmacies', 'search', '--help'], '--identifier "urn:pdesk:pharmacy-id|PH001,'],
      [['notifications', 'send', '--help'], '--csv patients.csv'],
    ] as Array<[string[], string]>) {
      const r = await run(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Examples?:$/m);
      expect(r.stdout).toContain(example);
      for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    }
    expect(received).toHaveLength(0);
  });

  it('an unknown key in a profile file exits 3 naming the key', async () => {
    const file = join(configDir, 'typo.json');
    writeFileSync(file, JSON.stringify({ ...profile(), practise: {} }));
    const r = await run(['profile', 'import', file]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`pdesk: Unknown key "practise" in ${file}: did you mean "practice"?\n`);
  });

  it('a bearer token variable that is not set exits 3 naming it, nothing sent', async () => {
    const r = await runPdesk(['appointment-types', 'list', '--service-category', 'gp'], { configDir, env: { PDESK_ERR_TOKEN: undefined } });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe('pdesk: The environment variable PDESK_ERR_TOKEN (practice bearer token) is not set.');
    expect(received).toHaveLength(0);
  });
});

describe('network errors', () => {
  it('server down (connection refused on a closed port) exits 5 naming the origin', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    writeProfiles(configDir, [profile({ practice: { baseUrl: `${deadOrigin}/practice` } })]);
    const r = await run(['appointment-types', 'list', '--service-category', 'gp']);
    expect(r.code).toBe(5);
    expect(r.stderr.split('\n')[0]).toBe(`pdesk: Cannot reach ${deadOrigin} (connection refused).`);
    expect(r.stderr).toContain(`GET ${deadOrigin}/practice/ValueSet?service-category=gp`);
    expect(r.stderr).toMatch(/Check that the practice system is running and the practice base URL of profile "\S+"\.\n/);
    // Core's hint, in the command line's words.
    expect(r.stderr).toMatch(/\n {2}Its settings \(practice\.baseUrl\): pdesk profile show \S+\n/);
    noStack(r);
  });

  it('a POST is never re-sent on a connection reset, and the error says it may have arrived', async () => {
    handler = (req) => req.socket.destroy();
    const r = await run([...bookArgs, '--verbose']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^pdesk: Cannot reach http:\/\/127\.0\.0\.1:\d+ \(connection reset\)\.$/m);
    expect(r.stderr).toContain('The request may have reached the server: check before sending it again.');
    expect(r.stderr).not.toContain('retry');
    expect(received.filter((q) => q.method === 'POST')).toHaveLength(1);
  });
});

describe('server answers', () => {
  it('4xx with an OperationOutcome: exit 4, `pdesk: HTTP 4xx …` then the issue text', async () => {
    handler = (_q, res) => send(res, 409, outcome('conflict', 'Slot s-1 is not free'));
    const r = await run(bookArgs);
    expect(r.code).toBe(4);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('pdesk: HTTP 409 Conflict');
    expect(lines[1]).toBe('  error conflict: Slot s-1 is not free');
    expect(lines[2]).toBe(`  request: A6 POST ${origin}/practice/Appointment`);
    expect(r.stdout).toBe('');
    noStack(r);
  });

  it('4xx without a body names the status only', async () => {
    handler = (_q, res) => res.writeHead(404).end();
    const r = await run(['appointment-types', 'list', '--service-category', 'gp']);
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      'pdesk: HTTP 404 Not Found',
      `  request: A1 GET ${origin}/practice/ValueSet?service-category=gp`,
    ]);
  });

  it('5xx with an OperationOutcome exits 5 (a 500 is not retried)', async () => {
    handler = (_q, res) => send(res, 500, outcome('exception', 'database unavailable'));
    const r = await run(['appointment-types', 'list', '--service-category', 'gp']);
    expect(r.code).toBe(5);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual(['pdesk: HTTP 500 Internal Server Error', '  error exception: database unavailable']);
    expect(received).toHaveLength(1);
  });

  it('a non-JSON error page (HTML 502) exits 5 with a short sanitised excerpt', async () => {
    const html = `<html><head><title>502 Bad Gateway</title></head><body>\u001b]0;owned\u0007<h1>Bad Gateway</h1>${'<p>upstream timed out</p>\n'.repeat(200)}</body></html>`;
    handler = (_q, res) => send(res, 502, html, { 'content-type': 'text/html' });
    writeProfiles(configDir, [profile({ retries: { max: 0 } })]);
    const r = await run(['appointment-types', 'list', '--service-category', 'gp']);
    expect(r.code).toBe(5);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('pdesk: HTTP 502 Bad Gateway');
    expect(lines[1]).toMatch(/^ {2}<html><head><title>502 Bad Gateway<\/title>.*…$/);
    expect(lines[1]!.length).toBeLessThanOrEqual(210);
    expect(r.stderr).not.toContain('owned');
    expect(r.stderr).not.toMatch(CONTROL);
    expect(lines).toHaveLength(3);
  });

  it('a response missing a required field exits 6 naming the JSON path', async () => {
    const { start: _s, ...noStart } = slot();
    handler = (_q, res) => send(res, 200, { resourceType: 'Bundle', type: 'searchset', entry: [{ resource: noStart }] });
    const r = await run(['slots', 'list', '--service-category', GP, '--from', '2026-03-01', '--to', '2026-03-07']);
    expect(r.code).toBe(6);
    expect(r.stderr.split('\n')[0]).toBe(
      "pdesk: The server's answer does not match the interface at $.entry[0].resource.start: required field is missing.",
    );
    expect(r.stdout).toBe('');
    noStack(r);
  });

  it('a value outside a stated enum exits 6 naming the JSON path', async () => {
    handler = (_q, res) =>
      send(res, 200, { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Appointment', id: 'a1', status: 'tentative' } }] });
    const r = await run(['appointments', 'list']);
    expect(r.code).toBe(6);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^pdesk: The server's answer does not match the interface at \$\.entry\[0\]\.resource\.status: .*booked/,
    );
  });

  it('a non-JSON 200 body exits 6', async () => {
    handler = (_q, res) => send(res, 200, '<html>maintenance\u001b[2J</html>', { 'content-type': 'text/html' });
    const r = await run(['appointment-types', 'list', '--service-category', 'gp']);
    expect(r.code).toBe(6);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe("pdesk: The server's answer does not match the interface at $: the body is not JSON (content-type text/html).");
    expect(lines[1]).toBe('  <html>maintenance</html>');
  });
});

describe('untrusted server text', () => {
  it('control sequences are stripped from table output', async () => {
    handler = (_q, res) => send(res, 200, valueSet('Consult\u001b]0;pwned\u0007\u001b[31m red\u001b[0m\u009b2J\u0007'));
    const r = await run(['appointment-types', 'list', '--service-category', 'gp', '--output', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stdout).not.toContain('pwned');
    expect(r.stdout.split('\n')[1]).toMatch(/^consult\s+Consult red$/);
  });

  it('control sequences are stripped from errors (OperationOutcome and the request line)', async () => {
    handler = (_q, res) =>
      send(res, 400, outcome('invalid', 'bad \u001b[2J\u001b]8;;http://evil\u001b\\category\u001b]8;;\u001b\\\u009b31m'));
    const r = await run(['appointment-types', 'list', '--service-category', 'gp\u001b[5m']);
    expect(r.code).toBe(4);
    expect(r.stderr).not.toMatch(CONTROL);
    expect(r.stderr.split('\n')[1]).toBe('  error invalid: bad category');
  });
});

describe('secrets', () => {
  it('--verbose shows request/response lines with `Authorization: Bearer ***`, never the token', async () => {
    handler = (_q, res) => send(res, 200, valueSet('Consultation'));
    const r = await run(['appointment-types', 'list', '--service-category', 'gp', '--verbose', '--output', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines).toContain(`→ A1 GET ${origin}/practice/ValueSet?service-category=gp`);
    expect(lines).toContain('  Authorization: Bearer ***');
    expect(lines).toContain('  Accept: application/fhir+json');
    expect(lines.some((l) => /^← HTTP 200 OK \(\d+ ms, \d+ B\)$/.test(l))).toBe(true);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    // The token was sent all the same.
    expect(received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('a token echoed back in an error body is redacted', async () => {
    handler = (req, res) => send(res, 401, outcome('login', `token ${req.headers.authorization} rejected`));
    const r = await run(['appointment-types', 'list', '--service-category', 'gp']);
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[1]).toBe('  error login: token Bearer *** rejected');
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('--dry-run prints the request with the token redacted and sends nothing', async () => {
    const r = await run([...bookArgs, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const req = r.json();
    expect(req).toMatchObject({ method: 'POST', url: `${origin}/practice/Appointment`, headers: { authorization: 'Bearer ***' } });
    expect(req.body.resourceType).toBe('Appointment');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(received).toHaveLength(0);
  });
});

describe('--dry-run output', () => {
  it('escapes C1 controls that came from the server (a reorder is built from an M2 read)', async () => {
    const display = 'Metformin \u009b2J tablet';
    handler = (req, res) =>
      req.method === 'GET'
        ? send(res, 200, {
            resourceType: 'MedicationRequest',
            id: 'mr-1',
            status: 'active',
            intent: 'order',
            medicationReference: { reference: 'Medication/med-1', display },
            subject: { reference: 'Patient/pat-1' },
            authoredOn: '2026-02-01T10:00:00Z',
          })
        : res.writeHead(500).end();
    const r = await run(['medications', 'order', '--reorder', 'mr-1', '--quantity', '30', '--pharmacy', 'ph-1', '--dry-run']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\u007f-\u009f]/);
    expect(r.json().body.medicationReference.display).toBe(display);
    expect(received.map((q) => q.method)).toEqual(['GET']);
  });
});

describe('retries', () => {
  it('a GET is retried on 503, visible in --verbose', async () => {
    let n = 0;
    handler = (_q, res) => (++n === 1 ? send(res, 503, outcome('transient', 'busy')) : send(res, 200, valueSet('Consultation')));
    const r = await run(['appointment-types', 'list', '--service-category', 'gp', '--verbose']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual([{ code: 'consult', display: 'Consultation' }]);
    expect(r.stderr).toContain('retry 1/2 in 200 ms: HTTP 503 Service Unavailable');
    expect(r.stderr).toMatch(/← HTTP 200 OK \(\d+ ms, \d+ B, 2 attempts\)/);
    expect(received).toHaveLength(2);
  });

  it('honours a Retry-After of up to 10 s', async () => {
    let n = 0;
    handler = (_q, res) =>
      ++n === 1 ? send(res, 503, outcome('transient', 'busy'), { 'retry-after': '1' }) : send(res, 200, valueSet('x'));
    const started = Date.now();
    const r = await run(['appointment-types', 'list', '--service-category', 'gp', '--verbose']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('retry 1/2 in 1000 ms: HTTP 503 Service Unavailable');
    expect(received).toHaveLength(2);
    expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('a longer Retry-After is reported without waiting', async () => {
    handler = (_q, res) => send(res, 503, outcome('transient', 'maintenance until noon'), { 'retry-after': '3600' });
    const started = Date.now();
    const r = await run(['appointment-types', 'list', '--service-category', 'gp', '--verbose']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('not retrying: Retry-After 3600 is longer than 10 s');
    expect(r.stderr).toContain('pdesk: HTTP 503 Service Unavailable\n  error transient: maintenance until noon');
    expect(received).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('a GET whose answer breaks off mid-body is retried; a POST is reported once', async () => {
    let n = 0;
    const midBody = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/fhir+json', 'content-length': '5000' });
      res.write('{"resourceType":"ValueSet","compose":{"include":[');
      setTimeout(() => res.socket?.destroy(), 5);
    };
    handler = (_q, res) => (++n === 1 ? midBody(res) : send(res, 200, valueSet('Consultation')));
    const get = await run(['appointment-types', 'list', '--service-category', 'gp', '--verbose']);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stderr).toMatch(/retry 1\/2 in 200 ms: connection reset/);
    expect(get.json()).toEqual([{ code: 'consult', display: 'Consultation' }]);

    received = [];
    handler = (_q, res) => midBody(res);
    const post = await run(bookArgs);
    expect(post.code).toBe(5);
    expect(post.stderr).toContain('(connection reset)');
    expect(post.stderr).toContain('may have reached the server');
    expect(received).toHaveLength(1);
  });

  it('a POST is never re-sent on 503', async () => {
    handler = (_q, res) => send(res, 503, outcome('transient', 'busy'));
    const r = await run([...bookArgs, '--verbose']);
    expect(r.code).toBe(5);
    expect(r.stderr.split('\n')).toContain('pdesk: HTTP 503 Service Unavailable');
    expect(r.stderr).not.toContain('retry');
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('POST');
    noStack(r); // an expected HTTP error: no stack trace, even with --verbose
  });
});

describe('an answer that breaks the interface names the request it came from', () => {
  it('a list: the operation, method and URL of the page (and its number after the first), no stack trace with --verbose', async () => {
    const { start: _s, ...noStart } = slot();
    handler = (q, res) =>
      q.url!.includes('page=2')
        ? send(res, 200, { resourceType: 'Bundle', entry: [{ resource: noStart }] })
        : send(res, 200, {
            resourceType: 'Bundle',
            entry: [{ resource: slot() }],
            link: [{ relation: 'next', url: `${origin}/practice/Slot?page=2` }],
          });
    const r = await run(['slots', 'list', '--service-category', GP, '--from', '2026-03-01', '--to', '2026-03-07', '--verbose']);
    expect(r.code).toBe(6);
    const lines = r.stderr.trimEnd().split('\n');
    const at = lines.indexOf(
      "pdesk: The server's answer does not match the interface at $.entry[0].resource.start: required field is missing.",
    );
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toBe(`  request: A4 GET ${origin}/practice/Slot?page=2 (page 2)`);
    expect(r.stdout).toBe('');
    noStack(r);
  });

  it('one resource read (M2): the request is named too', async () => {
    handler = (_q, res) => send(res, 200, { resourceType: 'MedicationRequest', id: 'mr-1' });
    const r = await run(['medications', 'show', 'mr-1', '--verbose']);
    expect(r.code).toBe(6);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('  request: '))).toEqual([`  request: M2 GET ${origin}/practice/MedicationRequest/mr-1`]);
    noStack(r);
  });
});

describe('a server that pages without end', () => {
  it('empty pages whose next link changes every time: exit 6 naming it after a bounded number of requests', async () => {
    handler = (_req, res) =>
      send(res, 200, {
        resourceType: 'Bundle',
        entry: [],
        link: [{ relation: 'next', url: `${origin}/practice/Appointment?page=${received.length}` }],
      });
    for (const limit of ['1000', '0']) {
      received = [];
      const r = await run(['appointments', 'list', '--limit', limit]);
      expect(r.code).toBe(6);
      expect(r.stderr.split('\n')).toEqual([
        "pdesk: The server's answer does not match the interface at $.link: the server sent 10 empty pages in a row, each with a new next link (it pages without end).",
        '  10 pages read; 0 resources so far. Nothing more was asked for.',
        `  request: A5 GET ${origin}/practice/Appointment?page=9`,
        '',
      ]);
      expect(r.stdout).toBe('');
      expect(received).toHaveLength(10);
    }
  });
});

describe('every field error names an option of the command that raised it', () => {
  // Core names fields (FieldError); the CLI words each as an option (flagOf). Every option of every command that
  // talks to a server gets values core refuses, on profiles of both appointment API versions; whatever
  // FieldError comes back must name an option that command has, and so must the fields its problem refers to.
  const BASE: Record<string, string[]> = {
    'appointment-types list': ['--service-category', 'gp'],
    'practitioners list': [],
    'schedules list': ['--service-category', GP],
    'slots list': ['--service-category', GP, '--from', 'today', '--to', '+7d'],
    'appointments list': [],
    'appointments book': bookArgs.slice(2),
    'appointments cancel': ['a1', '--actor', 'Patient/p1', '--comment', 'c'],
    'medications list': [],
    'medications show': ['mr-1'],
    'medications order': ['--reorder', 'mr-1', '--quantity', '30', '--pharmacy', 'ph-1'],
    'pharmacies search': ['--identifier', 'urn:x|PH1'],
    'chat send': [
      '--thread',
      'enc-1',
      '--text',
      't',
      '--sender',
      'Patient/p1',
      '--recipient',
      'PractitionerRole/1',
      '--subject',
      'Patient/p1',
    ],
    'chat reply': [
      '--thread',
      'enc-1',
      '--text',
      't',
      '--sender',
      'PractitionerRole/1',
      '--recipient',
      'Patient/p1',
      '--subject',
      'Patient/p1',
    ],
    'chat mark-read': ['c1'],
    'chat close': ['enc-1'],
    'notifications send': ['--email', 'a@example.org', '--topic', 't', '--text', 'x'],
  };
  /** Where an option replaces others of the base arguments. */
  const BASE_WITH: Record<string, string[]> = { 'appointments book --slot-json': ['--patient', 'p1', '--comment', 'c'] };
  const BAD = ['', ' ', 'x y', 'Patient/', 'a:', '2026-02-30', '-1', 'Slot/1,Slot/2'];
  /** JSON files that are not the resource an option wants (for --slot-json). */
  const badFiles = () =>
    ['{}', '[{}, {}]'].map((text, i) => {
      const f = join(configDir, `not-a-slot-${i}.json`);
      writeFileSync(f, text);
      return f;
    });
  /** Fields each command must have been seen to refuse (so the test cannot pass by provoking nothing). */
  const EXPECTED: Record<string, string[]> = {
    'slots list': ['from', 'to', 'schedule', 'status', 'practitioner'],
    'appointments book': ['patient', 'start', 'end', 'practitioner', 'slot'],
    'appointments cancel': ['actor'],
    'chat send': ['sender', 'recipient', 'subject', 'attachment'],
    'chat mark-read': ['at'],
    'medications order': ['start', 'end'],
    'pharmacies search': ['identifier'],
  };

  it('for every option of every command, on both appointment API versions', async () => {
    const { buildProgram } = await import('../../src/cli/main.js');
    const { flagOf } = await import('../../src/cli/options.js');
    const { testIO } = await import('../../src/cli/io.js');
    const { FieldError } = await import('../../src/core/errors.js');
    const program = buildProgram({ io: testIO().io });
    handler = (req, res) =>
      req.url!.includes('/MedicationRequest/')
        ? send(res, 200, {
            resourceType: 'MedicationRequest',
            id: 'mr-1',
            status: 'active',
            intent: 'order',
            medicationReference: { reference: 'Medication/m1' },
            subject: { reference: 'Patient/p1' },
            dispenseRequest: { initialFill: { quantity: { value: 60, unit: 'tablet' } } },
          })
        : send(res, 500, outcome('exception', 'not here'));
    const seen = new Map<string, Set<string>>();
    let checked = 0;
    for (const api of ['2.0.0', '1.0.0'] as const) {
      writeProfiles(configDir, [profile({ appointmentApi: api })]);
      for (const [name, base] of Object.entries(BASE)) {
        const [group, verb] = name.split(' ');
        const cmd = program.commands.find((c) => c.name() === group)!.commands.find((c) => c.name() === verb)!;
        const options = new Set(cmd.options.map((o) => o.long!));
        for (const option of cmd.options) {
          if (option.long === '--body') continue;
          for (const bad of [...BAD, ...badFiles()]) {
            const own = BASE_WITH[`${name} ${option.long}`] ?? base;
            const args = [group!, verb!, ...own.filter((_, i) => own[i - 1] !== option.long && own[i] !== option.long)];
            args.push(option.long!, ...(option.required || option.optional ? [bad] : []));
            const r = await runPdesk([...args, '--dry-run'], { configDir, env: { PDESK_ERR_TOKEN: TOKEN } });
            if (!(r.error instanceof FieldError)) continue;
            checked += 1;
            const named = [r.error.field, ...[...r.error.problem.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!)];
            for (const field of named) expect(options, `${name} ${option.long} "${bad}": ${r.stderr}`).toContain(flagOf(field));
            expect(r.code).toBe(2);
            expect(r.stderr.startsWith(`pdesk: ${flagOf(r.error.field)} `), r.stderr).toBe(true);
            if (!seen.has(name)) seen.set(name, new Set());
            seen.get(name)!.add(r.error.field);
          }
        }
      }
    }
    for (const [name, fields] of Object.entries(EXPECTED))
      expect([...(seen.get(name) ?? [])], name).toEqual(expect.arrayContaining(fields));
    expect(checked).toBeGreaterThan(50);
  }, 60_000);
});

describe('runProgram', () => {
  it('runs with the profile loader, client factory and clock it is given: no profile store, relative dates from that clock', async () => {
    const { runProgram } = await import('../../src/cli/main.js');
    const { testIO } = await import('../../src/cli/io.js');
    const { PdeskClient } = await import('../../src/core/client.js');
    const { validateProfile } = await import('../../src/core/profile/schema.js');
    handler = (_q, res) => send(res, 200, { resourceType: 'Bundle', entry: [{ resource: slot() }] });
    const t = testIO({ env: { PDESK_CONFIG_DIR: '/nonexistent/pdesk-config', PDESK_ERR_TOKEN: TOKEN } });
    const loaded: Array<string | undefined> = [];
    let made = 0;
    const r = await runProgram(['--profile', 'given', 'slots', 'list', '--service-category', GP, '--from', 'today', '--to', '+2d'], {
      io: t.io,
      loadProfile: (name) => {
        loaded.push(name);
        return validateProfile({ ...profile(), name: 'given' }, 'test');
      },
      makeClient: (p, o) => {
        made += 1;
        return new PdeskClient(p, o);
      },
      now: () => new Date(2026, 1, 27, 15, 30),
    });
    expect(r.code, t.stderr()).toBe(0);
    expect(loaded).toEqual(['given']);
    expect(made).toBe(1);
    // `past`: whether the slot had begun by that clock (core hasBegun).
    expect(JSON.parse(t.stdout())).toEqual([{ ...slot(), past: false }]);
    expect(received).toHaveLength(1);
    expect(decodeURIComponent(received[0]!.url)).toContain('schedule.date=ge2026-02-27&schedule.date=le2026-03-01');
    expect(received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('returns a process.exitCode a command set (a command file written before ctx.exitCode) and puts it back', async () => {
    const { runProgram } = await import('../../src/cli/main.js');
    const { testIO } = await import('../../src/cli/io.js');
    const commands = (await import('../../src/cli/commands/index.js')).commands;
    const { Command } = await import('commander');
    const { verb } = await import('../../src/cli/verb.js');
    const legacy = () =>
      new Command('legacy-exit').action(
        verb(async () => ({
          run: () => {
            process.exitCode = 7;
          },
        })),
      );
    const entry = ['legacy-exit', legacy] as const;
    commands.push(entry);
    try {
      const before = process.exitCode;
      const r = await runProgram(['legacy-exit'], { io: testIO().io });
      expect(r.code).toBe(7);
      expect(process.exitCode).toBe(before);
    } finally {
      commands.splice(commands.indexOf(entry), 1);
    }
  });
});
