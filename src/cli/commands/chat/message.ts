/** A chat message sent and recorded: `chat send` (C1, portal → practice) and `chat reply` (C3, practice → portal). */
import { buildChatMessage } from '../../../core/api/chat.js';
import { UsageError, statusLine } from '../../../core/errors.js';
import { ChatCommunication } from '../../../core/schemas/chat.js';
import { parseBody } from '../../../core/schemas/common.js';
import { sendRecorded } from '../../../core/threads/recorded.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';
import { emitCreated } from '../../created.js';
import { withStore, writableStore } from './store.js';

/** `thread`, `text`, `sender`, `recipient` and `subject` are required unless `body` (src/cli/commands/chat/index.ts). */
export interface MessageOptions {
  thread?: string;
  text?: string;
  sender?: string;
  recipient?: string;
  subject?: string;
  topic?: string;
  attachment?: string;
  id?: string;
  body?: string;
}

export async function sendMessage(ctx: Context, op: 'C1' | 'C3', opts: MessageOptions): Promise<void> {
  let body = readBody(ctx, opts.body, 'Communication');
  if (body === undefined) {
    if (!opts.thread!.trim()) throw new UsageError('--thread must not be empty.');
    if (opts.id !== undefined && !opts.id.trim()) throw new UsageError('--id must not be empty.');
    body = buildChatMessage(await ctx.profile(), {
      thread: opts.thread!,
      text: opts.text!,
      sender: opts.sender!,
      recipient: opts.recipient!,
      subject: opts.subject!,
      topic: opts.topic,
      attachment: opts.attachment,
      id: opts.id,
    });
  }
  const sent = parseBody(ChatCommunication, body); // a bad --body stops here: nothing sent, nothing created
  const client = await ctx.client();
  const store = await writableStore(ctx);
  const res = await withStore(store, (st) => sendRecorded(client, st, op, sent));
  const thread = res.thread;
  // res.message.id is the server's id (decisions.md §16), as the thread store records it.
  emitCreated(
    ctx,
    'Communication',
    {
      status: res.status,
      body: res.body ?? {
        ok: true,
        status: res.status,
        id: res.message.id,
        thread,
        ...(res.created.location ? { location: res.created.location } : {}),
      },
      created: res.created,
    },
    () =>
      `Sent message ${res.message.id} to thread ${thread} (${op === 'C1' ? 'portal → practice' : 'practice → portal'}, ${statusLine(res.status)}).`,
  );
}
