/** The settings file (src/core/settings.ts): optional, strict keys, every problem a ConfigError naming the file. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { operatorProblem, readSettings } from '../../src/core/settings.js';
import { tempDir } from '../helpers/config.js';

function withFile(text: string): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'config.json'), text);
  return dir;
}

describe('readSettings', () => {
  it('is empty without a file', () => {
    expect(readSettings(tempDir())).toEqual({});
  });

  it('reads storeUrlEnv and operator', () => {
    expect(readSettings(withFile('{"storeUrlEnv":"PDESK_TEAM_DB","operator":"Alice Smith"}'))).toEqual({
      storeUrlEnv: 'PDESK_TEAM_DB',
      operator: 'Alice Smith',
    });
  });

  it('refuses an unknown key, naming it and the file', () => {
    const dir = withFile('{"storeUrl":"postgres://u:p@h/db"}');
    expect(() => readSettings(dir)).toThrow(ConfigError);
    expect(() => readSettings(dir)).toThrow(`Unknown key "storeUrl" in ${join(dir, 'config.json')}.`);
  });

  it('refuses a value that is no variable name, an operator that is blank or has control characters, and text that is not JSON', () => {
    expect(() => readSettings(withFile('{"storeUrlEnv":"postgres://x"}'))).toThrow(
      /at \$\.storeUrlEnv: expected an environment variable name/,
    );
    expect(() => readSettings(withFile('{"operator":"  "}'))).toThrow(/at \$\.operator: operator must not be empty/);
    expect(() => readSettings(withFile('{"operator":"a\\u001b[2Jb"}'))).toThrow(/control characters/);
    expect(() => readSettings(withFile('{"operator": 5}'))).toThrow(/at \$\.operator/);
    expect(() => readSettings(withFile('{'))).toThrow(/is not JSON/);
  });
});

describe('operatorProblem', () => {
  it('takes printable names of at most 100 characters', () => {
    expect(operatorProblem('alice')).toBeUndefined();
    expect(operatorProblem('Zoë Müller-Ä')).toBeUndefined();
    expect(operatorProblem('x'.repeat(100))).toBeUndefined();
    expect(operatorProblem('x'.repeat(101))).toMatch(/at most 100/);
    expect(operatorProblem(' alice')).toMatch(/spaces/);
    expect(operatorProblem('a\tb')).toMatch(/control/);
  });
});
