/** `pdesk chat show`: a thread's messages from the local thread store (no request). */
import { localTimeText } from '../../../core/dates.js';
import { UsageError } from '../../../core/errors.js';
import { MAX_READ_DEPTH, deepPath } from '../../../core/json.js';
import { referenceLabel } from '../../../core/labels.js';
import { sanitize } from '../../../core/sanitize.js';
import type { ThreadMessage } from '../../../core/threads/index.js';
import type { Context } from '../../context.js';
import { threadStore } from './store.js';

export interface ShowOptions {
  encounterId: string;
}

export async function run(ctx: Context, opts: ShowOptions): Promise<void> {
  const { encounterId } = opts;
  const store = await threadStore(ctx);
  const view = await store.load();
  const all = view.messages(encounterId);
  if (!all) {
    const known = view.threads.slice(0, 5).map((t) => t.thread);
    throw new UsageError(`There is no thread "${encounterId}" in the local store.`, [
      `store: ${store.path}`,
      known.length
        ? `Threads there: ${known.join(', ')}${view.threads.length > known.length ? ', …' : ''}.`
        : 'It holds no threads yet: they appear when pdesk sends a message or `pdesk listen` receives one.',
    ]);
  }
  // A stored message is printed only within the bound of what pdesk reads (src/core/json.ts; the list and the
  // message around its resource are two levels more): one stored deeper, before `pdesk listen` refused such bodies,
  // is skipped with a warning naming it, never blamed on a server.
  const bound = MAX_READ_DEPTH - 2;
  const messages = all.filter((m) => {
    if (!deepPath(m.resource, bound)) return true;
    ctx.err(`pdesk: warning: message ${m.id} in the thread store is nested more than ${bound} levels deep; not shown.`);
    return false;
  });
  if (ctx.format === 'table') {
    const s = view.summary(encounterId)!;
    ctx.out(sanitize(`Thread ${encounterId}: ${s.status}, ${s.messages} message${s.messages === 1 ? '' : 's'}, ${s.unread} unread`));
  }
  ctx.emitList<ThreadMessage>(messages, [
    { header: 'TIME', value: (m) => localTimeText(m.at) },
    { header: 'DIRECTION', value: (m) => `${m.from} → ${m.to}` },
    { header: 'SENDER', value: (m) => referenceLabel({ reference: m.sender, display: m.senderDisplay }), flex: true },
    {
      header: 'TEXT',
      value: (m) => (m.attachment ? `${m.text} [${m.attachment.contentType}: ${m.attachment.title}]` : m.text),
      flex: true,
    },
    {
      header: 'READ',
      value: (m) =>
        m.via === 'pending'
          ? 'outcome unknown (no answer recorded)'
          : m.read
            ? `read ${m.readAt!.slice(0, 16).replace('T', ' ')}`
            : m.unread
              ? 'unread'
              : '',
    },
  ]);
}
