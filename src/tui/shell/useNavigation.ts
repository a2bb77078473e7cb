/**
 * Which screen is shown, which have been shown (they stay mounted, hidden), and the way back: showing a screen
 * closes the inspector over it and remembers the one left; Esc at a screen's root goes back through them.
 */
import { useRef, useState } from 'react';
import { useDesk } from '../desk.js';
import { useInspect } from '../inspect/context.js';
import { useRefState } from '../keys/useRefState.js';
import type { ScreenId } from '../screens/types.js';

export interface Navigation {
  /** The screen shown (as of the last render). */
  current: ScreenId;
  /** The screen shown now (in key handlers: it may have changed since the render). */
  currentNow(): ScreenId;
  /** Every screen shown so far, in the order first shown. */
  visited: readonly ScreenId[];
  show(id: ScreenId): void;
  /** Back to the screen shown before, if any. */
  back(): void;
}

export function useNavigation(initial: ScreenId = 'slots'): Navigation {
  const desk = useDesk();
  const inspect = useInspect()!;
  const [current, setCurrent, currentRef] = useRefState<ScreenId>(initial);
  const [visited, setVisited] = useState<ScreenId[]>([initial]);
  const history = useRef<ScreenId[]>([]);

  const show = (id: ScreenId, o: { back?: boolean } = {}) => {
    const cur = currentRef.current;
    // A screen key while inspecting closes the inspector (the screen beneath is as it was).
    if (inspect.steps.length) inspect.close();
    if (cur === id) return;
    if (!o.back) history.current.push(cur);
    // What the screen left and the desk said was read there; a message another screen set meanwhile waits for it.
    desk.leaveScreen(cur);
    setCurrent(id);
    setVisited((v) => (v.includes(id) ? v : [...v, id]));
  };

  return {
    current,
    currentNow: () => currentRef.current,
    visited,
    show: (id) => show(id),
    back: () => {
      const prev = history.current.pop();
      if (prev) show(prev, { back: true });
    },
  };
}
