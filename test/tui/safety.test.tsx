/**
 * The TUI's writes on live systems, against a real sandbox that wants a bearer token: each write is recorded
 * exactly once in the audit trail of the session's config folder, with no secret in it; on a production profile a
 * confirmation takes the profile's name typed, and `y` alone sends nothing.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { auditPath, readAudit } from '../../src/core/audit.js';
import { tempDir } from '../helpers/config.js';
import { type Desk, KEY, openDesk } from './harness.js';

const TOKEN = 'tui-audit-token-31415';
process.env.PDESK_TEST_TUI_TOKEN = TOKEN;

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const withToken = (environment?: string) => (url: string) => ({
  ...(environment ? { environment } : {}),
  practice: { baseUrl: `${url}/practice`, auth: { type: 'bearer' as const, tokenEnv: 'PDESK_TEST_TUI_TOKEN' } },
  portal: { baseUrl: `${url}/portal`, auth: { type: 'bearer' as const, tokenEnv: 'PDESK_TEST_TUI_TOKEN' } },
});

/** The trail's records: each write's intent joined with its completion (src/core/audit.ts). */
const records = (dir: string) => readAudit(auditPath(dir, 'sandbox')).records as any[];

describe('the TUI on live systems', () => {
  it('records each write once in the audit trail, with no secret in the file', async () => {
    const dir = tempDir();
    desk = await openDesk({ screen: 'appointments', sandbox: { token: TOKEN }, profile: withToken(), root: { configDir: dir } });
    await desk.waitFor('appt-1');
    await desk.press('c', KEY.down);
    await desk.type('ill');
    await desk.press(KEY.enter);
    await desk.waitFor('POST AppointmentResponse (A7)');
    await desk.press('y');
    await desk.waitFor('Cancelled appointment appt-1');
    await desk.press('4', 'n');
    await desk.type('emma.jansen@example.org');
    await desk.press(KEY.enter);
    await desk.type('Reminder');
    await desk.press(KEY.enter);
    await desk.type('See you');
    await desk.press(KEY.enter);
    await desk.waitFor('(C5)');
    await desk.press('y');
    await desk.waitFor('Sent the notification');
    const writes = desk.sandbox.received.filter((r) => r.method !== 'GET');
    const recs = records(dir);
    expect(recs.map((r) => [r.op, r.method, r.status])).toEqual([
      ['A7', 'POST', 201],
      ['C5', 'POST', 201],
    ]);
    expect(recs).toHaveLength(writes.length);
    expect(recs[0]).toMatchObject({ profile: 'sandbox', body: { comment: 'ill', appointment: { reference: 'Appointment/appt-1' } } });
    expect(readFileSync(auditPath(dir, 'sandbox'), 'utf8')).not.toContain(TOKEN);
  });

  it("on production, a write's confirmation wants the profile's name: y alone sends nothing", async () => {
    const dir = tempDir();
    desk = await openDesk({
      screen: 'appointments',
      sandbox: { token: TOKEN },
      profile: withToken('production'),
      root: { configDir: dir },
    });
    await desk.waitFor('appt-1');
    await desk.press('c', KEY.down);
    await desk.type('ill');
    await desk.press(KEY.enter);
    await desk.waitFor(`type the profile's name "sandbox" and Enter to cancel it`);
    await desk.press('y', KEY.enter);
    await desk.waitFor('That is not "sandbox"');
    expect(desk.sandbox.received.filter((r) => r.method !== 'GET')).toHaveLength(0);
    await desk.press(KEY.backspace);
    await desk.type('sandbox');
    await desk.press(KEY.enter);
    await desk.waitFor('Cancelled appointment appt-1');
    expect(desk.sandbox.received.filter((r) => r.method !== 'GET')).toHaveLength(1);
    expect(records(dir).map((r) => [r.op, r.environment])).toEqual([['A7', 'production']]);
  });
});
