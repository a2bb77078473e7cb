/** Server text is untrusted (src/core/sanitize.ts): control sequences are stripped before text reaches a terminal. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitize, sanitizeDeep } from '../../src/core/sanitize.js';

/** C0 and C1 controls, and the bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and its kin). */
const BIDI = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const ANY_CONTROL = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI}]`);
const CONTROL_BUT_TAB_NL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${BIDI}]`);

/** Text mixing printable characters, every C0/C1 control and fragments of escape sequences. */
const hostile = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
      fc.constantFrom(
        '\u001b',
        '\u001b[',
        '\u001b]',
        '\u001bP',
        '\u001b_',
        '\u009b',
        '\u009d',
        '\u0007',
        '\u001b\\',
        '[31m',
        '0;title',
        '\r\n',
        '\r',
      ),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('sanitize', () => {
  it.each([
    ['CSI colours', '\u001b[31mred\u001b[0m', 'red'],
    ['OSC window title (BEL)', 'a\u001b]0;pwned\u0007b', 'ab'],
    ['OSC 8 hyperlink (ST)', '\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['8-bit CSI', 'x\u009b2Jy', 'xy'],
    ['DCS', 'a\u001bPq#0;1\u001b\\b', 'ab'],
    ['clear screen + cursor home', '\u001b[2J\u001b[Hok', 'ok'],
    ['lone ESC and BEL', 'a\u001b\u0007b', 'ab'],
    ['NUL, DEL, C1 NEL', 'a\u0000b\u007fc\u0085d', 'abcd'],
    ['newlines and tabs become spaces', 'a\r\nb\tc\nd', 'a  b c d'],
    [
      'bidi overrides, embeddings, isolates and marks (issue 35, item 20)',
      'invoice\u202Efdp.exe \u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069h\u200Ei\u200Fj\u061Ck',
      'invoicefdp.exe abcdefghijk',
    ],
    ['printable text untouched', 'Dr. Anna Berg – Ümlaut ✓ 日本', 'Dr. Anna Berg – Ümlaut ✓ 日本'],
  ])('%s', (_name, input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });

  it('keepNewlines keeps \\n (CRLF and CR become \\n) and strips everything else', () => {
    expect(sanitize('a\r\nb\rc\nd\u001b[1m\u0000', true)).toBe('a\nb\nc\nd');
  });

  it('no ESC, C0 or C1 control survives, whatever the input (fast-check)', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const out = sanitize(s);
        expect(out).not.toMatch(ANY_CONTROL);
        expect(sanitize(s, true)).not.toMatch(CONTROL_BUT_TAB_NL);
        expect(sanitize(s, true)).not.toContain('\r');
      }),
      { numRuns: 2000 },
    );
  });

  it('text without controls passes unchanged, and sanitising twice changes nothing more (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const clean = s.replace(new RegExp(ANY_CONTROL.source, 'g'), '');
        expect(sanitize(clean)).toBe(clean);
      }),
    );
    fc.assert(
      fc.property(hostile, (s) => {
        expect(sanitize(sanitize(s))).toBe(sanitize(s));
      }),
    );
  });

  it('sanitizeDeep cleans every string and key of a JSON value, keeping other values', () => {
    const out = sanitizeDeep({ 'k\u001b[1m': ['a\u009b2Jb', 1, null, { t: 'x\ny\u0007' }], n: 2, ok: true });
    expect(out).toEqual({ k: ['ab', 1, null, { t: 'x\ny' }], n: 2, ok: true });
  });
});
