/** The key router of the TUI (the App provides it). */
import { useContext } from 'react';
import { type KeyRouter, RouterContext } from './router.js';

export function useKeyRouter(): KeyRouter {
  const r = useContext(RouterContext);
  if (!r) throw new Error('useKeys outside the TUI key router');
  return r;
}
