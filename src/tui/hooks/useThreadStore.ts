/**
 * The Chat screen's view of the local thread store (src/core/threads): opened for the desk's profile in the
 * desk's config folder, kept current live. The store reports its own appends (the screen's sends, marks and
 * closes) at once, and other writers' appends — the push receiver the TUI runs in-process, a `pdesk listen`
 * in another terminal, `pdesk chat send` — through a watch on the store's folder, with a slow poll as a
 * fallback for platforms where file watching misses events. No file parsing here: only the store's API.
 */
import { useEffect, useMemo, useState } from 'react';
import { type StoreRecord, type ThreadStore, type ThreadView, openThreadStore } from '../../core/threads/index.js';
import { useDesk } from '../desk.js';

/** How often the store is re-read in case a file-watch event was missed. */
export const POLL_MS = 2000;

export interface ThreadsHandle {
  store?: ThreadStore;
  /**
   * The store's view as of its last change: a new object whenever the view changed (the view itself changes
   * in place), so a memo that reads `snapshot.view` depends on the snapshot. Undefined until first read.
   */
  snapshot?: { view: ThreadView; version: number; at: Date };
  /** Set once the store was read the first time. */
  loaded: boolean;
  /** Why there is no store (no config folder, cannot create the folder). */
  problem?: string;
  /** The last record received by push (for the "last push" line). */
  lastPush?: StoreRecord;
  /** Warnings of the store (skipped lines). */
  warnings: number;
}

export function useThreadStore(): ThreadsHandle {
  const desk = useDesk();
  const dir = desk.configDir;
  const profile = desk.profile.name;
  const [h, setH] = useState<Omit<ThreadsHandle, 'store'>>({ loaded: false, warnings: 0 });
  const store = useMemo(() => {
    if (!dir) return undefined;
    try {
      return openThreadStore(dir, profile);
    } catch {
      return undefined;
    }
  }, [dir, profile]);

  useEffect(() => {
    if (!dir) {
      setH((s) => ({ ...s, problem: 'No config folder is known to this TUI, so there is no thread store to show.' }));
      return;
    }
    if (!store) {
      setH((s) => ({ ...s, problem: `The profile name ${JSON.stringify(profile)} cannot name a thread store.` }));
      return;
    }
    let alive = true;
    let unwatch: (() => void) | undefined;
    let poll: NodeJS.Timeout | undefined;
    const bump = (records?: StoreRecord[]) => {
      if (!alive) return;
      const pushed = records?.filter((r) => r.via === 'received');
      setH((s) => ({
        ...s,
        snapshot: { view: store.view, version: (s.snapshot?.version ?? 0) + 1, at: new Date() },
        loaded: true,
        warnings: store.warnings.length,
        ...(pushed?.length ? { lastPush: pushed[pushed.length - 1] } : {}),
      }));
    };
    void (async () => {
      try {
        // Create the folder first: watching a folder that does not exist yet would never report anything.
        await store.prepare();
      } catch (e) {
        if (alive)
          setH((s) => ({
            ...s,
            problem: `The thread store ${store.path} cannot be opened for writing (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
          }));
      }
      try {
        await store.load();
      } catch (e) {
        if (alive) setH((s) => ({ ...s, problem: `The thread store ${store.path} cannot be read (${(e as Error).message}).` }));
        return;
      }
      if (!alive) return;
      unwatch = store.watch((records) => bump(records));
      poll = setInterval(() => void store.refresh().catch(() => undefined), POLL_MS);
      poll.unref?.();
      bump();
    })();
    return () => {
      alive = false;
      unwatch?.();
      if (poll) clearInterval(poll);
      void store.close().catch(() => undefined);
    };
  }, [dir, profile, store]);

  return { ...h, store };
}
