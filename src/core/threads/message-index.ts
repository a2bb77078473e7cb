/**
 * What a receiver asks of the store before it writes, kept without the history: which message ids are stored
 * (and in which thread), and which threads are closed. About a hundred bytes a message, where the whole view
 * (view.ts) keeps every message.
 */
import { type ReadRecord, type SegmentSummary, ownCopy } from './segments.js';

export class MessageIndex {
  private readonly threadOf = new Map<string, string>();
  private readonly closedAt = new Map<string, string>();
  /** One copy of each thread id (a summary's JSON repeats it per message). */
  private readonly threads = new Map<string, string>();

  private intern(thread: string): string {
    const known = this.threads.get(thread);
    if (known !== undefined) return known;
    const own = ownCopy(thread);
    this.threads.set(own, own);
    return own;
  }

  /** The first record of a message id counts (as in the view). `own`: the id is not cut from a larger text. */
  private addMessage(id: string, thread: string, own = false): void {
    if (this.threadOf.get(id) === undefined) this.threadOf.set(own ? id : ownCopy(id), this.intern(thread));
  }

  private addClose(thread: string, at: string): void {
    if (!this.closedAt.has(thread)) this.closedAt.set(this.intern(thread), ownCopy(at));
  }

  apply(r: ReadRecord): void {
    if (r.kind === 'message') this.addMessage(r.id, r.thread);
    else if (r.kind === 'close') this.addClose(r.thread, r.at);
  }

  merge(s: SegmentSummary): void {
    const m = s.messages;
    for (let i = 0; i < m.length; i += 2) this.addMessage(m[i]!, m[i + 1]!, true); // fresh strings of JSON.parse
    const c = s.closed;
    for (let i = 0; i < c.length; i += 2) this.addClose(c[i]!, c[i + 1]!);
  }

  hasMessage(id: string): boolean {
    return this.threadOf.has(id);
  }

  threadOfMessage(id: string): string | undefined {
    return this.threadOf.get(id);
  }

  isClosed(thread: string): boolean {
    return this.closedAt.has(thread);
  }

  get messages(): number {
    return this.threadOf.size;
  }
}
