/** Check screen against a real sandbox: the read-only suite with live progress, details with redacted exchanges, stop, again. */
import { afterEach, describe, expect, it } from 'vitest';
import { Profile } from '../../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../../src/sandbox/server.js';
import { type Desk, KEY, openDesk } from '../../harness.js';

let desk: Desk | undefined;
let own: Sandbox | undefined;
afterEach(async () => {
  await desk?.close();
  await own?.close();
  desk = undefined;
  own = undefined;
});

describe('Check screen', () => {
  it('6 runs the read-only suite with live progress; writes are omitted, nothing but GET is sent', async () => {
    desk = await openDesk({ sandbox: { latencyMs: 60 }, size: { columns: 100, rows: 40 } });
    await desk.waitFor('gp — General practice');
    await desk.press('6');
    const live = await desk.waitFor(/⠿ running/);
    expect(live).toMatch(/running \d+\/21/);
    expect(live).toContain('· waiting');
    const f = await desk.waitFor('9 passed, 0 failed, 0 errors, 0 skipped, 12 omitted.', 15_000);
    expect(f).toMatch(/A1-types\s+✓ pass\s+\d+ ms\s+A1 answers the appointment types/);
    expect(f).toMatch(/A6-book\s+– omit\s+a write check: sent only with pdesk check --write/);
    expect(f).toContain('21 checks · 9 passed · 0 failed');
    expect(new Set(desk.sandbox.received.map((r) => r.method))).toEqual(new Set(['GET']));
  });

  it('Enter shows a check’s messages and its requests and answers, secrets redacted; y shows it as JSON', async () => {
    own = await startSandbox({ port: 0, log: () => undefined, token: 'check-secret-token-1' });
    const profile = Profile.parse({
      ...sandboxProfile(own.url),
      practice: { baseUrl: `${own.url}/practice`, auth: { type: 'bearer', token: 'check-secret-token-1' } },
    });
    desk = await openDesk({ screen: 'check', size: { columns: 100, rows: 40 }, root: { profile } });
    await desk.waitFor('9 passed', 15_000);
    await desk.press(KEY.enter);
    const d = await desk.waitFor('Requests and answers (1; secrets redacted)');
    expect(d).toContain('A1-types · A1 · appointments · pass');
    expect(d).toContain('info    $.resourceType: answered a ValueSet (the 2.0.0 shape).');
    expect(d).toMatch(/1\. → A1 GET http:\/\/127\.0\.0\.1:\d+\/practice\/ValueSet\?service-category=gp/);
    expect(d).toContain('authorization: Bearer ***');
    expect(d).toMatch(/← HTTP 200 in \d+ ms/);
    expect(d).not.toContain('check-secret-token-1');
    await desk.press('y');
    const raw = await desk.waitFor('Raw · check A1-types');
    expect(raw).toContain('"id": "A1-types"');
    expect(raw).not.toContain('check-secret-token-1');
    await desk.press(KEY.esc);
    await desk.waitFor('Check A1-types');
    await desk.press(KEY.esc);
    await desk.waitFor('WHAT / FIRST MESSAGE');
  });

  it('a broken operation fails its checks, naming the path; Esc stops a run (the rest skipped); r runs again', async () => {
    desk = await openDesk({ screen: 'check', sandbox: { breakOps: ['A4'], latencyMs: 150 }, size: { columns: 100, rows: 40 } });
    await desk.waitFor('⠿ running');
    await desk.press(KEY.esc);
    const stopped = await desk.waitFor('Stopped: the checks not run are skipped.', 8000);
    expect(stopped).toMatch(/stopped after \d+/);
    expect(stopped).toMatch(/– skip/);
    await desk.press('r');
    const f = await desk.waitFor(/7 passed, 2 failed/, 20_000);
    // A run with failures is summed up as an error, not in green with a tick.
    expect(f).toContain('✗ 7 passed, 2 failed, 0 errors');
    expect(f).not.toContain('✓ 7 passed');
    expect(f).toMatch(/A4-slots\s+✗ fail\s+\d+ ms\s+page 1 \$\.entry\[0\]\.resource\.start: required field is mis/);
    await desk.press('s', 'r'); // by result: failures first
    const sorted = await desk.waitFor('result ↑');
    const rows = sorted.split('\n').filter((l) => /✓|✗|–/.test(l));
    expect(rows[0]).toContain('A4-slots');
  });

  it('after Check, a switch to an unreachable profile: every screen loads anew, with its own message, offline', async () => {
    const gone = Profile.parse({ ...sandboxProfile('http://127.0.0.1:9'), name: 'gone' });
    desk = await openDesk({ screen: 'check', root: { loadProfile: async () => gone } });
    await desk.waitFor('9 passed', 15_000);
    await desk.press('2');
    await desk.waitFor('appt-1');
    await desk.press('1');
    await desk.waitFor('gp — General practice');
    await desk.press('6');
    await desk.press(':');
    await desk.type('profile gone');
    await desk.press(KEY.enter);
    // The check runs again on gone: every request fails, so the summary is an error and the header offline.
    let f = await desk.waitFor(/✗ 0 passed, 0 failed, \d+ errors/, 20_000);
    expect(f).toContain('● offline');
    expect(f).not.toMatch(/● online/);
    // The other screens restarted and loaded on gone (the check's run did not abandon their loads): each says
    // why it is empty, and the check's summary is not on them.
    await desk.press('2');
    f = await desk.waitFor('Cannot reach http://127.0.0.1:9');
    expect(f).toContain('Not loaded (see the status line): r to try again.');
    expect(f).not.toContain('passed');
    expect(f).toContain('● offline');
    await desk.press('1');
    f = await desk.waitFor('Cannot reach http://127.0.0.1:9');
    expect(f).not.toContain('passed');
  });
});
