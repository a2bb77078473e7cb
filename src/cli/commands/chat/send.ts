/** `pdesk chat send`: C1, a message from the portal to the practice system, recorded in the desk store. */
import type { Context } from '../../context.js';
import { type MessageOptions, sendMessage } from './message.js';

export type SendOptions = Omit<MessageOptions, 'after' | 'force'>;

export function run(ctx: Context, opts: SendOptions): Promise<void> {
  return sendMessage(ctx, 'C1', opts);
}
