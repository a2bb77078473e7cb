/**
 * Notify screen: write a notification (email, topic, text), see exactly what will be sent, send it (C5,
 * practice system → portal) and keep this session's sent list (Enter shows what was sent and answered).
 * State: useNotify.ts; one component per step: steps.tsx; the sent list's rows: format.ts.
 */
import { StepStackView, useStepBack } from '../../steps.js';
import type { ScreenProps } from '../types.js';
import { ConfirmStep, DetailStep, ListStep } from './steps.js';
import { type NotifyStep, useNotify } from './useNotify.js';

/** The form is drawn above the sent list. */
const inline = (step: NotifyStep) => step.kind === 'edit';

export function NotifyScreen({ width, height }: ScreenProps) {
  const s = useNotify();
  useStepBack(s.stack);
  return (
    <StepStackView stack={s.stack} height={height} inline={inline}>
      {(step, { active, index }) => {
        const p = { s, width, height, active };
        switch (step.kind) {
          case 'list':
            return <ListStep {...p} editing={s.stack.top.kind === 'edit'} />;
          case 'edit':
            return null; // drawn by the list below it
          case 'confirm':
            return <ConfirmStep {...p} body={step.body} />;
          case 'detail':
            return <DetailStep {...p} sent={step.sent} key={index} />;
        }
      }}
    </StepStackView>
  );
}
