/**
 * A chat message sent and recorded in the desk store: `chat send` (C1, portal → practice) and `chat reply` (C3,
 * practice → portal). A reply is checked first (decisions.md §17): against the point the operator saw the thread at
 * (`--after`, else what `chat show` printed last, seen.ts, else the newest message when the command starts), the
 * thread's owner (another operator's needs `--force`) and another operator's reply being sent. A reply held sends
 * nothing and exits 2 saying what changed; the messages it names count as seen, so the same command sent again goes.
 */
import { buildChatMessage } from '../../../core/api/chat.js';
import { localTimeText } from '../../../core/dates.js';
import { PdeskError, UsageError, statusLine } from '../../../core/errors.js';
import { referenceLabel } from '../../../core/labels.js';
import { sanitize } from '../../../core/sanitize.js';
import { ChatCommunication, threadOf } from '../../../core/schemas/chat.js';
import { parseBody } from '../../../core/schemas/common.js';
import { type DeskTarget, ReplyHeldError, replyRecorded, sendRecorded } from '../../../core/store/recorded.js';
import type { DeskMessage } from '../../../core/store/types.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';
import { emitCreated } from '../../created.js';
import { positiveInt } from '../../options.js';
import { readSeen, writeSeen } from './seen.js';
import { writableDesk } from './store.js';

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
  /** `chat reply`: the point seen (a message `seq`). */
  after?: string;
  /** `chat reply`: reply to another operator's thread. */
  force?: boolean;
}

export async function sendMessage(ctx: Context, op: 'C1' | 'C3', opts: MessageOptions): Promise<void> {
  let body = readBody(ctx, opts.body, 'Communication');
  const after = opts.after === undefined ? undefined : positiveInt(opts.after, '--after', { allowZero: true });
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
  const desk = await writableDesk(ctx);
  const res = op === 'C1' ? await sendRecorded(client, desk, 'C1', sent) : await reply(ctx, desk, sent, after, !!opts.force);
  const thread = res.thread;
  // res.message.id is the server's id (decisions.md §16), as the desk store records it.
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
      `Sent message ${res.message.id} to thread ${thread} (${op === 'C1' ? 'portal → practice' : 'practice → portal'}, ${statusLine(res.status)}).${res.recorded.assigned ? ` The thread is yours now (${res.recorded.assigned}).` : ''}`,
  );
}

/** A C3 checked against what the operator saw; a hold is worded for the command line (exit 2). */
async function reply(ctx: Context, desk: DeskTarget, sent: ChatCommunication, given: number | undefined, force: boolean) {
  const thread = threadOf(sent);
  const dir = await ctx.configDir();
  const where = desk.store.where(desk.profile);
  const after =
    given ??
    (ctx.dryRun ? 0 : readSeen(dir, desk.profile, where, desk.operator, thread)) ??
    (await desk.store.thread(desk.profile, thread))?.lastSeq ??
    0;
  try {
    return await replyRecorded(await ctx.client(), desk, sent, { after, force });
  } catch (e) {
    if (!(e instanceof ReplyHeldError)) throw e;
    const h = e.hold;
    const newest = h.newMessages.reduce((max, m) => Math.max(max, m.seq), after);
    // What the operator is shown now counts as seen: the same command sent again goes (unless something else holds it).
    if (h.newMessages.length) await writeSeen(dir, desk.profile, where, desk.operator, thread, newest).catch(() => undefined);
    const lines: string[] = [];
    let first: string;
    if (h.newMessages.length) {
      const n = h.newMessages.length;
      first = `Not sent: ${n === 1 ? 'a message' : `${n} messages`} came in to thread ${thread} after the point you saw it at (${after}).`;
      lines.push(...h.newMessages.map(messageLine));
      lines.push(
        given === undefined
          ? 'They count as seen now: send the same reply again if it still answers them.'
          : `Send it again with --after ${newest} if it still answers them.`,
      );
    } else if (h.owner !== undefined) first = `Not sent: thread ${thread} is ${h.owner}'s.`;
    else
      first = `Not sent: ${h.replying!.operator} is sending a reply to thread ${thread} (since ${localTimeText(h.replying!.since, 'HH:mm:ss')}).`;
    if (h.owner !== undefined) lines.push(`--force sends it to ${h.owner}'s thread all the same (it stays ${h.owner}'s).`);
    if (h.replying && h.newMessages.length + (h.owner === undefined ? 0 : 1) > 0)
      lines.push(`${h.replying.operator} is sending a reply to it too.`);
    if (h.replying) lines.push(`Look at the thread once that reply is recorded (pdesk chat show ${thread}).`);
    throw new PdeskError(
      sanitize(first),
      e.exitCode,
      lines.map((l) => sanitize(l)),
    );
  }
}

/** `10:15 in C1 from Emma Jansen (Patient/pat-1): text…`, one line. */
function messageLine(m: DeskMessage): string {
  const who = m.via === 'received' ? referenceLabel({ reference: m.sender, display: m.senderDisplay }) : (m.operator ?? 'another desk');
  const text = m.text.replace(/\s+/g, ' ');
  return `${localTimeText(m.at, 'HH:mm')} ${m.via === 'received' ? 'in' : 'out'} ${m.op} from ${who}: ${text.length > 100 ? `${text.slice(0, 99)}…` : text}`;
}
