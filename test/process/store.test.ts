/**
 * `pdesk store` as processes from dist (one-shot, from dist/cli.cjs, which holds the driver): desks
 * migrating a new database at the same moment each exit 0 and the migration is applied once, and the URL's password
 * is in no output of the processes.
 */
import { describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS } from '../../src/core/store/pg/index.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { clusterForFile, pgInstalled } from '../helpers/pg.js';

const pg = clusterForFile();

describe.skipIf(!pgInstalled)('pdesk store from dist', () => {
  it('three processes migrating a new database at once: all exit 0, the migration applied once; status then shows it', async () => {
    const url = await pg().createDatabase();
    const env = { PDESK_STORE_URL: url, PDESK_OPERATOR: 'owner' };
    const configDir = tempDir();
    const runs = await Promise.all([1, 2, 3].map(() => runCli(['store', 'migrate', '--json'], { configDir, env, timeoutMs: 60_000 })));
    for (const r of runs) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(runs.map((r) => r.json().applied.length).sort()).toEqual([0, 0, MIGRATIONS.length]);
    const status = await runCli(['store', 'status', '--json'], { configDir, env, timeoutMs: 60_000 });
    expect(status.code, status.stderr).toBe(0);
    expect(status.json()).toMatchObject({ engine: 'postgres', reachable: true, schemaVersion: LATEST_VERSION, pending: [] });
    const table = await runCli(['store', 'status', '--output', 'table'], { configDir, env, timeoutMs: 60_000 });
    const refused = await runCli(['store', 'status', '--verbose'], {
      configDir,
      env: { PDESK_STORE_URL: url.replace(pg().password, 'Other-Pass-4321') },
      timeoutMs: 60_000,
    });
    expect(refused.code).toBe(3);
    const all = [...runs, status, table, refused].map((r) => r.stdout + r.stderr).join('\n');
    expect(all).toContain('postgres://postgres:***@127.0.0.1:');
    expect(all).not.toContain(pg().password);
    expect(all).not.toContain('Other-Pass-4321');
  }, 120_000);
});
