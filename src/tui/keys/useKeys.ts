/** A component's key bindings, registered with the TUI's key router while it is mounted (see router.tsx). */
import { useContext, useId, useLayoutEffect, useRef } from 'react';
import { type Binding, type Layer, ScopeContext } from './router.js';
import { useKeyRouter } from './useKeyRouter.js';

export interface UseKeysOptions {
  /** Default 'screen'. */
  layer?: Layer;
  /** Swallow every key not bound here (text fields, modals). */
  capture?: boolean;
  /** Default true. Inactive registrations neither receive keys nor show in hints. The enclosing screen's visibility is applied too. */
  active?: boolean;
}

let orderCounter = 0;

/**
 * Register key bindings while the component is mounted and `active`. The bindings may be a fresh array on
 * every render: the latest closures are always called.
 */
export function useKeys(bindings: readonly Binding[], o: UseKeysOptions = {}): void {
  const router = useKeyRouter();
  const { scope, shown } = useContext(ScopeContext);
  const id = useId();
  const latest = useRef(bindings);
  latest.current = bindings;
  const active = (o.active ?? true) && shown;
  const layer = o.layer ?? 'screen';
  const capture = !!o.capture;
  // Stable wrappers so the registration need not change when closures do; the descriptor (keys, labels)
  // is part of the registration so hint and help stay current.
  const descriptor = bindings.map((b) => `${b.keys.join('/')}=${b.label ?? ''}|${b.help ?? ''}`).join(',');
  const order = useRef(0);
  // A layout effect: the registration is in place as soon as the component is on screen, so a key typed
  // right after (a paste, a fast operator, a test) reaches it.
  useLayoutEffect(() => {
    if (!active) return;
    if (!order.current) order.current = ++orderCounter;
    const wrapped: Binding[] = latest.current.map((b, i) => ({
      keys: b.keys,
      label: b.label,
      help: b.help,
      helpKeys: b.helpKeys,
      run: (input, key) => (latest.current[i] ?? b).run(input, key),
    }));
    router.register({ id, order: order.current, layer, capture, scope, bindings: wrapped, descriptor });
    return () => router.unregister(id);
  }, [router, active, layer, capture, scope, descriptor, id]);
}
