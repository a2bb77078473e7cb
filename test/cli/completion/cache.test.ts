/**
 * The ids the list commands remember for shell completion (src/cli/completion/cache.ts): one file per profile
 * and kind, mode 0600, the last list only, bounded, one-line descriptions; a file that cannot be written never
 * fails the list.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachePath, MAX_IDS, readCachedIds, writeCachedIds } from '../../../src/cli/completion/cache.js';
import { type Env, tempDir, withSandbox } from '../../helpers/run.js';

describe('the completion cache', () => {
  it('writes completion/<profile>/<kind>.json, mode 0600 in a 0700 folder, and reads it back', async () => {
    const dir = tempDir('pdesk-cache-');
    await writeCachedIds(dir, 'sandbox', 'appointments', [{ id: 'a-1', description: 'booked\n2026-01-02\u001b[31m' }, { id: 'a-2' }]);
    const file = join(dir, 'completion', 'sandbox', 'appointments.json');
    expect(cachePath(dir, 'sandbox', 'appointments')).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'completion', 'sandbox')).mode & 0o777).toBe(0o700);
    expect(readCachedIds(dir, 'sandbox', 'appointments')).toEqual([{ id: 'a-1', description: 'booked 2026-01-02 [31m' }, { id: 'a-2' }]);
    expect(JSON.parse(readFileSync(file, 'utf8')).savedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Per kind and per profile; the last write replaces the one before.
    expect(readCachedIds(dir, 'sandbox', 'medication-requests')).toEqual([]);
    expect(readCachedIds(dir, 'other', 'appointments')).toEqual([]);
    await writeCachedIds(dir, 'sandbox', 'appointments', [{ id: 'a-3' }]);
    expect(readCachedIds(dir, 'sandbox', 'appointments')).toEqual([{ id: 'a-3' }]);
  });

  it(`keeps at most ${MAX_IDS} ids, drops ids a shell could not take, long descriptions are cut`, async () => {
    const dir = tempDir('pdesk-cache-');
    const many = Array.from({ length: MAX_IDS + 5 }, (_, i) => ({ id: `id-${i}` }));
    await writeCachedIds(dir, 'p', 'appointments', [{ id: '' }, { id: 'has space' }, { id: 'ctl\u0007' }, ...many]);
    const read = readCachedIds(dir, 'p', 'appointments');
    expect(read).toHaveLength(MAX_IDS);
    expect(read[0]).toEqual({ id: 'id-0' });
    await writeCachedIds(dir, 'p', 'appointments', [{ id: 'x', description: 'd'.repeat(200) }]);
    expect(readCachedIds(dir, 'p', 'appointments')[0]!.description).toBe(`${'d'.repeat(79)}…`);
  });

  it('a profile name that is not a file name gets no file; a file that is not the cache reads as empty', async () => {
    const dir = tempDir('pdesk-cache-');
    expect(cachePath(dir, '../evil', 'appointments')).toBeUndefined();
    await writeCachedIds(dir, '../evil', 'appointments', [{ id: 'x' }]);
    expect(existsSync(join(dir, 'completion'))).toBe(false);
    await writeCachedIds(dir, 'p', 'appointments', [{ id: 'x' }]);
    for (const text of ['{not json', '[]', '{"ids": "x"}', '{"ids": [1, {"id": 2}, {"id": "ok"}]}']) {
      writeFileSync(cachePath(dir, 'p', 'appointments')!, text);
      expect(readCachedIds(dir, 'p', 'appointments')).toEqual(text.includes('"ok"') ? [{ id: 'ok' }] : []);
    }
  });
});

describe('a list whose cache cannot be written', () => {
  let env: Env;
  beforeAll(async () => {
    env = await withSandbox();
    writeFileSync(join(env.configDir, 'completion'), 'a file where the folder would be');
  });
  afterAll(async () => {
    await env?.close();
  });

  it('still prints its list and exits 0; --verbose says why the ids were not saved', async () => {
    const r = await env.run(['appointments', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.json()).toHaveLength(3);
    const verbose = await env.run(['medications', 'list', '--json', '--verbose']);
    expect(verbose.code).toBe(0);
    expect(verbose.json()).toHaveLength(3);
    expect(verbose.stderr).toMatch(/pdesk: the medication-requests ids for shell completion were not saved \((EEXIST|ENOTDIR)\)\./);
  });
});
