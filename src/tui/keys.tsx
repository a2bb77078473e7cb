/**
 * One key router for the whole TUI. Ink calls every active `useInput` handler for every key, which makes
 * "a text field swallows `q`" hard; so the App owns the only `useInput` and dispatches each key to the
 * registered bindings, highest layer first (modal > busy > input > screen > global), newest first within a
 * layer. A registration with `capture` swallows every key it does not bind (text fields, modals), so typing
 * `q` or `j` in a form never quits or moves. Ctrl-C always quits, whatever is focused.
 *
 * Bindings also feed the hint line (bindings with a `label`) and the `?` help overlay (every binding of the
 * current screen, with `help` text). See screens/types.ts for how a screen uses this.
 */
import type { Key } from 'ink';
import type React from 'react';
import { createContext, useCallback, useContext, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';

/** Key names a binding may use; anything else is a literal character (`c`, `/`, `?`, `G`). */
export type KeyName =
  | 'enter'
  | 'esc'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'pgup'
  | 'pgdn'
  | 'home'
  | 'end'
  | 'tab'
  | 'shift-tab'
  | 'backspace'
  | 'space'
  | `ctrl-${string}`
  /** Any printable text (typing, paste). The handler gets the text as `input`. */
  | 'text';

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

interface Registration {
  id: string;
  order: number;
  layer: Layer;
  capture: boolean;
  scope: string;
  bindings: readonly Binding[];
  /** The keys and texts of the bindings: the hint line and help change when it does. */
  descriptor: string;
}

/** Name of a key event as used in bindings: 'enter', 'esc', 'pgdn', 'ctrl-s', 'a', 'G', … */
export function keyNames(input: string, key: Key): string[] {
  const names: string[] = [];
  if (key.return) names.push('enter');
  if (key.escape) names.push('esc');
  if (key.upArrow) names.push('up');
  if (key.downArrow) names.push('down');
  if (key.leftArrow) names.push('left');
  if (key.rightArrow) names.push('right');
  if (key.pageUp) names.push('pgup');
  if (key.pageDown) names.push('pgdn');
  if (key.home) names.push('home');
  if (key.end) names.push('end');
  if (key.tab) names.push(key.shift ? 'shift-tab' : 'tab');
  // Most terminals send \x7f for Backspace, which Ink reports as `delete` (DEVELOPERS.md, "Stack notes").
  if (key.backspace || key.delete) names.push('backspace');
  if (key.ctrl && input) names.push(`ctrl-${input.toLowerCase()}`);
  if (!key.ctrl && !key.meta && input === ' ') names.push('space');
  if (!key.ctrl && !key.meta && input.length === 1 && input !== ' ') names.push(input);
  return names;
}

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/**
 * Ink splits a chunk of input at escape sequences but hands a run of plain characters over whole, control
 * characters included: `pat-1\r`, `\r\r\r` (keys typed faster than they were read, tmux send-keys, a paste
 * ending in Enter) arrive as one event that no binding matches, and the keys are lost. Split such a run into
 * the keys Ink would have reported one by one; anything else is returned as the one event it is.
 */
export function splitKeys(input: string, key: Key): Array<[string, Key]> {
  const flagged = Object.entries(key).some(([k, v]) => v === true && k !== 'shift');
  if (flagged || input.length <= 1 || !/[\u0000-\u001f\u007f]/.test(input)) return [[input, key]];
  const out: Array<[string, Key]> = [];
  for (const t of input.match(/[\u0000-\u001f\u007f]|[^\u0000-\u001f\u007f]+/g) ?? []) {
    const c = t.charCodeAt(0);
    if (t === '\r' || t === '\n') out.push(['', { ...NO_KEY, return: true }]);
    else if (t === '\t') out.push(['', { ...NO_KEY, tab: true }]);
    else if (t === '\u007f' || t === '\b') out.push(['', { ...NO_KEY, delete: true }]);
    else if (t === '\u001b') out.push(['', { ...NO_KEY, escape: true, meta: true }]);
    else if (c >= 1 && c <= 26) out.push([String.fromCharCode(c + 96), { ...NO_KEY, ctrl: true }]);
    else if (c >= 32) out.push([t, { ...NO_KEY, shift: t.length === 1 && /[A-Z]/.test(t) }]);
  }
  return out;
}

/** The characters of a run of text as the single keys Ink would have reported one by one. */
function charKeys(input: string): Array<[string, Key]> {
  return [...input].map((ch) => [ch, { ...NO_KEY, shift: /^[A-Z]$/.test(ch) }]);
}

/** A run of several printable characters in one event (`jj`, a paste). */
function isRun(input: string, key: Key): boolean {
  return [...input].length > 1 && isText(input, key);
}

/** The input handler of the TUI (see useKeyFeed), and the hand-shake with KeyFeedSync. */
export interface KeyFeed {
  (input: string, key: Key): void;
  /** Set by KeyFeedSync: ask for a commit after everything React has pending. */
  request?: () => void;
  /** Called by KeyFeedSync once that commit is done. */
  settled(): void;
}

/**
 * The input handler of the TUI: every key counts, in order. Control characters are split off (splitKeys); a run
 * of text goes whole to a binding that takes text (a form field, the filter: a paste stays one edit), and
 * otherwise key by key, so `jj` moves two rows and `qq` quits. A key that did something may change what the
 * next one reaches (`:` opens the palette the next key types into), and React renders that change in a later
 * task (React 19 schedules it; under load, after other work): the keys after it, in the same chunk or read
 * meanwhile, wait until it is committed (KeyFeedSync, rendered beside the tree, tells when).
 */
export function useKeyFeed(router: KeyRouter): KeyFeed {
  return useMemo(() => {
    const queue: Array<[string, Key]> = [];
    let settling = false;
    /** One key; true when a binding took it. A run of text no binding took goes back as its keys. */
    const one = (input: string, key: Key) => {
      if (router.dispatch(input, key)) return true;
      if (isRun(input, key)) queue.unshift(...charKeys(input));
      return false;
    };
    const drain = () => {
      while (!settling && queue.length) {
        const [input, key] = queue.shift()!;
        if (one(input, key)) {
          settling = true;
          if (feed.request) feed.request();
          else setImmediate(feed.settled); // no KeyFeedSync (a bare test host): the next task
        }
      }
    };
    const feed: KeyFeed = Object.assign(
      (input: string, key: Key) => {
        queue.push(...splitKeys(input, key));
        drain();
      },
      {
        settled: () => {
          if (!settling) return;
          settling = false;
          drain();
        },
      },
    );
    return feed;
  }, [router]);
}

/**
 * Tells the key feed when React has committed what the last key changed: on request, right after the key, it
 * makes an update of its own at the same priority, which React batches with the key's updates into one
 * commit; once that commit is done — every layout effect run, so the key bindings of what opened are
 * registered — the next keys go.
 */
export function KeyFeedSync({ feed }: { feed: KeyFeed }) {
  const [seq, setSeq] = useState(0);
  useLayoutEffect(() => {
    feed.request = () => setSeq((n) => n + 1);
    return () => {
      feed.request = undefined;
    };
  }, [feed]);
  useLayoutEffect(() => {
    // After the whole commit (other components' layout effects of it included).
    if (seq) queueMicrotask(feed.settled);
  }, [seq, feed]);
  return null;
}

/** True when the event is printable text a text field should insert. */
export function isText(input: string, key: Key): boolean {
  if (!input || key.ctrl || key.meta || key.return || key.escape || key.tab) return false;
  return !/[\u0000-\u001f\u007f-\u009f]/.test(input);
}

export interface KeyRouter {
  register(r: Registration): void;
  unregister(id: string): void;
  /** Registrations in dispatch order (for the hint line and help). */
  active(): Registration[];
  /** Route one key event; true when a binding took it (false: no binding, or swallowed by a capturing layer). */
  dispatch(input: string, key: Key): boolean;
}

const RouterContext = createContext<KeyRouter | null>(null);
/** Bumps when registrations or their labels change, so the hint line and help re-render. */
const VersionContext = createContext(0);
/** The scope of the enclosing screen ('' outside screens) and whether that screen is the one shown. */
export const ScopeContext = createContext<{ scope: string; shown: boolean }>({ scope: '', shown: true });

let orderCounter = 0;

export function useKeyRouterState(onCtrlC: () => void): { router: KeyRouter; version: number } {
  const regs = useRef(new Map<string, Registration>());
  const [version, setVersion] = useState(0);
  const signature = useRef('');
  const onCtrlCRef = useRef(onCtrlC);
  onCtrlCRef.current = onCtrlC;
  // Reads only refs and the state setter: made once, like the router below.
  const bump = useCallback(() => {
    const sig = [...regs.current.values()]
      .map((r) => `${r.id}:${r.layer}:${r.capture}:${r.descriptor}`)
      .sort()
      .join(';');
    if (sig !== signature.current) {
      signature.current = sig;
      // Defer: registration happens inside effects of other components.
      queueMicrotask(() => setVersion((v) => v + 1));
    }
  }, []);
  const router = useMemo<KeyRouter>(
    () => ({
      register(r) {
        regs.current.set(r.id, r);
        bump();
      },
      unregister(id) {
        if (regs.current.delete(id)) bump();
      },
      active() {
        return [...regs.current.values()].sort((a, b) => LAYER[b.layer] - LAYER[a.layer] || b.order - a.order);
      },
      dispatch(input, key) {
        const names = keyNames(input, key);
        if (names.includes('ctrl-c')) {
          onCtrlCRef.current();
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
    }),
    [bump],
  );
  return { router, version };
}

export function KeyRouterProvider({ router, version, children }: { router: KeyRouter; version: number; children: React.ReactNode }) {
  return (
    <RouterContext.Provider value={router}>
      <VersionContext.Provider value={version}>{children}</VersionContext.Provider>
    </RouterContext.Provider>
  );
}

/** Re-render when bindings change (hint line, help overlay). */
export function useKeysVersion(): number {
  return useContext(VersionContext);
}

export function useKeyRouter(): KeyRouter {
  const r = useContext(RouterContext);
  if (!r) throw new Error('useKeys outside the TUI key router');
  return r;
}

export interface UseKeysOptions {
  /** Default 'screen'. */
  layer?: Layer;
  /** Swallow every key not bound here (text fields, modals). */
  capture?: boolean;
  /** Default true. Inactive registrations neither receive keys nor show in hints. The enclosing screen's visibility is applied too. */
  active?: boolean;
}

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

/** Display form of a key for hints: `enter` → `Enter`, `pgdn` → `PgDn`. */
export function keyLabel(k: string): string {
  const map: Record<string, string> = {
    enter: 'Enter',
    esc: 'Esc',
    up: '↑',
    down: '↓',
    left: '←',
    right: '→',
    pgup: 'PgUp',
    pgdn: 'PgDn',
    home: 'Home',
    end: 'End',
    tab: 'Tab',
    'shift-tab': 'S-Tab',
    backspace: 'Bksp',
    space: 'Space',
    text: 'type',
  };
  if (map[k]) return map[k]!;
  if (k.startsWith('ctrl-')) return `^${k.slice(5).toUpperCase()}`;
  return k;
}

/**
 * State whose latest value key handlers can read at once. Ink renders a key's state change in a later tick,
 * so a second key arriving before that render (fast typing, a paste, a held PageDown) would see the old
 * value in a render closure; read `ref.current` in handlers and update through `set` (value or updater).
 */
export function useRefState<T>(initial: T | (() => T)): [T, (next: T | ((prev: T) => T)) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const ref = useRef(value);
  const set = useRef((next: T | ((prev: T) => T)) => {
    ref.current = typeof next === 'function' ? (next as (prev: T) => T)(ref.current) : next;
    setValue(ref.current);
  }).current;
  return [value, set, ref];
}
