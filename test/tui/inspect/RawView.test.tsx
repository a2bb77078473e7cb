/** The raw view through the App: y on a list row, scrolling, w writing a redacted file (mode 0600), Esc back. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/config.js';
import { type Desk, KEY, openDesk } from '../harness.js';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

describe('raw view', () => {
  it('y shows the selected appointment as received; it scrolls; w writes it to a new 0600 file; Esc goes back', async () => {
    const dir = tempDir();
    desk = await openDesk({ screen: 'appointments', size: { columns: 80, rows: 16 }, root: { exportDir: dir } });
    await desk.waitFor('3 appointments.');
    await desk.press('j', 'y');
    const f = await desk.waitFor('Raw · Appointment appt-2 (A5)');
    expect(f).toMatch(/1–\d+ of \d+/);
    expect(f).toContain('"resourceType": "Appointment"');
    await desk.press('G');
    const end = await desk.waitFor(/\d+–(\d+) of \1/);
    expect(end).not.toContain('"resourceType"');
    await desk.press('w');
    const w = await desk.waitFor(`✓ Wrote ${dir}/pdesk-appointment-appt-2-`);
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^pdesk-appointment-appt-2-\d{8}T\d{6}Z\.json$/)]);
    expect(w).toContain(`written to ${dir}/${files[0]!.slice(0, 40)}`);
    const path = join(dir, files[0]!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(desk.sandbox.state.appointments.get('appt-2'));
    await desk.press(KEY.esc);
    const back = await desk.waitFor('Appointments (A5)');
    expect(back).toMatch(/> appt-2/);
  });

  it('y works on other lists too: a medication row with its pharmacy, a slot', async () => {
    desk = await openDesk({ screen: 'meds', size: { columns: 100, rows: 30 } });
    await desk.waitFor('mr-1');
    await desk.press('y');
    const m = await desk.waitFor('Raw · medication request mr-1 with its pharmacy (M1)');
    expect(m).toContain('"medicationRequest": {');
    await desk.press('j', 'j', 'j');
    await desk.press(KEY.esc, '1');
    await desk.waitFor('gp — General practice');
    await desk.press(KEY.enter);
    await desk.waitFor('Appointment type (A1)');
    await desk.press(KEY.enter);
    await desk.waitFor('Practitioner and schedule');
    await desk.press(KEY.enter);
    await desk.waitFor('Date range');
    await desk.press(KEY.enter, KEY.enter);
    await desk.waitFor('Slots (times in UTC)');
    await desk.press('y');
    const s = await desk.waitFor(/Raw · Slot slot-/);
    expect(s).toContain('"resourceType": "Slot"');
  });
});
