/**
 * Request traces (src/core/trace.ts): the file (mode 0600, a header line per run, one line per exchange, secrets
 * redacted), reading it back (torn lines skipped), and curl command lines: credentials as shell variables named
 * in a comment, every word safely quoted, a comment never spilling onto a command line.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/core/client.js';
import { registerSecret } from '../../src/core/redact.js';
import { TraceWriter, curlScript, parseTrace, shellQuote } from '../../src/core/trace.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { tempDir } from '../helpers/config.js';

const exchange = (over: Partial<Exchange> = {}): Exchange => ({
  op: 'A6',
  party: 'practice',
  method: 'POST',
  url: 'http://127.0.0.1:1/practice/Appointment',
  requestHeaders: { accept: 'application/fhir+json', authorization: 'Bearer ***', 'content-type': 'application/fhir+json' },
  requestBody: '{"resourceType":"Appointment"}',
  startedAt: '2026-03-01T09:00:00.000Z',
  ms: 5,
  status: 201,
  ...over,
});

describe('TraceWriter', () => {
  it('appends a header line per run and one line per exchange to a 0600 file, secrets redacted', () => {
    const path = join(tempDir(), 'run.trace');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    const profile = Profile.parse({
      ...sandboxProfile('http://h'),
      portal: { baseUrl: 'http://h/portal', auth: { type: 'basic', username: 'desk', passwordEnv: 'X' } },
    });
    registerSecret('late-registered-secret-77');
    const w = TraceWriter.open(path, profile);
    w.write(exchange({ responseBody: 'echo late-registered-secret-77' }));
    w.close();
    TraceWriter.open(path).close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('late-registered-secret-77');
    const t = parseTrace(text, path);
    expect(t.runs).toHaveLength(2);
    expect(t.runs[0]).toMatchObject({
      trace: 'pdesk-trace',
      version: 1,
      profile: 'sandbox',
      auth: { practice: { type: 'none' }, portal: { type: 'basic', username: 'desk' } },
    });
    expect(t.exchanges).toHaveLength(1);
    expect(t.exchanges[0]!.exchange.responseBody).toBe('echo ***');
    expect(t.warnings).toEqual([]);
  });

  it('a file that cannot be written is a usage error naming the option', () => {
    expect(() => TraceWriter.open('/nonexistent/dir/t.ndjson')).toThrow('--trace: cannot write /nonexistent/dir/t.ndjson (ENOENT).');
  });
});

describe('parseTrace', () => {
  it('skips a torn last line and a line that is not an exchange, with a warning each', () => {
    const t = parseTrace(`{"trace":"pdesk-trace","version":1}\n${JSON.stringify(exchange())}\n{"x":1}\n{"method":"PO`, 't');
    expect(t.exchanges).toHaveLength(1);
    expect(t.warnings).toEqual([
      'the trace t: the last line (4) is incomplete, a write torn by a crash; skipped.',
      'the trace t: line 3 is not a traced exchange; skipped.',
    ]);
  });
});

describe('a write traced as it leaves (write-ahead)', () => {
  it('its sending line gives way to its exchange; one the run never completed stays, read as outcome unknown', () => {
    const path = join(tempDir(), 'ahead.trace');
    const w = TraceWriter.open(path);
    const { ms: _ms, status: _status, ...start } = exchange();
    w.start(start);
    w.write(exchange());
    w.start({ ...start, startedAt: '2026-03-01T09:00:01.000Z' }); // the run was killed here
    w.close();
    const t = parseTrace(readFileSync(path, 'utf8'), path);
    expect(t.exchanges.map((x) => [x.exchange.startedAt, x.exchange.status, x.exchange.sending])).toEqual([
      ['2026-03-01T09:00:00.000Z', 201, undefined],
      ['2026-03-01T09:00:01.000Z', undefined, true],
    ]);
    expect(curlScript(t).lines.filter((l) => l.startsWith('# 2026'))).toEqual([
      '# 2026-03-01T09:00:00.000Z A6 POST http://127.0.0.1:1/practice/Appointment → 201',
      '# 2026-03-01T09:00:01.000Z A6 POST http://127.0.0.1:1/practice/Appointment → outcome unknown (sent; no answer was traced)',
    ]);
  });
});

describe('curlScript', () => {
  it('names a variable per credential and party, in a comment at the top', () => {
    const run = {
      trace: 'pdesk-trace' as const,
      version: 1,
      startedAt: '',
      pid: 1,
      profile: 'acme',
      auth: { portal: { type: 'basic', username: "o'neil" } },
    };
    const s = curlScript({
      exchanges: [
        { run, line: 2, exchange: exchange() },
        {
          run,
          line: 3,
          exchange: exchange({ party: 'portal', op: 'C5', requestHeaders: { authorization: 'Basic ***', 'x-api-key': '***' } }),
        },
      ],
    });
    expect(s.variables.map((v) => v.name)).toEqual(['PDESK_PRACTICE_TOKEN', 'PDESK_PORTAL_PASSWORD', 'PDESK_PORTAL_X_API_KEY']);
    expect(s.lines[0]).toBe('# Set these variables first (the trace holds no secrets):');
    expect(s.lines[1]).toBe(
      "#   PDESK_PRACTICE_TOKEN: the practice system's bearer token: pdesk --profile acme auth token --party practice",
    );
    const cmds = s.lines.filter((l) => l.startsWith('curl '));
    expect(cmds[0]).toBe(
      `curl -sS -i -X 'POST' 'http://127.0.0.1:1/practice/Appointment' -H 'accept: application/fhir+json' -H 'authorization: Bearer '"$PDESK_PRACTICE_TOKEN" -H 'content-type: application/fhir+json' --data-binary '{"resourceType":"Appointment"}'`,
    );
    expect(cmds[1]).toContain(`-u 'o'\\''neil:'"$PDESK_PORTAL_PASSWORD" -H 'x-api-key: '"$PDESK_PORTAL_X_API_KEY"`);
  });

  it('quotes bodies and methods so that the shell passes them through unchanged, and keeps comments on one line', () => {
    const body = `{"text":"it's $HOME \`id\` \\"q\\" ; rm -rf / \n next"}`;
    const s = curlScript({
      exchanges: [
        { line: 1, exchange: exchange({ requestBody: body, status: undefined, error: { name: 'E', message: 'boom\ncurl evil' } }) },
      ],
    });
    expect(s.lines.filter((l) => l.startsWith('#')).every((l) => !l.includes('\n'))).toBe(true);
    expect(s.lines.some((l) => l.startsWith('curl evil'))).toBe(false);
    // The shell hands the quoted body to the program exactly as it was traced.
    const echoed = execFileSync('bash', ['-c', `printf %s ${shellQuote(body)}`], { encoding: 'utf8' });
    expect(echoed).toBe(body);
  });

  it('the Accept-Encoding pdesk sends becomes --compressed, so that curl decodes the answer as pdesk did', () => {
    const s = curlScript({
      exchanges: [
        { line: 1, exchange: exchange({ requestHeaders: { accept: 'application/fhir+json', 'accept-encoding': 'gzip, deflate, br' } }) },
      ],
    });
    const cmd = s.lines.find((l) => l.startsWith('curl '))!;
    expect(cmd).toContain(" -H 'accept: application/fhir+json' --compressed");
    expect(cmd).not.toContain('accept-encoding');
  });

  it('says so when a secret pdesk redacted (***) sits in a URL or body: it cannot be put back', () => {
    const s = curlScript({ exchanges: [{ line: 1, exchange: exchange({ requestBody: '{"note":"***"}' }) }] });
    expect(s.lines.find((l) => l.startsWith('# 2026'))).toContain('a secret pdesk redacted as *** is left out: put it back by hand');
  });
});
