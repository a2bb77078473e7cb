/** useCheck: the run's steps (waiting → running → done), the summary, a stop and a new run; the suite runs over HTTP. */
import { afterEach, describe, expect, it } from 'vitest';
import { Profile } from '../../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { useDesk } from '../../../../src/tui/desk.js';
import { useCheck } from '../../../../src/tui/screens/check/useCheck.js';
import { stubServer } from '../../../helpers/http.js';
import { type RenderedHook, renderHook, testProfile } from '../../hook-harness.js';

let h: RenderedHook<ReturnType<typeof useCheck>> | undefined;
afterEach(() => h?.unmount());

describe('useCheck', () => {
  it('runs on open: every check listed first, then done; a server that is not there is an error per read check', async () => {
    h = renderHook(() => useCheck(), { profile: testProfile() }); // a closed port
    await h.until(() => expect(h!.current.rows).toHaveLength(21));
    await h.until(() => expect(h!.current.running).toBe(false), 10_000);
    const results = h.current.rows.map((r) => `${r.id} ${r.result?.result}`);
    expect(results).toContain('A1-types error');
    expect(results).toContain('A6-book omit');
    expect(results).toContain('M2-read skip'); // needs what M1 found
    expect(h.current.report?.summary).toMatchObject({ omit: 12 });
    expect(h.text()).toMatch(/^0 passed, \d+ failed, \d+ errors, \d+ skipped, 12 omitted\. Writes: pdesk check --write\.$/);
    const a1 = h.current.resultOf('A1-types')!;
    expect(a1.messages[0]!.text).toMatch(/connection refused/);
    expect(a1.exchanges[0]).toMatchObject({ method: 'GET', error: { code: 'ECONNREFUSED' } });
  });

  it('a run stopped (what Esc does: the desk abandons it) skips what is left; run() starts again', async () => {
    const stub = await stubServer(() => undefined); // answers nothing: a check waits until the run is stopped
    const hook = renderHook(() => ({ c: useCheck(), desk: useDesk() }), { profile: Profile.parse(sandboxProfile(stub.url)) });
    try {
      await hook.until(() => expect(hook.current.c.rows.find((r) => r.id === 'A1-types')?.state).toBe('running'));
      expect(hook.current.c.rows.filter((r) => r.state === 'waiting')).toHaveLength(20);
      expect(hook.status.busy?.label).toBe('Checking sandbox (read-only)');
      hook.current.desk.abort();
      await hook.until(() => expect(hook.current.c.stopped).toBe(true));
      expect(hook.text()).toMatch(/^Stopped: the checks not run are skipped\. 0 passed, 0 failed, 1 errors, 20 skipped, 0 omitted/);
      expect(hook.current.c.rows.find((r) => r.id === 'A2-roles')?.result?.messages[0]?.text).toBe('the run was stopped before this check');
      const sent = stub.received.length;
      hook.current.c.run();
      await hook.until(() => expect(hook.current.c.rows.find((r) => r.id === 'A1-types')?.state).toBe('running'));
      expect(hook.current.c.stopped).toBe(false);
      expect(hook.current.c.report).toBeUndefined();
      await hook.until(() => expect(stub.received.length).toBeGreaterThan(sent));
    } finally {
      hook.current.desk.abort();
      hook.unmount();
    }
  });
});
