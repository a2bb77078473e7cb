/**
 * What a receiver asks of the store before it writes, kept without the history: which message ids are stored
 * (and in which thread), and which threads are closed. The summaries' sorted tables are searched as they were
 * read (a start-up does no work per message); what was read after them is kept in a map. Read markers and
 * notification ids are known only from what was read after the summaries (the summaries do not list them): a
 * repeat of an older one is stored again, and shown once (the view keeps the first).
 */
import { type ReadRecord, type SummaryTable, findId, ownCopy } from './segments.js';

export class MessageIndex {
  /**
   * Summaries in segment order: an id found in an earlier one counts first, and one in a summary before one read
   * from a segment (a message stored twice, a retry, names the same thread either way).
   */
  private readonly tables: SummaryTable[] = [];
  /** Messages read from the segments themselves (after the summaries): id → thread. */
  private readonly tail = new Map<string, string>();
  private readonly closedAt = new Map<string, string>();
  private readonly reads = new Set<string>();
  private readonly notes = new Set<string>();

  apply(r: ReadRecord): void {
    if (r.kind === 'message') {
      if (!this.tail.has(r.id)) this.tail.set(ownCopy(r.id), ownCopy(r.thread));
    } else if (r.kind === 'close') {
      if (!this.closedAt.has(r.thread)) this.closedAt.set(ownCopy(r.thread), ownCopy(r.at));
    } else if (r.kind === 'read') this.reads.add(ownCopy(r.id));
    else if (r.kind === 'notification' && typeof r.resource.id === 'string') this.notes.add(ownCopy(r.resource.id));
  }

  /** A read marker of this message was read after the summaries. */
  isRead(id: string): boolean {
    return this.reads.has(id);
  }

  /** A notification of this id was read after the summaries. */
  hasNotification(id: string): boolean {
    return this.notes.has(id);
  }

  addSummary(t: SummaryTable): void {
    this.tables.push(t);
    const c = t.closed;
    for (let i = 0; i < c.length; i += 2) if (!this.closedAt.has(c[i]!)) this.closedAt.set(c[i]!, c[i + 1]!);
  }

  threadOfMessage(id: string): string | undefined {
    for (const t of this.tables) {
      const i = findId(t, id);
      if (i >= 0) return t.threads[t.threadOf[i]!];
    }
    return this.tail.get(id);
  }

  hasMessage(id: string): boolean {
    return this.threadOfMessage(id) !== undefined;
  }

  isClosed(thread: string): boolean {
    return this.closedAt.has(thread);
  }
}
