/** `pdesk notifications send` without `--csv`: C5, one notification, from its options or a complete one (`--body`). */
import { buildNotification, sendNotification } from '../../../core/api/notifications.js';
import { BodyError, UsageError } from '../../../core/errors.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';
import { createdJson } from '../../created.js';
import { flagOf } from '../../options.js';

/**
 * One notification needs `email`, `topic` and `text` unless `body`; a bulk send (`csv`, bulk.ts) needs `topic` and
 * `text` (src/cli/commands/notifications/index.ts).
 */
export interface SendOptions {
  email?: string;
  topic?: string;
  text?: string;
  body?: string;
  csv?: string;
  emailColumn?: string;
  concurrency?: string;
  journal?: string;
  resendUncertain?: boolean;
  rate?: string;
}

const BULK_ONLY = ['emailColumn', 'concurrency', 'journal', 'resendUncertain', 'rate'] as const;

export async function run(ctx: Context, opts: SendOptions): Promise<void> {
  const bulkOnly = BULK_ONLY.filter((k) => opts[k] !== undefined);
  if (bulkOnly.length)
    throw new UsageError(`${bulkOnly.map(flagOf).join(', ')} ${bulkOnly.length > 1 ? 'go' : 'goes'} with --csv (a bulk send).`);
  let body = readBody(ctx, opts.body, 'notification');
  if (body === undefined) {
    try {
      body = buildNotification(await ctx.profile(), { email: opts.email!.trim(), topic: opts.topic!, text: opts.text! });
    } catch (e) {
      if (e instanceof BodyError && /telecom/.test(e.path)) throw new UsageError(`--email must be an email address, not "${opts.email}".`);
      throw e;
    }
  }
  const res = await sendNotification(await ctx.client(), body);
  // Without a body, what is known of the Communication made: its id and Location (decisions.md §16).
  ctx.emitWrite(res.status, createdJson(res.status, res.body, res.created));
}
