/**
 * The state of one form, kept by the screen's hook so what was typed survives errors, confirmations and visits
 * to other screens: the values, where the cursor should go, and the field the operator most likely wants to
 * fix — the last one edited, or the one the last error named, whichever came later.
 *
 *   const booking = useForm(BOOKING_FIELDS, { patient: '', comment: '' });
 *   <Form {...booking.bind} fields={BOOKING_FIELDS} … />
 *   try { build(booking.values()) } catch (e) { booking.fail(e) }   // "Patient must not be empty.", cursor on Patient
 *   on `n` at the confirmation: booking.refocus()                     // back to the field to fix
 */
import { useMemo, useRef, useState } from 'react';
import type { FocusRequest, FormValues } from '../components/Form.js';
import { useDesk } from '../desk.js';
import { type FieldLabel, formProblem } from '../field-errors.js';
import { useRefState } from '../keys/useRefState.js';

export interface FormModel {
  /** Props for `<Form>`: values, onChange, focusRequest. */
  bind: { values: FormValues; onChange: (values: FormValues, field: string) => void; focusRequest?: FocusRequest };
  /** The latest values (also between renders). */
  values(): FormValues;
  /** Set values (a prefill, a value found by a search, clearing after a send). */
  set(next: FormValues | ((prev: FormValues) => FormValues)): void;
  /**
   * Show a submit's error in the form's words (a core FieldError gets the form's label) and move the cursor
   * to the field it names. Never throws.
   */
  fail(e: unknown): void;
  /** Back from a confirmation: the cursor goes to the field to fix (else stays where it was). */
  refocus(): void;
  /** Put the cursor on a field. */
  focus(field: string): void;
  /** A fresh start (a new record to edit): these values, the cursor on the first field, nothing to fix. */
  restart(values?: FormValues): void;
  /** The field `refocus` would go to. */
  fixField(): string | undefined;
}

export function useForm(fields: readonly FieldLabel[], initial: FormValues): FormModel {
  const desk = useDesk();
  const [values, setValues, valuesRef] = useRefState<FormValues>(initial);
  const [request, setRequest] = useState<FocusRequest | undefined>();
  const seq = useRef(0);
  const fix = useRef<string | undefined>(undefined);
  // The labels a form shows do not change while it lives; the latest are read when an error comes.
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;
  const ops = useMemo(() => {
    const focus = (field: string) => setRequest({ field, seq: ++seq.current });
    return {
      values: () => valuesRef.current,
      set: setValues,
      onChange: (next: FormValues, field: string) => {
        fix.current = field;
        setValues(next);
      },
      fail: (e: unknown) => {
        const p = formProblem(e, fieldsRef.current);
        desk.error(p.error);
        if (p.field) {
          fix.current = p.field;
          focus(p.field);
        }
      },
      refocus: () => {
        if (fix.current) focus(fix.current);
      },
      focus,
      restart: (next?: FormValues) => {
        if (next) setValues(next);
        fix.current = undefined;
        const first = fieldsRef.current[0]?.name;
        if (first) focus(first);
      },
      fixField: () => fix.current,
    };
  }, [desk, setValues, valuesRef]);
  return {
    bind: { values, onChange: ops.onChange, focusRequest: request },
    values: ops.values,
    set: ops.set,
    fail: ops.fail,
    refocus: ops.refocus,
    focus: ops.focus,
    restart: ops.restart,
    fixField: ops.fixField,
  };
}
