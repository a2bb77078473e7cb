/**
 * The dependency patches of the build (scripts/build-patches.mjs) change when work happens, never the result:
 * string-width's lazily built RGI_Emoji test answers as the full regex does, for every code point and for the
 * emoji sequences of each kind.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build, without types
import { RGI_EMOJI_LAZY } from '../scripts/build-patches.mjs';

describe("string-width's RGI_Emoji test, built on first need", () => {
  const lazy = new Function(`${RGI_EMOJI_LAZY as string}\nreturn rgiEmojiRegex;`)() as { test(s: string): boolean };
  // The constructor, not a literal: tsc targets ES2022, which has no `v` flag in its syntax.
  // biome-ignore lint/complexity/useRegexLiterals: see above
  const full = new RegExp('^\\p{RGI_Emoji}$', 'v');

  it('agrees with /^\\p{RGI_Emoji}$/v on every code point', () => {
    const differ: number[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = String.fromCodePoint(c);
      if (lazy.test(s) !== full.test(s)) differ.push(c);
    }
    expect(differ).toEqual([]);
  });

  it.each([
    ['ZWJ sequence', '👨\u200d👩\u200d👧'],
    ['flag', '🇳🇱'],
    ['lone regional indicator', '🇳'],
    ['keycap', '1\ufe0f\u20e3'],
    ['modifier sequence', '👍🏽'],
    ['lone modifier', '🏽'],
    ['tag sequence', '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}'],
    ['presentation sequence', '❤\ufe0f'],
    ['text-default emoji alone', '©'],
    ['combining mark', 'e\u0301'],
    ['two letters', 'ab'],
    ['box and ellipsis', '○'],
  ])('%s', (_kind, s) => {
    expect(lazy.test(s)).toBe(full.test(s));
  });
});
