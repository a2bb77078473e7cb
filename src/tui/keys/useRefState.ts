/**
 * State whose latest value key handlers can read at once. Ink renders a key's state change in a later tick,
 * so a second key arriving before that render (fast typing, a paste, a held PageDown) would see the old
 * value in a render closure; read `ref.current` in handlers and update through `set` (value or updater).
 */
import { useRef, useState } from 'react';

export function useRefState<T>(initial: T | (() => T)): [T, (next: T | ((prev: T) => T)) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const ref = useRef(value);
  const set = useRef((next: T | ((prev: T) => T)) => {
    ref.current = typeof next === 'function' ? (next as (prev: T) => T)(ref.current) : next;
    setValue(ref.current);
  }).current;
  return [value, set, ref];
}
