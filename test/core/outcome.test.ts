/** OperationOutcomes (src/core/outcome.ts, src/core/schemas/outcome.ts): recognised in an error body and rendered as issue lines. */
import { describe, expect, it } from 'vitest';
import { renderOutcome } from '../../src/core/outcome.js';
import { asOutcome } from '../../src/core/schemas/index.js';

describe('OperationOutcome', () => {
  it('is recognised and rendered as its issues, control characters stripped', () => {
    const o = asOutcome({
      resourceType: 'OperationOutcome',
      issue: [
        { severity: 'error', code: 'conflict', diagnostics: 'Slot 7 is not free\u001b[2J', expression: ['Appointment.start'] },
        { severity: 'warning', code: 'informational', details: { text: 'second' } },
      ],
    });
    expect(o).toBeDefined();
    expect(renderOutcome(o!)).toEqual(['error conflict: Slot 7 is not free (at Appointment.start)', 'warning informational: second']);
  });

  it('anything else is not an outcome', () => {
    expect(asOutcome({ resourceType: 'Bundle' })).toBeUndefined();
    expect(asOutcome('<html>')).toBeUndefined();
  });
});
