/** core/threads/view.ts: how records settle one another in the view a store's readers see. */
import { describe, expect, it } from 'vitest';
import { buildChatMessage } from '../../../src/core/api/chat.js';
import { messageRecord } from '../../../src/core/threads/records.js';
import { ThreadView } from '../../../src/core/threads/view.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';

const profile = Profile.parse(sandboxProfile('http://127.0.0.1:1'));
const message = (id: string) =>
  buildChatMessage(profile, {
    id,
    thread: 'enc-1',
    text: 'hello',
    sender: 'Patient/pat-1',
    recipient: 'PractitionerRole/1001',
    subject: 'Patient/pat-1',
  });

describe('a pending message', () => {
  it('is settled by its sent record under the id the server gave it (its identifier keeps the id sent)', () => {
    const view = new ThreadView();
    const sent = message('pdesk-1');
    view.apply(messageRecord('C1', 'pending', sent, '2026-11-27T10:00:00.000Z'));
    expect(view.messages('enc-1')?.map((m) => [m.id, m.via])).toEqual([['pdesk-1', 'pending']]);
    view.apply(messageRecord('C1', 'sent', { ...sent, id: 'server-7' }, '2026-11-27T10:00:00.000Z'));
    expect(view.messages('enc-1')?.map((m) => [m.id, m.via])).toEqual([['server-7', 'sent']]);
    expect(view.threads.map((t) => t.messages)).toEqual([1]);
  });

  it('stays pending (outcome unknown) when a sent record names another message', () => {
    const view = new ThreadView();
    view.apply(messageRecord('C1', 'pending', message('pdesk-1'), '2026-11-27T10:00:00.000Z'));
    view.apply(messageRecord('C1', 'sent', message('pdesk-2'), '2026-11-27T10:01:00.000Z'));
    expect(view.messages('enc-1')?.map((m) => [m.id, m.via])).toEqual([
      ['pdesk-1', 'pending'],
      ['pdesk-2', 'sent'],
    ]);
  });
});
