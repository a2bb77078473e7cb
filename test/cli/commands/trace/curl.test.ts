/**
 * A trace as curl command lines (src/cli/commands/trace/curl.ts): credentials as shell variables named in a comment,
 * every word safely quoted, a comment never spilling onto a command line.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlScript, shellQuote } from '../../../../src/cli/commands/trace/curl.js';
import type { Exchange } from '../../../../src/core/client.js';
import { exchange } from '../../../helpers/trace.js';

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

  it('a write traced as it left and never answered is commented as outcome unknown', () => {
    const { ms: _ms, status: _status, ...start } = exchange();
    const s = curlScript({
      exchanges: [
        { line: 2, exchange: exchange() },
        { line: 3, exchange: { ...start, startedAt: '2026-03-01T09:00:01.000Z', sending: true } as Exchange },
      ],
    });
    expect(s.lines.filter((l) => l.startsWith('# 2026'))).toEqual([
      '# 2026-03-01T09:00:00.000Z A6 POST http://127.0.0.1:1/practice/Appointment → 201',
      '# 2026-03-01T09:00:01.000Z A6 POST http://127.0.0.1:1/practice/Appointment → outcome unknown (sent; no answer was traced)',
    ]);
  });

  it('says so when a secret pdesk redacted (***) sits in a URL or body: it cannot be put back', () => {
    const s = curlScript({ exchanges: [{ line: 1, exchange: exchange({ requestBody: '{"note":"***"}' }) }] });
    expect(s.lines.find((l) => l.startsWith('# 2026'))).toContain('a secret pdesk redacted as *** is left out: put it back by hand');
  });
});
