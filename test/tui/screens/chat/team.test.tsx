/**
 * Issue 37's "Done when", on the Chat screen: two operators' TUIs (alice and bob, each against a sandbox of their
 * own) and a script on one inbox — the team store on a real PostgreSQL, and the file store as two desks on one
 * config folder — with two push receivers (as `tui --listen` starts them) writing into it. A push to either receiver shows on
 * both TUIs without a key press; alice takes a thread (`a`) and bob sees her name on it live; bob's reply to it asks
 * first; alice's reply racing a new message is held, the new message is shown, and she confirms again; who else has
 * the thread open shows on both sides; the script's `pdesk chat` commands see and change the same inbox. And a desk
 * whose view went stale (it heard no events) takes a thread only from the owner it showed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatMessage, sendMessage } from '../../../../src/core/api/chat.js';
import { PdeskClient } from '../../../../src/core/client.js';
import { openFileStore } from '../../../../src/core/store/file/index.js';
import { openPgStore } from '../../../../src/core/store/pg/index.js';
import type { DeskStore } from '../../../../src/core/store/types.js';
import { Profile } from '../../../../src/core/profile/schema.js';
import { startListening } from '../../../../src/tui/main.js';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { msg } from '../../../helpers/desk.js';
import { clusterForFile, pgInstalled } from '../../../helpers/pg.js';
import { run, writeProfiles } from '../../../helpers/run.js';
import { type Desk, KEY, openDesk } from '../../harness.js';

const pg = clusterForFile();

interface Team {
  alice: Desk;
  bob: Desk;
  /** Two receivers on the same inbox, and a client pushing to each as the portal would. */
  receivers: Array<{ url: string; close(): Promise<void> | void }>;
  pushers: PdeskClient[];
  /** What a script (`pdesk chat …`) runs with. */
  script: { configDir: string; env: Record<string, string> };
  close(): Promise<void>;
}

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'pdesk-tui-team-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Two desks over `stores` (alice's, bob's), two receivers over `listening`. */
async function team(
  stores: [DeskStore, DeskStore],
  listening: [DeskStore, DeskStore],
  dirs: [string, string],
  /** The script's config folder (the file store's own), and its environment. */
  scriptDir: string,
  env: Record<string, string>,
) {
  // As `tui --listen` starts its receiver (src/tui/main.tsx), on the desk's store.
  const receivers = await Promise.all(listening.map((store) => startListening(store, 'sandbox', 0)));
  const pushers = receivers.map((r) => new PdeskClient(Profile.parse(sandboxProfile(r.url, { name: 'pusher' }))));
  const desk = (i: 0 | 1, operator: string) =>
    openDesk({
      screen: 'chat',
      sandbox: { replyDelayMs: 60_000, demoPushDelayMs: 600_000 },
      root: { configDir: dirs[i], store: stores[i], operator, receiver: { url: receivers[i]!.url } },
    });
  const [alice, bob] = await Promise.all([desk(0, 'alice'), desk(1, 'bob')]);
  const script = { configDir: scriptDir, env: { ...env, PDESK_OPERATOR: 'carol' } };
  writeProfiles(script.configDir, [sandboxProfile(alice.sandbox.url)]);
  return {
    alice,
    bob,
    receivers,
    pushers,
    script,
    async close() {
      await alice.close();
      await bob.close();
      for (const p of pushers) await p.close();
      for (const r of receivers) await r.close();
      for (const s of [...stores, ...listening]) await s.close();
    },
  } satisfies Team;
}

const engines: Array<{ name: string; available: boolean; open(): Promise<Team> }> = [
  {
    name: 'the team store on PostgreSQL',
    available: pgInstalled,
    async open() {
      const url = await pg().createDatabase();
      const stores = (): [DeskStore, DeskStore] => [openPgStore(url), openPgStore(url)];
      return team(stores(), stores(), [tmp(), tmp()], tmp(), { PDESK_STORE_URL: url });
    },
  },
  {
    name: 'the file store (one config folder)',
    available: true,
    async open() {
      const dir = tmp();
      const stores = (): [DeskStore, DeskStore] => [openFileStore(dir), openFileStore(dir)];
      return team(stores(), stores(), [dir, dir], dir, {});
    },
  },
];

/** A patient's message (C1) in `thread`, pushed to receiver `i`. */
function push(t: Team, i: 0 | 1, thread: string, text: string) {
  const body = buildChatMessage(t.pushers[i]!.profile, {
    thread,
    text,
    sender: 'Patient/pat-1',
    recipient: 'PractitionerRole/1001',
    subject: 'Patient/pat-1',
  });
  return sendMessage(t.pushers[i]!, body);
}

const replies = (d: Desk) => d.sandbox.received.filter((r) => r.method === 'POST' && r.path === '/portal/Communication');

for (const engine of engines) {
  describe.skipIf(!engine.available)(`two operators on one inbox: ${engine.name}`, () => {
    let t: Team;
    beforeAll(async () => {
      t = await engine.open();
    }, 30_000);
    afterAll(async () => {
      await t?.close();
    });

    it('a push to either receiver shows on both TUIs; a thread taken by alice shows her name on bob’s list; the script sees it all', async () => {
      const { alice, bob } = t;
      await alice.waitFor('No threads in the store yet');
      await bob.waitFor('No threads in the store yet');
      await push(t, 0, 'enc-7', 'Can I get my results by phone?');
      for (const d of [alice, bob]) await d.waitFor(/enc-7\s+open\s+1\s+1\s/);
      await push(t, 1, 'enc-8', 'Is Friday still on?');
      for (const d of [alice, bob]) await d.waitFor(/enc-8\s+open\s+1\s+1\s/);
      // enc-8 is the newest: alice goes down to enc-7 and takes it.
      await alice.press('j');
      await alice.waitFor(/> enc-7/);
      await alice.press('a');
      await alice.waitFor('Thread enc-7 is yours now.');
      await bob.waitFor(/enc-7\s+open\s+alice\s+1\s+1\s/);
      // bob's view of the owners is current: f shows the unassigned ones only.
      await bob.press('f', 'f');
      const only = await bob.waitFor('Chat threads (unassigned)');
      expect(only).toMatch(/enc-8\s+open\s/);
      expect(only).not.toMatch(/enc-7\s+open/);
      await bob.press('f');
      await bob.waitFor(/enc-7\s+open\s+alice/);
      // The script on the same inbox.
      const threads = await run(['chat', 'threads', '--json'], t.script);
      expect(threads.code, threads.stderr).toBe(0);
      expect(threads.json().map((x: any) => [x.thread, x.owner ?? null, x.unread])).toEqual([
        ['enc-8', null, 1],
        ['enc-7', 'alice', 1],
      ]);
      expect((await run(['chat', 'assign', 'enc-8'], t.script)).code).toBe(0);
      for (const d of [alice, bob]) await d.waitFor(/enc-8\s+open\s+carol\s/);
    });

    it("bob's reply to alice's thread asks first; both see who has it open", async () => {
      const { alice, bob } = t;
      await alice.press(KEY.enter); // enc-7, selected
      await alice.waitFor(/in C1\s+Patient\/pat-1\s+unread\s+Can I get my results/);
      await bob.press('j', KEY.enter);
      let f = await bob.waitFor(/in C1\s+Patient\/pat-1\s+unread\s+Can I get my results/);
      expect(f).toContain("Chat › enc-7 · open · 1 message · 1 unread · alice's");
      // Presence: each sees the other within a heartbeat.
      await bob.waitFor("alice's · open by alice");
      await alice.waitFor("alice's · open by bob");
      await bob.press('c');
      f = await bob.waitFor("Thread enc-7 is alice's. Reply anyway? It stays alice's.");
      await bob.press('n');
      await bob.waitFor(/in C1\s+Patient\/pat-1\s+unread/);
      expect(replies(bob)).toHaveLength(0);
      // Bob leaves the thread: alice no longer sees him there.
      await bob.press(KEY.esc);
      await alice.waitGone('open by bob');
    });

    it("alice's reply racing a new message is held, shows it, and goes once she confirms again; bob sees the reply live", async () => {
      const { alice, bob } = t;
      await alice.press('c');
      await alice.waitFor('Answer as the practice system (C3) in enc-7');
      await alice.type('Yes, we can call you at noon.');
      await alice.press(KEY.enter, KEY.enter);
      await alice.waitFor('Send? POST Communication (C3) to the portal in enc-7:');
      // While she reviews it, the patient writes again (through the other receiver).
      await push(t, 1, 'enc-7', 'Actually, email is better.');
      await bob.waitFor(/enc-7\s+open\s+alice\s+2\s+2\s/);
      await alice.press('y');
      const held = await alice.waitFor('Not sent: a message came in after you opened the reply. Send your reply (C3) in enc-7 now?');
      expect(held).toMatch(/in {2}C1 Patient\/pat-1: Actually, email is better\./);
      expect(held).toContain('Your reply: Yes, we can call you at noon.');
      expect(replies(alice)).toHaveLength(0);
      // The thread below already shows the new message; she confirms again and it goes.
      await alice.press('y');
      await alice.waitFor(/Sent C3 in enc-7 \(HTTP 201\), recorded/);
      expect(replies(alice)).toHaveLength(1);
      await bob.waitFor(/enc-7\s+open\s+alice\s+2\s+3\s.*Yes, we can call you/);
      const show = await run(['chat', 'show', 'enc-7', '--json'], t.script);
      expect(show.json().map((m: any) => [m.via, m.operator ?? null, m.text])).toEqual([
        ['received', null, 'Can I get my results by phone?'],
        ['received', null, 'Actually, email is better.'],
        ['sent', 'alice', 'Yes, we can call you at noon.'],
      ]);
      // bob's X-ray of the thread reads the same inbox: its owner, each message, who sent the reply.
      await bob.press('X');
      const x = await bob.waitFor(/owned by alice since/);
      expect(x).toContain('X-ray · Chat enc-7');
      expect(x).toMatch(/C3 out .*PractitionerRole\/1001 \(alice\) · no read marker recorded · Yes, we can/);
      expect(x).toMatch(/C1 in .* · unread \(no read marker\) · Actually, email is better\./);
      await bob.press(KEY.esc);
      await bob.waitGone('X-ray · Chat enc-7');
    });
  });
}

describe('a stale view', () => {
  it('a takes the thread only if its owner is still the one shown: else a conflict message, and nothing changes', async () => {
    const dir = tmp();
    const store = openFileStore(dir);
    // A desk that hears no events (its connection lost): what it shows goes stale.
    const deaf = new Proxy(store, {
      get: (target, key) =>
        key === 'subscribe'
          ? async () => ({ poll: async () => undefined, close: async () => undefined })
          : Reflect.get(target, key, target),
    });
    const other = openFileStore(dir);
    await other.recordReceived('sandbox', msg('q1', 'enc-5', 'hello', 1));
    const d = await openDesk({ screen: 'chat', root: { configDir: dir, store: deaf, operator: 'bob' } });
    try {
      await d.waitFor(/> enc-5\s+open\s{2,}1\s+1\s/);
      await other.assign('sandbox', 'enc-5', { to: 'carol', by: 'carol' });
      await d.press('a');
      await d.waitFor("Not taken: thread enc-5 is carol's now, not unassigned as shown. Look again.");
      expect((await other.thread('sandbox', 'enc-5'))?.owner).toBe('carol');
      // What the store said is shown now: carol's.
      await d.waitFor(/> enc-5\s+open\s+carol\s/);
    } finally {
      await d.close();
      await other.close();
      await store.close();
    }
  });
});
