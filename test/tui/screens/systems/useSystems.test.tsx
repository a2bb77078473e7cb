/** useSystems: the profile list, background rounds, Enter's switch; the probes go to stub servers over HTTP. */
import { afterEach, describe, expect, it } from 'vitest';
import type { SystemEntry } from '../../../../src/core/systems/monitor.js';
import { Profile } from '../../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { useSystems } from '../../../../src/tui/screens/systems/useSystems.js';
import { useDesk } from '../../../../src/tui/desk.js';
import { stubServer } from '../../../helpers/http.js';
import { type RenderedHook, renderHook, testProfile } from '../../hook-harness.js';

let h: RenderedHook<{ s: ReturnType<typeof useSystems>; profile: string }> | undefined;
afterEach(() => h?.unmount());

const ok = (res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/fhir+json' });
  res.end('{"resourceType":"Bundle","type":"searchset","entry":[]}');
};

function open(list: () => Promise<SystemEntry[]>, refreshS = 30) {
  return renderHook(
    () => {
      const s = useSystems();
      return { s, profile: useDesk().profile.name };
    },
    { profile: testProfile({ name: 'desk' }), options: { listProfiles: list, probeTimeoutMs: 5000, systemsRefreshS: refreshS } },
  );
}

describe('useSystems', () => {
  it('lists the desk’s own unsaved profile first, then the saved ones, and probes them all in the background', async () => {
    const stub = await stubServer((_req, res) => ok(res));
    const saved = Profile.parse(sandboxProfile(stub.url, { name: 'saved' }));
    h = open(async () => [{ name: 'saved', profile: saved, isDefault: true }]);
    await h.until(() => expect(h!.current.s.statuses.map((x) => x.name)).toEqual(['desk', 'saved']));
    expect(h.current.s.statuses[0]!.unsaved).toBe(true);
    await h.until(() => expect(h!.current.s.statuses[1]!.practice?.state).toBe('ok'));
    await h.until(() => expect(h!.current.s.probing).toBe(false));
    // testProfile points at a closed port: unreachable, said with its reason.
    expect(h.current.s.statuses[0]!.practice).toMatchObject({ state: 'unreachable' });
    expect(h.current.s.loaded).toBe(true);
    expect(h.text()).toBe(''); // probes never write the status line
  });

  it('refreshes on its own every few seconds and on refresh(); a list that cannot be read is said, the desk’s profile still shown', async () => {
    const stub = await stubServer((_req, res) => ok(res));
    let calls = 0;
    h = open(async () => {
      calls++;
      if (calls === 2) throw new Error('profiles.json is not JSON');
      return [{ name: 'saved', profile: Profile.parse(sandboxProfile(stub.url, { name: 'saved' })) }];
    }, 0.3);
    await h.until(() => expect(calls).toBeGreaterThanOrEqual(2), 3000);
    await h.until(() => expect(h!.current.s.problem).toBe('The saved profiles cannot be read: profiles.json is not JSON'));
    expect(h.current.s.statuses.map((x) => x.name)).toEqual(['desk']);
    await h.until(() => expect(calls).toBeGreaterThanOrEqual(3), 3000);
    await h.until(() => expect(h!.current.s.problem).toBeUndefined());
    const before = calls;
    h.current.s.refresh();
    await h.until(() => expect(calls).toBeGreaterThan(before));
  });

  it('open switches the desk; an invalid profile or the current one is said instead', async () => {
    const stub = await stubServer((_req, res) => ok(res));
    const saved = Profile.parse(sandboxProfile(stub.url, { name: 'saved' }));
    h = open(async () => [
      { name: 'saved', profile: saved },
      { name: 'bad', invalid: 'Unknown key "x" in profile "bad".' },
    ]);
    await h.until(() => expect(h!.current.s.statuses).toHaveLength(3));
    const [desk, , bad] = h.current.s.statuses;
    h.current.s.open(desk!);
    await h.until(() => expect(h!.text()).toBe('Already on profile desk.'));
    h.current.s.open(bad!);
    await h.until(() => expect(h!.text()).toBe('Profile bad cannot be used: Unknown key "x" in profile "bad".'));
    // The harness's desk loads saved profiles through the default store; the unsaved one is switched to as it is.
    h.current.s.open({ ...desk!, name: 'desk-copy', profile: Profile.parse({ ...sandboxProfile(stub.url), name: 'desk-copy' }) });
    await h.until(() => expect(h!.current.profile).toBe('desk-copy'));
    expect(h.text()).toBe('Profile desk-copy.');
  });
});
