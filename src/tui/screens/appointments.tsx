/**
 * Appointments screen: the list (A5) with status and participants; Enter shows one appointment; `c` cancels
 * the selected one (A7) after a form (who declines, comment) and a confirmation showing the body. State and
 * loaders: hooks/useAppointments.ts; the steps are drawn here, one small component each.
 */
import { Box } from 'ink';
import { useMemo } from 'react';
import type { Appointment, AppointmentResponseCreate } from '../../core/schemas/appointment.js';
import { Confirm } from '../components/Confirm.js';
import { Form } from '../components/Form.js';
import { ListView } from '../components/ListView.js';
import { Pane } from '../components/Pane.js';
import { useDesk } from '../desk.js';
import { clean, jsonLines } from '../format.js';
import { type Appointments, CANCEL_FIELDS, actorsOf, useAppointments } from '../hooks/useAppointments.js';
import { useKeys } from '../keys/useKeys.js';
import { StepStackView, useStepBack } from '../steps.js';
import { useInspectKeys } from '../inspect/context.js';
import {
  APPOINTMENT_COLUMNS,
  APPOINTMENT_SORT,
  appointmentLine,
  appointmentWidths,
  detailLines,
  headerFor,
} from './appointments/format.js';
import type { ScreenProps } from './types.js';

export { appointmentLine } from './appointments/format.js';

interface StepProps {
  s: Appointments;
  width: number;
  height: number;
  active: boolean;
}

/** `y`: an appointment as A5 answered it. */
export const rawAppointment = (a: Appointment) => ({ title: `Appointment ${a.id} (A5)`, value: a, name: `appointment-${a.id}` });
/** `X`: its slot, schedule, practitioner, patient, cancel responses, threads and notifications. */
export const xrayAppointment = (a: Appointment) => ({ kind: 'appointment' as const, appointment: a });

function ListStep({ s, width, height, active }: StepProps) {
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

function DetailStep({ s, appointment, width, height, active }: StepProps & { appointment: Appointment }) {
  const a = s.latest(appointment);
  useInspectKeys({ raw: () => rawAppointment(s.latest(appointment)), xray: () => xrayAppointment(s.latest(appointment)) }, { active });
  return <Pane title={clean(`Appointment ${a.id}`)} lines={detailLines(a)} width={width} height={height} color="cyan" />;
}

function CancelStep({ s, appointment: a, width, height, active }: StepProps & { appointment: Appointment }) {
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

function ConfirmStep({
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

export function AppointmentsScreen({ width, height }: ScreenProps) {
  const s = useAppointments();
  const desk = useDesk();
  const k = s.stack.top.kind;
  useStepBack(s.stack);
  useKeys(
    [
      {
        keys: ['c'],
        label: 'cancel appt',
        help: 'cancel the selected appointment (A7), after a confirmation',
        run: desk.guard('A7', 'cancelling an appointment', s.startCancel),
      },
      { keys: ['r'], label: 'refresh', help: 'reload the appointments (A5)', run: s.load },
    ],
    { active: k === 'list' || k === 'detail' },
  );
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <StepStackView stack={s.stack} height={height}>
        {(step, { active }) => {
          const p = { s, width, height, active };
          switch (step.kind) {
            case 'list':
              return <ListStep {...p} />;
            case 'detail':
              return <DetailStep {...p} appointment={step.appointment} />;
            case 'cancel':
              return <CancelStep {...p} appointment={step.appointment} />;
            case 'confirm':
              return <ConfirmStep {...p} appointment={step.appointment} body={step.body} />;
          }
        }}
      </StepStackView>
    </Box>
  );
}
