/**
 * `pdesk chat send`, `threads` and `show` called as their modules' `run(ctx, options)`, without a command line
 * (src/cli/verb.ts): a message sent over real HTTP and recorded in the thread store, which the reading verbs then
 * list. The command lines themselves: test/cli/commands/chat.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as send } from '../../../../src/cli/commands/chat/send.js';
import { run as show } from '../../../../src/cli/commands/chat/show.js';
import { run as threads } from '../../../../src/cli/commands/chat/threads.js';
import { type Env, testContext, withSandbox } from '../../../helpers/run.js';

let env: Env;
beforeAll(async () => {
  env = await withSandbox({ replyDelayMs: 60_000 });
});
afterAll(async () => {
  await env?.close();
});

describe('chat send, threads and show: run(ctx, options)', () => {
  it('sends C1 and records it; threads and show read it back from the store', async () => {
    const s = testContext({ configDir: env.configDir, globals: { json: true } });
    try {
      await send(s.ctx, {
        thread: 'enc-run-1',
        text: 'Sent without argv',
        sender: 'Patient/pat-1',
        recipient: 'PractitionerRole/1001',
        subject: 'Patient/pat-1',
      });
      expect(s.json()).toMatchObject({ resourceType: 'Communication', payload: [{ contentString: 'Sent without argv' }] });
    } finally {
      await s.close();
    }
    const post = env.sandbox.received.find((r) => r.method === 'POST' && r.path === '/practice/Communication');
    expect(post).toBeDefined();

    const t = testContext({ configDir: env.configDir, globals: { json: true } });
    await threads(t.ctx);
    expect(t.json()).toEqual([
      expect.objectContaining({ thread: 'enc-run-1', status: 'open', messages: 1, lastText: 'Sent without argv' }),
    ]);
    const m = testContext({ configDir: env.configDir, globals: { json: true } });
    await show(m.ctx, { encounterId: 'enc-run-1' });
    expect(m.json()).toEqual([expect.objectContaining({ text: 'Sent without argv', from: 'portal', to: 'practice' })]);
  });
});
