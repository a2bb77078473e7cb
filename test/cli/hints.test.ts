/** Core's field errors and hints in the command line's words (src/cli/hints.ts). */
import { describe, expect, it } from 'vitest';
import { cliWords, hintLine } from '../../src/cli/hints.js';
import { ConfigError, FieldError, NetworkError } from '../../src/core/errors.js';

describe('cliWords', () => {
  it('names every field of a FieldError, in its problem and its details, as its option', () => {
    const e = new FieldError('journal', 'was written for another {{text}} or {{emailColumn}}', ['Give {{journal}} a new file.']);
    expect(e.message).toBe('journal was written for another text or emailColumn.');
    expect(e.details).toEqual(['Give journal a new file.']);
    expect(cliWords(e)).toEqual({
      message: '--journal was written for another --text or --email-column.',
      details: ['Give --journal a new file.'],
    });
  });

  it("leaves a template's placeholder as the operator wrote it", () => {
    const e = new FieldError('text', 'uses the placeholder {name}, but x.csv has no column "name"');
    expect(cliWords(e).message).toBe('--text uses the placeholder {name}, but x.csv has no column "name".');
  });

  it('words each hint as the command to run, after the details', () => {
    const e = new NetworkError('Cannot reach http://x (connection refused).', ['GET http://x/A']).hint({
      kind: 'profile',
      profile: 'north',
      setting: 'practice.baseUrl',
    });
    expect(cliWords(e).details).toEqual(['GET http://x/A', 'Its settings (practice.baseUrl): pdesk profile show north']);
    expect(hintLine({ kind: 'auth-status', profile: 'north' })).toBe('Where its secrets come from: pdesk --profile north auth status');
    expect(cliWords(new ConfigError('x').hint({ kind: 'store-migrate' })).details).toEqual([
      'Run pdesk store migrate (as the database user that owns the schema).',
    ]);
  });
});
