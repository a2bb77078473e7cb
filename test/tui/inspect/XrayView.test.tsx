/** X-ray through the App against a real sandbox: X and :xray on each kind of case, elements opened raw or jumped to. */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/config.js';
import { writeStore } from '../../helpers/local-files.js';
import { type Desk, KEY, openDesk } from '../harness.js';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

describe('X-ray', () => {
  it('X on an appointment: its slot, schedule, role, patient, cancel responses and threads; Enter opens raw; Esc back twice', async () => {
    const dir = tempDir();
    await writeStore(dir, 'sandbox', { open: 1 });
    desk = await openDesk({ screen: 'appointments', size: { columns: 100, rows: 40 }, root: { configDir: dir, exportDir: dir } });
    await desk.waitFor('3 appointments.');
    await desk.press('X');
    const x = await desk.waitFor("Chat threads (desk's store)");
    expect(x).toContain('X-ray · Appointment appt-1 · read-only');
    expect(x).toMatch(/Slot \(A4\)\n {4}● slot-11-\d{8}-0900 · .* · busy · Schedule\/11/);
    expect(x).toContain("● Schedule/11 · Dr. Anna Berg (PractitionerRole/1001) (the slot's schedule)");
    expect(x).toContain('● PractitionerRole/1001 · Dr. Anna Berg · 0100 General practice');
    expect(x).toContain('○ no participant declined (no cancellation)');
    expect(x).toMatch(/● enc-0 · open · 1 message · 1 unread · hello 0 {2}→ Enter opens it/);
    expect(x).not.toContain('Cancel appointment'); // the screen's own keys are off: c is nothing here
    await desk.press('c');
    expect(desk.frame()).not.toContain('Cancel appointment');
    await desk.press('j', KEY.enter); // the slot
    const raw = await desk.waitFor('Raw · Slot (A4)');
    expect(raw).toContain('"resourceType": "Slot"');
    expect(raw).toContain('"status": "busy"');
    await desk.press(KEY.esc);
    await desk.waitFor('X-ray · Appointment appt-1');
    await desk.press(KEY.esc);
    const back = await desk.waitFor('Appointments (A5)');
    expect(back).toMatch(/> appt-1/);
  });

  it('a thread element jumps to the Chat screen with that thread open', async () => {
    const dir = tempDir();
    await writeStore(dir, 'sandbox', { open: 1 });
    desk = await openDesk({ screen: 'appointments', size: { columns: 100, rows: 40 }, root: { configDir: dir } });
    await desk.waitFor('3 appointments.');
    await desk.press(':');
    await desk.type('xray');
    await desk.press(KEY.enter);
    await desk.waitFor('enc-0 · open');
    await desk.press('/');
    await desk.type('enc-0');
    await desk.press(KEY.enter, KEY.enter);
    // Not 'hello 0' alone: the X-ray's own line of the thread shows it too, before the jump has been drawn.
    const f = await desk.waitFor(/Chat › enc-0[^\n]*\n[\s\S]*hello 0/);
    expect(f).toContain('[3 Chat]');
    expect(f).toContain('Chat › enc-0 · open · 1 message · 1 unread');
    expect(f).not.toContain('X-ray ·');
  });

  it('on Chat, X is the X-ray and x still asks to close: the X-ray key never means a write', async () => {
    const dir = tempDir();
    await writeStore(dir, 'sandbox', { open: 1, read: 1 });
    desk = await openDesk({ screen: 'chat', size: { columns: 100, rows: 40 }, root: { configDir: dir } });
    await desk.waitFor(/> enc-(0|closed)/);
    await desk.press('/');
    await desk.type('enc-0');
    await desk.press(KEY.enter, 'X');
    const x = await desk.waitFor('Messages and read markers');
    expect(x).toContain('X-ray · Chat enc-0');
    expect(x).toContain('● enc-0 · open (no close recorded)');
    expect(x).toMatch(/● C3 in {2}\d{4}-\d\d-\d\d \d\d:\d\d PractitionerRole\/1001 · read 2026-01-01T10:00:00 · hello 0/);
    expect(x).toContain('● read marker (C2 sent) 2026-01-01T10:00:00');
    expect(x).not.toContain('Close chat');
    await desk.press(KEY.esc);
    await desk.waitFor('Chat threads');
    await desk.press('x');
    await desk.waitFor('Close chat enc-0?');
    await desk.press('n');
    await desk.press(KEY.enter);
    await desk.waitFor('Chat › enc-0');
    await desk.press('X');
    await desk.waitFor('X-ray · Chat enc-0');
  });

  it(':xray on Meds X-rays the selected request; where nothing can be X-rayed it says so', async () => {
    desk = await openDesk({ screen: 'meds', size: { columns: 100, rows: 40 } });
    await desk.waitFor('mr-1');
    await desk.press(':');
    await desk.type('xray');
    await desk.press(KEY.enter);
    const x = await desk.waitFor('Orders based on it (M1)');
    expect(x).toContain('X-ray · Medication request mr-1');
    expect(x).toContain('● Organization/ph-1 · Apotheek Centrum · urn:pdesk:pharmacy-id|PH001 (as M1 pairs it)');
    await desk.press('4');
    await desk.waitFor('[4 Notify]');
    await desk.press(':');
    await desk.type('xray');
    await desk.press(KEY.enter);
    await desk.waitFor('Nothing to X-ray here');
  });
});
