/**
 * Check screen (`6`, `:check`): the read-only conformance suite of `pdesk check` on the desk's profile, with
 * live progress (each check waiting, running, done), grouped by area; Enter on a check shows its messages and
 * its requests and answers (redacted), `y` the check as JSON; `r` runs it again; Esc stops a run. Writes are
 * never sent from here (`pdesk check --write` does them). State: useCheck.ts; one component per step:
 * steps.tsx; text: format.ts.
 */
import { useKeys } from '../../keys/useKeys.js';
import { StepStackView, useStepBack } from '../../steps.js';
import type { ScreenProps } from '../types.js';
import { DetailStep, ListStep } from './steps.js';
import { useCheck } from './useCheck.js';

export function CheckScreen({ width, height }: ScreenProps) {
  const c = useCheck();
  useStepBack(c.stack);
  useKeys([{ keys: ['r'], label: 'run again', help: 'run the read-only suite again (Esc stops a run)', run: c.run }]);
  return (
    <StepStackView stack={c.stack} height={height}>
      {(step, { active }) =>
        step.kind === 'list' ? (
          <ListStep c={c} width={width} height={height} active={active} />
        ) : (
          <DetailStep c={c} id={step.id} width={width} height={height} active={active} />
        )
      }
    </StepStackView>
  );
}
