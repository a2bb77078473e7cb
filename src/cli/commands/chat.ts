/**
 * `pdesk chat send | reply | mark-read | close | threads | show` — C1 send to the practice system, C3 send to
 * the portal, C2 mark read, C4 close; `threads` and `show` read the local thread store only. Every write is
 * recorded in the thread store after the server acknowledged it (2xx) and before success is printed.
 */
import { Command } from 'commander';
import type { ThreadMessage, ThreadStore, ThreadSummary } from '../../core/threads/index.js';
import { referenceLabel } from '../../core/labels.js';
import { readBody } from '../body.js';
import { action, type Context } from '../context.js';
import { examples } from '../help.js';

interface MessageOptions {
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

const REQUIRED = ['thread', 'text', 'sender', 'recipient', 'subject'] as const;
const flag = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** The profile's thread store; warnings about skipped lines go to stderr. */
async function threadStore(ctx: Context): Promise<ThreadStore> {
  const profile = await ctx.profile();
  const { openThreadStore } = await import('../../core/threads/index.js');
  return openThreadStore(await ctx.configDir(), profile.name, { onWarning: (w) => ctx.err(`pdesk: warning: ${w}`) });
}

/**
 * Open the store for writing before anything is sent, so a store that cannot be written stops the command
 * first. Under --dry-run it is opened but not prepared: nothing is written, the request is printed instead.
 */
async function writableStore(ctx: Context): Promise<ThreadStore> {
  const store = await threadStore(ctx);
  if (ctx.dryRun) return store;
  try {
    await store.prepare();
  } catch (e) {
    const { ConfigError } = await import('../../core/errors.js');
    throw new ConfigError(
      `The thread store ${store.path} cannot be opened for writing (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was sent.`,
    );
  }
  return store;
}

/** Run a recorded chat operation (core/threads/recorded.ts), closing the store afterwards. */
async function withStore<T>(store: ThreadStore, fn: (store: ThreadStore) => Promise<T>): Promise<T> {
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function sendOrReply(ctx: Context, op: 'C1' | 'C3', opts: MessageOptions): Promise<void> {
  const { UsageError } = await import('../../core/errors.js');
  const api = await import('../../core/api/chat.js');
  let body = readBody(ctx, 'Communication');
  if (body === undefined) {
    const { requireOptions } = await import('../options.js');
    requireOptions(REQUIRED.filter((k) => opts[k] === undefined).map(flag), '(or give a complete Communication with --body)');
    if (!opts.thread!.trim()) throw new UsageError('--thread must not be empty.');
    if (opts.id !== undefined && !opts.id.trim()) throw new UsageError('--id must not be empty.');
    body = api.buildChatMessage(await ctx.profile(), {
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
  const { parseBody, ChatCommunication } = await import('../../core/schemas/index.js');
  body = parseBody(ChatCommunication, body); // a bad --body stops here: nothing sent, nothing created
  const client = await ctx.client();
  const store = await writableStore(ctx);
  const { sendRecorded } = await import('../../core/threads/recorded.js');
  const res = await withStore(store, (st) => sendRecorded(client, st, op, body));
  const thread = res.thread;
  const { statusLine } = await import('../../core/errors.js');
  const { emitCreated } = await import('../created.js');
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

function messageOptions(cmd: Command, withAttachment: boolean): Command {
  cmd
    .option('--thread <encounterId>', 'the chat thread: its encounter id (required unless --body)')
    .option('--text <text>', 'the message text (required unless --body)')
    .option('--sender <ref>', 'sender reference, e.g. Patient/pat-1 (required unless --body)')
    .option('--recipient <ref>', 'recipient reference, e.g. PractitionerRole/1001 (required unless --body)')
    .option('--subject <ref>', 'subject reference, e.g. Patient/pat-1 (required unless --body)')
    .option('--topic <text>', 'topic text');
  if (withAttachment) cmd.option('--attachment <contentType:title>', 'attachment description, split at the first ":"');
  return cmd
    .option('--id <id>', 'message id (default: a new UUID)')
    .option('--body <file|->', 'a complete Communication to send as is after validation (no other option needed)');
}

export function chatCommand(): Command {
  const cmd = new Command('chat').description(
    'chat threads (C1 send, C2 mark read, C3 reply, C4 close; threads and show from the local store)',
  );
  cmd.addHelpText(
    'after',
    examples(
      'pdesk chat threads',
      'pdesk chat show enc-100',
      "pdesk chat send --thread enc-100 --text 'Thank you' --sender Patient/pat-1 \\",
      '  --recipient PractitionerRole/1001 --subject Patient/pat-1',
    ),
  );

  messageOptions(
    cmd
      .command('send')
      .description('send a message, portal → practice (C1)')
      .addHelpText(
        'after',
        examples(
          "pdesk chat send --thread enc-100 --text 'Thank you' --sender Patient/pat-1 \\",
          '  --recipient PractitionerRole/1001 --subject Patient/pat-1',
          "pdesk chat send --thread enc-100 --text 'My referral letter' \\",
          '  --sender Patient/pat-1 --recipient PractitionerRole/1001 \\',
          "  --subject Patient/pat-1 --attachment 'application/pdf:Referral letter'",
        ),
      ),
    true,
  ).action(action((ctx, opts: MessageOptions) => sendOrReply(ctx, 'C1', opts)));

  messageOptions(
    cmd
      .command('reply')
      .description('send a message, practice → portal (C3)')
      .addHelpText(
        'after',
        examples(
          "pdesk chat reply --thread enc-100 --text 'Your results are in.' \\",
          '  --sender PractitionerRole/1001 --recipient Patient/pat-1 \\',
          "  --subject Patient/pat-1 --topic 'Lab results'",
        ),
      ),
    false,
  ).action(action((ctx, opts: MessageOptions) => sendOrReply(ctx, 'C3', opts)));

  cmd
    .command('mark-read')
    .description('mark a received message as read (C2)')
    .addHelpText(
      'after',
      examples(
        'pdesk chat mark-read b58f5f42-a022-4c1c-9560-f7148b872596',
        'pdesk chat mark-read b58f5f42-a022-4c1c-9560-f7148b872596 \\',
        "  --at 'today 09:30'",
      ),
    )
    .argument('<communicationId>', 'id of the Communication to mark')
    .option('--at <datetime>', 'when it was read (ISO 8601, today, +Nd…; default now), sent as local time without offset')
    .option('--body <file|->', 'a complete read marker (JSON Patch) to send as is after validation')
    .action(
      action(async (ctx, communicationId: string, opts: { at?: string }) => {
        const { UsageError } = await import('../../core/errors.js');
        if (!communicationId.trim()) throw new UsageError('<communicationId> must not be empty.');
        const api = await import('../../core/api/chat.js');
        let body = readBody(ctx, 'read marker');
        if (body === undefined) {
          const { parseWhen } = await import('../../core/dates.js');
          body = api.buildReadMarker(await ctx.profile(), opts.at === undefined ? ctx.now() : parseWhen(opts.at, 'at', ctx.now()));
        }
        const { parseBody, ReadMarker } = await import('../../core/schemas/index.js');
        body = parseBody(ReadMarker, body);
        const client = await ctx.client();
        const store = await writableStore(ctx);
        const { markReadRecorded } = await import('../../core/threads/recorded.js');
        const { readAtOf } = await import('../../core/threads/index.js');
        const res = await withStore(store, (st) => markReadRecorded(client, st, communicationId, body));
        ctx.emitWrite(res.status, res.body, () => `Marked ${communicationId} as read at ${readAtOf(res.marker)}.`);
      }),
    );

  cmd
    .command('close')
    .description('close a chat thread (C4)')
    .addHelpText('after', examples('pdesk chat close enc-100'))
    .argument('<encounterId>', 'the thread to close: its encounter id')
    .option('--body <file|->', 'a complete Encounter to send as is after validation')
    .action(
      action(async (ctx, encounterId: string) => {
        const { UsageError } = await import('../../core/errors.js');
        if (!encounterId.trim()) throw new UsageError('<encounterId> must not be empty.');
        const api = await import('../../core/api/chat.js');
        let body = readBody(ctx, 'Encounter');
        if (body !== undefined) {
          const id = (body as { id?: unknown })?.id;
          if (id !== undefined && String(id) !== encounterId)
            throw new UsageError(`The --body Encounter has id "${String(id)}", not the <encounterId> "${encounterId}".`);
          const { parseBody, EncounterClose, EncounterFinished } = await import('../../core/schemas/index.js');
          const { dialectOf } = await import('../../core/api/dialect.js');
          body = parseBody(dialectOf(await ctx.profile()) === 'r4' ? EncounterFinished : EncounterClose, body);
        } else {
          // Built by the profile's dialect (decisions.md §16): under r4 the Encounter is read first and kept whole.
          api.buildEncounterClose(await ctx.profile(), encounterId); // an id the interface refuses stops here
        }
        const client = await ctx.client();
        const store = await writableStore(ctx);
        const { closeRecorded } = await import('../../core/threads/recorded.js');
        const res = await withStore(store, (st) => closeRecorded(client, st, encounterId, body));
        ctx.emitWrite(res.status, res.body, () => `Closed chat ${encounterId}.`);
      }),
    );

  cmd
    .command('threads')
    .description('the threads of the local store, newest first (no request)')
    .addHelpText('after', examples('pdesk chat threads', 'pdesk chat threads --query "[?unread > `0`].thread"'))
    .action(
      action(async (ctx) => {
        const store = await threadStore(ctx);
        const view = await store.load();
        const { localTimeText: localTime } = await import('../../core/dates.js');
        ctx.emitList<ThreadSummary>(view.threads, [
          { header: 'THREAD', value: (t) => t.thread },
          { header: 'STATUS', value: (t) => t.status },
          { header: 'LAST MESSAGE', value: (t) => localTime(t.lastAt) },
          { header: 'TEXT', value: (t) => t.lastText, flex: true },
          { header: 'MESSAGES', value: (t) => t.messages },
          { header: 'UNREAD', value: (t) => t.unread },
        ]);
      }),
    );

  cmd
    .command('show')
    .description("a thread's messages from the local store (no request)")
    .addHelpText('after', examples('pdesk chat show enc-100', 'pdesk chat show enc-100 --json'))
    .argument('<encounterId>', 'the thread: its encounter id')
    .action(
      action(async (ctx, encounterId: string) => {
        const store = await threadStore(ctx);
        const view = await store.load();
        const all = view.messages(encounterId);
        if (!all) {
          const { UsageError } = await import('../../core/errors.js');
          const known = view.threads.slice(0, 5).map((t) => t.thread);
          throw new UsageError(`There is no thread "${encounterId}" in the local store.`, [
            `store: ${store.path}`,
            known.length
              ? `Threads there: ${known.join(', ')}${view.threads.length > known.length ? ', …' : ''}.`
              : 'It holds no threads yet: they appear when pdesk sends a message or `pdesk listen` receives one.',
          ]);
        }
        // A stored message is printed only within the bound of what pdesk reads (src/core/json.ts; the list and
        // the message around its resource are two levels more): one stored deeper, before `pdesk listen` refused
        // such bodies, is skipped with a warning naming it, never blamed on a server.
        const { MAX_READ_DEPTH, deepPath } = await import('../../core/json.js');
        const bound = MAX_READ_DEPTH - 2;
        const messages = all.filter((m) => {
          if (!deepPath(m.resource, bound)) return true;
          ctx.err(`pdesk: warning: message ${m.id} in the thread store is nested more than ${bound} levels deep; not shown.`);
          return false;
        });
        if (ctx.format === 'table') {
          const s = view.summary(encounterId)!;
          const { sanitize } = await import('../../core/sanitize.js');
          ctx.out(sanitize(`Thread ${encounterId}: ${s.status}, ${s.messages} message${s.messages === 1 ? '' : 's'}, ${s.unread} unread`));
        }
        const { localTimeText: localTime } = await import('../../core/dates.js');
        ctx.emitList<ThreadMessage>(messages, [
          { header: 'TIME', value: (m) => localTime(m.at) },
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
      }),
    );

  return cmd;
}
