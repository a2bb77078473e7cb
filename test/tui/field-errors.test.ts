/** Core's field errors in a form's words (src/tui/field-errors.ts). */
import { describe, expect, it } from 'vitest';
import { buildAppointment } from '../../src/core/api/appointments.js';
import { buildCancellation } from '../../src/core/api/appointments.js';
import { FieldError, HttpError, UsageError } from '../../src/core/errors.js';
import { formProblem, labelOf } from '../../src/tui/field-errors.js';
import { testProfile } from './hook-harness.js';

const FIELDS = [
  { name: 'patient', label: 'Patient' },
  { name: 'actor', label: 'Declined by' },
  { name: 'from', label: 'First day' },
];

describe('formProblem', () => {
  it('words a core FieldError with the form label and names the field for the cursor', () => {
    let e: unknown;
    try {
      buildAppointment(testProfile(), {
        patient: '',
        practitioner: '1001',
        start: '2026-03-02T09:00:00Z',
        end: '2026-03-02T09:30:00Z',
        comment: 'x',
        serviceCategory: [{ coding: [{ code: 'gp' }] }],
      });
    } catch (x) {
      e = x;
    }
    expect((e as Error).message).toBe('patient must not be empty.'); // core names the field, not a label
    const p = formProblem(e, FIELDS);
    expect((p.error as Error).message).toBe('Patient must not be empty.');
    expect(p.error).toBeInstanceOf(UsageError);
    expect(p.field).toBe('patient');
  });

  it('uses the labels of the form for every field a problem names, and the usual label for a field it lacks', () => {
    const p = formProblem(new FieldError('from', '(2026-03-05) is after {{to}} (2026-03-01)'), FIELDS);
    expect((p.error as Error).message).toBe('First day (2026-03-05) is after To (2026-03-01).');
    expect(p.field).toBe('from');
    let e: unknown;
    try {
      buildCancellation('appt-1', 'Organization/x', 'why');
    } catch (x) {
      e = x;
    }
    expect((formProblem(e, FIELDS).error as Error).message).toBe(
      'Declined by must be Patient/<id> or PractitionerRole/<id>, not "Organization/x".',
    );
    // A field the form does not have: worded, but no cursor to move.
    const slot = formProblem(new FieldError('practitioner', 'is unknown'), FIELDS);
    expect((slot.error as Error).message).toBe('Practitioner is unknown.');
    expect(slot.field).toBeUndefined();
  });

  it('leaves other errors as they are', () => {
    const http = new HttpError(409, { method: 'POST', url: 'http://x' });
    expect(formProblem(http, FIELDS)).toEqual({ error: http });
    expect(labelOf('unheard-of')).toBe('unheard-of');
  });
});
