/**
 * State and loaders of the Appointments screen: the list (A5), one appointment's details, and cancelling
 * (A7): a form (who declines, why), a confirmation showing the body, then the request. The steps are a stack
 * (steps.tsx); every call runs through desk.run.
 */
import { useCallback, useEffect, useState } from 'react';
import { buildCancellation, cancelAppointment, searchAppointments } from '../../../core/api/appointments.js';
import type { Appointment, AppointmentResponseCreate } from '../../../core/schemas/appointment.js';
import type { FormValues } from '../../components/Form.js';
import { useDesk } from '../../desk.js';
import { clean } from '../../format.js';
import { useRefState } from '../../keys/useRefState.js';
import { confirmation, useStepStack } from '../../steps.js';
import { useForm } from '../../hooks/useForm.js';

export type AppointmentStep =
  | { kind: 'list' }
  | { kind: 'detail'; appointment: Appointment }
  | { kind: 'cancel'; appointment: Appointment }
  | { kind: 'confirm'; appointment: Appointment; body: AppointmentResponseCreate };

export const CANCEL_FIELDS = [
  { name: 'actor', label: 'Declined by', kind: 'choice' as const },
  { name: 'comment', label: 'Comment', placeholder: 'reason, sent to the practice system' },
];

const LIST_LIMIT = 5000;

/** The participants who may decline an appointment: `Patient/<id>` and `PractitionerRole/<id>`. */
export const actorsOf = (a: Appointment) =>
  (a.participant ?? []).map((p) => p.actor?.reference).filter((r): r is string => !!r && /^(Patient|PractitionerRole)\/[^/]+$/.test(r));

export function useAppointments() {
  const desk = useDesk();
  const stack = useStepStack<AppointmentStep>({ kind: 'list' });
  const [items, setItems] = useState<Appointment[] | undefined>();
  const [loadedAt, setLoadedAt] = useState<Date | undefined>();
  /** The last load failed (its error is in the status line). */
  const [loadFailed, setLoadFailed] = useState(false);
  const [selected, setSelected, selectedRef] = useRefState<Appointment | undefined>(undefined);
  /** The appointment the form was last filled for: its text is kept when the same one is cancelled again. */
  const [formFor, setFormFor] = useState<string | undefined>();
  const form = useForm(CANCEL_FIELDS, { actor: '', comment: '' });

  const load = useCallback(async () => {
    const r = await desk.run('Loading appointments (A5)', (signal) => searchAppointments(desk.client, [], { signal, limit: LIST_LIMIT }), {
      okText: (v) => `${v.length} appointment${v.length === 1 ? '' : 's'}.`,
    });
    setLoadFailed(!r.ok);
    if (r.ok) {
      setItems(r.value);
      setLoadedAt(new Date());
    }
  }, [desk]);

  // Loaded when the screen opens, and again if the desk's client changes; later loads are asked for with r.
  useEffect(() => {
    void load();
  }, [load]);

  /** `c`: the appointment shown (details) or selected (list). */
  const startCancel = () => {
    const top = stack.current();
    const a = top.kind === 'detail' ? top.appointment : selectedRef.current;
    if (!a) return;
    if (a.status === 'cancelled') return desk.info(`Appointment ${clean(a.id)} is cancelled already: there is nothing to cancel.`);
    const actors = actorsOf(a);
    if (formFor !== a.id) form.restart({ actor: actors[0] ?? '', comment: '' });
    else if (!actors.includes(form.values().actor ?? '')) form.set((v) => ({ ...v, actor: actors[0] ?? '' }));
    setFormFor(a.id);
    stack.push({ kind: 'cancel', appointment: a });
  };

  const review = (v: FormValues) => {
    const top = stack.current();
    if (top.kind !== 'cancel') return;
    try {
      // The cancel rule is core's (actor, a comment that says why): its FieldError goes to the form's field.
      stack.push({
        kind: 'confirm',
        appointment: top.appointment,
        body: buildCancellation(top.appointment.id, v.actor ?? '', v.comment ?? ''),
      });
    } catch (e) {
      form.fail(e);
    }
  };

  const confirm = confirmation(stack, 'confirm', form);

  const cancel = async () => {
    const top = confirm.take();
    if (!top) return;
    const { appointment: a, body } = top;
    const r = await desk.run(`Cancelling appointment ${clean(a.id)} (A7)`, (signal) => cancelAppointment(desk.client, body, { signal }), {
      sends: true,
    });
    if (!r.ok) return;
    form.set({ actor: '', comment: '' });
    setFormFor(undefined);
    stack.reset();
    await load();
    desk.ok(`Cancelled appointment ${clean(a.id)} (declined by ${clean(body.actor.reference)}).`);
  };

  return {
    stack,
    items,
    /** When the list was last read. */
    loadedAt,
    loadFailed,
    selected,
    form,
    select: setSelected,
    open: (a: Appointment) => {
      setSelected(a);
      stack.push({ kind: 'detail', appointment: a });
    },
    /** The appointment as the latest list has it (details follow a reload). */
    latest: (a: Appointment) => items?.find((x) => x.id === a.id) ?? a,
    load: () => void load(),
    startCancel,
    review,
    unconfirm: confirm.back,
    cancel: () => void cancel(),
  };
}

export type Appointments = ReturnType<typeof useAppointments>;
