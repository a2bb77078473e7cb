/** A chat message as the desk store shows it, from the Communication and what the store knows of it. */
import type { ChatCommunication } from '../schemas/chat.js';
import type { ChatOp, DeskMessage, Party, Via } from './types.js';

/** Which party sent a message of this operation, and to whom (C1 portal → practice, C3 practice → portal). */
export function directionOf(op: ChatOp): { from: Party; to: Party } {
  return op === 'C1' ? { from: 'portal', to: 'practice' } : { from: 'practice', to: 'portal' };
}

/** The text of a chat message: its payloads' strings, one per line. */
export function messageText(c: Pick<ChatCommunication, 'payload'>): string {
  return (c.payload ?? []).map((p) => p.contentString ?? '').join('\n');
}

export interface StoredMessage {
  id: string;
  thread: string;
  op: ChatOp;
  via: Via;
  at: string;
  seq: number;
  operator?: string;
  readAt?: string;
  resource: ChatCommunication;
}

export function deskMessage(m: StoredMessage): DeskMessage {
  const c = m.resource;
  const attachment = c.payload?.find((p) => p.contentAttachment)?.contentAttachment;
  return {
    id: m.id,
    thread: m.thread,
    op: m.op,
    via: m.via,
    ...directionOf(m.op),
    at: m.at,
    ...(c.sent ? { sent: c.sent } : {}),
    sender: c.sender?.[0]?.reference ?? '',
    ...(c.sender?.[0]?.display ? { senderDisplay: c.sender[0].display } : {}),
    recipient: c.recipient?.[0]?.reference ?? '',
    ...(c.recipient?.[0]?.display ? { recipientDisplay: c.recipient[0].display } : {}),
    subject: c.subject?.[0]?.reference ?? '',
    text: messageText(c),
    ...(c.topic?.text ? { topic: c.topic.text } : {}),
    ...(attachment ? { attachment: { contentType: attachment.contentType, title: attachment.title } } : {}),
    read: m.readAt !== undefined,
    ...(m.readAt !== undefined ? { readAt: m.readAt } : {}),
    unread: m.via === 'received' && m.readAt === undefined,
    resource: c,
    seq: m.seq,
    ...(m.operator ? { operator: m.operator } : {}),
  };
}
