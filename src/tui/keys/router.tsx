/**
 * One key router for the whole TUI. Ink calls every active `useInput` handler for every key, which makes
 * "a text field swallows `q`" hard; so the App owns the only `useInput` and dispatches each key to the
 * registered bindings, highest layer first (modal > busy > input > screen > global), newest first within a
 * layer. A registration with `capture` swallows every key it does not bind (text fields, modals), so typing
 * `q` or `j` in a form never quits or moves. Ctrl-C always quits, whatever is focused.
 *
 * Bindings also feed the hint line (bindings with a `label`) and the `?` help overlay (every binding of the
 * current screen, with `help` text). See screens/types.ts for how a screen uses this.
 *
 * The hooks around it, one a file: useKeyRouterState (the App's router), useKeys (a component's bindings),
 * useKeyRouter and useActiveKeys (reading it), useKeyFeed with KeyFeedSync (Ink's input to the router),
 * useRefState (state key handlers read at once).
 */
import type { Key } from 'ink';
import type React from 'react';
import { createContext } from 'react';
import { isText, keyNames } from './names.js';

export interface Binding {
  /** The keys that trigger it: names from KeyName or single characters. */
  keys: readonly string[];
  /** Short text for the hint line (e.g. "cancel"); omit to keep it out of the hint line. */
  label?: string;
  /** Text for the `?` help overlay; defaults to `label`. Bindings without label and help are not listed. */
  help?: string;
  /** How the keys are shown in the help (default: every key), e.g. '↑↓ j k' for a pair listed once. */
  helpKeys?: string;
  /** Return `false` to let the key fall through to the next binding/layer; any other result (none) consumes it. */
  run: (input: string, key: Key) => unknown;
}

export const LAYER = { global: 0, screen: 10, input: 50, busy: 60, modal: 100 } as const;
export type Layer = keyof typeof LAYER;

export interface Registration {
  id: string;
  order: number;
  layer: Layer;
  capture: boolean;
  scope: string;
  bindings: readonly Binding[];
  /** The keys and texts of the bindings: the hint line and help change when it does. */
  descriptor: string;
}

export interface KeyRouter {
  register(r: Registration): void;
  unregister(id: string): void;
  /** Registrations in dispatch order (for the hint line and help). */
  active(): Registration[];
  /** Route one key event; true when a binding took it (false: no binding, or swallowed by a capturing layer). */
  dispatch(input: string, key: Key): boolean;
}

/**
 * A router over its own registrations. `onChange` is called when what the hint line and help show changes
 * (a registration, its layer or its texts), not when only the closures behind the keys do.
 */
export function createKeyRouter(o: { onCtrlC: () => void; onChange: () => void }): KeyRouter {
  const regs = new Map<string, Registration>();
  let signature = '';
  const changed = () => {
    const sig = [...regs.values()]
      .map((r) => `${r.id}:${r.layer}:${r.capture}:${r.descriptor}`)
      .sort()
      .join(';');
    if (sig !== signature) {
      signature = sig;
      o.onChange();
    }
  };
  return {
    register(r) {
      regs.set(r.id, r);
      changed();
    },
    unregister(id) {
      if (regs.delete(id)) changed();
    },
    active() {
      return [...regs.values()].sort((a, b) => LAYER[b.layer] - LAYER[a.layer] || b.order - a.order);
    },
    dispatch(input, key) {
      const names = keyNames(input, key);
      if (names.includes('ctrl-c')) {
        o.onCtrlC();
        return true;
      }
      const text = isText(input, key);
      for (const r of this.active()) {
        for (const b of r.bindings) {
          const hit = b.keys.some((k) => names.includes(k) || (k === 'text' && text));
          if (hit && b.run(input, key) !== false) return true;
        }
        if (r.capture) return false;
      }
      return false;
    },
  };
}

export const RouterContext = createContext<KeyRouter | null>(null);
/** Bumps when registrations or their labels change, so the hint line and help re-render. */
export const VersionContext = createContext(0);
/** The scope of the enclosing screen ('' outside screens) and whether that screen is the one shown. */
export const ScopeContext = createContext<{ scope: string; shown: boolean }>({ scope: '', shown: true });

export function KeyRouterProvider({ router, version, children }: { router: KeyRouter; version: number; children: React.ReactNode }) {
  return (
    <RouterContext.Provider value={router}>
      <VersionContext.Provider value={version}>{children}</VersionContext.Provider>
    </RouterContext.Provider>
  );
}
