/**
 * The Chat screen's list of threads, from the desk store (src/core/store: the config folder's files, or the team
 * store on PostgreSQL), kept current without a key press: the store's change events (LISTEN/NOTIFY, or the file
 * store's watch) name the threads that changed, and only those are read again (`changedSince` the oldest change told;
 * a thread gone is asked for alone). A `resync` (a connection back, a missed event found by the store's poll) reads
 * the list again. The team store polls once a minute for what no event told; the file store's watch is polled as
 * often. Nothing polls faster.
 *
 * With 10,000 threads the first frame does not wait for all of them: the newest FIRST_PAGE are read and shown, then
 * the rest. The list is kept sorted as the store sorts it (newest first, then by thread id).
 *
 * The open thread's hook (screens/chat/useOpenThread.ts) hears the same events through `onEvent`: one subscription per
 * screen.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { randomUUID } from 'node:crypto';
import type { DeskEvent, DeskStore, DeskThread, PresenceSession, Subscription } from '../../core/store/types.js';
import { useDesk } from '../desk.js';

/** Threads read before the first frame of the list; the rest follow. */
export const FIRST_PAGE = 200;
/** The fall-back poll of a file store's watch, and the wait before a store that failed is tried again. */
export const POLL_MS = 60_000;

export interface ThreadsHandle {
  store?: DeskStore;
  /** Every thread, newest first. */
  threads: readonly DeskThread[];
  /** Grows at every change of `threads`. */
  version: number;
  /** When the list was last read. */
  at?: Date;
  /** Set once the first page was read. */
  loaded: boolean;
  /** Set once every thread was read. */
  complete: boolean;
  /** Why the list cannot be read (no config folder, the team store cannot be reached). */
  problem?: string;
  /** The last change an event told, and when. */
  last?: { at: Date; event: Exclude<DeskEvent, { kind: 'resync' | 'presence' | 'notification' }> };
  /** This desk's session (presence: one per open Chat screen). */
  session: PresenceSession;
  /** Hear the store's events too (the open thread). Returns an unsubscribe. */
  onEvent(fn: (e: DeskEvent) => void): () => void;
  /** Read these threads again now (after this desk's own change, which its event also tells). */
  reload(threads: readonly string[]): void;
}

/** Newest first (the last message's time, else the close's), then by thread id: the order both engines list in. */
const sortKey = (t: DeskThread) => t.lastAt ?? t.closedAt ?? '';
export function compareThreads(a: DeskThread, b: DeskThread): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  if (ka !== kb) return ka < kb ? 1 : -1;
  return a.thread < b.thread ? -1 : a.thread > b.thread ? 1 : 0;
}

const why = (e: unknown) => (e as Error)?.message ?? String(e);

export function useDeskThreads(): ThreadsHandle {
  const desk = useDesk();
  const store = desk.store;
  const profile = desk.profile.name;
  const session = useMemo<PresenceSession>(() => ({ operator: desk.operator, session: randomUUID() }), [desk.operator]);
  const [state, setState] = useState<Omit<ThreadsHandle, 'store' | 'session' | 'onEvent' | 'reload'>>({
    threads: [],
    version: 0,
    loaded: false,
    complete: false,
  });
  const listeners = useRef(new Set<(e: DeskEvent) => void>());
  /** Threads to read again, each with the oldest rev told (its change is newer than rev - 1). */
  const wanted = useRef<{ revs: Map<string, number>; all: boolean; kick?: () => void }>({ revs: new Map(), all: false });

  useEffect(() => {
    if (!store) {
      setState((s) => ({ ...s, problem: 'No config folder is known to this TUI, so there is no thread store to show.' }));
      return;
    }
    let alive = true;
    let sub: Subscription | undefined;
    let poll: NodeJS.Timeout | undefined;
    let retry: NodeJS.Timeout | undefined;
    const byId = new Map<string, DeskThread>();
    const publish = (o: { complete?: boolean; loaded?: boolean } = {}) => {
      if (!alive) return;
      const threads = [...byId.values()].sort(compareThreads);
      setState((s) => ({
        ...s,
        threads,
        version: s.version + 1,
        at: new Date(),
        loaded: s.loaded || !!o.loaded,
        complete: o.complete ?? s.complete,
        problem: undefined,
      }));
    };
    const fail = (e: unknown) => {
      if (alive) setState((s) => ({ ...s, problem: `The threads cannot be read from ${store.where(profile)}: ${why(e)}` }));
    };

    const loadAll = async () => {
      const first = await store.listThreads(profile, { limit: FIRST_PAGE });
      if (!alive) return;
      byId.clear();
      for (const t of first) byId.set(t.thread, t);
      publish({ loaded: true, complete: first.length < FIRST_PAGE });
      if (first.length < FIRST_PAGE) return;
      const all = await store.listThreads(profile);
      if (!alive) return;
      byId.clear();
      for (const t of all) byId.set(t.thread, t);
      publish({ complete: true });
    };

    /** Read what the events asked for, one batch at a time (events that come meanwhile make the next batch). */
    let running = false;
    const drain = async () => {
      if (running) return;
      running = true;
      const w = wanted.current;
      try {
        while (alive && (w.all || w.revs.size)) {
          if (w.all) {
            w.all = false;
            w.revs.clear();
            await loadAll();
            continue;
          }
          const batch = new Map(w.revs);
          w.revs.clear();
          const since = Math.min(...batch.values()) - 1;
          const changed = await store.listThreads(profile, { changedSince: Math.max(0, since) });
          for (const t of changed) {
            byId.set(t.thread, t);
            batch.delete(t.thread);
          }
          // Told of but not changed since: gone (a refused message took the thread it alone opened), or asked for
          // with no rev (this desk's own change).
          for (const thread of batch.keys()) {
            const t = await store.thread(profile, thread);
            if (t) byId.set(thread, t);
            else byId.delete(thread);
          }
          publish();
        }
      } catch (e) {
        fail(e);
      } finally {
        running = false;
      }
    };
    wanted.current.kick = () => void drain();

    const onEvent = (e: DeskEvent) => {
      if (!alive) return;
      if (e.kind === 'resync') wanted.current.all = true;
      else if ('rev' in e) {
        const prior = wanted.current.revs.get(e.thread);
        wanted.current.revs.set(e.thread, prior === undefined ? e.rev : Math.min(prior, e.rev));
        setState((s) => ({ ...s, last: { at: new Date(), event: e } }));
      }
      for (const l of listeners.current) l(e);
      void drain();
    };

    const start = async () => {
      try {
        // Listening before the first read: a change made while the list is read is told, and read again after.
        sub = await store.subscribe(profile, onEvent, { pollMs: POLL_MS, onError: () => undefined });
        if (!alive) return void sub.close();
        if (store.engine === 'file') {
          poll = setInterval(() => void sub?.poll().catch(() => undefined), POLL_MS);
          poll.unref?.();
        }
        wanted.current.all = true;
        await drain();
      } catch (e) {
        fail(e);
        if (!alive) return;
        await sub?.close().catch(() => undefined);
        sub = undefined;
        retry = setTimeout(() => void start(), POLL_MS);
        retry.unref?.();
      }
    };
    void start();
    return () => {
      alive = false;
      wanted.current.kick = undefined;
      if (poll) clearInterval(poll);
      if (retry) clearTimeout(retry);
      void sub?.close().catch(() => undefined);
      void store.leave(profile, session).catch(() => undefined);
    };
  }, [store, profile, session]);

  const onEvent = useCallback((fn: (e: DeskEvent) => void) => {
    listeners.current.add(fn);
    return () => void listeners.current.delete(fn);
  }, []);
  const reload = useCallback((threads: readonly string[]) => {
    // No rev to read from: each is read alone (a changedSince that reads nothing).
    for (const t of threads) if (!wanted.current.revs.has(t)) wanted.current.revs.set(t, Number.MAX_SAFE_INTEGER);
    wanted.current.kick?.();
  }, []);

  return { ...state, store, session, onEvent, reload };
}
