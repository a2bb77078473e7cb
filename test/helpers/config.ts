/**
 * Config folders for tests: a fresh temporary folder (removed after the test file that made it), and a profile
 * store written straight into one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { ProfileInput } from '../../src/core/profile/schema.js';

const made: string[] = [];
// Every folder made here is removed after the test file that imported this helper, whether or not a test
// cleaned up (a hook registered at import time belongs to the file).
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = 'pdesk-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Write a profile store holding `profiles` (the first is the default) into `dir`. */
export function writeProfiles(dir: string, profiles: ProfileInput[]): void {
  const store = {
    schemaVersion: 1,
    defaultProfile: profiles[0]?.name,
    profiles: Object.fromEntries(profiles.map((p) => [p.name, p])),
  };
  writeFileSync(join(dir, 'profiles.json'), JSON.stringify(store, null, 2), { mode: 0o600 });
}
