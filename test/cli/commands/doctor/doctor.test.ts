/** `pdesk doctor` as a process: exit 0 on a healthy profile with JSON on stdout, exit 7 and the table when a step fails. */
import { afterEach, describe, expect, test } from 'vitest';
import { type Env, withSandbox } from '../../../helpers/cli.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('pdesk doctor', () => {
  test('a healthy sandbox profile exits 0 with one JSON report; an unset secret variable exits 7', async () => {
    env = await withSandbox();
    const ok = await env.run(['doctor', '--json']);
    expect(ok.code).toBe(0);
    expect(ok.json()).toMatchObject({ profile: 'sandbox', summary: { pass: 12, fail: 0, error: 0, skip: 0, omit: 4 } });
    await env.close();
    env = await withSandbox(
      {},
      { practice: { baseUrl: 'http://127.0.0.1:9/practice', auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_UNSET_TOKEN' } } },
    );
    const bad = await env.run(['doctor', '--output', 'table'], { env: { PDESK_TEST_UNSET_TOKEN: undefined, COLUMNS: '200' } });
    expect(bad.code).toBe(7);
    expect(bad.stdout).toMatch(
      /^ {2}✗ secrets\s+\d+ ms {2}fail practice system: The environment variable PDESK_TEST_UNSET_TOKEN \(practice bearer token\) is not set\.$/m,
    );
    expect(bad.stdout).toMatch(/^ {2}✗ practice-tcp\s+\d+ ms {2}fail cannot connect to 127\.0\.0\.1:9: ECONNREFUSED\.$/m);
    expect(bad.stderr.trim()).toBe('pdesk: Doctor found problems: 2 steps failed.');
  });
});
