/**
 * The chat commands as a team uses them, on both engines: two operators (PDESK_OPERATOR alice and bob) on one config
 * folder (the file store), or on two machines' config folders and one team store on a real PostgreSQL. Pushes are
 * recorded as a listener records them. `chat threads --mine | --unassigned | --all`, `chat assign [--to] [--force]`,
 * `chat unassign`, and `chat reply` held by what changed since `chat show` (or `--after`), by another owner unless
 * `--force`; run in-process against the sandbox over real HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileStore } from '../../../../src/core/store/file/index.js';
import { openPgStore } from '../../../../src/core/store/pg/index.js';
import type { DeskStore } from '../../../../src/core/store/types.js';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../../src/sandbox/server.js';
import { msg } from '../../../helpers/desk.js';
import { clusterForFile, pgInstalled } from '../../../helpers/pg.js';
import { run, writeProfiles } from '../../../helpers/run.js';

const pg = clusterForFile();
const BACK = ['--sender', 'PractitionerRole/1001', '--recipient', 'Patient/pat-1', '--subject', 'Patient/pat-1'];

let sandbox: Sandbox;
const dirs: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, replyDelayMs: 60_000, log: () => undefined });
});
afterAll(async () => {
  await sandbox.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A config folder whose profile `sandbox` points at the sandbox. */
function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-chat-team-'));
  dirs.push(dir);
  writeProfiles(dir, [sandboxProfile(sandbox.url)]);
  return dir;
}

interface Team {
  /** Run a command as `operator` at their desk. */
  as(operator: 'alice' | 'bob', args: string[]): ReturnType<typeof run>;
  /** The store as a listener writes into it. */
  listener: DeskStore;
  close(): Promise<void>;
}

const engines: Array<{ name: string; available: boolean; open(): Promise<Team> }> = [
  {
    name: 'the file store (one config folder)',
    available: true,
    async open() {
      const dir = configDir();
      const listener = openFileStore(dir);
      return {
        as: (operator, args) => run(args, { configDir: dir, env: { PDESK_OPERATOR: operator } }),
        listener,
        close: () => listener.close(),
      };
    },
  },
  {
    name: 'the team store (a config folder each)',
    available: pgInstalled,
    async open() {
      const url = await pg().createDatabase();
      const desks = { alice: configDir(), bob: configDir() };
      const listener = openPgStore(url);
      return {
        as: (operator, args) => run(args, { configDir: desks[operator], env: { PDESK_OPERATOR: operator, PDESK_STORE_URL: url } }),
        listener,
        close: () => listener.close(),
      };
    },
  },
];

const replies = () => sandbox.received.filter((r) => r.method === 'POST' && r.path === '/portal/Communication').length;
const ids = (r: { json(): any }) => r.json().map((t: any) => t.thread);

for (const engine of engines) {
  describe.skipIf(!engine.available)(`chat as a team: ${engine.name}`, () => {
    let t: Team;
    beforeAll(async () => {
      t = await engine.open();
    });
    afterAll(async () => {
      await t?.close();
    });

    it('assign, unassign and the threads filters; another operator’s thread changes hands only with --force', async () => {
      for (const [i, thread] of ['enc-1', 'enc-2', 'enc-3'].entries())
        await t.listener.recordReceived('sandbox', msg(`m${i}`, thread, `question ${i}`, i));
      const took = await t.as('alice', ['chat', 'assign', 'enc-1', '--output', 'table']);
      expect(took.code).toBe(0);
      expect(took.stdout).toBe("Made thread enc-1 alice's.\n");
      expect((await t.as('bob', ['chat', 'assign', 'enc-2'])).code).toBe(0);
      expect(ids(await t.as('alice', ['chat', 'threads', '--mine', '--json']))).toEqual(['enc-1']);
      expect(ids(await t.as('bob', ['chat', 'threads', '--mine', '--json']))).toEqual(['enc-2']);
      expect(ids(await t.as('alice', ['chat', 'threads', '--unassigned', '--json']))).toEqual(['enc-3']);
      expect(ids(await t.as('alice', ['chat', 'threads', '--all', '--json']))).toEqual(['enc-3', 'enc-2', 'enc-1']);
      const both = await t.as('alice', ['chat', 'threads', '--mine', '--all']);
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/^pdesk: --mine and --all cannot be given together: give one\./);
      const table = (await t.as('bob', ['chat', 'threads', '--output', 'table'])).stdout.split('\n');
      expect(table[0]).toMatch(/^THREAD\s+STATUS\s+OWNER\s+/);
      expect(table.find((l) => l.startsWith('enc-1'))).toMatch(/^enc-1\s+open\s+alice\s/);

      // Bob cannot take alice's thread by accident; with --force he can, and the change names her.
      const steal = await t.as('bob', ['chat', 'assign', 'enc-1']);
      expect(steal.code).toBe(2);
      expect(steal.stderr).toBe("pdesk: Thread enc-1 is alice's: nothing changed.\n  --force gives it to bob all the same.\n");
      const forced = await t.as('bob', ['chat', 'assign', 'enc-1', '--force', '--json']);
      expect(forced.code).toBe(0);
      expect(forced.json()).toEqual({ thread: 'enc-1', outcome: 'assigned', owner: 'bob', previous: 'alice', dryRun: false });
      expect((await t.as('alice', ['chat', 'unassign', 'enc-1'])).code).toBe(2);
      const left = await t.as('bob', ['chat', 'unassign', 'enc-1', '--output', 'table']);
      expect(left.stdout).toBe("Made thread enc-1 unassigned (it was bob's).\n");
      expect((await t.as('bob', ['chat', 'unassign', 'enc-1', '--output', 'table'])).stdout).toBe('Thread enc-1 is unassigned already.\n');
      // --to another operator; --dry-run changes nothing.
      const dry = await t.as('alice', ['chat', 'assign', 'enc-3', '--to', 'carol', '--dry-run', '--json']);
      expect(dry.json()).toMatchObject({ outcome: 'assigned', owner: 'carol', dryRun: true });
      expect((await t.listener.thread('sandbox', 'enc-3'))?.owner).toBeUndefined();
      expect((await t.as('alice', ['chat', 'assign', 'enc-3', '--to', 'carol'])).code).toBe(0);
      expect((await t.listener.thread('sandbox', 'enc-3'))?.owner).toBe('carol');
      expect((await t.listener.assignments('sandbox', 'enc-3')).map((a) => [a.owner, a.by, a.reason])).toEqual([
        ['carol', 'alice', 'assign'],
      ]);
      expect((await t.as('alice', ['chat', 'assign', 'enc-3', '--to', ' '])).code).toBe(2);
      const unknown = await t.as('alice', ['chat', 'assign', 'enc-404']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^pdesk: There is no thread "enc-404" in the desk's store\./);
    });

    it('a reply after a message the operator has not seen is held and says what came in; sent again, it goes and takes the thread', async () => {
      await t.listener.recordReceived('sandbox', msg('q1', 'enc-500', 'Is my prescription ready?', 1));
      const shown = await t.as('alice', ['chat', 'show', 'enc-500', '--output', 'table']);
      expect(shown.stdout.split('\n')[0]).toMatch(/^Thread enc-500: open, 1 message, 1 unread, unassigned · seen up to \d+$/);
      await t.listener.recordReceived('sandbox', msg('q2', 'enc-500', 'Actually, never mind: I found it.', 2));
      const before = replies();
      const reply = ['chat', 'reply', '--thread', 'enc-500', '--text', 'It is ready.', ...BACK, '--output', 'table'];
      const held = await t.as('alice', reply);
      expect(held.code).toBe(2);
      expect(held.stdout).toBe('');
      const [first, line, next] = held.stderr.split('\n');
      expect(first).toMatch(/^pdesk: Not sent: a message came in to thread enc-500 after the point you saw it at \(\d+\)\.$/);
      expect(line).toMatch(/^ {2}\d\d:\d\d in C1 from Patient\/pat-1: Actually, never mind: I found it\.$/);
      expect(next).toBe('  They count as seen now: send the same reply again if it still answers them.');
      expect(replies()).toBe(before);
      // Seen now: the same command sends it, and the first reply takes the thread.
      const sent = await t.as('alice', reply);
      expect(sent.code).toBe(0);
      expect(sent.stdout).toMatch(/ to thread enc-500 \(practice → portal, HTTP 201 Created\)\. The thread is yours now \(alice\)\.\n$/);
      expect(replies()).toBe(before + 1);
      expect(await t.listener.thread('sandbox', 'enc-500')).toMatchObject({ owner: 'alice', messages: 3 });
      const [, , mine] = (await t.listener.messages('sandbox', 'enc-500'))!;
      expect(mine).toMatchObject({ via: 'sent', operator: 'alice', text: 'It is ready.' });
    });

    it("a reply to another operator's thread needs --force (exit 2 naming the owner), which leaves it theirs; --after sets the point", async () => {
      const before = replies();
      const reply = ['chat', 'reply', '--thread', 'enc-500', '--text', 'Bob here.', ...BACK];
      const held = await t.as('bob', reply);
      expect(held.code).toBe(2);
      expect(held.stderr).toBe(
        "pdesk: Not sent: thread enc-500 is alice's.\n  --force sends it to alice's thread all the same (it stays alice's).\n",
      );
      // From the start of the thread, everything since is new: the number to give is said.
      const old = await t.as('bob', [...reply, '--force', '--after', '0']);
      expect(old.code).toBe(2);
      expect(old.stderr).toMatch(/^pdesk: Not sent: 3 messages came in to thread enc-500 after the point you saw it at \(0\)\.\n/);
      expect(old.stderr).toMatch(/ {2}\d\d:\d\d out C3 from alice: It is ready\.\n/);
      const point = /Send it again with --after (\d+) if it still answers them\./.exec(old.stderr)?.[1];
      expect(point).toBeDefined();
      const forced = await t.as('bob', [...reply, '--force', '--after', point!]);
      expect(forced.code).toBe(0);
      expect(replies()).toBe(before + 1);
      expect((await t.listener.thread('sandbox', 'enc-500'))?.owner).toBe('alice');
      expect((await t.as('bob', [...reply, '--after', 'x'])).code).toBe(2);
      // The messages show who sent them.
      const show = await t.as('alice', ['chat', 'show', 'enc-500', '--json']);
      expect(show.json().map((m: any) => [m.via, m.operator ?? null])).toEqual([
        ['received', null],
        ['received', null],
        ['sent', 'alice'],
        ['sent', 'bob'],
      ]);
      expect(show.json().every((m: any) => Number.isInteger(m.seq))).toBe(true);
    });
  });
}
