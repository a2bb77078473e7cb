/** Server text is untrusted (src/core/sanitize.ts) and secrets are never printed (src/core/redact.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactHeaders, registerSecret } from '../../src/core/redact.js';
import { sanitize, sanitizeDeep } from '../../src/core/sanitize.js';
import { redactProfile } from '../../src/profiles/redact.js';

const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_BUT_TAB_NL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

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

describe('redact', () => {
  it('replaces every registered secret, wherever it stands', () => {
    registerSecret('tok-REDACT-1234');
    expect(redact('Bearer tok-REDACT-1234 and again tok-REDACT-1234!')).toBe(`Bearer ${REDACTED} and again ${REDACTED}!`);
    expect(redact('https://x.test/?token=tok-REDACT-1234')).toBe(`https://x.test/?token=${REDACTED}`);
  });

  it('ignores values too short to be secrets (they would mangle ordinary text)', () => {
    registerSecret('abc');
    registerSecret(undefined);
    registerSecret('');
    expect(redact('abc abc')).toBe('abc abc');
  });

  it('a registered secret never survives redact (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 40 }), fc.string(), fc.string(), (secret, before, after) => {
        fc.pre(!secret.includes(REDACTED) && !REDACTED.includes(secret));
        registerSecret(secret);
        expect(redact(`${before}${secret}${after}`)).not.toContain(secret);
      }),
      { numRuns: 200 },
    );
  });

  it('redactHeaders: credential headers keep only their scheme, any case; others pass through redact', () => {
    registerSecret('hdr-secret-5678');
    expect(
      redactHeaders({
        Authorization: 'Bearer abc.def.ghi',
        'proxy-authorization': 'Basic dXNlcjpwYXNz',
        Cookie: 'session=1',
        'X-API-Key': 'k-123456',
        accept: 'application/fhir+json',
        'x-echo': 'value hdr-secret-5678',
      }),
    ).toEqual({
      Authorization: 'Bearer ***',
      'proxy-authorization': 'Basic ***',
      Cookie: '***',
      'X-API-Key': '***',
      accept: 'application/fhir+json',
      'x-echo': 'value ***',
    });
  });
});

describe('redactProfile', () => {
  it('hides stored tokens and passwords and credential headers, keeps names of environment variables', () => {
    const shown = redactProfile({
      name: 'p',
      practice: {
        baseUrl: 'https://x',
        auth: { type: 'bearer', token: 'stored-token-value' },
        headers: { 'X-Api-Key': 'key-value', 'X-Api-Version': '2.0.0' },
      },
      portal: { baseUrl: 'https://y', auth: { type: 'basic', username: 'u', password: 'pw-value' } },
      other: { auth: { type: 'bearer', tokenEnv: 'PORTAL_TOKEN' } },
    });
    const text = JSON.stringify(shown);
    expect(text).not.toContain('stored-token-value');
    expect(text).not.toContain('pw-value');
    expect(text).not.toContain('key-value');
    expect(shown.practice.auth).toEqual({ type: 'bearer', token: '***' });
    expect(shown.portal.auth).toEqual({ type: 'basic', username: 'u', password: '***' });
    expect(shown.practice.headers).toEqual({ 'X-Api-Key': '***', 'X-Api-Version': '2.0.0' });
    expect(shown.other.auth.tokenEnv).toBe('PORTAL_TOKEN');
  });
});
