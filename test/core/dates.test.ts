/** Command-line dates and the time formats of decisions.md §12 (src/core/dates.ts). */
import { describe, expect, it } from 'vitest';
import {
  addDaysToDay,
  daysBetween,
  localDay,
  localNoOffset,
  parseDay,
  parseInstant,
  parseWhen,
  utcInstant,
  withOffset,
} from '../../src/core/dates.js';
import { ExitCode, UsageError } from '../../src/core/errors.js';

// Local time, as the operator's calendar is local: Friday 27 February 2026, 15:30.
const now = new Date(2026, 1, 27, 15, 30, 12);

describe('parseDay (local calendar dates)', () => {
  it.each([
    ['today', '2026-02-27'],
    ['TODAY', '2026-02-27'],
    [' tomorrow ', '2026-02-28'],
    ['yesterday', '2026-02-26'],
    ['+0d', '2026-02-27'],
    ['+1d', '2026-02-28'],
    ['+2d', '2026-03-01'],
    ['+7d', '2026-03-06'],
    ['-30d', '2026-01-28'],
    ['+2w', '2026-03-13'],
    ['2026-03-01', '2026-03-01'],
    ['2028-02-29', '2028-02-29'],
  ])('%s → %s', (input, day) => {
    expect(parseDay(input, '--from', now)).toBe(day);
  });

  it('a full ISO 8601 time is that instant, shown as its local day', () => {
    const d = parseWhen('2026-03-01T10:00:00Z', '--from', now);
    expect(d.toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(parseDay('2026-03-01T10:00:00Z', '--from', now)).toBe(localDay(d));
    expect(parseWhen('2026-03-01T10:00:00+02:00', '--from', now).toISOString()).toBe('2026-03-01T08:00:00.000Z');
  });

  it('relative forms are local midnight', () => {
    const d = parseWhen('+1d', '--start', now);
    expect([d.getHours(), d.getMinutes(), d.getSeconds()]).toEqual([0, 0, 0]);
  });

  it('a relative form with a local time is that time of that day (help examples use no calendar dates)', () => {
    for (const [input, expected] of [
      ['tomorrow 09:30', new Date(2026, 1, 28, 9, 30)],
      ['TODAY 7:05', new Date(2026, 1, 27, 7, 5)],
      ['+2d 14:00', new Date(2026, 2, 1, 14, 0)],
      ['-1w 23:59', new Date(2026, 1, 20, 23, 59)],
      ['tomorrowT08:00', new Date(2026, 1, 28, 8, 0)],
    ] as const)
      expect(parseWhen(input, '--start', now), input).toEqual(expected);
    for (const bad of ['tomorrow 24:00', 'tomorrow 9', 'soon 09:00', 'tomorrow 09:60', '2026-03-01 9:00'])
      expect(() => parseWhen(bad, '--start', now), bad).toThrow(/--start must be a date/);
  });

  it.each(['', 'soon', '2026-02-30', '2026-13-01', '26-03-01', '+d', '+5y', '2026-03-01T25:00', '1d', 'today!'])(
    'bad input %j is a usage error naming the option and the value',
    (input) => {
      let err: unknown;
      try {
        parseDay(input, '--to', now);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode).toBe(ExitCode.usage);
      expect((err as UsageError).message).toContain('--to');
      expect((err as UsageError).message).toContain(`"${input}"`);
    },
  );
});

describe('time formats', () => {
  it('instants are UTC with Z and no milliseconds', () => {
    expect(utcInstant(new Date(Date.UTC(2026, 2, 2, 9, 0, 0)))).toBe('2026-03-02T09:00:00Z');
    expect(utcInstant(new Date(Date.UTC(2026, 2, 2, 9, 0, 0, 250)))).toBe('2026-03-02T09:00:00.250Z');
    expect(parseInstant('2026-03-02T10:00:00+01:00', '--start', now)).toBe('2026-03-02T09:00:00Z');
  });

  it('read marker time is local without offset; authoredOn carries the local offset', () => {
    expect(localNoOffset(now)).toBe('2026-02-27T15:30:12');
    const authored = withOffset(now);
    expect(authored).toMatch(/^2026-02-27T15:30:12[+-]\d{2}:\d{2}$/);
    expect(new Date(authored).getTime()).toBe(now.getTime());
  });

  it('authoredOn names the offset even where local time is UTC (+00:00, never the Z of slot times)', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      expect(withOffset(new Date(Date.UTC(2026, 1, 27, 15, 30, 12)))).toBe('2026-02-27T15:30:12+00:00');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('day arithmetic across month ends and leap days', () => {
    expect(addDaysToDay('2026-01-31', 30)).toBe('2026-03-02');
    expect(addDaysToDay('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDaysToDay('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-01-01', '2026-01-31')).toBe(30);
    expect(daysBetween('2026-03-01', '2026-02-01')).toBe(-28);
  });
});
