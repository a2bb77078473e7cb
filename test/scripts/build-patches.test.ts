/**
 * The dependency patches of the build (scripts/build-patches.mjs) change when work happens, never the result:
 * string-width's lazily built RGI_Emoji test answers as the full regex does, for every code point and for the
 * emoji sequences of each kind; the segmenters' fast path splits text exactly as Intl.Segmenter does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build, without types
import { RGI_EMOJI_LAZY, SEGMENTER_MODULE, SIMPLE_TEXT } from '../../scripts/build-patches.mjs';

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

describe('the grapheme segmenters, made on first need with a fast path for simple text', () => {
  const simple = new RegExp(SIMPLE_TEXT as string);
  const { lazySegmenter } = new Function(
    `${(SEGMENTER_MODULE as string).replace('export function', 'function')}\nreturn { lazySegmenter };`,
  )() as {
    lazySegmenter(
      l: undefined,
      o: { granularity: 'grapheme' } | undefined,
      fast: boolean,
    ): { segment(s: string): Iterable<{ segment: string; index: number }> };
  };
  const intl = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const split = (segments: Iterable<{ segment: string; index: number }>) => [...segments].map(({ segment, index }) => [segment, index]);
  const simpleCodePoints: string[] = [];
  for (let c = 0; c <= 0xffff; c++)
    if (!(c >= 0xd800 && c <= 0xdfff) && simple.test(String.fromCharCode(c))) simpleCodePoints.push(String.fromCharCode(c));

  it('every code point of the simple class is a grapheme of its own beside any other', () => {
    expect(simpleCodePoints.length).toBe(3750);
    // Extend, SpacingMark and ZWJ would join what precedes them, Prepend what follows, Hangul jamo and regional
    // indicators their own kind: x c x and c c show each (CR, which pairs with LF, is not in the class).
    const joined = simpleCodePoints.filter((c) => {
      const boundaries = (text: string) => new Set([...intl.segment(text)].map((g) => g.index));
      const around = boundaries(`x${c}x`);
      return !around.has(1) || !around.has(2) || !boundaries(`${c}${c}`).has(1);
    });
    expect(joined).toEqual([]);
  });

  it('the fast path splits strings of simple text (ANSI codes included) exactly as Intl.Segmenter does', () => {
    const fast = lazySegmenter(undefined, { granularity: 'grapheme' }, true);
    const char = fc.oneof(fc.constantFrom(...simpleCodePoints), fc.constantFrom('\x1b[1m', '\x1b[22m', '\x1b[36m', '\n'));
    fc.assert(
      fc.property(
        fc.array(char, { maxLength: 60 }).map((cs) => cs.join('')),
        (text) => {
          expect(split(fast.segment(text))).toEqual(split(intl.segment(text)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('other text goes to Intl.Segmenter: combining marks, emoji sequences, Hangul, CR LF', () => {
    const fast = lazySegmenter(undefined, undefined, true);
    for (const text of ['e\u0301 ok', '👨\u200d👩\u200d👧 family', '한국어', 'a\r\nb', '🇳🇱 NL', 'ok\ufe0f'])
      expect(split(fast.segment(text))).toEqual(split(intl.segment(text)));
  });
});
