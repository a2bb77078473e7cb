/**
 * `pdesk chat reply`: C3, a message from the practice system to the portal, checked against what changed since the
 * operator saw the thread and recorded in the desk store (message.ts).
 */
import type { Context } from '../../context.js';
import { type MessageOptions, sendMessage } from './message.js';

export type ReplyOptions = Omit<MessageOptions, 'attachment'>;

export function run(ctx: Context, opts: ReplyOptions): Promise<void> {
  return sendMessage(ctx, 'C3', opts);
}
