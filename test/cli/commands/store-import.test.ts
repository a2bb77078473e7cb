/**
 * `pdesk store import`, in-process: a desk that worked on its local files (chat messages sent and received, a
 * notification, their audit trail) moves to the team store on a real PostgreSQL: a dry run counts and changes
 * nothing, the copy adds everything once, a second run adds nothing; --all-profiles takes every local store; without
 * a team store it exits 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../../src/core/store/pg/index.js';
import { openThreadStore } from '../../../src/core/threads/index.js';
import { chatMessage } from '../../helpers/chat.js';
import { clusterForFile, pgInstalled } from '../../helpers/pg.js';
import { type Env, run, tempDir, withSandbox } from '../../helpers/run.js';
import { WRITES } from '../../helpers/writes.js';

const pg = clusterForFile();

describe('pdesk store import without a team store', () => {
  it('exits 3: there is nothing to import into', async () => {
    const r = await run(['store', 'import'], { configDir: tempDir() });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^pdesk: No team store is configured: there is nothing to import into\./);
  });
});

describe.skipIf(!pgInstalled)('pdesk store import', () => {
  let env: Env;
  let url: string;
  beforeAll(async () => {
    env = await withSandbox();
    url = await pg().createDatabase();
    // Working on the local files: a message sent, one received, a notification (and their audit trail).
    const sent = await env.run(WRITES.find((w) => w.op === 'C1')!.args);
    expect(sent.code, sent.stderr).toBe(0);
    const note = await env.run(['notifications', 'send', '--email', 'a@example.org', '--topic', 'T', '--text', 'x']);
    expect(note.code, note.stderr).toBe(0);
    const store = openThreadStore(env.configDir, 'sandbox');
    const { messageRecord } = await import('../../../src/core/threads/index.js');
    await store.append([
      messageRecord('C1', 'received', chatMessage('in-1', 'enc-200', 'Hi there', 'Patient/pat-2', 'PractitionerRole/1001')),
    ]);
    await store.close();
    // A second profile's store, for --all-profiles.
    const other = openThreadStore(env.configDir, 'south');
    await other.append([messageRecord('C1', 'received', chatMessage('s-1', 'enc-s', 'South', 'Patient/pat-3', 'PractitionerRole/1'))]);
    await other.close();
  });
  afterAll(() => env?.close());

  it('a dry run counts, the copy adds each record once, a second run adds nothing', async () => {
    const team = { PDESK_STORE_URL: url };
    const dry = await env.run(['store', 'import', '--dry-run', '--json'], { env: team });
    expect(dry.code, dry.stderr).toBe(0);
    const counted = dry.json().profiles[0];
    expect(counted).toMatchObject({ profile: 'sandbox', added: { messages: 2, notifications: 0, audit: 2 } });
    const check = openPgStore(url);
    try {
      expect(await check.listThreads('sandbox')).toEqual([]);
    } finally {
      await check.close();
    }

    const first = await env.run(['store', 'import', '--output', 'table'], { env: team });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^Imported into postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\S+:\n {2}sandbox: 2 messages, 2 audit records added\n$/,
    );
    expect(first.stdout).not.toContain(pg().password);
    const second = await env.run(['store', 'import', '--json'], { env: team });
    expect(second.json().profiles[0]).toMatchObject({
      added: { messages: 0, reads: 0, closes: 0, owners: 0, notifications: 0, audit: 0 },
      present: { messages: 2, audit: 2 },
    });
    const t = await env.run(['store', 'import', '--output', 'table'], { env: team });
    expect(t.stdout).toContain('  sandbox: nothing added\n    already there: 2 messages, 2 audit records');

    const store = openPgStore(url);
    try {
      expect((await store.listThreads('sandbox')).map((x) => [x.thread, x.messages, x.unread])).toEqual([
        ['enc-200', 1, 1],
        ['enc-100', 1, 0],
      ]);
      expect((await store.auditList('sandbox')).map((a) => a.op)).toEqual(['C1', 'C5']);
    } finally {
      await store.close();
    }
  });

  it('--all-profiles copies every local store in the config folder', async () => {
    const db = await pg().createDatabase();
    const r = await env.run(['store', 'import', '--all-profiles', '--json'], { env: { PDESK_STORE_URL: db } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().profiles.map((p: any) => [p.profile, p.added.messages])).toEqual([
      ['sandbox', 2],
      ['south', 1],
    ]);
  });
});
