/**
 * Steps of a screen as a stack, as k9s keeps its pages: opening something pushes a step, Esc pops it, and the
 * screen's root step (its list) stays at the bottom. A step is plain data naming what it shows
 * (`{kind: 'book', slot}`); the screen's hook owns the stack and its transitions, the screen draws the top.
 *
 *   const steps = useStepStack<Step>({ kind: 'list' });
 *   steps.push({ kind: 'detail', id });   steps.pop();   steps.replace(…);   steps.popTo((s) => s.kind === 'list');
 *
 * The methods are stable and read the latest stack at once (keys may arrive faster than renders). Steps below
 * the top stay mounted but hidden (StepStackView), so a list keeps its filter and selection while a form or a
 * confirmation is on top of it. Esc: `useStepBack(steps)` pops at the screen layer; a form or a confirmation
 * on top handles its own Esc (cancel, no) and pops through its callback; at the root Esc passes on (back to
 * the previous screen).
 */
import { Box } from 'ink';
import type React from 'react';
import { useMemo } from 'react';
import { useKeys } from './keys/useKeys.js';
import { useRefState } from './keys/useRefState.js';

export interface StepStack<S> {
  /** The steps, root first (as of the last render). */
  readonly steps: readonly S[];
  /** The top step (as of the last render). */
  readonly top: S;
  /** The top step now (in key handlers: it may have changed since the render). */
  current(): S;
  push(step: S): void;
  /** Pop the top step; false (nothing changes) at the root. */
  pop(): boolean;
  /** Replace the top step (the root too). */
  replace(step: S): void;
  /** Pop until `match` is the top; false (nothing changes) when no step matches. */
  popTo(match: (step: S) => boolean): boolean;
  /** Whether some step of the stack matches. */
  has(match: (step: S) => boolean): boolean;
  /** Back to the root step alone, or to `root` when given. */
  reset(root?: S): void;
}

/** Pure transitions of a stack (the hook applies them to the latest stack). */
export const stackOps = {
  push: <S,>(steps: readonly S[], step: S): S[] => [...steps, step],
  pop: <S,>(steps: readonly S[]): S[] => (steps.length > 1 ? steps.slice(0, -1) : [...steps]),
  replace: <S,>(steps: readonly S[], step: S): S[] => [...steps.slice(0, -1), step],
  popTo: <S,>(steps: readonly S[], match: (s: S) => boolean): S[] | undefined => {
    for (let i = steps.length - 1; i >= 0; i--) if (match(steps[i]!)) return steps.slice(0, i + 1);
    return undefined;
  },
};

export function useStepStack<S>(root: S): StepStack<S> {
  const [steps, set, ref] = useRefState<readonly S[]>(() => [root]);
  // `set` and `ref` never change: the methods are made once and always act on the latest stack.
  const ops = useMemo(
    () => ({
      current: () => ref.current[ref.current.length - 1]!,
      push: (step: S) => set(stackOps.push(ref.current, step)),
      pop: () => {
        if (ref.current.length <= 1) return false;
        set(stackOps.pop(ref.current));
        return true;
      },
      replace: (step: S) => set(stackOps.replace(ref.current, step)),
      popTo: (match: (s: S) => boolean) => {
        const next = stackOps.popTo(ref.current, match);
        if (!next) return false;
        if (next.length !== ref.current.length) set(next);
        return true;
      },
      has: (match: (s: S) => boolean) => ref.current.some(match),
      reset: (r?: S) => set([r ?? ref.current[0]!]),
    }),
    [set, ref],
  );
  return { ...ops, steps, top: steps[steps.length - 1]! };
}

/**
 * Esc pops a step (screen layer: a form, a confirmation or a list filter on top handles Esc first). At the
 * root the key passes on, and the App goes back to the previous screen.
 */
export function useStepBack<S>(stack: StepStack<S>, o: { active?: boolean } = {}): void {
  useKeys([{ keys: ['esc'], label: stack.steps.length > 1 ? 'back' : undefined, help: 'one step back', run: () => stack.pop() }], o);
}

/**
 * A write's confirmation step (`kind`) on the stack above its form (screens/types.ts): `back()` on n pops to the
 * form and puts the cursor on the field to fix; `take()` on y does the same and hands over the confirmation to
 * send (undefined when it is not on top), so the form is back, as typed, while the request runs.
 */
export function confirmation<S extends { kind: string }, K extends S['kind']>(
  stack: StepStack<S>,
  kind: K,
  form: { refocus(): void },
): { back(): void; take(): Extract<S, { kind: K }> | undefined } {
  const back = () => {
    stack.pop();
    form.refocus();
  };
  return {
    back,
    take: () => {
      const top = stack.current();
      if (top.kind !== kind) return undefined;
      back();
      return top as Extract<S, { kind: K }>;
    },
  };
}

/** What every step component of a screen gets besides its screen's hook (screens/<name>/steps.tsx). */
export interface StepViewProps {
  width: number;
  height: number;
  /** True for the top step only: only it takes keys. */
  active: boolean;
}

export interface StepStackViewProps<S> {
  stack: StepStack<S>;
  height: number;
  /**
   * Steps drawn by the step below them rather than on their own (a compose form under the thread it answers,
   * the notification form above its sent list): that step stays shown, and sees the inline step as `top`.
   */
  inline?: (step: S) => boolean;
  /** Draw one step; `active` is true for the top step only (only it takes keys). */
  children: (step: S, o: { active: boolean; top: S; index: number }) => React.ReactNode;
}

/** Every step of the stack mounted, the top one (or the one an inline top belongs to) shown. */
export function StepStackView<S>(p: StepStackViewProps<S>) {
  const { steps, top } = p.stack;
  let shown = steps.length - 1;
  while (shown > 0 && p.inline?.(steps[shown]!)) shown--;
  return (
    <>
      {steps.slice(0, shown + 1).map((s, i) => (
        // Keyed by position and kind: a replaced step is a new view, a step pushed again starts afresh.
        <Box key={`${i}:${kindOf(s)}`} display={i === shown ? 'flex' : 'none'} flexDirection="column" height={p.height} overflowY="hidden">
          {p.children(s, { active: i === steps.length - 1, top, index: i })}
        </Box>
      ))}
    </>
  );
}

const kindOf = (s: unknown) => (s && typeof s === 'object' && 'kind' in s ? String((s as { kind: unknown }).kind) : String(s));
