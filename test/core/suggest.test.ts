/** "Did you mean" for profile names and keys (src/core/suggest.ts). */
import { describe, expect, it } from 'vitest';
import { closest, didYouMean } from '../../src/core/suggest.js';

describe('closest', () => {
  it('finds a slip: a letter missing, extra, changed or two swapped, in any case', () => {
    const names = ['sandbox', 'practice-1.0.0', 'practice-2.0.0', 'acme-live'];
    expect(closest('sandbx', names)).toBe('sandbox');
    expect(closest('sanbdox', names)).toBe('sandbox');
    expect(closest('SANDBOX', names)).toBe('sandbox');
    expect(closest('acme-lvie', names)).toBe('acme-live');
    expect(closest('practice-2.0.1', names)).toBe('practice-2.0.0');
    expect(closest('praktice', ['name', 'practice', 'portal', 'namespaces'])).toBe('practice');
    expect(closest('tokenEnvv', ['type', 'tokenEnv', 'tokenCommand', 'token'])).toBe('tokenEnv');
  });

  it('suggests nothing for another word, a word too short to judge, or the word itself', () => {
    expect(closest('prod', ['sandbox', 'practice-1.0.0'])).toBeUndefined();
    expect(closest('x', ['y', 'z'])).toBeUndefined();
    expect(closest('sandbox', ['sandbox'])).toBeUndefined();
    expect(closest('nope', ['sandbox', 'practice-1.0.0'])).toBeUndefined();
    expect(closest('anything', [])).toBeUndefined();
  });

  it('didYouMean ends a sentence with the suggestion, or adds nothing', () => {
    expect(didYouMean('sandbx', ['sandbox'])).toBe(': did you mean "sandbox"?');
    expect(didYouMean('prod', ['sandbox'])).toBe('');
  });
});
