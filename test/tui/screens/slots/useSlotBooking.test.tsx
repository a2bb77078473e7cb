/** useSlotBooking: the Slots screen's steps and loaders, against canned answers (no sandbox). */
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOptions } from '../../../../src/core/client.js';
import { HttpError } from '../../../../src/core/errors.js';
import type { Slot } from '../../../../src/core/schemas/appointment.js';
import { useSlotBooking } from '../../../../src/tui/screens/slots/useSlotBooking.js';
import { type Answer, type RenderedHook, renderHook } from '../../hook-harness.js';

const GP = { system: 'urn:pdesk:service-category', code: 'gp', display: 'General practice' };
const NOW = new Date('2026-03-02T10:15:00Z');

const schedules = {
  resourceType: 'Bundle',
  type: 'searchset',
  entry: [{ resourceType: 'Schedule', id: 11, serviceCategory: [{ coding: [GP] }], actor: [{ reference: 'PractitionerRole/1001' }] }],
};
const types = {
  resourceType: 'ValueSet',
  status: 'active',
  compose: { include: [{ concept: [{ code: 'consult', display: 'Consultation' }] }] },
};
const roles = {
  resourceType: 'Bundle',
  entry: [{ resource: { resourceType: 'PractitionerRole', id: '1001', name: 'Dr. Anna Berg' } }],
};
const slot = (hhmm: string): Slot => ({
  resourceType: 'Slot',
  id: `slot-11-20260302-${hhmm}`,
  status: 'free',
  start: `2026-03-02T${hhmm.slice(0, 2)}:${hhmm.slice(2)}:00Z`,
  end: `2026-03-02T${hhmm.slice(0, 2)}:${String(Number(hhmm.slice(2)) + 30).padStart(2, '0')}:00Z`,
  serviceCategory: [{ coding: [GP] }],
  schedule: { reference: 'Schedule/11' },
  extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' } }],
});
const bundle = (slots: Slot[]) => ({ resourceType: 'Bundle', type: 'searchset', entry: slots.map((resource) => ({ resource })) });

let hook: RenderedHook<ReturnType<typeof useSlotBooking>> | undefined;
afterEach(() => hook?.unmount());

const kinds = (h: NonNullable<typeof hook>) => h.current.stack.steps.map((s) => s.kind);

/** Through category, type and schedule to the range form, then (with `search`) the slot list. */
async function toRange(answers: Record<string, Answer> = {}) {
  let free = [slot('0900'), slot('1030'), slot('1100')];
  const slots = () => bundle(free);
  const echo = (o: CallOptions) => o.body;
  const h = renderHook(() => useSlotBooking({ now: () => NOW }), {
    answers: { A1: types, A2: roles, A3: schedules, A4: slots, A6: echo, ...answers },
  });
  await h.until(() => expect(h.current.categories).toEqual([GP]));
  h.current.pickCategory(h.current.categories![0]!);
  await h.until(() => expect(h.current.stack.top.kind).toBe('type'));
  h.current.pickType(h.current.types[0]);
  h.current.pickChoice(h.current.choices[1]!);
  await h.until(() => expect(h.current.stack.top.kind).toBe('range'));
  return { h, setFree: (s: Slot[]) => (free = s) };
}

describe('useSlotBooking', () => {
  it('walks category → type → schedule → range, loading A3, then A1 A2 A3 of the category', async () => {
    const { h } = await toRange();
    hook = h;
    expect(kinds(h)).toEqual(['category', 'type', 'schedule', 'range']);
    expect(h.fake.calls.map((c) => c.op)).toEqual(['A3', 'A1', 'A2', 'A3']);
    expect(h.fake.of('A3')[1]!.query).toEqual([['service-category', 'urn:pdesk:service-category|gp']]);
    expect(h.current.choices.map((c) => c.label)).toEqual(['Any practitioner, every schedule', 'Dr. Anna Berg (1001) · schedule 11']);
  });

  it('a bad date stays in the range form with the cursor on it; a good range replaces the form by the slot list', async () => {
    const { h } = await toRange();
    hook = h;
    h.current.submitRange({ from: 'today', to: 'soon' });
    await h.until(() => expect(h.text()).toMatch(/^To must be a date \(YYYY-MM-DD.*not "soon"\.$/));
    expect(h.current.forms.range.bind.focusRequest?.field).toBe('to');
    h.current.submitRange({ from: '2026-03-05', to: '2026-03-01' });
    await h.until(() => expect(h.text()).toBe('From (2026-03-05) is after To (2026-03-01).'));
    expect(h.current.forms.range.bind.focusRequest?.field).toBe('from');
    expect(h.fake.of('A4')).toHaveLength(0);
    h.current.submitRange({ from: '2026-03-02', to: '2026-03-08' });
    await h.until(() => expect(h.current.stack.top.kind).toBe('slots'));
    // Back from the list goes to the schedules: the range form gave way to the list.
    expect(kinds(h)).toEqual(['category', 'type', 'schedule', 'slots']);
    expect(h.fake.of('A4')[0]!.query).toEqual([
      ['service-category', 'urn:pdesk:service-category|gp'],
      ['schedule.date', 'ge2026-03-02'],
      ['schedule.date', 'le2026-03-08'],
      ['schedule', '11'],
    ]);
    expect(h.current.slots.map((s) => s.id)).toHaveLength(3);
    // d, then a new range: back on the same list (popped to it), not a second one.
    h.current.changeDates();
    await h.until(() => expect(h.current.stack.top.kind).toBe('range'));
    h.current.submitRange({ from: '2026-03-02', to: '2026-03-09' });
    await h.until(() => expect(h.current.days?.to).toBe('2026-03-09'));
    expect(kinds(h)).toEqual(['category', 'type', 'schedule', 'slots']);
  });

  it('refuses a slot that has begun; books a later one through the form and the confirmation', async () => {
    const { h } = await toRange();
    hook = h;
    h.current.submitRange({ from: '2026-03-02', to: '2026-03-02' });
    await h.until(() => expect(h.current.stack.top.kind).toBe('slots'));
    h.current.openSlot(h.current.slots[0]!); // 09:00, and it is 10:15
    await h.until(() =>
      expect(h.text()).toBe('Slot slot-11-20260302-0900 started at 2026-03-02 09:00 UTC: it is in the past and cannot be booked.'),
    );
    expect(h.current.stack.top.kind).toBe('slots');
    h.current.openSlot(h.current.slots[1]!);
    await h.until(() => expect(h.current.stack.top.kind).toBe('book'));
    expect(h.current.forms.booking.values().comment).toBe('Consultation'); // prefilled with the type
    // A patient id the interface cannot carry: said in the form's words, the cursor on Patient, nothing sent.
    h.current.review({ patient: 'bad id!', comment: 'Check-up', status: 'booked' });
    await h.until(() => expect(h.text()).toBe('Patient must be an id or Patient/<id> (letters, digits, - and .), not "bad id!".'));
    expect(h.current.forms.booking.bind.focusRequest?.field).toBe('patient');
    expect(h.current.stack.top.kind).toBe('book');
    h.current.forms.booking.bind.onChange({ patient: 'pat-1', comment: 'Check-up', status: 'booked' }, 'comment');
    h.current.review(h.current.forms.booking.values());
    await h.until(() => expect(h.current.stack.top.kind).toBe('confirm'));
    // n: back to the form, on the field edited last.
    h.current.unconfirm();
    await h.until(() => expect(h.current.stack.top.kind).toBe('book'));
    expect(h.current.forms.booking.bind.focusRequest?.field).toBe('comment');
    h.current.review(h.current.forms.booking.values());
    await h.until(() => expect(h.current.stack.top.kind).toBe('confirm'));
    expect(h.fake.of('A6')).toHaveLength(0);
    h.current.book();
    await h.until(() => expect(h.current.stack.top.kind).toBe('slots'));
    expect(h.text()).toMatch(
      /^Booked appointment [\w-]+ \(booked\): 2026-03-02 10:30 UTC with Dr\. Anna Berg \(PractitionerRole\/1001\)\.$/,
    );
    const sent = h.fake.of('A6')[0]!.body as { participant: Array<{ actor: { reference: string } }>; start: string };
    expect(sent.participant[0]!.actor.reference).toBe('Patient/pat-1');
    expect(sent.start).toBe('2026-03-02T10:30:00Z');
    expect(h.current.slots.map((s) => s.id)).not.toContain('slot-11-20260302-1030');
    expect(h.current.forms.booking.values().patient).toBe('');
  });

  it('on a 409 the form stays as typed with the refusal, and the slot list is read again without the taken slot', async () => {
    const conflict = () => {
      throw new HttpError(409, {
        method: 'POST',
        url: 'http://x/Appointment',
        outcome: { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'conflict', diagnostics: 'Slot is not free.' }] },
      });
    };
    const { h, setFree } = await toRange({ A6: conflict });
    hook = h;
    h.current.submitRange({ from: '2026-03-02', to: '2026-03-02' });
    await h.until(() => expect(h.current.stack.top.kind).toBe('slots'));
    h.current.openSlot(h.current.slots[2]!);
    h.current.review({ patient: 'pat-1', comment: 'x', status: 'booked' });
    await h.until(() => expect(h.current.stack.top.kind).toBe('confirm'));
    setFree([slot('0900'), slot('1030')]); // someone else took 11:00
    h.current.book();
    await h.until(() => expect(h.fake.of('A4')).toHaveLength(2));
    // The list read again without the taken slot; the form still on top, the refusal still said.
    await h.until(() => expect(h.current.slots.map((s) => s.id)).toEqual(['slot-11-20260302-0900', 'slot-11-20260302-1030']));
    await h.idle();
    expect(h.current.stack.top.kind).toBe('book');
    expect(h.text()).toContain('HTTP 409 Conflict');
    expect(h.text()).toContain('Slot is not free.');
  });
});
