/** useAppointments: the list, details and the cancel steps against canned answers (no sandbox). */
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOptions } from '../../../../src/core/client.js';
import type { Appointment } from '../../../../src/core/schemas/appointment.js';
import { useAppointments } from '../../../../src/tui/screens/appointments/useAppointments.js';
import { type RenderedHook, renderHook } from '../../hook-harness.js';

const appt = (id: string, status: Appointment['status']): Appointment => ({
  resourceType: 'Appointment',
  id,
  status,
  start: '2026-03-03T09:00:00Z',
  end: '2026-03-03T09:30:00Z',
  comment: 'Check-up',
  participant: [
    { actor: { reference: 'Patient/pat-1', display: 'Emma Jansen' }, required: 'required', status: 'accepted' },
    { actor: { reference: 'PractitionerRole/1001' }, required: 'required', status: 'accepted' },
  ],
});

let h: RenderedHook<ReturnType<typeof useAppointments>> | undefined;
afterEach(() => h?.unmount());

async function open() {
  const list = [appt('appt-1', 'booked'), appt('appt-3', 'cancelled')];
  const bundle = () => ({ resourceType: 'Bundle', type: 'searchset', entry: list.map((resource) => ({ resource })) });
  const declined = (o: CallOptions) => {
    list[0] = { ...list[0]!, status: 'cancelled' };
    return o.body;
  };
  const hook = renderHook(() => useAppointments(), { answers: { A5: bundle, A7: declined } });
  await hook.until(() => expect(hook.current.items).toHaveLength(2));
  return hook;
}

describe('useAppointments', () => {
  it('c on a cancelled appointment says so and opens no form', async () => {
    h = await open();
    h.current.select(h.current.items![1]);
    h.current.startCancel();
    await h.until(() => expect(h!.text()).toBe('Appointment appt-3 is cancelled already: there is nothing to cancel.'));
    expect(h.current.stack.top.kind).toBe('list');
    // From the details of one, the same.
    h.current.open(h.current.items![1]!);
    await h.until(() => expect(h!.current.stack.top.kind).toBe('detail'));
    h.current.startCancel();
    expect(h.current.stack.top.kind).toBe('detail');
  });

  it('cancels through the form and the confirmation: refusals name the field, n goes back to it, then A7 and a reload', async () => {
    h = await open();
    h.current.select(h.current.items![0]);
    h.current.startCancel();
    await h.until(() => expect(h!.current.stack.top.kind).toBe('cancel'));
    expect(h.current.form.values()).toEqual({ actor: 'Patient/pat-1', comment: '' });
    h.current.review({ actor: 'Patient/pat-1', comment: '  ' });
    await h.until(() => expect(h!.text()).toBe('Comment must not be empty: say why the appointment is cancelled.'));
    expect(h.current.form.bind.focusRequest?.field).toBe('comment');
    h.current.review({ actor: 'Organization/ph-1', comment: 'ill' });
    await h.until(() => expect(h!.text()).toBe('Declined by must be Patient/<id> or PractitionerRole/<id>, not "Organization/ph-1".'));
    expect(h.current.form.bind.focusRequest?.field).toBe('actor');
    h.current.form.bind.onChange({ actor: 'PractitionerRole/1001', comment: 'ill' }, 'actor');
    h.current.form.bind.onChange({ actor: 'PractitionerRole/1001', comment: 'ill' }, 'comment');
    h.current.review(h.current.form.values());
    await h.until(() => expect(h!.current.stack.top.kind).toBe('confirm'));
    h.current.unconfirm();
    await h.until(() => expect(h!.current.stack.top.kind).toBe('cancel'));
    expect(h.current.form.bind.focusRequest?.field).toBe('comment');
    expect(h.fake.of('A7')).toHaveLength(0);
    h.current.review(h.current.form.values());
    await h.until(() => expect(h!.current.stack.top.kind).toBe('confirm'));
    h.current.cancel();
    await h.until(() => expect(h!.text()).toBe('Cancelled appointment appt-1 (declined by PractitionerRole/1001).'));
    expect(h.fake.of('A7')[0]!.body).toMatchObject({ actor: { reference: 'PractitionerRole/1001' }, comment: 'ill' });
    expect(h.fake.of('A5')).toHaveLength(2);
    expect(h.current.stack.steps).toEqual([{ kind: 'list' }]);
    expect(h.current.items![0]!.status).toBe('cancelled');
  });
});
