/**
 * Unit tests of the M3 reorder body (decisions.md §10) with a fixed `now`: defaults, overrides, period-length
 * arithmetic across month ends, leap days and DST, the local UTC offset of authoredOn; and the M4 query.
 */
import fc from 'fast-check';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildReorder, pharmacyQuery } from '../../../src/core/api/medication.js';
import { type FieldError, UsageError } from '../../../src/core/errors.js';
import { fieldErrorOf, flagOf } from '../../helpers/errors.js';
import { encodeQuery } from '../../../src/core/routes.js';
import { MedicationRequest } from '../../../src/core/schemas/medication.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';

const ORIGINAL_TZ = process.env.TZ;
beforeEach(() => {
  process.env.TZ = 'Europe/Amsterdam';
});
afterAll(() => {
  if (ORIGINAL_TZ === undefined) delete process.env.TZ;
  else process.env.TZ = ORIGINAL_TZ;
});

const profile = Profile.parse(sandboxProfile('http://127.0.0.1:1'));

function request(over: Record<string, unknown> = {}): MedicationRequest {
  return MedicationRequest.parse({
    resourceType: 'MedicationRequest',
    id: 'mr-1',
    status: 'active',
    intent: 'order',
    medicationReference: { reference: 'Medication/med-1', display: 'Metformin 500 mg' },
    subject: { reference: 'Patient/pat-1', display: 'J. Jansen' },
    performer: { reference: 'Organization/ph-1' },
    dispenseRequest: { initialFill: { quantity: { value: 60, unit: 'tablet', system: 'http://unitsofmeasure.org', code: '{tbl}' } } },
    extension: [{ url: 'other.example.period', valuePeriod: { start: '2026-01-01', end: '2026-01-31' } }],
    authoredOn: '2026-01-01T09:00:00+01:00',
    ...over,
  });
}

/** Independent of date-fns: a YYYY-MM-DD plus n days, by UTC arithmetic. */
function plusDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
/** Independent of date-fns: the local calendar date of `d`. */
function localDate(d: Date): string {
  return `${String(d.getFullYear()).padStart(4, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe('buildReorder defaults', () => {
  it('copies medication, subject, performer and quantity; period starts today and keeps R’s length; draft order based on R', () => {
    const now = new Date('2026-03-15T09:30:00Z'); // 10:30 in Amsterdam (CET, +01:00)
    const body = buildReorder(profile, request(), {}, now);
    expect(body).toEqual({
      resourceType: 'MedicationRequest',
      status: 'draft',
      intent: 'order',
      basedOn: [{ reference: 'MedicationRequest/mr-1' }],
      medicationReference: { reference: 'Medication/med-1', display: 'Metformin 500 mg' },
      subject: { reference: 'Patient/pat-1', display: 'J. Jansen' },
      performer: { reference: 'Organization/ph-1' },
      dispenseRequest: { initialFill: { quantity: { value: 60, unit: 'tablet', system: 'http://unitsofmeasure.org', code: '{tbl}' } } },
      extension: [{ url: 'other.example.period', valuePeriod: { start: '2026-03-15', end: '2026-04-14' } }],
      authoredOn: '2026-03-15T10:30:00+01:00',
    });
    expect(body).not.toHaveProperty('note');
    expect(body).not.toHaveProperty('id');
  });

  it('uses 30 days and <portal>.medication-period when R has no period extension', () => {
    const body = buildReorder(profile, request({ extension: undefined }), {}, new Date('2026-07-01T10:00:00Z'));
    expect(body.extension).toEqual([{ url: 'portal.example.medication-period', valuePeriod: { start: '2026-07-01', end: '2026-07-31' } }]);
    expect(body.authoredOn).toBe('2026-07-01T12:00:00+02:00'); // summer time offset
  });

  it('uses 30 days when R’s period is incomplete or reversed, keeping its url', () => {
    const now = new Date('2026-05-10T08:00:00Z');
    for (const valuePeriod of [{ start: '2026-01-01' }, { end: '2026-01-01' }, { start: '2026-02-01', end: '2026-01-01' }]) {
      const body = buildReorder(profile, request({ extension: [{ url: 'u.period', valuePeriod }] }), {}, now);
      expect(body.extension[0]).toEqual({ url: 'u.period', valuePeriod: { start: '2026-05-10', end: '2026-06-09' } });
    }
  });

  it('falls back to <portal>.medication-period when R’s period extension has no url', () => {
    const body = buildReorder(
      profile,
      request({ extension: [{ valuePeriod: { start: '2026-01-01', end: '2026-01-11' } }] }),
      {},
      new Date('2026-05-10T08:00:00Z'),
    );
    expect(body.extension[0]).toEqual({ url: 'portal.example.medication-period', valuePeriod: { start: '2026-05-10', end: '2026-05-20' } });
  });

  it('"today" is the local calendar day, not the UTC one', () => {
    const body = buildReorder(profile, request({ extension: undefined }), {}, new Date('2026-03-14T23:30:00Z')); // 00:30 on the 15th in Amsterdam
    expect(body.extension[0]!.valuePeriod).toEqual({ start: '2026-03-15', end: '2026-04-14' });
    expect(body.authoredOn).toBe('2026-03-15T00:30:00+01:00');
  });
});

describe('buildReorder period arithmetic', () => {
  const withPeriod = (start: string, end: string) => request({ extension: [{ url: 'u', valuePeriod: { start, end } }] });

  it('counts calendar days across month ends and leap days', () => {
    // 2026-01-31..2026-02-28 is 28 days; reordered on 31 March it ends 28 April (not "end of next month").
    expect(buildReorder(profile, withPeriod('2026-01-31', '2026-02-28'), {}, new Date(2026, 2, 31, 12)).extension[0]!.valuePeriod).toEqual({
      start: '2026-03-31',
      end: '2026-04-28',
    });
    // A leap year's February: 2028-02-01..2028-03-01 is 29 days.
    expect(buildReorder(profile, withPeriod('2028-02-01', '2028-03-01'), {}, new Date(2026, 0, 31, 12)).extension[0]!.valuePeriod).toEqual({
      start: '2026-01-31',
      end: '2026-03-01',
    });
    // 366-day period over a leap year, applied from 29 February.
    expect(buildReorder(profile, withPeriod('2027-12-31', '2028-12-31'), {}, new Date(2028, 1, 29, 12)).extension[0]!.valuePeriod).toEqual({
      start: '2028-02-29',
      end: '2029-03-01',
    });
    // A zero-length period stays zero-length.
    expect(buildReorder(profile, withPeriod('2026-01-05', '2026-01-05'), {}, new Date(2026, 5, 1, 12)).extension[0]!.valuePeriod).toEqual({
      start: '2026-06-01',
      end: '2026-06-01',
    });
  });

  it('is not shifted by a daylight-saving change inside either period', () => {
    // R's period spans the October change (CEST → CET); the new one spans the March change (CET → CEST).
    expect(buildReorder(profile, withPeriod('2025-10-20', '2025-11-19'), {}, new Date(2026, 2, 20, 12)).extension[0]!.valuePeriod).toEqual({
      start: '2026-03-20',
      end: '2026-04-19',
    });
  });

  it('property: end − start equals R’s period length in calendar days, start is the local day of now, in several time zones', () => {
    const day = fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(
        fc.constantFrom('Europe/Amsterdam', 'America/New_York', 'Pacific/Auckland', 'UTC', 'Asia/Kolkata'),
        day,
        fc.integer({ min: 0, max: 800 }),
        fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2098-12-31T00:00:00Z'), noInvalidDate: true }),
        (tz, prevStart, length, now) => {
          process.env.TZ = tz;
          const r = withPeriod(prevStart, plusDays(prevStart, length));
          const p = buildReorder(profile, r, {}, now).extension[0]!.valuePeriod;
          expect(p.start).toBe(localDate(now));
          expect(p.end).toBe(plusDays(p.start, length));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: with --start and no --end, the end is --start plus R’s length', () => {
    const day = fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, day, fc.integer({ min: 0, max: 400 }), (prevStart, start, length) => {
        const r = withPeriod(prevStart, plusDays(prevStart, length));
        const p = buildReorder(profile, r, { start }, new Date(2026, 0, 1, 12)).extension[0]!.valuePeriod;
        expect(p).toEqual({ start, end: plusDays(start, length) });
      }),
      { numRuns: 200 },
    );
  });
});

describe('buildReorder overrides', () => {
  const now = new Date('2026-03-15T09:30:00Z');

  it('--pharmacy (bare id or Organization/<id>), --quantity (value only), --start/--end, --note', () => {
    for (const pharmacy of ['ph-3', 'Organization/ph-3']) {
      const body = buildReorder(
        profile,
        request(),
        { pharmacy, quantity: 30, start: '2026-04-01', end: '2026-04-10', note: 'Please pack in a box' },
        now,
      );
      expect(body.performer).toEqual({ reference: 'Organization/ph-3' });
      expect(body.dispenseRequest.initialFill.quantity).toEqual({
        value: 30,
        unit: 'tablet',
        system: 'http://unitsofmeasure.org',
        code: '{tbl}',
      });
      expect(body.extension[0]!.valuePeriod).toEqual({ start: '2026-04-01', end: '2026-04-10' });
      expect(body.note).toEqual(['Please pack in a box']);
      expect(body.basedOn).toEqual([{ reference: 'MedicationRequest/mr-1' }]);
    }
  });

  it('--end before the start is a usage error (exit 2)', () => {
    const err = (() => {
      try {
        buildReorder(profile, request(), { start: '2026-04-10', end: '2026-04-09' }, now);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as FieldError).render(flagOf)).toBe('--end (2026-04-09) is before --start (2026-04-10).');
    // --end alone is compared with the default start, today.
    expect(() => buildReorder(profile, request(), { end: '2026-03-14' }, now)).toThrow(UsageError);
    expect(buildReorder(profile, request(), { end: '2026-03-15' }, now).extension[0]!.valuePeriod).toEqual({
      start: '2026-03-15',
      end: '2026-03-15',
    });
  });

  it('R without a quantity needs --quantity; R without a performer needs --pharmacy', () => {
    const noQty = request({ dispenseRequest: undefined });
    expect(fieldErrorOf(() => buildReorder(profile, noQty, {}, now)).render(flagOf)).toMatch(/^--quantity is needed/);
    expect(buildReorder(profile, noQty, { quantity: 2 }, now).dispenseRequest.initialFill.quantity).toEqual({ value: 2 });
    const noPerformer = request({ performer: undefined });
    expect(fieldErrorOf(() => buildReorder(profile, noPerformer, {}, now)).render(flagOf)).toMatch(/^--pharmacy is needed/);
    expect(buildReorder(profile, noPerformer, { pharmacy: 'ph-2' }, now).performer).toEqual({ reference: 'Organization/ph-2' });
  });
});

describe('pharmacyQuery (M4)', () => {
  it('joins identifiers into one comma list, encoded as %7C and %2C', () => {
    const q = pharmacyQuery(['urn:pdesk:pharmacy-id|PH001', 'urn:pdesk:pharmacy-id|PH002']);
    expect(q).toEqual([['identifier', 'urn:pdesk:pharmacy-id|PH001,urn:pdesk:pharmacy-id|PH002']]);
    expect(encodeQuery(q)).toBe('identifier=urn%3Apdesk%3Apharmacy-id%7CPH001%2Curn%3Apdesk%3Apharmacy-id%7CPH002');
  });

  it('a missing or malformed identifier is a usage error naming --identifier', () => {
    for (const bad of [[], ['PH001'], ['|PH001'], ['urn:x|'], ['a|b|c']]) {
      expect(() => pharmacyQuery(bad)).toThrow(UsageError);
      expect(fieldErrorOf(() => pharmacyQuery(bad)).render(flagOf)).toMatch(/^--identifier /);
    }
  });
});
