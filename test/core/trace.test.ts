/**
 * Request traces (src/core/trace.ts): the file (mode 0600, a header line per run, one line per exchange, secrets
 * redacted), reading it back (torn lines skipped). Its curl command lines: test/cli/commands/trace/curl.test.ts.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../src/core/redact.js';
import { TraceWriter, parseTrace } from '../../src/core/trace.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { tempDir } from '../helpers/config.js';
import { exchange } from '../helpers/trace.js';

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
    expect(() => TraceWriter.open('/nonexistent/dir/t.ndjson')).toThrow(
      'trace names /nonexistent/dir/t.ndjson, which cannot be written (ENOENT).',
    );
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
  });
});
