/**
 * `pdesk chat show`: a thread's messages from the desk store (no request), with its owner and who else has it open.
 * The newest message shown is noted as the point the operator saw the thread at (seen.ts): `chat reply` is held by
 * what comes in after it.
 */
import { localTimeText } from '../../../core/dates.js';
import { UsageError } from '../../../core/errors.js';
import { MAX_READ_DEPTH, deepPath } from '../../../core/json.js';
import { referenceLabel } from '../../../core/labels.js';
import { sanitize } from '../../../core/sanitize.js';
import type { DeskMessage } from '../../../core/store/types.js';
import type { Context } from '../../context.js';
import { writeSeen } from './seen.js';
import { deskTarget } from './store.js';

export interface ShowOptions {
  encounterId: string;
}

export async function run(ctx: Context, opts: ShowOptions): Promise<void> {
  const { encounterId } = opts;
  const d = await deskTarget(ctx);
  const [all, summary] = await Promise.all([d.store.messages(d.profile, encounterId), d.store.thread(d.profile, encounterId)]);
  if (!all || !summary) {
    const known = (await d.store.listThreads(d.profile, { limit: 6 })).map((t) => t.thread);
    throw new UsageError(`There is no thread "${encounterId}" in the desk's store.`, [
      `store: ${d.store.where(d.profile)}`,
      known.length
        ? `Threads there: ${known.slice(0, 5).join(', ')}${known.length > 5 ? ', …' : ''}.`
        : 'It holds no threads yet: they appear when pdesk sends a message or `pdesk listen` receives one.',
    ]);
  }
  // A stored message is printed only within the bound of what pdesk reads (src/core/json.ts; the list and the
  // message around its resource are two levels more): one stored deeper, before `pdesk listen` refused such bodies,
  // is skipped with a warning naming it, never blamed on a server.
  const bound = MAX_READ_DEPTH - 2;
  const messages = all.filter((m) => {
    if (!deepPath(m.resource, bound)) return true;
    ctx.err(`pdesk: warning: message ${m.id} in the desk's store is nested more than ${bound} levels deep; not shown.`);
    return false;
  });
  const seen = all.reduce((max, m) => Math.max(max, m.seq), 0);
  if (ctx.format === 'table') {
    const s = summary;
    const others = await d.store.viewers(d.profile, encounterId).catch(() => []);
    const parts = [
      s.status,
      `${s.messages} message${s.messages === 1 ? '' : 's'}`,
      `${s.unread} unread`,
      s.owner ? `owner ${s.owner}` : 'unassigned',
      ...(others.length ? [`open now by ${others.map((v) => v.operator).join(', ')}`] : []),
    ];
    ctx.out(sanitize(`Thread ${encounterId}: ${parts.join(', ')} · seen up to ${seen}`));
  }
  ctx.emitList<DeskMessage>(messages, [
    { header: 'TIME', value: (m) => localTimeText(m.at) },
    { header: 'DIRECTION', value: (m) => `${m.from} → ${m.to}` },
    { header: 'SENDER', value: (m) => referenceLabel({ reference: m.sender, display: m.senderDisplay }), flex: true },
    { header: 'BY', value: (m) => m.operator ?? '' },
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
  // What was printed is what the operator saw: `chat reply` is held by anything after it.
  try {
    await writeSeen(await ctx.configDir(), d.profile, d.store.where(d.profile), d.operator, encounterId, seen);
  } catch (e) {
    ctx.log(
      `pdesk: the point thread ${encounterId} was shown at was not noted (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
    );
  }
}
