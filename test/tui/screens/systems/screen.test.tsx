/**
 * Systems screen against real servers: several profiles (two on a sandbox, one production), one whose base URL
 * refuses connections and one that never answers; local counts from thread stores and journals; keys never wait.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SystemEntry } from '../../../../src/core/systems/monitor.js';
import { Profile } from '../../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { tempDir } from '../../../helpers/config.js';
import { writeJournal, writeStore } from '../../../helpers/local-files.js';
import { type Desk, KEY, openDesk } from '../../harness.js';

let desk: Desk | undefined;
const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await desk?.close();
  desk = undefined;
  for (const c of servers.splice(0)) await c();
});

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function silentUrl(): Promise<string> {
  const sockets = new Set<Socket>();
  const s: Server = createServer((c) => sockets.add(c));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  servers.push(
    () =>
      new Promise<void>((r) => {
        for (const c of sockets) c.destroy();
        s.close(() => r());
      }),
  );
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

/** Saved profiles next to the desk's own `sandbox`: `beta` (production, same sandbox), `gone`, `silent`, `broken`. */
async function open(o: { silent?: boolean } = {}) {
  const dir = tempDir();
  const gone = await closedPort();
  const silent = o.silent ? await silentUrl() : undefined;
  const profiles = new Map<string, Profile>();
  const entries = (url: string): SystemEntry[] => {
    const mk = (name: string, base: string, extra: object = {}) => {
      const p = Profile.parse({ ...sandboxProfile(base, { name }), ...extra });
      profiles.set(name, p);
      return { name, profile: p };
    };
    return [
      mk('beta', url, { environment: 'production' }),
      mk('gone', `http://127.0.0.1:${gone}`, { environment: 'test' }),
      ...(silent ? [mk('silent', silent)] : []),
      { name: 'broken', invalid: 'Unknown key "praktice" in profile "broken".' },
    ];
  };
  let url = '';
  desk = await openDesk({
    screen: 'systems',
    root: {
      configDir: dir,
      probeTimeoutMs: 1500,
      listProfiles: async () => entries(url),
      loadProfile: async (name) => {
        const p = profiles.get(name);
        if (!p) throw new Error(`There is no profile named "${name}".`);
        return p;
      },
    },
  });
  url = desk.sandbox.url;
  // The first round may have read the list before the sandbox's URL was known: let it end.
  await desk.waitFor(`Systems — ${o.silent ? 5 : 4} profiles`);
  await desk.waitFor(/gone\s+test\s+2\.0\.0\s+unreachable/, 8000);
  await desk.waitGone('probing…', 8000);
  return { dir };
}

describe('Systems screen', () => {
  it('a row per profile: environment, API, each party’s reachability, counts, the last error; unreachable says why', async () => {
    const dir = tempDir();
    await writeStore(dir, 'beta', { open: 2, read: 1 });
    writeJournal(dir, 'beta', ['sending', 'unknown', 'ok']);
    desk = undefined;
    const gone = await closedPort();
    let url = '';
    desk = await openDesk({
      screen: 'systems',
      root: {
        configDir: dir,
        listProfiles: async () => [
          { name: 'beta', profile: Profile.parse({ ...sandboxProfile(url, { name: 'beta' }), environment: 'production' }) },
          {
            name: 'gone',
            profile: Profile.parse({ ...sandboxProfile(`http://127.0.0.1:${gone}`, { name: 'gone' }), environment: 'test' }),
          },
          { name: 'broken', invalid: 'Unknown key "praktice" in profile "broken".' },
          { name: 'look', profile: Profile.parse({ ...sandboxProfile(url, { name: 'look' }), environment: 'test', readOnly: true }) },
        ],
      },
    });
    url = desk.sandbox.url;
    // The first round may have read the list before the sandbox's URL was known: once it is over, r again.
    await desk.waitFor('Systems — 5 profiles');
    await desk.waitGone('probing…', 8000);
    await desk.press('r');
    await desk.waitFor(/beta\s+PRODUCTION\s+2\.0\.0\s+ok \d+ ms\s+reachable \(404\) \d+ ms\s+1\s+2\s+2/, 8000);
    let f = await desk.waitFor(/gone\s+test\s+2\.0\.0\s+unreachable\s+unreachable/, 8000);
    expect(f).toContain('Systems — 5 profiles');
    expect(f).toMatch(/\* sandbox\s+sandbox\s+2\.0\.0\s+ok \d+ ms\s+reachable \(404\) \d+ ms/);
    expect(f).toMatch(/broken\s+invalid/);
    // A read-only profile says so beside its environment.
    expect(f).toMatch(/look\s+test ro\s+2\.0\.0\s+ok/);
    // The cursor starts on the desk's own profile, and the header says what its probe found.
    expect(f).toMatch(/> \* sandbox/);
    expect(f).toMatch(/profile ↑ · \d\d:\d\d:\d\d · 5\/5/);
    expect(f.split('\n')[0]).toMatch(/● online \d+ ms/);
    // The selected profile in full below the list; then the unreachable one with its error.
    await desk.press('g');
    f = await desk.waitFor(/> {3}beta/);
    expect(f).toMatch(/practice\s+ok: HTTP 200 in \d+ ms/);
    expect(f).toMatch(/local {5}1 unread · 2 open chats of 3 · 2 uncertain bulk rows/);
    await desk.press('/');
    await desk.type('gone');
    await desk.press(KEY.enter);
    const g = await desk.waitFor(/> {3}gone/);
    expect(g).toMatch(/practice\s+unreachable: .*connection refused/);
    expect(g).toMatch(/last error \d\d:\d\d:\d\d (practice|portal): .*connection refused/);
    expect(g).toContain('1/1 of 5');
    await desk.press(KEY.esc, 'G', 'k');
    expect(await desk.waitFor(/> {3}look/)).toMatch(/look · test · read-only \(GET only\) · appt API/);
  });

  it('probes never hold a key: with a server that never answers, other screens open at once; it times out later', async () => {
    await open({ silent: true });
    expect(desk!.frame()).toMatch(/silent\s+sandbox\s+2\.0\.0\s+time-out\s+time-out/);
    await desk!.press('r');
    await desk!.waitFor('probing…');
    const t0 = Date.now();
    await desk!.press('2');
    await desk!.waitFor('Appointments (A5)', 1000);
    expect(Date.now() - t0).toBeLessThan(1000);
    await desk!.press('0');
    const f = await desk!.waitFor('probing…'); // the silent server still holds its probes
    expect(f).toMatch(/beta\s+PRODUCTION\s+2\.0\.0\s+ok/); // the others answered meanwhile
    await desk!.waitGone('probing…', 6000);
    expect(desk!.frame()).toMatch(/silent\s+sandbox\s+2\.0\.0\s+time-out\s+time-out/);
  });

  it('Enter switches the desk to the profile (production shows in the header); Systems stays as it was; s sorts', async () => {
    await open();
    await desk!.press('r');
    await desk!.waitFor(/beta\s+PRODUCTION\s+2\.0\.0\s+ok/, 8000);
    await desk!.press('s');
    await desk!.waitFor('sort by: n profile');
    await desk!.press('e'); // by environment: production, sandbox, test, then the invalid one
    const sorted = await desk!.waitFor('environment ↑');
    const order = sorted
      .split('\n')
      .filter((l) => /^[> ] [* ] \S/.test(l))
      .map((l) => l.slice(4).split(/\s+/)[0]);
    expect(order).toEqual(['beta', 'sandbox', 'gone', 'broken']);
    await desk!.press('g', KEY.enter);
    const f = await desk!.waitFor(/ pdesk {2}beta {2}/);
    expect(f.split('\n')[0]).toContain(' PRODUCTION ');
    expect(f).toContain('Profile beta.');
    expect(f).toMatch(/> \* beta/);
    expect(f).toContain('environment ↑'); // the screen was not restarted by the switch
    await desk!.press('j', 'j', 'j', KEY.enter);
    await desk!.waitFor('Profile broken cannot be used: Unknown key "praktice"');
    // Back to the desk's own (unsaved) profile: it is switched to as it is, not looked up in the store.
    await desk!.press('g', 'j', KEY.enter);
    await desk!.waitFor(/ pdesk {2}sandbox \[sandbox\]/);
  });
});
