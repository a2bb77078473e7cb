/**
 * The thread open on the Chat screen: its messages and summary from the desk store, read again when an event names
 * it (another operator's reply, a push, a read marker, a close, a change of owner, a reply being sent), and who else
 * has it open: this desk's heartbeat every PRESENCE_HEARTBEAT_MS while it is open, the others' read after each one
 * and whenever one of them opens or leaves it (a few seconds stale at most); leaving it says so at once.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { PRESENCE_HEARTBEAT_MS } from '../../../core/store/timing.js';
import type { DeskMessage, DeskThread, Viewer } from '../../../core/store/types.js';
import { useDesk } from '../../desk.js';
import type { ThreadsHandle } from '../../hooks/useDeskThreads.js';

export interface OpenThread {
  thread?: string;
  messages: readonly DeskMessage[];
  summary?: DeskThread;
  /** Other operators with the thread open now. */
  viewers: readonly Viewer[];
  /** Set once the thread was read. */
  loaded: boolean;
  at?: Date;
  /** Read it again now (after this desk's own write). */
  reload(): void;
}

export function useOpenThread(threads: ThreadsHandle, thread: string | undefined): OpenThread {
  const desk = useDesk();
  const store = threads.store;
  const profile = desk.profile.name;
  const { session, onEvent } = threads;
  /** `thread`: the thread the messages were read for; `seenBy`: the one the viewers were read for. */
  const [state, setState] = useState<{
    thread?: string;
    messages: DeskMessage[];
    summary?: DeskThread;
    seenBy?: string;
    viewers: Viewer[];
    at?: Date;
  }>({ messages: [], viewers: [] });
  const kick = useRef<() => void>(() => undefined);

  useEffect(() => {
    if (!store || thread === undefined) {
      setState({ messages: [], viewers: [] });
      return;
    }
    let alive = true;
    let running = false;
    let again = false;
    const load = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const [messages, summary] = await Promise.all([store.messages(profile, thread), store.thread(profile, thread)]);
          if (!alive) return;
          setState((s) => ({ ...s, thread, messages: messages ?? [], summary, at: new Date() }));
        } while (again && alive);
      } catch {
        /* the list says what is wrong with the store */
      } finally {
        running = false;
      }
    };
    const viewers = async () => {
      try {
        const v = await store.viewers(profile, thread, session);
        if (alive) setState((s) => ({ ...s, seenBy: thread, viewers: v }));
      } catch {
        /* presence is best effort */
      }
    };
    const beat = async () => {
      await store.heartbeat(profile, thread, session).catch(() => undefined);
      await viewers();
    };
    kick.current = () => void load();
    void load();
    void beat();
    const timer = setInterval(() => void beat(), PRESENCE_HEARTBEAT_MS);
    timer.unref?.();
    const off = onEvent((e) => {
      if (e.kind === 'resync') void load();
      else if (e.kind === 'presence' && e.thread === thread) void viewers();
      else if ('rev' in e && e.thread === thread) void load();
    });
    return () => {
      alive = false;
      kick.current = () => undefined;
      off();
      clearInterval(timer);
      void store.leave(profile, session, thread).catch(() => undefined);
    };
  }, [store, profile, thread, session, onEvent]);

  const reload = useCallback(() => kick.current(), []);
  const current = state.thread === thread && thread !== undefined;
  return {
    thread,
    messages: current ? state.messages : [],
    summary: current ? state.summary : undefined,
    viewers: state.seenBy === thread ? state.viewers : [],
    loaded: current,
    at: state.at,
    reload,
  };
}
