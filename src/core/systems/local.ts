/**
 * What a profile's desk store and local files say, for the Systems screen: unread messages and open chats in its
 * thread store (or the team store, when the desk has one), rows of its bulk-send journals whose outcome is
 * uncertain. Read only (nothing is created, locked or written), asynchronous and cached: a thread store is read whole
 * once and then only what was appended, a journal again only when it changed; the team store answers from its
 * threads' summaries.
 */
import { JournalCounter } from '../bulk/journals.js';
import type { DeskStore } from '../store/types.js';
import { openThreadStore, type ThreadStore } from '../threads/index.js';

export interface LocalCounts {
  /** Received chat messages without a read marker. */
  unread: number;
  /** Chats (encounters) not closed. */
  open: number;
  threads: number;
  /** Journal rows that may have been sent with no answer recorded. */
  uncertain: number;
  /** Journal rows that failed (a rerun sends them again). */
  failed: number;
  /** Unreadable store lines, journals that cannot be read: one sentence each. */
  warnings: string[];
}

export class LocalReader {
  private readonly stores = new Map<string, ThreadStore>();
  private readonly journals = new JournalCounter();
  private closed = false;

  constructor(
    private readonly dir: string,
    /** The team store (the desk's, not closed here); without it the profiles' thread stores in `dir`. */
    private readonly team?: DeskStore,
  ) {}

  private store(profile: string): ThreadStore {
    let s = this.stores.get(profile);
    if (!s) {
      s = openThreadStore(this.dir, profile);
      this.stores.set(profile, s);
    }
    return s;
  }

  /** Counts of one profile; throws only for a profile name that cannot name a store. */
  async counts(profile: string): Promise<LocalCounts> {
    if (this.closed) throw new Error('closed');
    const warnings: string[] = [];
    let unread = 0;
    let open = 0;
    let threads = 0;
    const count = (list: readonly { unread: number; status: 'open' | 'closed' }[]) => {
      for (const t of list) {
        threads++;
        unread += t.unread;
        if (t.status === 'open') open++;
      }
    };
    if (this.team?.engine === 'postgres') {
      try {
        count(await this.team.listThreads(profile));
      } catch (e) {
        warnings.push(`the team store ${this.team.where(profile)} cannot be read (${(e as Error).message})`);
      }
    } else {
      const store = this.store(profile);
      try {
        count((await store.load()).threads);
        if (store.warnings.length) warnings.push(`${store.warnings.length} unreadable line(s) in ${store.path}`);
      } catch (e) {
        warnings.push(`the thread store ${store.path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
    }
    let uncertain = 0;
    let failed = 0;
    try {
      for (const j of await this.journals.summaries(this.dir, profile)) {
        uncertain += j.uncertain;
        failed += j.failed;
        if (j.error) warnings.push(`${j.path} cannot be read as a journal: ${j.error}`);
      }
    } catch (e) {
      warnings.push(`the journals of ${profile} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    return { unread, open, threads, uncertain, failed, warnings };
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.stores.values()];
    this.stores.clear();
    await Promise.allSettled(all.map((s) => s.close()));
  }
}
