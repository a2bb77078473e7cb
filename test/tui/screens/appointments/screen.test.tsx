/** Appointments screen against a real sandbox: list, details, cancel with confirmation, errors keep the form. */
import { afterEach, describe, expect, it } from 'vitest';
import { type Desk, KEY, openDesk } from '../../harness.js';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

describe('Appointments screen', () => {
  it('lists appointments with status and participants; Enter shows details, Esc goes back', async () => {
    desk = await openDesk({ screen: 'appointments' });
    const f = await desk.waitFor('appt-3');
    expect(f).toMatch(/appt-1\s+booked/);
    expect(f).toMatch(/appt-2\s+proposed/);
    expect(f).toMatch(/appt-3\s+cancelled/);
    expect(f).toContain('(pat-1)');
    expect(f).toContain('3 appointments.');
    await desk.press(KEY.enter);
    const d = await desk.waitFor('Participants');
    expect(d).toContain('Appointment appt-1');
    expect(d).toMatch(/Patient|pat-1/);
    await desk.press(KEY.esc);
    await desk.waitFor('STATUS');
  });

  it('back from the details and from the cancel form, the list keeps its selection and filter', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('appt-3');
    await desk.press('j', 'j', KEY.enter);
    await desk.waitFor('Appointment appt-3');
    await desk.press(KEY.esc);
    let f = await desk.waitFor('STATUS');
    expect(f).toMatch(/> appt-3/);
    await desk.press('/');
    await desk.type('noah');
    await desk.press(KEY.enter, 'c');
    await desk.waitFor('Cancel appointment appt-2');
    await desk.press(KEY.esc);
    f = await desk.waitFor('STATUS');
    expect(f).toContain('/noah');
    expect(f).toMatch(/> appt-2/);
    expect(f).not.toContain('appt-1');
  });

  it('c cancels the selected appointment after a confirmation with a comment', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('appt-1');
    await desk.press('c');
    await desk.waitFor('Cancel appointment appt-1 (A7)');
    await desk.press(KEY.down); // comment
    await desk.type('patient is ill, q j'); // q and j are text here
    await desk.press(KEY.enter);
    const c = await desk.waitFor('POST AppointmentResponse (A7)');
    expect(c).toContain('"participantStatus": "declined"');
    expect(c).toContain('patient is ill, q j');
    expect(desk.sandbox.state.appointments.get('appt-1')?.status).toBe('booked'); // nothing sent before y
    await desk.press('y');
    const f = await desk.waitFor('Cancelled appointment appt-1');
    expect(f).toMatch(/appt-1\s+cancelled/);
    const appt = desk.sandbox.state.appointments.get('appt-1')!;
    expect(appt.status).toBe('cancelled');
    const sent = desk.sandbox.received.find((r) => r.path.endsWith('/AppointmentResponse'));
    expect(sent?.body).toMatchObject({
      participantStatus: 'declined',
      comment: 'patient is ill, q j',
      appointment: { reference: 'Appointment/appt-1' },
    });
    expect(desk.quitCalls).toBe(0);
  });

  it('c on an appointment cancelled already says so, opens no form and sends nothing', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('3 appointments.');
    await desk.press('j', 'j');
    await desk.waitFor(/> appt-3\s+cancelled/);
    await desk.press('c');
    const f = await desk.waitFor('Appointment appt-3 is cancelled already');
    expect(f).not.toContain('Cancel appointment appt-3');
    expect(f).toContain('Appointments (A5)');
    expect(desk.sandbox.received.filter((r) => r.path.endsWith('/AppointmentResponse'))).toHaveLength(0);
  });

  it('n at the confirmation sends nothing and keeps the form; an empty comment is refused', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('appt-1');
    await desk.press('c');
    await desk.waitFor('Cancel appointment appt-1');
    await desk.press(KEY.down, KEY.enter);
    await desk.waitFor('Comment must not be empty');
    await desk.type('later');
    await desk.press(KEY.enter);
    await desk.waitFor('POST AppointmentResponse');
    await desk.press('n');
    const f = await desk.waitFor('Cancel appointment appt-1 (A7)');
    expect(f).toContain('later');
    expect(desk.sandbox.received.filter((r) => r.path.endsWith('/AppointmentResponse'))).toHaveLength(0);
  });

  it('Esc from the form leaves its input mistake behind: the list does not show it', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('appt-1');
    await desk.press('c');
    await desk.waitFor('Cancel appointment appt-1');
    await desk.press(KEY.down, KEY.enter);
    await desk.waitFor('Comment must not be empty');
    await desk.press(KEY.esc);
    const f = await desk.waitFor('Appointments (A5)');
    expect(f).not.toContain('Comment must not be empty');
  });

  it('a refused cancellation shows the OperationOutcome and keeps the form', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('appt-1');
    // The appointment disappears on the server meanwhile: A7 answers 404 with an OperationOutcome.
    desk.sandbox.state.appointments.delete('appt-1');
    await desk.press('c');
    await desk.waitFor('Cancel appointment appt-1');
    await desk.press(KEY.down);
    await desk.type('no show');
    await desk.press(KEY.enter, 'y');
    const f = await desk.waitFor('HTTP 404');
    expect(f).toContain('Appointment appt-1 was not found');
    expect(f).toContain('Cancel appointment appt-1 (A7)');
    expect(f).toContain('no show');
  });

  it('/ filters the list and ? lists the keys of the screen', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('appt-3');
    await desk.press('/');
    await desk.type('proposed');
    let f = await desk.waitFor('/proposed');
    expect(f).toContain('appt-2');
    expect(f).not.toContain('appt-1 ');
    await desk.press(KEY.enter); // keep the filter
    await desk.press('?');
    f = await desk.waitFor('Help — keys');
    expect(f).toContain('cancel the selected appointment');
    expect(f).toContain('reload the appointments');
    await desk.press(KEY.esc);
    await desk.waitFor('/proposed');
    await desk.press(KEY.esc); // clears the filter
    f = await desk.waitFor('appt-1');
    expect(f).not.toContain('/proposed');
  });

  it('sorted by start by default, s then a letter sorts by another column; a long id is never cut on a wide terminal', async () => {
    desk = await openDesk({ screen: 'appointments', size: { columns: 100, rows: 24 } });
    await desk.waitFor('3 appointments.');
    const long = '6f1c2a7e-0b7d-4d8e-9a51-7f3c2b1e9d40';
    const first = desk.sandbox.state.appointments.get('appt-1')!;
    desk.sandbox.state.appointments.set(long, { ...first, id: long, start: '2020-01-01T08:00:00Z', end: '2020-01-01T08:30:00Z' });
    await desk.press('r');
    const f = await desk.waitFor('4 appointments.');
    const ids = () =>
      desk!
        .frame()
        .split('\n')
        .filter((l) => /^[> ] \S/.test(l) && !l.includes('STATUS'))
        .map((l) => l.slice(2).split(/\s+/)[0]);
    expect(f).toMatch(/start ↑ · \d\d:\d\d:\d\d · 2\/4/); // the selection stays on appt-1
    expect(ids()).toEqual([long, 'appt-1', 'appt-2', 'appt-3']);
    expect(f).toContain(`  ${long}  booked`);
    await desk.press('s', 's'); // by status; equal ones in the order A5 gave them
    await desk.waitFor('status ↑');
    expect(ids()).toEqual(['appt-1', long, 'appt-3', 'appt-2']);
    await desk.press('s', 'i', 's', 'i'); // by id, then reversed
    await desk.waitFor('id ↓');
    expect(ids()).toEqual(['appt-3', 'appt-2', 'appt-1', long]);
  });
});
