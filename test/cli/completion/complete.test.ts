/**
 * `pdesk __complete <word>…` (src/cli/completion/complete.ts), run in-process: commands and options from the
 * commander tree, fixed values, profile names from the profile store, thread ids from the thread store of the
 * selected profile, appointment and medication request ids from the last list against the sandbox, file names
 * asked for with `:files`. It never sends a request and never prints an error.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCompletion } from '../../../src/cli/completion/complete.js';
import { openPgStore } from '../../../src/core/store/pg/index.js';
import { closeRecord, messageRecord, openThreadStore, readRecord } from '../../../src/core/threads/index.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { chatMessage } from '../../helpers/chat.js';
import { msg } from '../../helpers/desk.js';
import { clusterForFile, pgInstalled } from '../../helpers/pg.js';
import { type Env, run, tempDir, withSandbox, writeProfiles } from '../../helpers/run.js';

/** The values `pdesk __complete …words` offers (descriptions dropped), and whether it asks for files. */
async function complete(words: string[], configDir: string, env: Record<string, string> = {}) {
  const r = await run(['__complete', ...words], { configDir, env });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  const lines = r.stdout.split('\n').filter(Boolean);
  return {
    values: lines.filter((l) => l !== ':files').map((l) => l.split('\t')[0]),
    described: Object.fromEntries(lines.filter((l) => l.includes('\t')).map((l) => l.split('\t'))),
    files: lines.includes(':files'),
    stdout: r.stdout,
  };
}

const PROFILE = sandboxProfile('http://127.0.0.1:9');
const pg = clusterForFile();

describe('commands and options, from the commander tree', () => {
  const dir = tempDir('pdesk-complete-');

  it('commands at the top with their descriptions; a prefix narrows them', async () => {
    const top = await complete([''], dir);
    for (const c of ['profile', 'slots', 'appointments', 'chat', 'medications', 'check', 'doctor', 'tui', 'completion'])
      expect(top.values).toContain(c);
    expect(top.values).not.toContain('__complete');
    expect(top.described.slots).toBe('slots (A4)');
    expect((await complete(['ap'], dir)).values).toEqual(['api', 'appointment-types', 'appointments']);
    expect((await complete(['chat', ''], dir)).values).toEqual([
      'send',
      'reply',
      'mark-read',
      'close',
      'threads',
      'show',
      'assign',
      'unassign',
    ]);
    // Global options before the command do not stop it being found.
    expect((await complete(['--profile', 'x', '--json', 'chat', 'th'], dir)).values).toEqual(['threads']);
  });

  it("a command's options, then the global ones, then --help; --version only at the top", async () => {
    const o = await complete(['slots', 'list', '--'], dir);
    expect(o.values.slice(0, 6)).toEqual(['--service-category', '--from', '--to', '--schedule', '--status', '--practitioner']);
    for (const g of ['--profile', '--json', '--limit', '--output', '--dry-run', '--verbose', '--no-color', '--query', '--help'])
      expect(o.values).toContain(g);
    expect(o.values).not.toContain('--version');
    expect(o.described['--from']).toMatch(/^first day/);
    expect((await complete(['--v'], dir)).values).toEqual(['--version', '--verbose']);
    expect((await complete(['appointments', 'book', '--s'], dir)).values).toEqual([
      '--slot-json',
      '--start',
      '--service-category',
      '--status',
    ]);
  });

  it('fixed values: --output (also as --output=), --party, each --status, the shells, operation ids in a comma list', async () => {
    expect((await complete(['--output', ''], dir)).values).toEqual(['table', 'json', 'ndjson']);
    expect((await complete(['slots', 'list', '--output=n'], dir)).values).toEqual(['--output=ndjson']);
    expect((await complete(['api', 'GET', '/x', '--party', 'p'], dir)).values).toEqual(['practice', 'portal']);
    expect((await complete(['appointments', 'book', '--status', ''], dir)).values).toEqual(['booked', 'proposed']);
    expect((await complete(['slots', 'list', '--status', 'bu'], dir)).values).toEqual(['busy', 'busy-unavailable', 'busy-tentative']);
    expect((await complete(['completion', ''], dir)).values).toEqual(['bash', 'zsh', 'fish']);
    expect((await complete(['api', 'P'], dir)).values).toEqual(['POST', 'PUT', 'PATCH']);
    const ops = await complete(['sandbox', '--break', 'A4,C'], dir);
    expect(ops.values).toEqual(['A4,C1', 'A4,C2', 'A4,C3', 'A4,C4', 'A4,C5']);
    expect(ops.described['A4,C4']).toBe('Close a chat');
  });

  it('an option or argument that takes a file asks the shell for file names', async () => {
    for (const words of [
      ['appointments', 'book', '--body', ''],
      ['appointments', 'book', '--slot-json', ''],
      ['notifications', 'send', '--csv', 'pat'],
      ['check', '--junit', ''],
      ['profile', 'import', ''],
    ]) {
      const c = await complete(words, dir);
      expect(c, words.join(' ')).toMatchObject({ values: [], files: true });
    }
    // A value with nothing to offer (a date, a text) offers nothing, files included.
    expect(await complete(['slots', 'list', '--from', ''], dir)).toMatchObject({ values: [], files: false });
    expect(await complete(['chat', 'send', '--text', ''], dir)).toMatchObject({ values: [], files: false });
  });

  it('words that would be options of pdesk are only words: --help, --version, -- and unknown ones print no help', async () => {
    expect((await complete(['--help', 'ch'], dir)).values).toEqual(['chat', 'check']);
    expect((await complete(['--version', '--bogus', 'chat', 'sh'], dir)).values).toEqual(['show']);
    expect((await complete(['chat', 'show', '--', '-'], dir)).values).toEqual([]);
    expect((await complete(['nosuchcommand', ''], dir)).values).toEqual([]);
  });
});

describe('what pdesk knows: profiles, threads, the ids of the last list', () => {
  const dir = tempDir('pdesk-complete-');
  writeProfiles(dir, [
    { ...PROFILE, environment: 'test' },
    { ...PROFILE, name: 'prod', environment: 'production' },
  ]);

  beforeAll(async () => {
    // sandbox: enc-1 (open, one unread), enc-2 (closed, newer); prod: enc-9.
    const at = (m: number) => new Date(Date.UTC(2026, 0, 5, 9, m)).toISOString();
    const store = openThreadStore(dir, 'sandbox');
    await store.append([
      messageRecord('C3', 'received', chatMessage('m-1', 'enc-1', 'hello', 'PractitionerRole/1001', 'Patient/pat-1'), at(1)),
      messageRecord('C3', 'received', chatMessage('m-2', 'enc-1', 'again', 'PractitionerRole/1001', 'Patient/pat-1'), at(2)),
      readRecord(
        'received',
        'm-1',
        [{ op: 'add', path: '/recipient/0/extension', value: { url: 'portal.example.ResourceSeenAt', valueDateTime: at(3) } }],
        'enc-1',
        at(3),
      ),
      messageRecord('C1', 'sent', chatMessage('m-3', 'enc-2', 'bye', 'Patient/pat-1', 'PractitionerRole/1001'), at(4)),
      closeRecord('received', 'enc-2', { resourceType: 'Encounter', id: 'enc-2', status: 'finished', identifier: [] } as never, at(5)),
    ]);
    await store.close();
    const other = openThreadStore(dir, 'prod');
    await other.append([messageRecord('C1', 'sent', chatMessage('m-9', 'enc-9', 'x', 'Patient/pat-1', 'PractitionerRole/1001'))]);
    await other.close();
  });

  it('profile names, the default and the environment described; --profiles completes a comma list', async () => {
    const p = await complete(['--profile', ''], dir);
    expect(p.values).toEqual(['sandbox', 'prod']);
    expect(p.described).toEqual({ sandbox: 'default, test', prod: 'production' });
    expect((await complete(['--profile=p'], dir)).values).toEqual(['--profile=prod']);
    expect((await complete(['profile', 'use', ''], dir)).values).toEqual(['sandbox', 'prod']);
    expect((await complete(['profile', 'remove', 's'], dir)).values).toEqual(['sandbox']);
    expect((await complete(['doctor', '--profiles', 'sandbox,'], dir)).values).toEqual(['sandbox,sandbox', 'sandbox,prod']);
  });

  it('thread ids from the selected profile’s store: newest first, open ones where a message is sent or a thread closed', async () => {
    const show = await complete(['chat', 'show', ''], dir);
    expect(show.values).toEqual(['enc-2', 'enc-1']);
    expect(show.described).toEqual({ 'enc-2': 'closed, 1 message, 0 unread', 'enc-1': 'open, 2 messages, 1 unread' });
    expect((await complete(['chat', 'close', ''], dir)).values).toEqual(['enc-1']);
    expect((await complete(['chat', 'assign', ''], dir)).values).toEqual(['enc-1']);
    expect((await complete(['chat', 'send', '--text', 'hi', '--thread', ''], dir)).values).toEqual(['enc-1']);
    expect((await complete(['chat', 'mark-read', ''], dir)).values).toEqual(['m-2']);
    // --profile on the line (either form), or PDESK_PROFILE, selects another profile's store.
    expect((await complete(['--profile', 'prod', 'chat', 'show', ''], dir)).values).toEqual(['enc-9']);
    expect((await complete(['chat', 'show', '--profile=prod', ''], dir)).values).toEqual(['enc-9']);
    expect((await complete(['chat', 'show', ''], dir, { PDESK_PROFILE: 'prod' })).values).toEqual(['enc-9']);
    // A profile with no store yet, or one that does not exist: no candidates, no error.
    expect((await complete(['--profile', 'nope', 'chat', 'show', ''], dir)).values).toEqual([]);
  });

  it('a broken profile store or an unreadable thread store gives no candidates and no error', async () => {
    const broken = tempDir('pdesk-complete-broken-');
    writeFileSync(join(broken, 'profiles.json'), '{not json');
    expect(await complete(['--profile', ''], broken)).toMatchObject({ values: [], stdout: '' });
    const noStore = tempDir('pdesk-complete-nostore-');
    writeProfiles(noStore, [PROFILE]);
    mkdirSync(join(noStore, 'threads', 'sandbox.ndjson'), { recursive: true }); // a folder where the file should be
    expect(await complete(['chat', 'show', ''], noStore)).toMatchObject({ values: [], stdout: '' });
  });

  it('renderCompletion keeps each candidate on one line and drops values with control characters', () => {
    expect(
      renderCompletion({
        candidates: [{ value: 'ok', description: 'a\tb\nc\u001b[31m' }, { value: 'bad\u001b[2J' }, { value: 'x\ty' }, { value: 'plain' }],
        files: true,
      }),
    ).toBe('ok\ta b c [31m\nplain\n:files\n');
  });
});

describe('appointment and medication request ids: the last list against the sandbox', () => {
  let env: Env;
  beforeAll(async () => {
    env = await withSandbox();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('none before a list; after `appointments list`, its ids with status and start; nothing is sent by completing', async () => {
    expect((await complete(['appointments', 'cancel', ''], env.configDir)).values).toEqual([]);
    const list = await env.run(['appointments', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const ids = list.json().map((a: any) => a.id);
    expect(ids).toEqual(['appt-1', 'appt-2', 'appt-3']);
    env.sandbox.received.length = 0;
    const c = await complete(['appointments', 'cancel', ''], env.configDir);
    expect(c.values).toEqual(ids);
    expect(c.described['appt-1']).toMatch(/^booked \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect((await complete(['appointments', 'cancel', 'appt-2', '--actor', 'x', ''], env.configDir)).values).toEqual([]);
    expect(env.sandbox.received).toHaveLength(0);
    // The last list only: a narrower list replaces the ids.
    await env.run(['appointments', 'list', '--param', 'status=booked', '--json']);
    expect((await complete(['appointments', 'cancel', ''], env.configDir)).values).toEqual(['appt-1']);
  });

  it('after `medications list`: medications show and medications order --reorder', async () => {
    const list = await env.run(['medications', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const ids = list.json().map((r: any) => r.medicationRequest.id);
    const show = await complete(['medications', 'show', ''], env.configDir);
    expect(show.values).toEqual(ids);
    expect(show.described['mr-1']).toBe('active Metformin 500 mg tablet');
    expect((await complete(['medications', 'order', '--reorder', 'mr-'], env.configDir)).values).toEqual(ids);
  });
});

describe.skipIf(!pgInstalled)('with a team store', () => {
  it('thread ids and unread messages come from the team store, with their owners; one that cannot be reached gives none', async () => {
    const dir = tempDir('pdesk-complete-team-');
    writeProfiles(dir, [PROFILE]);
    const url = await pg().createDatabase();
    const store = openPgStore(url);
    await store.recordReceived('sandbox', msg('t-1', 'enc-7', 'hello', 1));
    await store.recordReceived('sandbox', msg('t-2', 'enc-8', 'hi', 2));
    await store.assign('sandbox', 'enc-8', { to: 'alice', by: 'alice' });
    await store.close();
    const show = await complete(['chat', 'show', ''], dir, { PDESK_STORE_URL: url });
    expect(show.values).toEqual(['enc-8', 'enc-7']);
    expect(show.described['enc-8']).toBe("open, 1 message, 1 unread, alice's");
    expect((await complete(['chat', 'mark-read', ''], dir, { PDESK_STORE_URL: url })).values.sort()).toEqual(['t-1', 't-2']);
    // Nothing listens there: no candidates, no error.
    const gone = await complete(['chat', 'show', ''], dir, {
      PDESK_STORE_URL: pg()
        .urlOf('postgres')
        .replace(/:\d+\//, ':9/'),
    });
    expect(gone.values).toEqual([]);
  });
});
