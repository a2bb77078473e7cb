/**
 * Write-ahead records of a single write (issue 35, item 5), as processes: `chat send`, `chat reply` and
 * `notifications send` killed with -9 while the server holds their request (a node:http server that never
 * answers) each leave a local record of it: the audit trail's (`pdesk audit`: outcome unknown), the trace's line
 * (`pdesk trace show`: outcome unknown), and for a chat message the thread store's entry, pending. Before, all three
 * were written only after the answer, and the killed runs left none. And a write that gets its answer leaves one
 * complete record, nothing unknown.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { BIN, runCli, tempDir, writeProfiles } from '../helpers/cli.js';
import { stubServer } from '../helpers/http.js';

const PEOPLE = ['--sender', 'Patient/pat-1', '--recipient', 'PractitionerRole/1001', '--subject', 'Patient/pat-1'];

const CASES: Array<{ name: string; args: string[]; op: string; thread?: string }> = [
  { name: 'chat send', args: ['chat', 'send', '--thread', 'enc-k1', '--text', 'killed in flight', ...PEOPLE], op: 'C1', thread: 'enc-k1' },
  {
    name: 'chat reply',
    args: ['chat', 'reply', '--thread', 'enc-k3', '--text', 'killed in flight', ...PEOPLE],
    op: 'C3',
    thread: 'enc-k3',
  },
  {
    name: 'notifications send',
    args: ['notifications', 'send', '--email', 'jane@example.org', '--topic', 'T', '--text', 'killed in flight'],
    op: 'C5',
  },
];

describe('a single write killed while its request is at the server', () => {
  it.each(CASES)('$name leaves its audit record (outcome unknown), its trace line and its store entry', async ({ args, op, thread }) => {
    let arrived!: () => void;
    const atServer = new Promise<void>((r) => (arrived = r));
    const stub = await stubServer(() => arrived()); // holds the request: never answers
    const dir = tempDir();
    writeProfiles(dir, [sandboxProfile(stub.url)]);
    const trace = join(dir, 'trace.ndjson');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: '1', PDESK_CONFIG_DIR: dir })) if (v !== undefined) env[k] = v;
    delete env.PDESK_PROFILE;
    const child = spawn(process.execPath, [BIN, ...args, '--trace', trace], { env, stdio: 'ignore' });
    const killed = new Promise<string | null>((r) => child.on('close', (_c, signal) => r(signal)));
    await atServer;
    child.kill('SIGKILL');
    expect(await killed).toBe('SIGKILL');
    expect(stub.received).toHaveLength(1);

    const audit = await runCli(['audit', '--json'], { configDir: dir });
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.json()).toEqual([expect.objectContaining({ op, method: 'POST', outcome: 'unknown' })]);
    const table = await runCli(['audit', '--output', 'table'], { configDir: dir });
    expect(table.stdout.split('\n')[1]).toMatch(new RegExp(`${op}\\s+POST\\s+.*outcome unknown`));

    const shown = await runCli(['trace', 'show', trace, '--output', 'table'], { configDir: dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^#1 .* ${op} POST ${stub.url}/\\w+/Communication → outcome unknown`));

    if (thread) {
      const show = await runCli(['chat', 'show', thread, '--json'], { configDir: dir });
      expect(show.code, show.stderr).toBe(0);
      expect(show.json()).toEqual([expect.objectContaining({ op, via: 'pending', text: 'killed in flight' })]);
    }
  });

  it('answered, the same write leaves one complete record: nothing unknown, the store entry sent', async () => {
    const stub = await stubServer((_q, res) => {
      res.writeHead(201, { 'content-type': 'application/fhir+json' });
      res.end();
    });
    const dir = tempDir();
    writeProfiles(dir, [sandboxProfile(stub.url)]);
    const trace = join(dir, 'trace.ndjson');
    const r = await runCli([...CASES[0]!.args, '--trace', trace], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    const audit = await runCli(['audit', '--json'], { configDir: dir });
    expect(audit.json()).toEqual([expect.objectContaining({ op: 'C1', status: 201 })]);
    expect(audit.json()[0].outcome).toBeUndefined();
    const shown = await runCli(['trace', 'show', trace, '--output', 'table'], { configDir: dir });
    expect(shown.stdout).toMatch(/^#1 .* C1 POST .* → HTTP 201 Created/);
    expect(shown.stdout).not.toContain('#2');
    const show = await runCli(['chat', 'show', 'enc-k1', '--json'], { configDir: dir });
    expect(show.json()).toEqual([expect.objectContaining({ via: 'sent' })]);
  });
});
