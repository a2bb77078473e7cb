/** Rows and details of the Appointments screen (src/tui/screens/appointments/format.ts). */
import { describe, expect, it } from 'vitest';
import type { Appointment } from '../../../../src/core/schemas/appointment.js';
import { appointmentLine, appointmentWidths, detailLines, headerFor } from '../../../../src/tui/screens/appointments/format.js';

const a: Appointment = {
  resourceType: 'Appointment',
  id: 'appt-2',
  status: 'proposed',
  start: '2026-03-03T10:00:00Z',
  end: '2026-03-03T10:30:00Z',
  comment: 'Repeat \u001b[2Jprescription',
  serviceCategory: [{ coding: [{ code: 'gp', display: 'General practice' }] }],
  participant: [
    { actor: { reference: 'Patient/pat-2', display: 'Noah de Vries' }, required: 'required', status: 'accepted' },
    { actor: { reference: 'PractitionerRole/1002', display: 'Dr. Omar Haddad' }, required: 'required', status: 'needs-action' },
  ],
};

describe('appointments format', () => {
  it('a row shows the comment only on wide terminals, and a participant status other than accepted', () => {
    expect(headerFor(80)).not.toContain('COMMENT');
    expect(headerFor(140)).toContain('COMMENT');
    expect(appointmentLine(a, 78)).toMatch(/^appt-2\s+proposed\s+2026-03-03 10:00\s+Noah de Vries\s+Dr\. Omar Haddad \[…$/);
    expect(appointmentLine(a, 100)).toMatch(/Noah de Vries \(pat-2\)\s+Dr\. Omar Haddad \(1002\) \[need/);
    expect(appointmentLine(a, 140)).toContain('Repeat prescription');
  });

  it('on a wide terminal the patient and practitioner columns grow to their longest value', () => {
    const w = appointmentWidths([a], 198);
    expect(appointmentLine(a, 198, w)).toMatch(
      /Noah de Vries \(pat-2\)\s+Dr\. Omar Haddad \(1002\) \[needs-action\]\s+Repeat prescription$/,
    );
    expect(headerFor(200, w)).toMatch(/PATIENT\s+PRACTITIONER\s+COMMENT$/);
    // At 100 columns there is no room to spare: as before.
    expect(appointmentWidths([a], 98)).toHaveLength(5);
  });

  it('details: when, category, participants, server text cleaned', () => {
    const lines = detailLines(a);
    expect(lines).toContain('When       2026-03-03 10:00 – 10:30 UTC');
    expect(lines).toContain('Category   gp General practice');
    expect(lines).toContain('Comment    Repeat prescription');
    expect(lines.some((l) => /Dr\. Omar Haddad.*needs-action\s+\(required\)/.test(l))).toBe(true);
  });
});
