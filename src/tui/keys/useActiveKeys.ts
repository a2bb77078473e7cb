/**
 * The registrations that take keys now, in dispatch order: what the hint line draws. The component re-renders
 * when they (or their texts) change.
 */
import { useContext } from 'react';
import { type Registration, VersionContext } from './router.js';
import { useKeyRouter } from './useKeyRouter.js';

export function useActiveKeys(): Registration[] {
  useContext(VersionContext);
  return useKeyRouter().active();
}
