/**
 * `pdesk check` as a process against the sandbox: exit codes (0, 7, 2, 3), the JSON on stdout, the JUnit file,
' * several profiles at once, and the table. The suite's verdicts are tested in process (test/core/check/).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { startSandbox } from '../../../../src/sandbox/server.js';
import { type Env, tempDir, withSandbox, writeProfiles } from '../../../helpers/cli.js';
import { junitProblems, parseXml } from '../../../helpers/xml.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('pdesk check', () => {
  test('the read-only suite on the sandbox exits 0 and prints one JSON report; only GET was sent', async () => {
    env = await withSandbox();
    const r = await env.run(['check', '--json']);
    expect(r.code).toBe(0);
    const report = r.json();
    expect(report).toMatchObject({ profile: 'sandbox', summary: { pass: 9, fail: 0, error: 0, skip: 0, omit: 12 } });
    expect(report.results).toHaveLength(21);
    expect(report.results[0]).toMatchObject({ id: 'A1-types', op: 'A1', result: 'pass', requests: [{ method: 'GET', status: 200 }] });
    expect(new Set(env.sandbox.received.map((q) => q.method))).toEqual(new Set(['GET']));
  });

  test('a broken operation exits 7; --json and --junit at once, and the JUnit counts match the JSON summary', async () => {
    env = await withSandbox({ breakOps: ['A4'] });
    const file = join(env.configDir, 'report.xml');
    const r = await env.run(['check', '--json', '--junit', file]);
    expect(r.code).toBe(7);
    expect(r.stderr.trim()).toBe('pdesk: Checks did not pass: 2 failed and 0 errored.');
    const { summary } = r.json();
    expect(summary).toEqual({ pass: 7, fail: 2, error: 0, skip: 0, omit: 12 });
    const root = parseXml(readFileSync(file, 'utf8'));
    expect(junitProblems(root)).toEqual([]);
    expect(root.attrs).toMatchObject({ tests: '21', failures: '2', errors: '0' });
    expect(root.children.reduce((t, s) => t + Number(s.attrs.skipped), 0)).toBe(12);
  });

  test('--all-profiles runs every profile concurrently: a JSON array, one table row per profile', async () => {
    const good = await startSandbox({ port: 0 });
    const bad = await startSandbox({ port: 0, failOps: { M1: 500 } });
    try {
      const dir = tempDir();
      writeProfiles(dir, [
        sandboxProfile(good.url, { name: 'good' }),
        { ...sandboxProfile(bad.url, { name: 'bad' }), retries: { max: 0 } },
      ]);
      const { runCli } = await import('../../../helpers/cli.js');
      const r = await runCli(['check', '--all-profiles', '--json'], { configDir: dir });
      expect(r.code).toBe(7);
      const reports = r.json();
      expect(reports.map((x: any) => [x.profile, x.summary.error, x.summary.skip])).toEqual([
        ['good', 0, 0],
        ['bad', 1, 2],
      ]);
      expect(r.stderr).toContain('0 failed and 1 errored in bad');
      const t = await runCli(['check', '--profiles', 'good', '--output', 'table'], { configDir: dir, env: { COLUMNS: '100' } });
      expect(t.code).toBe(0);
      expect(t.stdout.split('\n')[0]).toMatch(/^PROFILE\s+PASS\s+FAIL\s+ERROR\s+SKIP\s+OMIT\s+TIME$/);
      expect(t.stdout).toMatch(/^good\s+9\s+0\s+0\s+0\s+12\s+\d+ ms$/m);
    } finally {
      await good.close();
      await bad.close();
    }
  });

  test('the table groups rows by area with ✓ ✗ –, the first message of a failure and a summary line', async () => {
    env = await withSandbox({ breakOps: ['M2'] });
    const r = await env.run(['check', '--output', 'table'], { env: { COLUMNS: '200' } });
    expect(r.code).toBe(7);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('pdesk check · profile sandbox (sandbox) · appointment API 2.0.0 · dialect interface · read-only');
    expect(lines).toContain('Appointments');
    expect(lines).toContain('Medication');
    expect(r.stdout).toMatch(/^ {2}✓ A1-types\s+\d+ ms {2}A1 answers the appointment types of the service category$/m);
    expect(r.stdout).toMatch(/^ {2}✗ M2-read\s+\d+ ms {2}fail \$\.subject: required field is missing$/m);
    expect(r.stdout).toMatch(/^ {2}– A6-book\s+omit a write check: sent only with --write$/m);
    expect(lines.at(-2)).toMatch(/^8 passed, 1 failed, 0 errors, 0 skipped, 12 omitted · 21 checks in \d+ ms$/);
  });

  test('bad options exit 2 naming the option, before anything is sent; an unknown profile exits 3', async () => {
    env = await withSandbox();
    const cases: Array<[string[], string]> = [
      [['--only', 'A4,Z9'], '--only names no operation or check: "Z9"'],
      [['--patient', 'pat-1'], '--patient is an input of the write checks: add --write to send them.'],
      [['--write', '--patient', 'bad id!'], '--patient must be an id or Patient/<id>'],
      [['--write', '--email', 'x@'], '--email must be an email address, not "x@".'],
      [['--service-category', 'gp'], '--service-category must be <system>|<code>, not "gp".'],
      [['--junit', join(env.configDir, 'no', 'such', 'dir', 'r.xml')], '--junit: cannot write'],
      [['--profiles', 'a', '--all-profiles'], 'Give --profiles or --all-profiles, not both.'],
    ];
    for (const [args, message] of cases) {
      const r = await env.run(['check', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(env.sandbox.received).toEqual([]);
    expect(existsSync(join(env.configDir, 'no'))).toBe(false);
    const unknown = await env.run(['check', '--profiles', 'sandbox,nope']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('There is no profile named "nope".');
  });
});
