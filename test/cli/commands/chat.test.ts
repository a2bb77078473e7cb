/**
 * `pdesk chat send | reply | mark-read | close | threads | show` run in-process against the sandbox: what the
 * server received, what the thread store recorded (only after a 2xx), what was printed; and a mixed exchange
 * with `pdesk listen` receiving the sandbox's pushes into the same store.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { operatorOf } from '../../../src/core/operator.js';
import { messageRecord, openThreadStore, threadStorePath } from '../../../src/core/threads/index.js';
import type { ChatCommunication } from '../../../src/core/schemas/chat.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Env, run as runPdesk, tempDir, withSandbox, writeProfiles } from '../../helpers/run.js';
import { type ListenProcess, startListen } from '../../helpers/listen.js';

const PEOPLE = ['--sender', 'Patient/pat-1', '--recipient', 'PractitionerRole/1001', '--subject', 'Patient/pat-1'];
/** Who runs the commands here (no PDESK_OPERATOR: the login name). */
const OPERATOR = operatorOf(process.env).name;
const BACK = ['--sender', 'PractitionerRole/1001', '--recipient', 'Patient/pat-1', '--subject', 'Patient/pat-1'];

let env: Env | undefined;
let listener: ListenProcess | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await listener?.stop('SIGKILL');
  await env?.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  env = listener = undefined;
});

async function sandbox() {
  env = await withSandbox({ replyDelayMs: 60_000 });
  return env;
}

async function stored(configDir: string, profile = 'sandbox') {
  const store = openThreadStore(configDir, profile);
  const view = await store.load();
  return { view, store };
}

const lines = (path: string) =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

describe('chat send (C1) and reply (C3)', () => {
  it('send builds the Communication of decisions.md §6, records it after the 201, prints the server answer', async () => {
    const e = await sandbox();
    const r = await e.run([
      'chat',
      'send',
      '--thread',
      'enc-100',
      '--text',
      'Can I come earlier?',
      ...PEOPLE,
      '--topic',
      'Timing',
      '--attachment',
      'image/png:photo: knee.png',
      '--id',
      'q-1',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sent = e.sandbox.received.filter((x) => x.method === 'POST' && x.path === '/practice/Communication');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['content-type']).toBe('application/fhir+json');
    expect(sent[0]!.body).toEqual({
      resourceType: 'Communication',
      id: 'q-1',
      identifier: [{ system: 'portal.example.communication-id', value: 'q-1' }],
      topic: { text: 'Timing' },
      status: 'completed',
      payload: [{ contentString: 'Can I come earlier?', contentAttachment: { contentType: 'image/png', title: 'photo: knee.png' } }],
      encounter: { identifier: [{ system: 'practice.example.encounter-id', value: 'enc-100' }] },
      recipient: [{ reference: 'PractitionerRole/1001' }],
      sender: [{ reference: 'Patient/pat-1' }],
      subject: [{ reference: 'Patient/pat-1' }],
      category: [{ coding: [{ system: 'portal.example.communication-type', code: 'chat' }] }],
    });
    expect(r.json()).toMatchObject({ resourceType: 'Communication', id: 'q-1' });
    const { view } = await stored(e.configDir);
    expect(view.messages('enc-100')).toMatchObject([
      {
        id: 'q-1',
        op: 'C1',
        via: 'sent',
        from: 'portal',
        to: 'practice',
        text: 'Can I come earlier?',
        topic: 'Timing',
        attachment: { contentType: 'image/png', title: 'photo: knee.png' },
      },
    ]);

    const t = await e.run(['chat', 'send', '--thread', 'enc-100', '--text', 'again', ...PEOPLE, '--output', 'table']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^Sent message [0-9a-f-]{36} to thread enc-100 \(portal → practice, HTTP 201 Created\)\.\n$/);
  });

  it('reply sends C3 to the portal and records it as sent, practice → portal', async () => {
    const e = await sandbox();
    const r = await e.run(['chat', 'reply', '--thread', 'enc-100', '--text', 'Yes, 9:30 works.', ...BACK, '--id', 'r-1', '--json']);
    expect(r.code).toBe(0);
    expect(e.sandbox.state.portalMessages.get('r-1')?.payload[0]?.contentString).toBe('Yes, 9:30 works.');
    expect(e.sandbox.received.at(-1)).toMatchObject({ method: 'POST', path: '/portal/Communication' });
    const { view } = await stored(e.configDir);
    expect(view.messages('enc-100')).toMatchObject([{ id: 'r-1', op: 'C3', via: 'sent', from: 'practice', to: 'portal', unread: false }]);
    // reply has no --attachment
    const bad = await e.run(['chat', 'reply', '--thread', 'enc-100', '--text', 'x', ...BACK, '--attachment', 'a:b']);
    expect(bad.code).toBe(2);
  });

  it('a message to a closed thread exits 4 with the 409: recorded pending before it left, then refused, so no thread shows it', async () => {
    const e = await sandbox();
    const r = await e.run(['chat', 'send', '--thread', 'enc-200', '--text', 'late', ...PEOPLE]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^pdesk: HTTP 409 Conflict\n/);
    expect(r.stderr).toMatch(/enc-200 is closed/);
    expect(lines(threadStorePath(e.configDir, 'sandbox')).map((l) => [l.kind, l.via])).toEqual([
      ['message', 'pending'],
      ['message', 'refused'],
    ]);
    const threads = await e.run(['chat', 'threads', '--json']);
    expect(threads.json()).toEqual([]);
  });

  it('bad input exits 2 and sends nothing; --dry-run sends and records nothing', async () => {
    const e = await sandbox();
    const noText = await e.run(['chat', 'send', '--thread', 'enc-100', ...PEOPLE]);
    expect(noText.code).toBe(2);
    expect(noText.stderr).toMatch(/--text is required/);
    // Every missing option in one message.
    const bare = await e.run(['chat', 'reply', '--text', 'x']);
    expect(bare.code).toBe(2);
    expect(bare.stderr.split('\n')[0]).toBe(
      'pdesk: --thread, --sender, --recipient and --subject are required (or give a complete Communication with --body).',
    );
    const badRef = await e.run(['chat', 'send', '--thread', 'enc-100', '--text', 'x', ...PEOPLE.slice(0, 4), '--subject', 'pat 1']);
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toMatch(/--subject/);
    const badAtt = await e.run(['chat', 'send', '--thread', 'enc-100', '--text', 'x', ...PEOPLE, '--attachment', 'nocolon']);
    expect(badAtt.code).toBe(2);
    expect(badAtt.stderr).toMatch(/--attachment/);
    const mixed = await e.run(['chat', 'send', '--body', '-', '--text', 'x'], { input: '{}' });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/^pdesk: --body sends a complete Communication as is and cannot be combined with --text\.$/m);
    const invalidBody = await e.run(['chat', 'send', '--body', '-'], { input: JSON.stringify({ resourceType: 'Communication', id: 'x' }) });
    expect(invalidBody.code).toBe(2);
    expect(invalidBody.stderr).toMatch(/request body is invalid at \$\.identifier/);
    const dry = await e.run(['chat', 'send', '--thread', 'enc-100', '--text', 'x', ...PEOPLE, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ method: 'POST', url: `${e.sandbox.url}/practice/Communication` });
    expect(e.sandbox.received).toEqual([]);
    expect(existsSync(threadStorePath(e.configDir, 'sandbox'))).toBe(false);
  });

  it('--body sends a complete Communication as is and records it', async () => {
    const e = await sandbox();
    const body = JSON.parse(
      (await e.run(['chat', 'send', '--thread', 'enc-7', '--text', 'from a file', ...PEOPLE, '--id', 'b-1', '--dry-run'])).stdout,
    ).body as ChatCommunication;
    const r = await e.run(['chat', 'send', '--body', '-', '--json'], {
      input: JSON.stringify({ ...body, extension: [{ url: 'urn:x', valueString: 'kept' }] }),
    });
    expect(r.code).toBe(0);
    expect(e.sandbox.received[0]!.body).toMatchObject({ id: 'b-1', extension: [{ url: 'urn:x', valueString: 'kept' }] });
    const { view } = await stored(e.configDir);
    expect(view.messages('enc-7')!.map((m) => m.id)).toEqual(['b-1']);
  });

  it('a redirect is no acknowledgement: exit 5 naming where it points, not re-sent, nothing recorded', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(302, { location: '/elsewhere', 'content-length': '0' }).end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const dir = tempDir('pdesk-chat-302-');
    dirs.push(dir);
    writeProfiles(dir, [sandboxProfile(`http://127.0.0.1:${(server.address() as { port: number }).port}`)]);
    try {
      const r = await runPdesk(['chat', 'send', '--thread', 'enc-1', '--text', 'x', ...PEOPLE], { configDir: dir });
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(
        /^pdesk: C1 \(POST \/Communication\) was redirected to http:\/\/127\.0\.0\.1:\d+\/elsewhere \(HTTP 302 Found\) and not sent again, so it was not done: /,
      );
      // Recorded as it left, then settled as not taken: never shown as sent.
      expect(lines(threadStorePath(dir, 'sandbox')).map((l) => l.via)).toEqual(['pending', 'refused']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('a thread store that cannot be written stops the command before anything is sent (exit 3)', async () => {
    const e = await sandbox();
    writeFileSync(join(e.configDir, 'threads'), 'not a folder');
    const r = await e.run(['chat', 'send', '--thread', 'enc-100', '--text', 'x', ...PEOPLE]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/thread store .* cannot be opened for writing .*nothing was sent/);
    expect(e.sandbox.received).toEqual([]);
  });
});

describe('chat mark-read (C2) and close (C4)', () => {
  it('mark-read sends the JSON Patch with --at as local time without offset and records it', async () => {
    const e = await sandbox();
    const r = await e.run(['chat', 'mark-read', 'msg-100-2', '--at', '2026-03-01T09:00:00Z', '--json'], {
      env: { TZ: 'Europe/Amsterdam' },
    });
    expect(r.code).toBe(0);
    const req = e.sandbox.received.at(-1)!;
    expect(req).toMatchObject({ method: 'PATCH', path: '/practice/Communication/msg-100-2' });
    expect(req.headers['content-type']).toBe('application/json-patch+json');
    expect(req.body).toEqual([
      { op: 'add', path: '/recipient/0/extension', value: { url: 'portal.example.ResourceSeenAt', valueDateTime: '2026-03-01T10:00:00' } },
    ]);
    expect(e.sandbox.state.readMarkers.at(-1)).toMatchObject({ communicationId: 'msg-100-2', valueDateTime: '2026-03-01T10:00:00' });
    const { view } = await stored(e.configDir);
    expect(view.isRead('msg-100-2')).toBe(true);
    const rec = lines(threadStorePath(e.configDir, 'sandbox'))[0];
    expect(rec).toMatchObject({ v: 1, kind: 'read', op: 'C2', via: 'sent', id: 'msg-100-2', readAt: '2026-03-01T10:00:00' });

    const table = await e.run(['chat', 'mark-read', 'msg-100-2', '--at', '2026-03-02T08:30', '--output', 'table']);
    expect(table.stdout).toBe('Marked msg-100-2 as read at 2026-03-02T08:30:00.\n');
    const bad = await e.run(['chat', 'mark-read', 'msg-100-2', '--at', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--at must be a date/);
  });

  it('mark-read of a message the server does not know exits 4 and records nothing', async () => {
    const e = await sandbox();
    const r = await e.run(['chat', 'mark-read', 'no-such-message']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/HTTP 404/);
    expect(lines(threadStorePath(e.configDir, 'sandbox'))).toEqual([]);
  });

  it('close sends the Encounter of decisions.md §7 and records the thread closed', async () => {
    const e = await sandbox();
    const r = await e.run(['chat', 'close', 'enc-100', '--json']);
    expect(r.code).toBe(0);
    expect(e.sandbox.received.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/portal/Encounter/enc-100',
      body: {
        resourceType: 'Encounter',
        id: 'enc-100',
        status: 'finished',
        // FHIR R4 requires class on an Encounter: a portal on a FHIR server may refuse a close without it.
        class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'VR', display: 'virtual' },
        identifier: [{ system: 'practice.example.encounter-id', value: 'enc-100' }],
      },
    });
    expect(e.sandbox.state.encounters.get('enc-100')?.closedBy?.class).toEqual({
      system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
      code: 'VR',
      display: 'virtual',
    });
    expect(e.sandbox.state.encounters.get('enc-100')?.status).toBe('finished');
    const threads = (await e.run(['chat', 'threads', '--json'])).json();
    expect(threads).toEqual([
      { thread: 'enc-100', status: 'closed', closedAt: expect.any(String), messages: 0, unread: 0, lastSeq: 0, rev: expect.any(Number) },
    ]);
    const mismatch = await e.run(['chat', 'close', 'enc-100', '--body', '-'], {
      input: JSON.stringify({ resourceType: 'Encounter', id: 'enc-9', status: 'finished', identifier: [] }),
    });
    expect(mismatch.code).toBe(2);
  });
});

describe('chat threads and show (local store, no request)', () => {
  it('after a mixed exchange: sends and replies against the sandbox, pushes received by listen, mark-read, close', async () => {
    const dir = tempDir('pdesk-chat-mixed-');
    dirs.push(dir);
    writeProfiles(dir, [sandboxProfile('http://127.0.0.1:9')]);
    listener = await startListen(dir, ['--json']);
    env = await withSandbox({ pushTo: `${listener.url}/portal`, replyDelayMs: 50, demoPushDelayMs: 600_000 });
    writeProfiles(dir, [env.profile]); // same profile name, now pointing at the sandbox
    const run = (args: string[]) => env!.run(args, { configDir: dir });

    expect((await run(['chat', 'send', '--thread', 'enc-100', '--text', 'Can I come earlier?', ...PEOPLE, '--id', 'q-1'])).code).toBe(0);
    const [first] = await listener.waitForLines(1);
    const reply1 = JSON.parse(first!);
    expect(reply1).toMatchObject({ kind: 'message', op: 'C3', via: 'received', thread: 'enc-100' });
    expect((await run(['chat', 'reply', '--thread', 'enc-100', '--text', 'We will call you.', ...BACK, '--id', 'r-2'])).code).toBe(0);
    expect((await run(['chat', 'send', '--thread', 'enc-300', '--text', 'New question', ...PEOPLE, '--id', 'q-3'])).code).toBe(0);
    const reply3 = JSON.parse((await listener.waitForLines(2))[1]!);
    expect(reply3).toMatchObject({ op: 'C3', thread: 'enc-300' });
    expect((await run(['chat', 'mark-read', reply1.id, '--at', '2026-03-01T10:15'])).code).toBe(0);
    expect((await run(['chat', 'close', 'enc-100'])).code).toBe(0);
    expect(env.sandbox.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /practice/Communication',
      'POST /portal/Communication',
      'POST /practice/Communication',
      `PATCH /practice/Communication/${reply1.id}`,
      'PUT /portal/Encounter/enc-100',
    ]);

    const before = env.sandbox.received.length;
    const threads = await run(['chat', 'threads', '--json']);
    expect(threads.code).toBe(0);
    expect(threads.json()).toEqual([
      {
        thread: 'enc-300',
        status: 'open',
        messages: 2,
        unread: 1,
        lastAt: reply3.at,
        lastText: reply3.resource.payload[0].contentString,
        lastFrom: 'practice',
        lastSeq: expect.any(Number),
        rev: expect.any(Number),
      },
      {
        thread: 'enc-100',
        status: 'closed',
        closedAt: expect.any(String),
        messages: 3,
        unread: 0,
        lastAt: expect.any(String),
        lastText: 'We will call you.',
        lastFrom: 'practice',
        // The first reply took the thread nobody owned.
        owner: OPERATOR,
        assignedAt: expect.any(String),
        lastSeq: expect.any(Number),
        rev: expect.any(Number),
      },
    ]);
    const show = await run(['chat', 'show', 'enc-100', '--json']);
    expect(show.code).toBe(0);
    expect(show.json().map((m: any) => [m.id, m.op, m.via, m.from, m.to, m.sender, m.read, m.readAt, m.unread])).toEqual([
      ['q-1', 'C1', 'sent', 'portal', 'practice', 'Patient/pat-1', false, undefined, false],
      [reply1.id, 'C3', 'received', 'practice', 'portal', 'PractitionerRole/1001', true, '2026-03-01T10:15:00', false],
      ['r-2', 'C3', 'sent', 'practice', 'portal', 'PractitionerRole/1001', false, undefined, false],
    ]);
    const table = await run(['chat', 'show', 'enc-300', '--output', 'table']);
    const rows = table.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^Thread enc-300: open, 2 messages, 1 unread, unassigned · seen up to \d+$/);
    expect(rows[1]).toMatch(/^TIME\s+DIRECTION\s+SENDER\s+BY\s+TEXT\s+READ$/);
    expect(rows[2]).toMatch(new RegExp(`portal → practice\\s+Patient/pat-1\\s+${OPERATOR}\\s+New question\\s*$`));
    expect(rows[3]).toMatch(/practice → portal\s+.*PractitionerRole\/1001.*unread$/);
    const tt = await run(['chat', 'threads', '--output', 'table']);
    expect(tt.stdout.split('\n')[0]).toMatch(/^THREAD\s+STATUS\s+OWNER\s+LAST MESSAGE\s+TEXT\s+MESSAGES\s+UNREAD$/);
    expect(tt.stdout.split('\n')[1]).toMatch(/^enc-300\s+open\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+.*\s+2\s+1$/);
    expect(tt.stdout.split('\n')[2]).toMatch(new RegExp(`^enc-100\\s+closed\\s+${OPERATOR}\\s+.*\\s+3\\s+0$`));
    // threads and show send nothing.
    expect(env.sandbox.received.length).toBe(before);
  });

  it('an unknown thread exits 2 naming it; an empty store lists no threads', async () => {
    const dir = tempDir('pdesk-chat-empty-');
    dirs.push(dir);
    writeProfiles(dir, [sandboxProfile('http://127.0.0.1:9')]);
    const empty = await runPdesk(['chat', 'threads', '--json'], { configDir: dir });
    expect(empty.code).toBe(0);
    expect(empty.json()).toEqual([]);
    expect((await runPdesk(['chat', 'threads', '--output', 'table'], { configDir: dir })).stdout).toBe('(none)\n');
    const unknown = await runPdesk(['chat', 'show', 'enc-404'], { configDir: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^pdesk: There is no thread "enc-404" in the desk's store\.\n/);
    expect(unknown.stdout).toBe('');
  });

  it('a torn last line is skipped with a warning on stderr; threads still works', async () => {
    const dir = tempDir('pdesk-chat-torn-');
    dirs.push(dir);
    writeProfiles(dir, [sandboxProfile('http://127.0.0.1:9')]);
    const path = threadStorePath(dir, 'sandbox');
    mkdirSync(join(dir, 'threads'), { recursive: true });
    const rec = (id: string, text: string) => JSON.stringify(messageRecord('C3', 'received', chat(id, 'enc-1', text)));
    const torn = rec('m-2', 'half of it');
    writeFileSync(path, `${rec('m-1', 'whole')}\n`);
    appendFileSync(path, torn.slice(0, Math.floor(torn.length / 2)));
    const r = await runPdesk(['chat', 'threads', '--json'], { configDir: dir });
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject([{ thread: 'enc-1', messages: 1, unread: 1, lastText: 'whole' }]);
    expect(r.stderr).toMatch(/^pdesk: warning: thread store .*sandbox\.ndjson: the last line \(2\) is incomplete.*skipped\.\n$/);
    const show = await runPdesk(['chat', 'show', 'enc-1', '--json'], { configDir: dir });
    expect(show.code).toBe(0);
    expect(show.json().map((m: any) => m.id)).toEqual(['m-1']);
  });

  it('server text is stripped of control sequences in tables and kept as received in JSON', async () => {
    const dir = tempDir('pdesk-chat-ctl-');
    dirs.push(dir);
    writeProfiles(dir, [sandboxProfile('http://127.0.0.1:9')]);
    const evil = 'pay now\u001b]8;;http://evil.example\u0007 here\u001b[2J\u009b31m!';
    const store = openThreadStore(dir, 'sandbox');
    await store.append([messageRecord('C3', 'received', chat('m-\u001b[1mx', 'enc-\u001b[31m1', evil, 'PractitionerRole/\u001b[5m1001'))]);
    await store.close();
    for (const args of [
      ['chat', 'threads', '--output', 'table'],
      ['chat', 'show', 'enc-\u001b[31m1', '--output', 'table'],
    ]) {
      const r = await runPdesk(args, { configDir: dir });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b]/);
      expect(r.stdout).toContain('pay now here');
    }
    const json = await runPdesk(['chat', 'show', 'enc-\u001b[31m1', '--json'], { configDir: dir });
    expect(json.json()[0].text).toBe(evil);
  });
});

function chat(id: string, thread: string, text: string, from = 'PractitionerRole/1001', to = 'Patient/pat-1'): ChatCommunication {
  return {
    resourceType: 'Communication',
    id,
    identifier: [{ system: 'portal.example.communication-id', value: id }],
    status: 'completed',
    payload: [{ contentString: text }],
    encounter: { identifier: [{ system: 'practice.example.encounter-id', value: thread }] },
    recipient: [{ reference: to }],
    sender: [{ reference: from }],
    subject: [{ reference: 'Patient/pat-1' }],
    category: [{ coding: [{ system: 'portal.example.communication-type', code: 'chat' }] }],
  };
}
