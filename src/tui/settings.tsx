/**
 * Settings of the whole TUI that screens read, given to Root (tests and benches inject them): where the saved
 * profiles come from (the Systems screen), where the raw view writes files, how long a reachability probe may take.
 */
import { createContext, useContext } from 'react';
import type { SystemEntry } from '../core/systems/monitor.js';

export interface TuiSettings {
  /** The saved profiles (default: the profile store, read lazily). */
  listProfiles?: () => Promise<SystemEntry[]>;
  /** Folder the raw view's `w` writes to (default: the current folder). */
  exportDir?: string;
  /** Deadline of one reachability probe (default 5 s). */
  probeTimeoutMs?: number;
  /** Seconds between the Systems screen's refreshes (default 30). */
  systemsRefreshS?: number;
}

export const TuiSettingsContext = createContext<TuiSettings>({});

export function useTuiSettings(): TuiSettings {
  return useContext(TuiSettingsContext);
}

/** The profile store's profiles, each validated (an invalid one is listed with its problem). */
export async function storedProfiles(): Promise<SystemEntry[]> {
  const [{ listProfiles }, { validateProfile }] = await Promise.all([import('../profiles/store.js'), import('../core/profile/schema.js')]);
  return listProfiles().map((s) => {
    try {
      return { name: s.name, isDefault: s.isDefault, profile: validateProfile(s.profile, `profile "${s.name}"`) };
    } catch (e) {
      return { name: s.name, isDefault: s.isDefault, invalid: (e as Error).message };
    }
  });
}
