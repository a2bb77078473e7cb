/** `pdesk chat mark-read`: C2, mark a received message as read, recorded in the desk store. */
import { buildReadMarker } from '../../../core/api/chat.js';
import { parseWhen } from '../../../core/dates.js';
import { UsageError } from '../../../core/errors.js';
import { ReadMarker } from '../../../core/schemas/chat.js';
import { parseBody } from '../../../core/schemas/common.js';
import { readAtOf } from '../../../core/threads/index.js';
import { markReadRecorded } from '../../../core/store/recorded.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';
import { writableDesk } from './store.js';

export interface MarkReadOptions {
  communicationId: string;
  at?: string;
  body?: string;
}

export async function run(ctx: Context, opts: MarkReadOptions): Promise<void> {
  const { communicationId } = opts;
  if (!communicationId.trim()) throw new UsageError('<communicationId> must not be empty.');
  let body = readBody(ctx, opts.body, 'read marker');
  if (body === undefined)
    body = buildReadMarker(await ctx.profile(), opts.at === undefined ? ctx.now() : parseWhen(opts.at, 'at', ctx.now()));
  const marker = parseBody(ReadMarker, body);
  const client = await ctx.client();
  const res = await markReadRecorded(client, await writableDesk(ctx), communicationId, marker);
  ctx.emitWrite(res.status, res.body, () => `Marked ${communicationId} as read at ${readAtOf(res.marker)}.`);
}
