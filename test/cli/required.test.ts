/**
 * Required options declared with their command and checked before it runs (src/cli/required.ts): every missing one
 * named in one message. `requiredOption`s keep commander's wording (test/cli/main.test.ts); `Needs` say what stands in
 * for them, when they are needed, and which of several sets will do.
 */
import { describe, expect, it } from 'vitest';
import { type Needs, checkNeeds } from '../../src/cli/required.js';
import { UsageError } from '../../src/core/errors.js';
import { run } from '../helpers/run.js';

const BOOK: Needs = {
  all: ['--patient', '--comment'],
  oneOf: [['--slot-json'], ['--start', '--end', '--practitioner', '--service-category']],
  unless: ['--body'],
  hint: '(or give a complete Appointment with --body)',
};
const KNOWN = new Set([
  '--patient',
  '--comment',
  '--slot-json',
  '--start',
  '--end',
  '--practitioner',
  '--service-category',
  '--body',
  '--csv',
  '--topic',
  '--text',
]);

/** The message checkNeeds throws for `given`, or undefined when nothing is missing. */
function missing(needs: Needs[], given: string[]): string | undefined {
  try {
    checkNeeds(needs, new Set(given), KNOWN);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
}

describe('checkNeeds', () => {
  it('names every missing option in one sentence, one set of a choice when none is begun, the rest of the one begun', () => {
    expect(missing([BOOK], [])).toBe(
      '--patient, --comment and --slot-json (or --start, --end, --practitioner and --service-category) are required (or give a complete Appointment with --body).',
    );
    expect(missing([BOOK], ['--patient', '--start'])).toBe(
      '--comment, --end, --practitioner and --service-category are required (or give a complete Appointment with --body).',
    );
    expect(missing([BOOK], ['--patient', '--comment', '--start', '--end', '--practitioner'])).toBe(
      '--service-category is required (or give a complete Appointment with --body).',
    );
    expect(missing([BOOK], ['--patient', '--comment', '--slot-json'])).toBeUndefined();
    expect(missing([BOOK], ['--patient', '--comment', '--slot-json', '--start'])).toBeUndefined(); // a mix is the command's to refuse
  });

  it('needs nothing when an option that stands in for them is given, or the one they go with is not', () => {
    expect(missing([BOOK], ['--body'])).toBeUndefined();
    const bulk: Needs = { all: ['--topic', '--text'], with: '--csv', hint: 'with --csv' };
    expect(missing([bulk], [])).toBeUndefined();
    expect(missing([bulk], ['--csv', '--text'])).toBe('--topic is required with --csv.');
    expect(missing([bulk], ['--csv'])).toBe('--topic and --text are required with --csv.');
  });

  it('a declaration naming an option the command does not have is a mistake, said at once', () => {
    expect(() => checkNeeds([{ all: ['--patiens'], hint: '' }], new Set(), KNOWN)).toThrow('--patiens is no option here');
  });
});

describe('declared with the commands', () => {
  it('a bulk send without its texts exits 2 naming both, before the CSV or a profile is read', async () => {
    const r = await run(['notifications', 'send', '--csv', '/nonexistent/rows.csv'], { configDir: '/nonexistent/pdesk-config' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('pdesk: --topic and --text are required with --csv.\n');
  });

  it('one notification without its address and text names both, and what stands in for them', async () => {
    const r = await run(['notifications', 'send', '--topic', 't'], { configDir: '/nonexistent/pdesk-config' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('pdesk: --email and --text are required (or --csv for a bulk send, or --body for a complete notification).\n');
  });
});
