/** Placeholder templates of bulk sends (src/core/bulk/template.ts): `{column}` checked against the header, filled per row. */
import { describe, expect, it } from 'vitest';
import { compileTemplate, placeholders } from '../../../src/core/bulk/template.js';
import { UsageError } from '../../../src/core/errors.js';

describe('templates', () => {
  const header = ['email', 'first name', 'city'];
  it('fills {column} placeholders from the row, with {{ and }} as literal braces', () => {
    const t = compileTemplate('Hello {first name} from { city }! {{not a placeholder}}', header, '--text', 'x.csv');
    expect(t.columns).toEqual(['first name', 'city']);
    expect(t.render(['a@b.org', 'Jane', 'Utrecht'])).toBe('Hello Jane from Utrecht! {not a placeholder}');
  });
  it('a template without placeholders renders as is', () => {
    expect(compileTemplate('Plain', header, '--topic', 'x.csv').render(['a', 'b', 'c'])).toBe('Plain');
  });
  it('refuses a placeholder naming no column, naming it and listing the columns', () => {
    let err: unknown;
    try {
      compileTemplate('Hi {name}', header, '--text', 'people.csv');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('--text uses the placeholder {name}, but people.csv has no column "name".');
    expect((err as UsageError).details.join('\n')).toContain('"first name"');
  });
  it('refuses unmatched and empty braces', () => {
    expect(() => placeholders('Hi {name', '--topic')).toThrow(/--topic has an unmatched "\{"/);
    expect(() => placeholders('Hi }', '--topic')).toThrow(/unmatched "\}"/);
    expect(() => placeholders('Hi {}', '--text')).toThrow(/empty placeholder/);
  });
  it('refuses a placeholder naming a duplicated column', () => {
    expect(() => compileTemplate('{a}', ['a', 'a'], '--text', 'x.csv')).toThrow(/more than one column "a"/);
  });
});
