/**
 * `pdesk doctor` as a process: exit 0 on a healthy profile with JSON on stdout, exit 7 and the table when a step fails;
 * with a team store, its step reads the team store (reachable, its threads) instead of the local files.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { openPgStore } from '../../../../src/core/store/pg/index.js';
import { type Env, withSandbox } from '../../../helpers/cli.js';
import { msg } from '../../../helpers/desk.js';
import { clusterForFile, pgInstalled } from '../../../helpers/pg.js';

const pg = clusterForFile();

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

describe.skipIf(!pgInstalled)('pdesk doctor with a team store', () => {
  test('its store step reads the team store: its threads when it answers, a failure (exit 7) when it cannot be reached', async () => {
    env = await withSandbox();
    const url = await pg().createDatabase();
    const store = openPgStore(url);
    await store.recordReceived('sandbox', msg('m1', 'enc-1', 'hello', 1));
    await store.recordReceived('sandbox', msg('m2', 'enc-2', 'hi', 2));
    await store.assign('sandbox', 'enc-2', { to: 'alice', by: 'alice' });
    await store.close();
    const ok = await env.run(['doctor', '--json'], { env: { PDESK_STORE_URL: url } });
    expect(ok.code, ok.stderr).toBe(0);
    const step = ok.json().results.find((r: any) => r.id === 'thread-store');
    expect(step.result).toBe('pass');
    expect(step.messages[0].text).toMatch(
      /^2 threads in the team store postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\w+: 2 unread messages, 1 open threads nobody owns\.$/,
    );
    const down = await env.run(['doctor', '--json'], { env: { PDESK_STORE_URL: url.replace(/:(\d+)\//, ':9/') } });
    expect(down.code).toBe(7);
    const failed = down.json().results.find((r: any) => r.id === 'thread-store');
    expect(failed.result).toBe('fail');
    expect(failed.messages[0].text).toMatch(/^the team store .*: the database cannot be reached/);
  });
});
