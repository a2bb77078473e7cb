/** Who the Chat screen answers, and as whom (src/tui/screens/chat/reply.ts). */
import { describe, expect, it } from 'vitest';
import { type ThreadMessage, ThreadView, messageRecord } from '../../../../src/core/threads/index.js';
import { buildReply, replyPlan } from '../../../../src/tui/screens/chat/reply.js';
import { chatMessage } from '../../../helpers/chat.js';
import { testProfile } from '../../hook-harness.js';

function thread(...records: Parameters<typeof messageRecord>[]): ThreadMessage[] {
  const v = new ThreadView();
  for (const [i, r] of records.entries()) v.apply(messageRecord(r[0], r[1], r[2], `2026-03-01T10:0${i}:00Z`));
  return v.messages('enc-1') ?? [];
}

const question = { ...chatMessage('q', 'enc-1', 'Can I?', 'Patient/pat-1', 'PractitionerRole/1001'), topic: { text: 'Meds' } };
const answer = chatMessage('a', 'enc-1', 'Yes.', 'PractitionerRole/1001', 'Patient/pat-1');

describe('replyPlan', () => {
  it('answers the last incoming message: after a C3 received, C1 as the portal with sender and recipient swapped', () => {
    const plan = replyPlan(thread(['C1', 'sent', question], ['C3', 'received', answer]))!;
    expect(plan).toMatchObject({ op: 'C1', as: 'portal', answer: true });
    expect(plan.sender.reference).toBe('Patient/pat-1');
    expect(plan.recipient.reference).toBe('PractitionerRole/1001');
    expect(plan.basis.id).toBe('a');
  });

  it('after a C1 received, C3 as the practice system, the topic copied', () => {
    const plan = replyPlan(thread(['C1', 'received', question]))!;
    expect(plan).toMatchObject({ op: 'C3', as: 'practice', topic: 'Meds', answer: true });
    expect(plan.sender.reference).toBe('PractitionerRole/1001');
  });

  it('with nothing received, continues as the sender of the last message; no messages, no plan', () => {
    const plan = replyPlan(thread(['C1', 'sent', question]))!;
    expect(plan).toMatchObject({ op: 'C1', answer: false });
    expect(plan.sender.reference).toBe('Patient/pat-1');
    expect(replyPlan([])).toBeUndefined();
  });
});

describe('buildReply', () => {
  it('builds the C1/C3 body with the core builder and keeps the display texts', () => {
    const plan = replyPlan(
      thread(['C3', 'received', { ...answer, sender: [{ reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' }] }]),
    )!;
    const body = buildReply(testProfile(), plan, 'Thanks', 'Lab');
    expect(body.recipient[0]).toEqual({ reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' });
    expect(body.topic).toEqual({ text: 'Lab' });
    expect(body.encounter.identifier[0]!.value).toBe('enc-1');
    expect(() => buildReply(testProfile(), { ...plan, recipient: { reference: 'nobody' } }, 'x')).toThrow('recipient must be a reference');
  });
});
