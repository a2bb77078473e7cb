/**
 * Who the Chat screen answers, and as whom (pure; the screen builds and sends the body).
 *
 * The desk answers the party the thread's last incoming message came from: after a C3 (practice system →
 * portal) it answers as the portal with C1; after a C1 it answers as the practice system with C3. Sender and
 * recipient are that message's, swapped; subject and topic are copied. A thread with nothing received yet
 * continues as the party of its last message (same operation, same sender and recipient).
 */
import { buildChatMessage } from '../../../core/api/chat.js';
import type { ChatCommunication } from '../../../core/schemas/chat.js';
import type { ChatOp, Party, ThreadMessage } from '../../../core/threads/index.js';
import type { Profile } from '../../../core/profile/schema.js';

export interface Ref {
  reference: string;
  display?: string;
}

export interface ReplyPlan {
  thread: string;
  op: ChatOp;
  /** The party the desk speaks as. */
  as: Party;
  sender: Ref;
  recipient: Ref;
  subject: Ref;
  topic?: string;
  /** The message the plan was made from, and whether it was received (an answer) or sent (a follow-up). */
  basis: ThreadMessage;
  answer: boolean;
}

const ref = (r: { reference?: string; display?: string } | undefined, fallback: string): Ref => ({
  reference: r?.reference ?? fallback,
  ...(r?.display ? { display: r.display } : {}),
});

/** The plan for a new message in a thread, or undefined for a thread without messages. */
export function replyPlan(messages: readonly ThreadMessage[]): ReplyPlan | undefined {
  let basis: ThreadMessage | undefined;
  for (let i = messages.length - 1; i >= 0 && !basis; i--) if (messages[i]!.via === 'received') basis = messages[i];
  const answer = !!basis;
  basis ??= messages[messages.length - 1];
  if (!basis) return undefined;
  const c = basis.resource;
  const from = ref(c.sender?.[0], basis.sender);
  const to = ref(c.recipient?.[0], basis.recipient);
  const op: ChatOp = answer ? (basis.op === 'C3' ? 'C1' : 'C3') : basis.op;
  return {
    thread: basis.thread,
    op,
    as: op === 'C1' ? 'portal' : 'practice',
    sender: answer ? to : from,
    recipient: answer ? from : to,
    subject: ref(c.subject?.[0], basis.subject),
    ...(basis.topic ? { topic: basis.topic } : {}),
    basis,
    answer,
  };
}

/** The C1/C3 body of a plan: the core builder, then the references' display texts copied. */
export function buildReply(
  profile: Profile,
  plan: Pick<ReplyPlan, 'thread' | 'sender' | 'recipient' | 'subject'>,
  text: string,
  topic?: string,
): ChatCommunication {
  const body = buildChatMessage(profile, {
    thread: plan.thread,
    text,
    sender: plan.sender.reference,
    recipient: plan.recipient.reference,
    subject: plan.subject.reference,
    ...(topic ? { topic } : {}),
  });
  if (plan.sender.display) body.sender[0]!.display = plan.sender.display;
  if (plan.recipient.display) body.recipient[0]!.display = plan.recipient.display;
  if (plan.subject.display) body.subject[0]!.display = plan.subject.display;
  return body;
}

export const partyLabel = (p: Party) => (p === 'portal' ? 'the portal' : 'the practice system');
