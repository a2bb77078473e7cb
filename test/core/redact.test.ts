/** Secrets are never printed (src/core/redact.ts): registered secrets and credential headers are redacted. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactHeaders, registerSecret } from '../../src/core/redact.js';

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
