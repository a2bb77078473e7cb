import type { OperationOutcome } from './schemas/outcome.js';
import { sanitize } from './sanitize.js';

/** One line per issue: `error conflict: Slot s-1 is not free (at Appointment.start)`. */
export function renderOutcome(outcome: OperationOutcome): string[] {
  if (outcome.issue.length === 0) return ['OperationOutcome without issues'];
  return outcome.issue.map((i) => {
    const head = [i.severity, i.code].filter(Boolean).join(' ') || 'issue';
    const text = i.diagnostics ?? i.details?.text ?? '';
    const at = i.expression?.length ? ` (at ${i.expression.join(', ')})` : '';
    return sanitize(`${head}: ${text}${at}`.trim());
  });
}

/** An OperationOutcome for a server side (sandbox, listen) to answer with. */
export function makeOutcome(
  code: string,
  diagnostics: string,
  severity: 'error' | 'warning' | 'information' = 'error',
  expression?: string,
): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity, code, diagnostics, ...(expression ? { expression: [expression] } : {}) }],
  };
}
