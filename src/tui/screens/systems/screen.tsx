/**
 * Systems screen (`0`, `:systems`; where pdesk opens when more than one profile is saved): one row per profile
 * with its environment (production in red), appointment API, each party's reachability and latency (a light
 * GET, decisions.md §13), unread messages and open chats of its thread store, uncertain bulk rows, and the last
 * error; the selected profile in full below. Refreshed in the background every 30 s and on `r`; Enter switches
 * the desk to that profile. State: useSystems.ts; its one step: steps.tsx; text: format.ts.
 */
import { StepStackView, useStepBack } from '../../steps.js';
import type { ScreenProps } from '../types.js';
import { ListStep } from './steps.js';
import { useSystems } from './useSystems.js';

export function SystemsScreen({ width, height }: ScreenProps) {
  const s = useSystems();
  useStepBack(s.stack);
  return (
    <StepStackView stack={s.stack} height={height}>
      {(_step, { active }) => <ListStep s={s} width={width} height={height} active={active} />}
    </StepStackView>
  );
}
