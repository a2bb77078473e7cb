/**
 * Core's field errors in the words of a form. Core names the field a value belongs to (`FieldError('patient',
 * 'must not be empty')`); the CLI words it as its option (`--patient`), the TUI as the label of the form field
 * of that name (`Patient must not be empty.`), and the form moves its cursor there. Every form of the TUI names
 * its fields as core does, so this is the one place that turns one into the other.
 */
import { FieldError, UsageError } from '../core/errors.js';

/** What a form says about one of its fields. */
export interface FieldLabel {
  name: string;
  label: string;
}

/** Labels of core fields a form may not have (a booking form has no practitioner field: the slot names one). */
const LABELS: Record<string, string> = {
  patient: 'Patient',
  practitioner: 'Practitioner',
  actor: 'Declined by',
  recipient: 'Recipient',
  sender: 'Sender',
  subject: 'Subject',
  from: 'From',
  to: 'To',
  start: 'Start',
  end: 'End',
  quantity: 'Quantity',
  pharmacy: 'Pharmacy',
  attachment: 'Attachment',
  slot: 'The slot',
  schedule: 'Schedule',
  status: 'Status',
  identifier: 'Pharmacy identifier',
  email: 'Email',
  topic: 'Topic',
  text: 'Text',
  comment: 'Comment',
  thread: 'Thread',
};

/** The label of a core field in a form: the form's own label, else the TUI's usual one. */
export function labelOf(field: string, fields: readonly FieldLabel[] = []): string {
  return fields.find((f) => f.name === field)?.label ?? LABELS[field] ?? field;
}

export interface FormProblem {
  /** The error to show (a FieldError reworded with the form's labels; anything else as it came). */
  error: unknown;
  /** The form field it names, when the form has it: the cursor goes there. */
  field?: string;
}

/** An error of a form's submit, in the form's words. */
export function formProblem(e: unknown, fields: readonly FieldLabel[]): FormProblem {
  if (!(e instanceof FieldError)) return { error: e };
  const label = (f: string) => labelOf(f, fields);
  const error = new UsageError(e.render(label), e.renderDetails(label));
  error.hints.push(...e.hints);
  return fields.some((f) => f.name === e.field) ? { error, field: e.field } : { error };
}
