/**
 * `pdesk store status | migrate`, in-process, against a throw-away PostgreSQL cluster: which store the settings
 * select, its state, migrations applied once, the exit codes of a store that cannot be reached or refuses the
 * login, and the URL's password in no output, --verbose and errors included.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS } from '../../../src/core/store/pg/index.js';
import { clusterForFile, pgInstalled } from '../../helpers/pg.js';
import { run, tempDir } from '../../helpers/run.js';

const pg = clusterForFile();

function configWith(settings?: object): string {
  const dir = tempDir();
  if (settings) writeFileSync(join(dir, 'config.json'), JSON.stringify(settings));
  return dir;
}

describe('pdesk store, without a team store', () => {
  it('status names the file store, its folder and the operator', async () => {
    const dir = configWith({ operator: 'alice' });
    const r = await run(['store', 'status'], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual({ engine: 'file', folder: dir, operator: { name: 'alice', source: 'settings' } });
    const t = await run(['store', 'status', '--output', 'table'], { configDir: dir, env: { PDESK_OPERATOR: 'bob' } });
    expect(t.stdout).toMatch(/^engine {4}file \(this machine only\)\nfolder {4}\S+\noperator {2}bob \(PDESK_OPERATOR\)\n$/);
  });

  it('migrate exits 3: there is nothing to migrate', async () => {
    const r = await run(['store', 'migrate'], { configDir: configWith() });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^pdesk: No team store is configured/);
  });

  it('settings naming an unset variable, or an unknown key, exit 3 naming them', async () => {
    const unset = await run(['store', 'status'], { configDir: configWith({ storeUrlEnv: 'PDESK_TEST_NO_SUCH_DB' }) });
    expect(unset.code).toBe(3);
    expect(unset.stderr).toMatch(/PDESK_TEST_NO_SUCH_DB \(storeUrlEnv in .*config\.json\), which is not set/);
    const typo = await run(['store', 'status'], { configDir: configWith({ storeURL: 'x' }) });
    expect(typo.code).toBe(3);
    expect(typo.stderr).toMatch(/Unknown key "storeURL"/);
  });
});

describe.skipIf(!pgInstalled)('pdesk store, with a team store', () => {
  it('status shows the pending migrations, migrate applies them once, status then shows none', async () => {
    const url = await pg().createDatabase();
    const dir = configWith({ storeUrlEnv: 'TEAM_DB' });
    const env = { TEAM_DB: url, PDESK_OPERATOR: 'owner' };
    const before = await run(['store', 'status'], { configDir: dir, env });
    expect(before.code, before.stderr).toBe(0);
    expect(before.json()).toMatchObject({
      engine: 'postgres',
      source: `TEAM_DB (storeUrlEnv in ${join(dir, 'config.json')})`,
      reachable: true,
      schemaVersion: 0,
      latestVersion: LATEST_VERSION,
      pending: MIGRATIONS.map(({ version, name }) => ({ version, name })),
    });
    const dry = await run(['store', 'migrate', '--dry-run'], { configDir: dir, env });
    const versions = MIGRATIONS.map(({ version }) => ({ version }));
    expect(dry.json()).toMatchObject({ dryRun: true, from: 0, to: 0, pending: versions });
    const applied = await run(['store', 'migrate'], { configDir: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.json()).toMatchObject({ dryRun: false, from: 0, to: LATEST_VERSION, applied: versions });
    const again = await run(['store', 'migrate', '--output', 'table'], { configDir: dir, env });
    expect(again.stdout).toContain(`is up to date (schema version ${LATEST_VERSION})`);
    const after = await run(['store', 'status', '--output', 'table'], { configDir: dir, env });
    expect(after.code).toBe(0);
    expect(after.stdout).toContain(`schema    version ${LATEST_VERSION} of ${LATEST_VERSION}`);
    expect(after.stdout).not.toContain('pending');
  });

  it('a store that cannot be reached: status printed, exit 5; a refused password: exit 3', async () => {
    const dir = configWith();
    const down = await run(['store', 'status'], {
      configDir: dir,
      env: { PDESK_STORE_URL: `postgres://postgres:${pg().password}@127.0.0.1:1/postgres` },
    });
    expect(down.code).toBe(5);
    expect(down.json()).toMatchObject({ reachable: false });
    expect(down.stderr).toMatch(
      /^pdesk: The team store at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/postgres cannot be reached \(ECONNREFUSED\)\./,
    );
    const refused = await run(['store', 'migrate'], {
      configDir: dir,
      env: { PDESK_STORE_URL: pg().urlOf('postgres', { name: 'postgres', password: 'Wrong-Password-123' }) },
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/the password was refused \(28P01\)/);
  });

  it('the password is in no output: status, migrate, errors, --verbose stack traces', async () => {
    const url = await pg().createDatabase();
    const password = pg().password;
    const wrong = 'Wr0ng-Secret-Password';
    const lines: string[][] = [
      ['store', 'status'],
      ['store', 'status', '--output', 'table'],
      ['store', 'migrate', '--dry-run', '--verbose'],
      ['store', 'migrate', '--verbose'],
    ];
    const outputs: string[] = [];
    for (const args of lines) {
      const r = await run(args, { configDir: configWith(), env: { PDESK_STORE_URL: url } });
      expect(r.code, r.stderr).toBe(0);
      outputs.push(r.stdout, r.stderr);
    }
    for (const args of [...lines, ['store', 'status', '--verbose', '--output', 'table']]) {
      const r = await run(args, { configDir: configWith(), env: { PDESK_STORE_URL: url.replace(password, wrong) } });
      expect(r.code).toBe(3);
      outputs.push(r.stdout, r.stderr);
    }
    const all = outputs.join('\n');
    expect(all).toContain('postgres://postgres:***@127.0.0.1');
    expect(all).not.toContain(password);
    expect(all).not.toContain(wrong);
  });
});
