/**
 * Writes on a production profile (src/cli/confirm.ts), in-process against the sandbox: without a terminal every
 * write command (A6, A7, C1–C5, M3, `api` POST, a bulk send, check --write) exits 2 naming --yes and sends nothing;
 * with --yes it sends; on a terminal the profile's name is asked for (a wrong answer or end of input: exit 2,
 * nothing sent); a bulk send's question names the row count and the portal; reads never ask.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultJournalPath } from '../../src/core/bulk/notifications.js';
import { csvFile } from '../helpers/bulk.js';
import { type Env, withSandbox } from '../helpers/run.js';
import { WRITES } from '../helpers/writes.js';

let env: Env;
beforeAll(async () => {
  env = await withSandbox({}, { name: 'acme-prod', environment: 'production' });
});
afterAll(() => env.close());

const writesSent = () => env.sandbox.received.filter((r) => r.method !== 'GET').length;
const bulkArgs = (csv: string) => ['notifications', 'send', '--csv', csv, '--topic', 'T', '--text', 'Hi {name}'];

describe('a write on a production profile without a terminal', () => {
  it.each(WRITES)('$op: exits 2 naming --yes, and nothing is sent', async (w) => {
    const before = writesSent();
    const r = await env.run([...w.args, '--json'], { input: w.input });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(
      `pdesk: Profile "acme-prod" is a production profile: sending ${w.op} (${w.path}) needs --yes when there is no terminal to confirm on; nothing was sent.\n`,
    );
    expect(writesSent()).toBe(before);
  });

  it('api POST, a bulk send and check --write too; a read does not ask', async () => {
    const before = writesSent();
    const api = await env.run(['api', 'POST', '/Appointment', '--body', '-'], { input: '{}' });
    expect(api.code).toBe(2);
    expect(api.stderr).toContain('sending POST /Appointment needs --yes');
    const csv = csvFile('email,name\nann@example.org,Ann\nbob@example.org,Bob\n', 'people.csv');
    const bulk = await env.run(bulkArgs(csv));
    expect(bulk.code).toBe(2);
    expect(bulk.stderr).toContain('sending up to 2 notifications (C5, one per row of people.csv) needs --yes');
    // The journal is not left locked.
    expect(existsSync(`${defaultJournalPath(env.configDir, 'acme-prod', csv)}.lock`)).toBe(false);
    const received = env.sandbox.received.length;
    const check = await env.run(['check', '--write', '--json']);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain('sending the write checks of pdesk check (A6, A7, C1–C5, M3: test data) needs --yes');
    expect(env.sandbox.received.length).toBe(received);
    expect(writesSent()).toBe(before);
    const read = await env.run(['appointments', 'list', '--json']);
    expect(read.code).toBe(0);
  });

  it.each(WRITES)('$op with --yes is sent', async (w) => {
    const before = writesSent();
    const r = await env.run([...w.args, '--json', '--yes'], { input: w.input });
    expect(writesSent(), r.stderr).toBe(before + 1);
    expect([0, 4]).toContain(r.code);
  });

  it('a bulk send with --yes sends every row', async () => {
    const csv = csvFile('email,name\ncarl@example.org,Carl\ndora@example.org,Dora\n', 'more.csv');
    const r = await env.run([...bulkArgs(csv), '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ sent: 2, failed: 0 });
  });
});

describe('a write on a production profile on a terminal', () => {
  const book = WRITES[6]!; // C5: sendable again and again

  it("asks for the profile's name; typed, the write is sent", async () => {
    const before = writesSent();
    const r = await env.run(book.args, { tty: true, input: 'acme-prod\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Type the profile name to send C5 (POST /Communication) to ${env.sandbox.url}/portal (production): `);
    expect(writesSent()).toBe(before + 1);
  });

  it('a wrong answer or end of input: exit 2, nothing sent', async () => {
    const before = writesSent();
    const wrong = await env.run(book.args, { tty: true, input: 'acme\n' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`pdesk: The answer was not the profile's name "acme-prod"; nothing was sent.`);
    const eof = await env.run(book.args, { tty: true, input: '' });
    expect(eof.code).toBe(2);
    expect(eof.stderr).toContain('pdesk: No answer was given to confirm a write on production; nothing was sent.');
    expect(writesSent()).toBe(before);
  });

  it('a bulk send asks once, naming the row count and the portal', async () => {
    const csv = csvFile('email,name\neve@example.org,Eve\nfay@example.org,Fay\ngus@example.org,Gus\n', 'three.csv');
    const r = await env.run([...bulkArgs(csv), '--json'], { tty: true, input: 'acme-prod\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/Type the profile name/g)).toHaveLength(1);
    expect(r.stderr).toContain(
      `Type the profile name to send up to 3 notifications (C5, one per row of three.csv) to ${env.sandbox.url}/portal (production): `,
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ sent: 3 });
  });

  it('--yes on a terminal does not ask', async () => {
    const r = await env.run([...book.args, '--yes'], { tty: true, input: '' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('Type the profile name');
  });
});
