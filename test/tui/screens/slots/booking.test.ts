/** The booking rule as the Slots screen applies it (src/tui/screens/slots/booking.ts). */
import { describe, expect, it } from 'vitest';
import { FieldError } from '../../../../src/core/errors.js';
import type { Slot } from '../../../../src/core/schemas/appointment.js';
import { bookingBody, dateRange, pastSlotProblem, slotSearch } from '../../../../src/tui/screens/slots/booking.js';
import { testProfile } from '../../hook-harness.js';

const slot: Slot = {
  resourceType: 'Slot',
  id: 'slot-11-0900',
  status: 'free',
  start: '2026-03-02T09:00:00Z',
  end: '2026-03-02T09:30:00Z',
  serviceCategory: [{ coding: [{ system: 'urn:pdesk:service-category', code: 'gp' }] }],
  schedule: { reference: 'Schedule/11' },
  extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1001' } }],
};

describe('the booking rule of the Slots screen', () => {
  it('narrows the slot search to the schedule under 2.0.0 and to the practitioner under 1.0.0', () => {
    const q = {
      serviceCategory: 'urn:pdesk:service-category|gp',
      from: '2026-03-02',
      to: '2026-03-08',
      schedule: '11',
      practitioner: '1001',
    };
    expect(slotSearch(testProfile({ appointmentApi: '2.0.0' }), q)).toEqual({
      serviceCategory: q.serviceCategory,
      from: q.from,
      to: q.to,
      schedule: '11',
      practitioners: undefined,
    });
    expect(slotSearch(testProfile({ appointmentApi: '1.0.0' }), q)).toMatchObject({ schedule: undefined, practitioners: ['1001'] });
    expect(slotSearch(testProfile({ appointmentApi: '1.0.0' }), { ...q, practitioner: undefined }).practitioners).toBeUndefined();
  });

  it('reads the range as calendar days and refuses a from after the to, on the From field', () => {
    expect(dateRange({ from: '2026-03-02', to: '2026-03-08' })).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    const e = (() => {
      try {
        dateRange({ from: '2026-03-09', to: '2026-03-08' });
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(FieldError);
    expect((e as FieldError).field).toBe('from');
  });

  it('a slot that has begun cannot be booked; one that has not can', () => {
    expect(pastSlotProblem(slot, new Date('2026-03-02T09:00:01Z'))).toMatch(/started at 2026-03-02 09:00 UTC: it is in the past/);
    expect(pastSlotProblem(slot, new Date('2026-03-02T08:59:59Z'))).toBeUndefined();
  });

  it('books the slot as booked unless proposed is asked for', () => {
    const profile = testProfile();
    const booked = bookingBody(profile, slot, { patient: 'pat-1', comment: 'Check-up' });
    expect(booked).toMatchObject({ status: 'booked', start: slot.start, end: slot.end });
    expect(bookingBody(profile, slot, { patient: 'pat-1', comment: 'Check-up', status: 'proposed' }).status).toBe('proposed');
    expect(bookingBody(profile, slot, { patient: 'pat-1', comment: 'Check-up', status: 'anything' }).status).toBe('booked');
  });
});
