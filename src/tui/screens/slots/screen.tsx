/**
 * Slots screen: service category → appointment type (A1) → practitioner and schedule (A2 + A3) → date range
 * → free slots (A4) grouped by day → Enter books the slot (A6) after a confirmation showing the body. Esc goes
 * one step back. State and loaders: useSlotBooking.ts; one component per step: steps.tsx; the slot list:
 * slot-list.tsx.
 */
import { Text } from 'ink';
import { clean, fit } from '../../format.js';
import { type SlotBooking, type SlotStep, useSlotBooking } from './useSlotBooking.js';
import { useKeys } from '../../keys/useKeys.js';
import { StepStackView, useStepBack } from '../../steps.js';
import { BookStep, CategoryStep, ConfirmStep, OtherStep, RangeStep, ScheduleStep, SlotsStep, TypeStep } from './steps.js';
import type { ScreenProps } from '../types.js';

/** Steps that are lists the server fills: `r` reads them again. */
const REFRESHABLE = new Set<SlotStep['kind']>(['category', 'type', 'schedule', 'slots']);

/** The line above the steps: what has been picked so far. */
function crumbs(s: SlotBooking): string {
  const k = s.stack.top.kind;
  const picking = k === 'category' || k === 'other';
  return [
    s.category && !picking ? clean(s.category.code) : 'Pick a service category, then the type, practitioner and dates',
    picking ? '' : clean(s.type ? (s.type.display ?? s.type.code) : 'type'),
    s.choice && ['range', 'slots', 'book', 'confirm'].includes(k) ? fit(s.choice.label, 40) : '',
    s.days && ['slots', 'book', 'confirm'].includes(k) ? `${s.days.from} – ${s.days.to}` : '',
  ]
    .filter(Boolean)
    .join(' › ');
}

export function SlotsScreen({ width, height }: ScreenProps) {
  const s = useSlotBooking();
  useStepBack(s.stack);
  useKeys([{ keys: ['r'], label: 'refresh', help: 'reload this step from the server', run: s.refresh }], {
    active: REFRESHABLE.has(s.stack.top.kind),
  });
  const h = height - 1;
  return (
    <>
      <Text color="cyan" wrap="truncate">
        {fit(crumbs(s), width)}
      </Text>
      <StepStackView stack={s.stack} height={h}>
        {(step, { active }) => {
          const p = { s, width, height: h, active };
          switch (step.kind) {
            case 'category':
              return <CategoryStep {...p} />;
            case 'other':
              return <OtherStep {...p} />;
            case 'type':
              return <TypeStep {...p} />;
            case 'schedule':
              return <ScheduleStep {...p} />;
            case 'range':
              return <RangeStep {...p} />;
            case 'slots':
              return <SlotsStep {...p} />;
            case 'book':
              return <BookStep {...p} slot={step.slot} />;
            case 'confirm':
              return <ConfirmStep {...p} body={step.body} />;
          }
        }}
      </StepStackView>
    </>
  );
}
