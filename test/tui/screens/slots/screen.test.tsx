/** Slots screen against a real sandbox: pick category, type, practitioner, range; book a slot end to end. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Desk, KEY, lines, openDesk, toSlots } from '../../harness.js';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

describe('Slots screen', () => {
  it('renders the wizard and lists free slots grouped by day', async () => {
    desk = await openDesk();
    await toSlots(desk);
    const f = desk.frame();
    expect(f).toMatch(/\w{3} \d{4}-\d{2}-\d{2} - \d+ slots/);
    expect(f).toContain('Dr. Anna Berg (1001)');
    expect(f).toMatch(/slot-11-\d{8}-\d{4}/);
    expect(f).not.toContain('Dr. Omar Haddad');
    expect(f).toContain('gp › Consultation › Dr. Anna Berg (1001) · schedule 11');
    expect(f).toMatch(/1\/\d+/);
    expect(lines(f).length).toBeLessThanOrEqual(29);
  });

  it('books a slot end to end: confirmation shows the body, the sandbox holds the appointment, the slot is busy', async () => {
    desk = await openDesk();
    await toSlots(desk);
    const first = /slot-11-\d{8}-\d{4}/.exec(desk.frame())![0];
    await desk.press(KEY.enter);
    await desk.waitFor('Book this slot (A6)');
    await desk.type('pat-tui-9');
    await desk.press(KEY.enter); // → comment (prefilled with the type)
    await desk.press(KEY.enter); // → status
    await desk.press(KEY.right); // proposed
    await desk.press(KEY.enter); // review
    await desk.waitFor('Book? POST Appointment (A6)');
    const confirm = desk.frame();
    expect(confirm).toContain('"status": "proposed"');
    expect(desk.sandbox.state.appointments.size).toBe(3); // nothing sent yet
    await desk.press(KEY.pgdn, KEY.pgdn);
    await desk.waitFor('"reference": "Patient/pat-tui-9"');
    await desk.press('y');
    await desk.waitFor('Booked appointment');
    const booked = [...desk.sandbox.state.appointments.values()].find((a) =>
      a.participant?.some((p) => p.actor?.reference === 'Patient/pat-tui-9'),
    );
    expect(booked?.status).toBe('proposed');
    expect(booked?.comment).toBe('Consultation');
    expect(desk.sandbox.state.slots.get(first)?.status).toBe('busy');
    expect(desk.frame()).not.toContain(first);
  });

  it('while the booking is on its way the form cannot be reviewed and sent a second time', async () => {
    desk = await openDesk({ sandbox: { latencyMs: 400 } });
    await toSlots(desk);
    await desk.press(KEY.enter);
    await desk.waitFor('Book this slot (A6)');
    await desk.type('pat-twice');
    await desk.press(KEY.enter, KEY.enter, KEY.enter);
    await desk.waitFor('Book? POST Appointment (A6)');
    await desk.press('y');
    await desk.waitFor('Booking (A6)');
    // The form is back while the request runs: Enter to its last field and y again must send nothing.
    await desk.press(KEY.enter, KEY.enter, KEY.enter, 'y');
    await desk.waitFor('Booked appointment', 5000);
    await new Promise((r) => setTimeout(r, 600));
    const posts = desk.sandbox.received.filter((r) => r.method === 'POST' && /Appointment$/.test(r.path));
    expect(posts).toHaveLength(1);
    expect(desk.frame()).not.toContain('HTTP 409');
  });

  it('keeps the form and shows the OperationOutcome in the status line when the server refuses', async () => {
    desk = await openDesk();
    await toSlots(desk);
    const first = /slot-11-\d{8}-\d{4}/.exec(desk.frame())![0];
    // Someone else takes the slot meanwhile.
    desk.sandbox.state.slots.get(first)!.status = 'busy';
    await desk.press(KEY.enter);
    await desk.waitFor('Book this slot (A6)');
    await desk.type('pat-q-j'); // q and j are typed, not quit/move
    await desk.press(KEY.tab);
    await desk.press('\u0015'); // ^U clears the comment
    await desk.type('please call');
    await desk.press(KEY.enter, KEY.enter, 'y');
    const f = await desk.waitFor('HTTP 409 Conflict');
    expect(f).toContain('is not free');
    expect(f).toContain('Book this slot (A6)');
    expect(f).toContain('pat-q-j');
    expect(f).toContain('please call');
    expect(desk.quitCalls).toBe(0);
  });

  it('a refusal too long for one line is shown whole on up to three lines, and the frame still fits 80×24', async () => {
    desk = await openDesk({ size: { columns: 80, rows: 24 } });
    await toSlots(desk);
    const first = /slot-11-\d{8}-\d{4}/.exec(desk.frame())![0];
    desk.sandbox.state.slots.get(first)!.status = 'busy';
    await desk.press(KEY.enter);
    await desk.waitFor('Book this slot (A6)');
    await desk.type('pat-1');
    await desk.press(KEY.enter, KEY.enter, KEY.enter, 'y');
    await desk.waitFor('HTTP 409 Conflict');
    const f = await desk.waitFor('Esc cancel');
    // The whole OperationOutcome text, not cut at the terminal's width.
    expect(f.replace(/\n/g, ' ').replace(/ +/g, ' ')).toContain(`Slot ${first}`);
    expect(f.replace(/\n/g, ' ').replace(/ +/g, ' ')).toContain('is not free: it is busy.');
    expect(lines(f).length).toBeLessThanOrEqual(23);
    for (const l of lines(f)) expect(l.length).toBeLessThanOrEqual(80);
    expect(f).toContain('Book this slot (A6)');
    expect(lines(f).at(-1)).toContain('Esc cancel'); // the hint line is still the last line
    // Once the error is gone the screen gets its lines back.
    await desk.press(KEY.esc);
    const back = await desk.waitFor('Slots (times in UTC)');
    expect(back).not.toContain('HTTP 409');
    expect(lines(back).length).toBeLessThanOrEqual(23);
  });

  it('back from the booking form and after a booking, the slot list keeps its filter and place', async () => {
    desk = await openDesk();
    await toSlots(desk);
    await desk.press('/');
    await desk.type('10:00-10:30');
    await desk.press(KEY.enter, 'j');
    let f = await desk.waitFor('/10:00-10:30');
    const second = /> 10:00-10:30 .*(slot-11-\d{8}-\d{4})/.exec(f)![1]!;
    await desk.press(KEY.enter);
    await desk.waitFor('Book this slot (A6)');
    await desk.press(KEY.esc);
    f = await desk.waitFor('Slots (times in UTC)');
    expect(f).toContain('/10:00-10:30');
    expect(f).toMatch(new RegExp(`> 10:00-10:30 .*${second}`));
    await desk.press(KEY.enter);
    await desk.waitFor('Book this slot (A6)');
    await desk.type('pat-1');
    await desk.press(KEY.enter, KEY.enter, KEY.enter, 'y');
    f = await desk.waitFor('Booked appointment');
    expect(f).toContain('/10:00-10:30');
    expect(f).not.toContain(second);
    expect(f).not.toMatch(/ 09:00-09:30 /);
  });

  it('Esc walks back step by step; / filters; ? lists the keys of the screen', async () => {
    desk = await openDesk();
    await toSlots(desk);
    await desk.press('?');
    let f = await desk.waitFor('Help — keys');
    expect(f).toContain('Slots screen');
    expect(f).toContain('change the date range');
    expect(f).toContain('filter the list');
    await desk.press(KEY.esc);
    await desk.waitFor('Slots (times in UTC)');
    await desk.press('/');
    await desk.type('13:30');
    f = await desk.waitFor(/\/13:30/);
    expect(f).toContain('13:30-14:00');
    expect(f).not.toContain('09:00-09:30');
    await desk.press(KEY.esc); // clears the filter
    await desk.waitFor('09:00-09:30');
    await desk.press(KEY.esc);
    await desk.waitFor('Practitioner and schedule');
    await desk.press(KEY.esc);
    await desk.waitFor('Appointment type (A1)');
    await desk.press(KEY.esc);
    await desk.waitFor('Service category');
  });

  it('a patient id the interface cannot carry is refused on the Patient field, and nothing is sent', async () => {
    desk = await openDesk();
    await toSlots(desk);
    await desk.press(KEY.enter);
    await desk.waitFor('Book this slot (A6)');
    await desk.type('bad id!');
    await desk.press(KEY.enter, KEY.enter, KEY.enter);
    const f = await desk.waitFor('Patient must be an id or Patient/<id>');
    expect(f.replace(/\n/g, ' ').replace(/ +/g, ' ')).toContain('not "bad id!".');
    expect(f).toMatch(/› Patient\s+bad id!/); // the cursor is back on the field to fix
    expect(f).not.toContain('Book? POST');
    expect(desk.sandbox.received.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('n at the confirmation goes back to the field edited last, not the first one', async () => {
    desk = await openDesk();
    await toSlots(desk);
    await desk.press(KEY.enter);
    await desk.waitFor('Book this slot (A6)');
    await desk.type('pat-1');
    await desk.press(KEY.enter);
    await desk.type(' and a note'); // the comment is edited last
    await desk.press(KEY.enter, KEY.enter);
    await desk.waitFor('Book? POST Appointment (A6)');
    await desk.press('n');
    const f = await desk.waitFor('Book this slot (A6)');
    expect(f).toMatch(/› Comment\s+Consultation and a note/);
    expect(f).not.toMatch(/› Patient/);
  });

  it('a slot that has begun is shown as past and Enter on it says so instead of opening the form', async () => {
    desk = await openDesk();
    await toSlots(desk);
    // The first slot of the list began a minute ago.
    const first = /slot-11-\d{8}-\d{4}/.exec(desk.frame())![0];
    const s = desk.sandbox.state.slots.get(first)!;
    const duration = Date.parse(s.end) - Date.parse(s.start);
    const began = Date.now() - 60_000;
    s.start = new Date(began).toISOString().replace(/\.\d{3}Z$/, 'Z');
    s.end = new Date(began + duration).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await desk.press('d');
    await desk.waitFor('Date range');
    await desk.press('\u0015');
    await desk.type('yesterday');
    await desk.press(KEY.enter, KEY.enter);
    let f = await desk.waitFor(new RegExp(`past\\s+${first}`));
    await desk.press('/');
    await desk.type(first);
    await desk.press(KEY.enter, KEY.enter);
    f = await desk.waitFor(/is in the past and cannot\s+be\s+booked\./);
    expect(f).not.toContain('Book this slot (A6)');
    expect(desk.sandbox.received.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('after a 409 the slot list is read again: back from the form, the taken slot is gone without r', async () => {
    desk = await openDesk();
    await toSlots(desk);
    const first = /slot-11-\d{8}-\d{4}/.exec(desk.frame())![0];
    desk.sandbox.state.slots.get(first)!.status = 'busy'; // someone else took it meanwhile
    const searches = () => desk!.sandbox.received.filter((r) => r.path.endsWith('/Slot') && r.query.includes('schedule.date')).length;
    const before = searches();
    await desk.press(KEY.enter);
    await desk.waitFor('Book this slot (A6)');
    await desk.type('pat-1');
    await desk.press(KEY.enter, KEY.enter, KEY.enter, 'y');
    await desk.waitFor('HTTP 409 Conflict');
    await vi.waitFor(() => expect(searches()).toBeGreaterThan(before));
    await desk.waitGone('Searching free slots');
    expect(desk.frame()).toContain('HTTP 409 Conflict'); // the refusal is still said
    await desk.press(KEY.esc);
    const f = await desk.waitFor('Slots (times in UTC)');
    expect(f).not.toContain(first);
  });

  it('an error in the date range stays in the form', async () => {
    desk = await openDesk();
    await desk.waitFor('gp — General practice');
    await desk.press(KEY.enter);
    await desk.waitFor('Consultation');
    await desk.press(KEY.enter);
    await desk.waitFor('Practitioner and schedule');
    await desk.press(KEY.enter);
    await desk.waitFor('Date range');
    await desk.press(KEY.tab, '\u0015');
    await desk.type('nonsense');
    await desk.press(KEY.enter);
    const f = await desk.waitFor('To must be a date');
    expect(f).toContain('nonsense');
    expect(desk.sandbox.received.filter((r) => r.path.endsWith('/Slot'))).toHaveLength(0);
  });
});
