import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/core/iso-time.js';

describe('isoTime', () => {
  it('is toISOString for any instant, asked in any order (the second it remembers changes under it)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e13, max: 3e14 }), { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
    );
  });

  it('around a second and a year turning, and at the ends of the four-digit years', () => {
    for (const ms of [
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1),
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ])
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(isoTime(1.5)).toBe(new Date(1.5).toISOString());
    expect(isoTime(-1)).toBe(new Date(-1).toISOString());
  });
});
