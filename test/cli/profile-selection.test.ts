/**
 * The profiles check and doctor run on (src/cli/profile-selection.ts) come from the command's IO: the profile
 * store of its PDESK_CONFIG_DIR and its PDESK_PROFILE, never the test process's environment. In-process against
 * the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Env, withSandbox, writeProfiles } from '../helpers/run.js';

describe('profileEntries reads the IO’s config folder and PDESK_PROFILE', () => {
  let env: Env;
  beforeAll(async () => {
    env = await withSandbox();
    writeProfiles(env.configDir, [env.profile, { ...env.profile, name: 'other' }]);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('the default, PDESK_PROFILE, --profile, --profiles and --all-profiles', async () => {
    expect(process.env.PDESK_CONFIG_DIR).not.toBe(env.configDir);
    const check = (args: string[], pdeskProfile?: string) =>
      env.run(['check', '--only', 'A2', ...args], { env: pdeskProfile ? { PDESK_PROFILE: pdeskProfile } : {} });
    const byDefault = await check(['--query', 'profile']);
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(byDefault.json()).toBe('sandbox');
    expect((await check(['--query', 'profile'], 'other')).json()).toBe('other');
    expect((await check(['--profile', 'sandbox', '--query', 'profile'], 'other')).json()).toBe('sandbox');
    expect((await check(['--profiles', 'other', '--query', '[].profile'])).json()).toEqual(['other']);
    expect((await check(['--all-profiles', '--query', 'sort([].profile)'])).json()).toEqual(['other', 'sandbox']);
    const unknown = await check([], 'nope');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr.split('\n').slice(0, 2)).toEqual([
      'pdesk: There is no profile named "nope".',
      '  Known profiles: sandbox, other.',
    ]);
  });
});
