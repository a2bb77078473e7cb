/**
 * State of the Systems screen: every profile (the profile store's, and the desk's own when it is not saved,
 * as under --sandbox) with each party's reachability and its local counts, from the core's SystemsMonitor
 * (src/core/systems). A refresh runs on open, every 30 s and on `r`, in the background: probes never hold a
 * key, nothing waits for them, and they are abandoned when the screen goes. Enter switches the desk.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SystemEntry, SystemStatus, SystemsMonitor } from '../../../core/systems/monitor.js';
import { useDesk } from '../../desk.js';
import { clean } from '../../format.js';
import { storedProfiles, useTuiSettings } from '../../settings.js';
import { type StepStack, useStepStack } from '../../steps.js';

export const REFRESH_S = 30;

/** Systems has one step, its list. */
export type SystemsStep = { kind: 'list' };

export interface Systems {
  stack: StepStack<SystemsStep>;
  statuses: SystemStatus[];
  /** The profile list was read (even if empty). */
  loaded: boolean;
  /** Why the profile list could not be read. */
  problem?: string;
  /** When the last refresh was asked for. */
  refreshedAt?: Date;
  /** Is a round of probes running for some profile. */
  probing: boolean;
  refresh: () => void;
  /** Enter: switch the desk to this profile. */
  open: (s: SystemStatus) => void;
  selected?: SystemStatus;
  select: (s: SystemStatus | undefined) => void;
}

export function useSystems(): Systems {
  const desk = useDesk();
  const settings = useTuiSettings();
  const stack = useStepStack<SystemsStep>({ kind: 'list' });
  const [statuses, setStatuses] = useState<SystemStatus[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [refreshedAt, setRefreshedAt] = useState<Date | undefined>();
  const [selected, setSelected] = useState<SystemStatus | undefined>();
  const monitor = useRef<SystemsMonitor | undefined>(undefined);
  /** The desk's profile, listed even when it is not saved (read by the list loader, which runs later). */
  const current = useRef(desk.profile);
  current.current = desk.profile;
  const list = settings.listProfiles;
  const dir = desk.configDir;
  const team = desk.store?.engine === 'postgres' ? desk.store : undefined;

  /** Read the profile list again and start a round of probes for every profile not already probing. */
  const refresh = useCallback(() => {
    const m = monitor.current;
    if (!m) return;
    void (async () => {
      let entries: SystemEntry[];
      try {
        entries = await (list ?? storedProfiles)();
        setProblem(undefined);
      } catch (e) {
        setProblem(clean(`The saved profiles cannot be read: ${(e as Error).message}`));
        entries = [];
      }
      const own = current.current;
      if (!entries.some((e) => e.name === own.name)) entries = [{ name: own.name, profile: own, unsaved: true }, ...entries];
      if (monitor.current !== m) return;
      m.setEntries(entries);
      setLoaded(true);
      setRefreshedAt(new Date());
      await m.refresh();
    })();
  }, [list]);

  useEffect(() => {
    let alive = true;
    let timer: NodeJS.Timeout | undefined;
    void (async () => {
      // The core module loads lazily: the Systems screen costs nothing until it is shown.
      const { SystemsMonitor } = await import('../../../core/systems/monitor.js');
      if (!alive) return;
      const m = new SystemsMonitor({
        dir,
        // Chat counts from the team store when the desk has one (the journals stay in the config folder).
        ...(team ? { store: team } : {}),
        timeoutMs: settings.probeTimeoutMs,
        onChange: (s) => alive && setStatuses(s),
      });
      monitor.current = m;
      refresh();
      timer = setInterval(refresh, (settings.systemsRefreshS ?? REFRESH_S) * 1000);
      timer.unref?.();
    })();
    return () => {
      alive = false;
      if (timer) clearInterval(timer);
      const m = monitor.current;
      monitor.current = undefined;
      void m?.close();
    };
  }, [dir, team, settings.probeTimeoutMs, settings.systemsRefreshS, refresh]);

  // The desk's own profile probed here: the header's connection light says what the probe found, so it
  // never reads "not checked" beside a row that says ok.
  const seenProbe = useRef<string | undefined>(undefined);
  const own = statuses.find((x) => x.name === desk.profile.name)?.practice;
  useEffect(() => {
    if (!own || own.state === 'config' || seenProbe.current === `${desk.profile.name}@${own.at}`) return;
    seenProbe.current = `${desk.profile.name}@${own.at}`;
    if (own.state === 'unreachable') desk.connectionSeen('offline');
    else desk.connectionSeen('online', own.ms);
  }, [own, desk]);

  const open = (s: SystemStatus) => {
    if (s.invalid) return desk.error(`Profile ${clean(s.name)} cannot be used: ${s.invalid}`);
    if (s.name === desk.profile.name) return desk.info(`Already on profile ${clean(s.name)}.`);
    void desk.switchProfile(s.name, s.unsaved ? s.profile : undefined);
  };

  return {
    stack,
    statuses,
    loaded,
    problem,
    refreshedAt,
    probing: statuses.some((s) => s.probing),
    refresh,
    open,
    selected,
    select: setSelected,
  };
}
