/** `pdesk chat close`: C4, close a chat thread, recorded in the desk store. */
import { buildEncounterClose } from '../../../core/api/chat.js';
import { dialectOf } from '../../../core/api/dialect.js';
import { UsageError } from '../../../core/errors.js';
import { EncounterClose, EncounterFinished } from '../../../core/schemas/chat.js';
import { parseBody } from '../../../core/schemas/common.js';
import { closeRecorded } from '../../../core/store/recorded.js';
import { readBody } from '../../body.js';
import type { Context } from '../../context.js';
import { writableDesk } from './store.js';

export interface CloseOptions {
  encounterId: string;
  body?: string;
}

export async function run(ctx: Context, opts: CloseOptions): Promise<void> {
  const { encounterId } = opts;
  if (!encounterId.trim()) throw new UsageError('<encounterId> must not be empty.');
  let body = readBody(ctx, opts.body, 'Encounter');
  if (body !== undefined) {
    const id = (body as { id?: unknown })?.id;
    if (id !== undefined && String(id) !== encounterId)
      throw new UsageError(`The --body Encounter has id "${String(id)}", not the <encounterId> "${encounterId}".`);
    body = parseBody(dialectOf(await ctx.profile()) === 'r4' ? EncounterFinished : EncounterClose, body);
  } else {
    // Built by the profile's dialect (decisions.md §16): under r4 the Encounter is read first and kept whole.
    buildEncounterClose(await ctx.profile(), encounterId); // an id the interface refuses stops here
  }
  const client = await ctx.client();
  const res = await closeRecorded(client, await writableDesk(ctx), encounterId, body);
  ctx.emitWrite(res.status, res.body, () => `Closed chat ${encounterId}.`);
}
