/**
 * Meds screen: medication requests with their pharmacy (M1) → Enter shows one (M2) → `o` reorders it: a form
 * with the pharmacy (an Organization id, or `system|value` to search pharmacies by identifier with M4),
 * quantity, period and note → a confirmation showing the body built by the core (decisions.md §10) → order
 * (M3). State and loaders: useMedReorder.ts; one component per step: steps.tsx.
 */
import { useMedReorder } from './useMedReorder.js';
import { StepStackView, useStepBack } from '../../steps.js';
import { ConfirmStep, DetailStep, ListStep, PickStep, ReorderStep } from './steps.js';
import type { ScreenProps } from '../types.js';

export function MedsScreen({ width, height }: ScreenProps) {
  const m = useMedReorder();
  useStepBack(m.stack);
  return (
    <StepStackView stack={m.stack} height={height}>
      {(step, { active }) => {
        const p = { m, width, height, active };
        switch (step.kind) {
          case 'list':
            return <ListStep {...p} />;
          case 'detail':
            return <DetailStep {...p} target={step.target} />;
          case 'reorder':
            return <ReorderStep {...p} target={step.target} />;
          case 'pick':
            return <PickStep {...p} target={step.target} found={step.found} at={step.at} />;
          case 'confirm':
            return <ConfirmStep {...p} target={step.target} order={step.order} />;
        }
      }}
    </StepStackView>
  );
}
