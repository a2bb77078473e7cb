/** `pdesk chat threads`: the threads of the local thread store, newest first (no request). */
import { localTimeText } from '../../../core/dates.js';
import type { ThreadSummary } from '../../../core/threads/index.js';
import type { Context } from '../../context.js';
import { threadStore } from './store.js';

export async function run(ctx: Context): Promise<void> {
  const store = await threadStore(ctx);
  const view = await store.load();
  ctx.emitList<ThreadSummary>(view.threads, [
    { header: 'THREAD', value: (t) => t.thread },
    { header: 'STATUS', value: (t) => t.status },
    { header: 'LAST MESSAGE', value: (t) => localTimeText(t.lastAt) },
    { header: 'TEXT', value: (t) => t.lastText, flex: true },
    { header: 'MESSAGES', value: (t) => t.messages },
    { header: 'UNREAD', value: (t) => t.unread },
  ]);
}
