/** Rows and details of the Chat screen (src/tui/screens/chat/format.ts). */
import { describe, expect, it } from 'vitest';
import { buildEncounterClose, buildReadMarker } from '../../../../src/core/api/chat.js';
import { ThreadView, closeRecord, messageRecord, readRecord } from '../../../../src/core/threads/index.js';
import { detailLines, messageRow, messageWidths, threadHead, threadRow } from '../../../../src/tui/screens/chat/format.js';
import { chatMessage } from '../../../helpers/chat.js';
import { testProfile } from '../../hook-harness.js';

const view = new ThreadView();
view.apply(
  messageRecord('C3', 'received', chatMessage('m-1', 'enc-1', 'Your results \u001b[31mare in.', 'PractitionerRole/1001', 'Patient/pat-1')),
);
view.apply(readRecord('sent', 'm-1', buildReadMarker(testProfile(), new Date(2026, 2, 1, 10)), 'enc-1'));
view.apply(closeRecord('received', 'enc-2', buildEncounterClose(testProfile(), 'enc-2')));

describe('chat format', () => {
  it('a thread row shows state, owner, unread and message counts; a closed thread without messages says so', () => {
    const [open, closed] = [view.deskThread('enc-1')!, view.deskThread('enc-2')!];
    expect(threadRow(open, 100)).toMatch(/^enc-1\s+open\s+1\s+\d\d-\d\d \d\d:\d\d\s+Your results are in\.$/);
    expect(threadRow({ ...open, owner: 'alice' }, 100)).toMatch(/^enc-1\s+open\s+alice\s+1\s+\d\d-\d\d \d\d:\d\d\s+Your results/);
    expect(threadRow(closed, 80)).toMatch(/^enc-2\s+closed\s+0\s+.*\(closed\)$/);
  });

  it('the thread head names the owner and who else has it open; a pending message is marked and explained', () => {
    const head = threadHead({ ...view.deskThread('enc-1')!, owner: 'alice' }, 'enc-1', undefined, 100, [
      { operator: 'bob', seenAt: new Date().toISOString() },
    ]);
    expect(head).toBe("Chat › enc-1 · open · 1 message · alice's · open by bob");
    expect(threadHead(view.deskThread('enc-2'), 'enc-2', undefined, 100)).toBe('Chat › enc-2 · closed · 0 messages · unassigned');
    const m = { ...view.deskMessages('enc-1')![0]!, via: 'pending' as const, operator: 'alice' };
    expect(messageRow(m, 80)).toMatch(/out C3\s+PractitionerRole\/1001\s+\?\s+Your results/);
    expect(detailLines(m, 100)[0]).toBe(
      'C3 sent by alice · practice → portal · outcome unknown: no answer recorded (it may have reached them) · recorded ' +
        detailLines(m, 100)[0]!.split(' · recorded ')[1],
    );
  });

  it('a message row and its detail: direction, sender, read state, text cleaned and wrapped', () => {
    const m = view.messages('enc-1')![0]!;
    expect(messageWidths(80)[2]).toBe(21);
    expect(messageWidths(120)[2]).toBe(24);
    // On a wide terminal the sender column grows to the longest sender.
    expect(messageWidths(200, [{ ...m, senderDisplay: 'Dr. Annemarie van den Berg-Smit' }])[2]).toBe(
      'Dr. Annemarie van den Berg-Smit'.length,
    );
    expect(messageRow(m, 80)).toMatch(/in C3\s+PractitionerRole\/1001\s+read\s+Your results are in\./);
    const lines = detailLines(m, 16);
    expect(lines[0]).toMatch(/^C3 received · practice → portal · read \(marked/);
    expect(lines.slice(2)).toEqual(['  Your results', '  are in.']);
  });

  it('a text with TABs is wrapped as the screen shows it: every letter kept, no line wider than the detail', () => {
    const v = new ThreadView();
    const text = 'Ibuprofen:\tit can harm you if\tyou take it daily; ask about your kidneys first.';
    v.apply(messageRecord('C3', 'received', chatMessage('m-2', 'enc-3', text, 'PractitionerRole/1001', 'Patient/pat-1')));
    const body = detailLines(v.messages('enc-3')![0]!, 28).slice(2);
    for (const l of body) {
      expect(l).not.toContain('\t');
      expect(l.length).toBeLessThanOrEqual(28);
    }
    expect(body.join(' ').trim().split(/\s+/)).toEqual(text.split(/\s+/));
  });

  it('the thread header keeps the state and counts in view: a long thread id is cut, then the topic', () => {
    const v = new ThreadView();
    const id = `enc-${'7'.repeat(90)}`;
    v.apply(messageRecord('C3', 'received', chatMessage('m-3', id, 'Hi', 'PractitionerRole/1001', 'Patient/pat-1')));
    const head = threadHead(v.summary(id), id, 'Lab results', 80);
    expect(head.length).toBeLessThanOrEqual(80);
    expect(head).toMatch(/^Chat › enc-7+… · open · 1 message · 1 unread/);
    expect(threadHead(v.summary(id), id, 'Lab results', 200)).toBe(`Chat › ${id} · open · 1 message · 1 unread · unassigned · Lab results`);
  });
});
