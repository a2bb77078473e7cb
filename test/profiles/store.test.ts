/**
 * The profile store (src/profiles/store.ts): a file that is not a profile store is a configuration error naming
 * the file (exit 3) for every command that reads it, and no command that writes (import, add, use, remove)
 * ever overwrites it; two config folders in one process keep their own stores.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, ExitCode } from '../../src/core/errors.js';
import { openProfileStore } from '../../src/profiles/store.js';
import { run, tempDir } from '../helpers/run.js';

const SANDBOX_PROFILE = fileURLToPath(new URL('../../profiles/sandbox.json', import.meta.url));
const storeFile = (dir: string) => join(dir, 'profiles.json');

/** Texts of a profiles.json that is JSON but not a profile store, and what the error says about each. */
const NOT_A_STORE: Array<[string, string]> = [
  ['null', 'it holds null, not an object'],
  ['[1,2]', 'it holds an array, not an object'],
  ['[]', 'it holds an array, not an object'],
  ['42', 'it holds a number, not an object'],
  ['"profiles"', 'it holds a string, not an object'],
  ['{"profiles": []}', '"profiles" is an array, not an object of profiles'],
  ['{"profiles": null}', '"profiles" is null, not an object of profiles'],
  ['{"profiles": {"a": 1}}', 'the profile "a" is a number, not an object'],
  ['{"schemaVersion": "1", "profiles": {}}', '"schemaVersion" is a string, not a version number'],
  ['{"defaultProfile": 7, "profiles": {}}', '"defaultProfile" is a number, not a profile name'],
];

const addFlags = [
  '--name',
  'added',
  '--practice-url',
  'https://practice.test/fhir',
  '--portal-url',
  'https://portal.test/fhir',
  '--portal-namespace',
  'portal.test',
  '--practice-namespace',
  'practice.test',
];

/** Every command that reads or writes the store. */
const COMMANDS: string[][] = [
  ['profile', 'list'],
  ['profile', 'show'],
  ['profile', 'import', SANDBOX_PROFILE],
  ['profile', 'add', ...addFlags],
  ['profile', 'use', 'a'],
  ['profile', 'remove', 'a'],
  ['appointments', 'list'],
  ['chat', 'threads'],
];

describe('a profiles.json that is not a profile store', () => {
  it.each(NOT_A_STORE)('%s: the store reads as a ConfigError naming the file', (text, problem) => {
    const dir = tempDir();
    writeFileSync(storeFile(dir), text);
    const store = openProfileStore(dir);
    let error: unknown;
    try {
      store.read();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(`The profile store ${storeFile(dir)} is not a profile store: ${problem}.`);
    expect((error as ConfigError).exitCode).toBe(ExitCode.config);
  });

  it.each(NOT_A_STORE)('%s: every command exits 3 naming the file, and the file is left as it was', async (text, problem) => {
    const dir = tempDir();
    writeFileSync(storeFile(dir), text);
    for (const args of COMMANDS) {
      const r = await run(args, { configDir: dir });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      expect(r.stderr.split('\n')[0]).toBe(`pdesk: The profile store ${storeFile(dir)} is not a profile store: ${problem}.`);
      expect(r.stderr).not.toContain('unexpected error');
      expect(r.stdout).toBe('');
      expect(readFileSync(storeFile(dir), 'utf8')).toBe(text);
    }
  });

  it('a newer schema version is refused by name, and not overwritten by an import', async () => {
    const dir = tempDir();
    const text = JSON.stringify({ schemaVersion: 99, profiles: {} });
    writeFileSync(storeFile(dir), text);
    const r = await run(['profile', 'import', SANDBOX_PROFILE], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe(`pdesk: The profile store ${storeFile(dir)} was written by a newer pdesk (schema 99).`);
    expect(readFileSync(storeFile(dir), 'utf8')).toBe(text);
  });

  it('an empty file is an empty store: list shows none, an import writes a store', async () => {
    const dir = tempDir();
    writeFileSync(storeFile(dir), '  \n');
    expect((await run(['profile', 'list', '--json'], { configDir: dir })).json()).toEqual([]);
    const r = await run(['profile', 'import', SANDBOX_PROFILE], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(storeFile(dir), 'utf8'))).toMatchObject({ defaultProfile: 'sandbox', profiles: { sandbox: {} } });
  });
});

describe('two config folders in one process', () => {
  it('each keeps its own store: a write goes to the folder of its run, not to the first one written', async () => {
    const a = tempDir();
    const b = tempDir();
    expect((await run(['profile', 'import', SANDBOX_PROFILE, '--name', 'in-a'], { configDir: a })).code).toBe(0);
    expect((await run(['profile', 'import', SANDBOX_PROFILE, '--name', 'in-b'], { configDir: b })).code).toBe(0);
    expect((await run(['profile', 'use', 'in-b'], { configDir: b })).code).toBe(0);
    const names = (dir: string) => Object.keys(JSON.parse(readFileSync(storeFile(dir), 'utf8')).profiles);
    expect(names(a)).toEqual(['in-a']);
    expect(names(b)).toEqual(['in-b']);
  });
});

describe('what the store says and makes (issue 35, item 20)', () => {
  it('a profiles.json linked to another file is named by line and column, never quoted', async () => {
    const { symlinkSync } = await import('node:fs');
    const dir = tempDir();
    const secret = join(tempDir(), 'shadow');
    writeFileSync(secret, 'root:$6$secret-hash:19000:0:99999:7:::\n');
    symlinkSync(secret, storeFile(dir));
    for (const args of [
      ['profile', 'list'],
      ['profile', 'add', ...addFlags],
    ]) {
      const r = await run(args, { configDir: dir });
      expect(r.code).toBe(ExitCode.config);
      expect(r.stderr).toBe(
        `pdesk: The profile store ${storeFile(dir)} is not valid JSON.\n  not valid JSON (unexpected character at line 1, column 1)\n  Fix the file, or move it away and import the profiles again.\n`,
      );
      expect(r.stderr).not.toContain('root');
    }
    expect(readFileSync(secret, 'utf8')).toBe('root:$6$secret-hash:19000:0:99999:7:::\n');
    const imported = await run(['profile', 'import', secret], { configDir: tempDir() });
    expect(imported.code).toBe(ExitCode.config);
    expect(imported.stderr).not.toContain('root');
    expect(imported.stderr).toContain('unexpected character at line 1, column 1');
  });

  it('the config folder it creates is 0700 and the store 0600, even under umask 000', async () => {
    const { statSync } = await import('node:fs');
    const dir = join(tempDir(), 'nested', 'pdesk');
    const before = process.umask(0);
    try {
      const r = await run(['profile', 'add', ...addFlags], { configDir: dir });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      process.umask(before);
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '..')).mode & 0o777).toBe(0o700);
    expect(statSync(storeFile(dir)).mode & 0o777).toBe(0o600);
  });
});
