/**
 * `pdesk sandbox` run in-process: what it refuses before it starts (bad options and a port in use exit 2 naming the
 * option; a profile named "sandbox" that is not a sandbox's exits 3), and the profile it saves for the port it
 * listens on. The running sandbox as a process (its first line, SIGINT and SIGTERM releasing the port, the README's
 * scripted block) is test/process/sandbox.test.ts.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Signal } from '../../../../src/cli/io.js';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { run as runPdesk, tempDir, writeProfiles } from '../../../helpers/run.js';

describe('pdesk sandbox refuses before it starts', () => {
  it('bad options exit 2 naming the option, a port in use included', async () => {
    for (const [args, name] of [
      [['--port', '70000'], '--port'],
      [['--port', 'abc'], '--port'],
      [['--appointment-api', '3.0.0'], '--appointment-api'],
      [['--fail-rate', '1.5'], '--fail-rate'],
      [['--latency', '-1'], '--latency'],
      [['--push-to', 'ftp://x'], '--push-to'],
      [['--token-env', 'PDESK_SURELY_UNSET_VAR'], '--token-env'],
    ] as const) {
      const r = await runPdesk(['sandbox', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(name);
    }
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const r = await runPdesk(['sandbox', '--port', String(port), '--no-profile']);
    blocker.close();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--port ${port}`);
    expect(r.stderr).toMatch(/in use/);
  });

  it('a profile named "sandbox" that is not a sandbox\'s is not replaced: exit 3, nothing starts, the store unchanged', async () => {
    const dir = tempDir();
    writeProfiles(dir, [{ ...sandboxProfile('https://practice.example.org'), environment: 'production' }]);
    const before = readFileSync(join(dir, 'profiles.json'), 'utf8');
    const r = await runPdesk(['sandbox', '--port', '0'], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe(
      'pdesk: A profile named "sandbox" exists and is not a sandbox\'s (environment "production"): pdesk sandbox does not replace it.',
    );
    expect(r.stderr).toContain('--no-profile');
    expect(r.stdout).toBe('');
    expect(readFileSync(join(dir, 'profiles.json'), 'utf8')).toBe(before);
  });
});

/** `pdesk sandbox …` in-process; it keeps running until `stop()` (SIGTERM), which resolves with its exit code. */
async function startSandbox(args: string[], configDir: string) {
  let send: (s: Signal) => void = () => undefined;
  const r = await runPdesk(['sandbox', ...args], { configDir, signals: (s) => (send = s) });
  const stop = async () => {
    send('SIGTERM');
    // exitNow runs once the server has closed; give it the turn it needs.
    await new Promise((resolve) => setTimeout(resolve, 50));
  };
  return { ...r, stop };
}

const store = (dir: string) => JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8'));

describe('the profile pdesk sandbox saves', () => {
  it('creates the profile "sandbox" for the port it listens on, then updates it; the hint says what was saved and how to use it', async () => {
    const dir = tempDir();
    writeProfiles(dir, [{ ...sandboxProfile('http://127.0.0.1:9'), name: 'other' }]);
    const first = await startSandbox(['--port', '0', '--output', 'table'], dir);
    try {
      expect(first.code).toBe(0);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(first.stdout)![1]!;
      expect(store(dir).profiles.sandbox).toEqual(sandboxProfile(url));
      // The other profile stays the default.
      expect(store(dir).defaultProfile).toBe('other');
      expect(first.stdout).toContain(`Saved profile "sandbox" for this port in ${join(dir, 'profiles.json')}.`);
      expect(first.stdout).toContain(
        "pdesk --profile sandbox slots list --service-category 'urn:pdesk:service-category|gp' --from today --to +7d",
      );
      expect(first.stdout).toContain('pdesk --profile sandbox check');
      // The profile is in the store, not on the screen.
      expect(first.stdout).not.toContain('"baseUrl"');
      // It works: a read with the saved profile.
      const read = await runPdesk(['--profile', 'sandbox', 'practitioners', 'list', '--json'], { configDir: dir });
      expect(read.code).toBe(0);
      expect(read.json().length).toBeGreaterThan(0);
    } finally {
      await first.stop();
    }

    const second = await startSandbox(['--port', '0', '--appointment-api', '1.0.0'], dir);
    try {
      const info = second.json();
      expect(info.url).not.toBe(/listening on (\S+)/.exec(first.stdout)![1]);
      expect(info.savedProfile).toEqual({ name: 'sandbox', store: join(dir, 'profiles.json'), default: false, created: false });
      expect(store(dir).profiles.sandbox).toEqual(sandboxProfile(info.url, { appointmentApi: '1.0.0' }));
      expect(Object.keys(store(dir).profiles)).toEqual(['other', 'sandbox']);
    } finally {
      await second.stop();
    }
  });

  it('an empty store gets it as its default; --no-profile saves nothing and prints the profile to import', async () => {
    const dir = tempDir();
    const none = await startSandbox(['--port', '0', '--no-profile', '--output', 'table'], dir);
    try {
      expect(() => readFileSync(join(dir, 'profiles.json'))).toThrow();
      expect(none.stdout).toContain('Profile (not saved: --no-profile; save it as sandbox-profile.json):');
      expect(none.stdout).toContain('Import it with: pdesk profile import sandbox-profile.json --default');
    } finally {
      await none.stop();
    }
    const saved = await startSandbox(['--port', '0'], dir);
    try {
      expect(saved.json().savedProfile).toMatchObject({ default: true, created: true });
      expect(store(dir).defaultProfile).toBe('sandbox');
    } finally {
      await saved.stop();
    }
  });
});
