/**
 * Appointments screen: the list (A5) with status and participants; Enter shows one appointment; `c` cancels
 * the selected one (A7) after a form (who declines, comment) and a confirmation showing the body. State and
 * loaders: useAppointments.ts; one component per step: steps.tsx.
 */
import { useDesk } from '../../desk.js';
import { useKeys } from '../../keys/useKeys.js';
import { StepStackView, useStepBack } from '../../steps.js';
import type { ScreenProps } from '../types.js';
import { CancelStep, ConfirmStep, DetailStep, ListStep } from './steps.js';
import { useAppointments } from './useAppointments.js';

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
  );
}
