/** The App's key router and the version the hint line and help re-render on (see router.tsx). */
import { useMemo, useRef, useState } from 'react';
import { type KeyRouter, createKeyRouter } from './router.js';

export function useKeyRouterState(onCtrlC: () => void): { router: KeyRouter; version: number } {
  const [version, setVersion] = useState(0);
  const onCtrlCRef = useRef(onCtrlC);
  onCtrlCRef.current = onCtrlC;
  // Made once: it reads the latest Ctrl-C handler through the ref.
  const router = useMemo(
    () =>
      createKeyRouter({
        onCtrlC: () => onCtrlCRef.current(),
        // Deferred: registrations happen inside other components' effects.
        onChange: () => queueMicrotask(() => setVersion((v) => v + 1)),
      }),
    [],
  );
  return { router, version };
}
