/**
 * The steps of the Appointments screen, one small component each: they draw what the hook (useAppointments.ts)
 * holds and call its actions. `active` is true for the top step only.
 */
import { useMemo } from 'react';
import type { Appointment, AppointmentResponseCreate } from '../../../core/schemas/appointment.js';
import { Confirm } from '../../components/Confirm.js';
import { Form } from '../../components/Form.js';
import { ListView } from '../../components/ListView.js';
import { Pane } from '../../components/Pane.js';
import { useDesk } from '../../desk.js';
import { clean, jsonLines } from '../../format.js';
import type { StepViewProps } from '../../steps.js';
import { useInspectKeys } from '../../inspect/context.js';
import { APPOINTMENT_COLUMNS, APPOINTMENT_SORT, appointmentLine, appointmentWidths, detailLines, headerFor } from './format.js';
import { type Appointments, CANCEL_FIELDS, actorsOf } from './useAppointments.js';

export interface StepProps extends StepViewProps {
  s: Appointments;
}

/** `y`: an appointment as A5 answered it. */
export const rawAppointment = (a: Appointment) => ({ title: `Appointment ${a.id} (A5)`, value: a, name: `appointment-${a.id}` });
/** `X`: its slot, schedule, practitioner, patient, cancel responses, threads and notifications. */
export const xrayAppointment = (a: Appointment) => ({ kind: 'appointment' as const, appointment: a });

export function ListStep({ s, width, height, active }: StepProps) {
  const { profile } = useDesk();
  const widths = useMemo(() => appointmentWidths(s.items, width - 2), [s.items, width]);
  return (
    <ListView<Appointment>
      items={s.items ?? []}
      width={width}
      height={height}
      title={`Appointments (A5) — ${clean(profile.name)}`}
      header={headerFor(width, widths)}
      render={(a, w) => appointmentLine(a, w, widths)}
      itemKey={(a) => a.id}
      onSelect={s.select}
      onOpen={s.open}
      openLabel="details"
      sort={{ columns: APPOINTMENT_COLUMNS, initial: APPOINTMENT_SORT }}
      refreshedAt={s.loadedAt}
      raw={rawAppointment}
      xray={xrayAppointment}
      empty={s.loadFailed ? 'Not loaded (see the status line): r to try again.' : s.items ? 'No appointments.' : 'Loading…'}
      active={active}
    />
  );
}

export function DetailStep({ s, appointment, width, height, active }: StepProps & { appointment: Appointment }) {
  const a = s.latest(appointment);
  useInspectKeys({ raw: () => rawAppointment(s.latest(appointment)), xray: () => xrayAppointment(s.latest(appointment)) }, { active });
  return <Pane title={clean(`Appointment ${a.id}`)} lines={detailLines(a)} width={width} height={height} color="cyan" />;
}

export function CancelStep({ s, appointment: a, width, height, active }: StepProps & { appointment: Appointment }) {
  const fields = [{ ...CANCEL_FIELDS[0]!, options: actorsOf(a) }, CANCEL_FIELDS[1]!];
  return (
    <Form
      title={clean(`Cancel appointment ${a.id} (A7): who declines, and why`)}
      intro={[appointmentLine(a, width)]}
      fields={fields}
      {...s.form.bind}
      onSubmit={s.review}
      onCancel={() => s.stack.pop()}
      submitLabel="review"
      width={width}
      height={height}
      active={active}
    />
  );
}

export function ConfirmStep({
  s,
  appointment: a,
  body,
  width,
  height,
  active,
}: StepProps & { appointment: Appointment; body: AppointmentResponseCreate }) {
  const { profile } = useDesk();
  return (
    <Confirm
      question={clean(`Cancel appointment ${a.id}? POST AppointmentResponse (A7) to ${profile.name}:`)}
      lines={jsonLines(body)}
      yesLabel="cancel it"
      danger
      onYes={s.cancel}
      onNo={s.unconfirm}
      width={width}
      height={height}
      active={active}
    />
  );
}
