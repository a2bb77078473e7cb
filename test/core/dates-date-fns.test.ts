/**
 * src/core/dates.ts formats with date-fns's `lightFormat` and `formatISO` (no locale loaded) where date-fns's
 * `format` would load the English locale: these properties hold each of pdesk's patterns, and the parsing and day
 * arithmetic around date-fns, to date-fns's `format` and to the plain date-fns code dates.ts once was, for random
 * inputs of every accepted form (and invalid ones), in several time zones, DST changes included.
 */
import { addDays, differenceInCalendarDays, format, isValid, parseISO } from 'date-fns';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { addDaysToDay, daysBetween, localDay, localNoOffset, localTimeText, parseWhen, withOffset } from '../../src/core/dates.js';

/** The date-fns implementation dates.ts had, for the same functions. */
const reference = {
  parseWhen(input: string, now: Date): Date | 'error' {
    const v = input.trim().toLowerCase();
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
    if (v === 'today') return midnight;
    const rel = /^([+-])(\d{1,4})([dw])$/.exec(v);
    if (rel) return addDays(midnight, (rel[1] === '-' ? -1 : 1) * Number(rel[2]) * (rel[3] === 'w' ? 7 : 1));
    if (/^\d{4}-\d{2}-\d{2}([t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?)?$/.test(v)) {
      const d = parseISO(input.trim());
      if (isValid(d)) return d;
    }
    return 'error';
  },
  addDaysToDay: (day: string, n: number) => format(addDays(parseISO(day), n), 'yyyy-MM-dd'),
  daysBetween: (a: string, b: string) => differenceInCalendarDays(parseISO(b), parseISO(a)),
};

const mine = (input: string, now: Date): Date | 'error' => {
  try {
    return parseWhen(input, 'x', now);
  } catch {
    return 'error';
  }
};

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
/** ISO-like strings of every form parseWhen accepts, with out-of-range parts now and then. */
const isoLike = fc
  .tuple(
    fc.integer({ min: 1990, max: 2040 }),
    two(13),
    two(32),
    fc.option(
      fc.tuple(
        fc.constantFrom('T', ' ', 't'),
        two(25),
        two(60),
        fc.option(fc.tuple(two(60), fc.option(fc.integer({ min: 0, max: 999_999 }), { nil: undefined })), { nil: undefined }),
        fc.option(fc.oneof(fc.constantFrom('Z', 'z'), fc.tuple(fc.constantFrom('+', '-'), two(23), fc.constantFrom(':', ''), two(61))), {
          nil: undefined,
        }),
      ),
      { nil: undefined },
    ),
  )
  .map(([y, mo, d, t]) => {
    let s = `${y}-${mo}-${d}`;
    if (!t) return s;
    const [sep, h, mi, sec, zone] = t;
    s += `${sep}${h}:${mi}`;
    if (sec) s += `:${sec[0]}${sec[1] === undefined ? '' : `.${sec[1]}`}`;
    if (zone) s += typeof zone === 'string' ? zone : zone.join('');
    return s;
  });

const ZONES = ['UTC', 'Europe/Amsterdam', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'];
const tz = process.env.TZ;
afterAll(() => {
  if (tz === undefined) delete process.env.TZ;
  else process.env.TZ = tz;
});

describe.each(ZONES)('dates.ts agrees with date-fns in %s', (zone) => {
  const at = () => {
    process.env.TZ = zone;
  };
  const instant = fc.date({ min: new Date('1995-01-01'), max: new Date('2040-01-01'), noInvalidDate: true });

  it('parseWhen: ISO forms (valid or not) and relative days', () => {
    at();
    fc.assert(
      fc.property(fc.oneof(isoLike, fc.constantFrom('today', '+0d', '+1d', '-30d', '+2w', '+400d')), instant, (input, now) => {
        const a = mine(input, now);
        const b = reference.parseWhen(input, now);
        expect(a === 'error' ? a : a.getTime()).toBe(b === 'error' ? b : b.getTime());
      }),
      { numRuns: 400 },
    );
  });

  it('local formats: yyyy-MM-dd, HH:mm:ss, xxx offsets, quoted text', () => {
    at();
    fc.assert(
      fc.property(instant, (d) => {
        expect(localDay(d)).toBe(format(d, 'yyyy-MM-dd'));
        expect(localNoOffset(d)).toBe(format(d, "yyyy-MM-dd'T'HH:mm:ss"));
        expect(withOffset(d)).toBe(format(d, "yyyy-MM-dd'T'HH:mm:ssxxx"));
        for (const p of ['yyyy-MM-dd HH:mm', 'MM-dd HH:mm', 'MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm:ss'])
          expect(localTimeText(d.toISOString(), p)).toBe(format(d, p));
      }),
      { numRuns: 300 },
    );
  });

  it('day arithmetic: addDaysToDay and daysBetween', () => {
    at();
    const day = instant.map((d) => format(d, 'yyyy-MM-dd'));
    fc.assert(
      fc.property(day, day, fc.integer({ min: -800, max: 800 }), (a, b, n) => {
        expect(addDaysToDay(a, n)).toBe(reference.addDaysToDay(a, n));
        expect(daysBetween(a, b)).toBe(reference.daysBetween(a, b));
      }),
      { numRuns: 300 },
    );
  });
});

it('a pattern token lightFormat does not know (a named day or month) is an error, not a wrong date', () => {
  expect(() => localTimeText('2026-03-01T10:00:00Z', 'EEE d MMM')).toThrow(RangeError);
  expect(localTimeText('not a date')).toBe('not a date');
});
