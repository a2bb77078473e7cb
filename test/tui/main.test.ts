/** `pdesk tui` and bare `pdesk` as processes: without a terminal they explain the subcommands and exit 2. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

describe('pdesk tui without a terminal', () => {
  it('pdesk tui exits 2 with a hint to use the subcommands, without loading a profile', async () => {
    const r = await runCli(['tui'], { configDir: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pdesk tui needs a terminal');
    expect(r.stderr).toContain('pdesk slots list');
    expect(r.stderr).toContain('pdesk --help');
    expect(r.stdout).toBe('');
  });

  it('bare pdesk (no arguments) behaves the same when piped', async () => {
    const r = await runCli([], { configDir: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('needs a terminal');
  });

  it('pdesk with global options only (--profile north) is the desk too, not the root help', async () => {
    const r = await runCli(['--profile', 'north', '--read-only'], { configDir: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('pdesk: pdesk tui needs a terminal: standard input and output must both be a TTY.');
    const help = await runCli(['--profile', 'north', '--help'], { configDir: tempDir() });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: pdesk');
  });

  it('pdesk tui --help lists --sandbox and --listen', async () => {
    const r = await runCli(['tui', '--help'], { configDir: tempDir() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--sandbox');
    expect(r.stdout).toContain('--listen [port]');
  });
});

describe("the desk's client (deskClientOptions)", () => {
  it('with --trace, a write is traced as it leaves (sending) and again with its answer, as the CLI traces it', async () => {
    const { startSandbox } = await import('../../src/sandbox/server.js');
    const { sandboxProfile } = await import('../../src/sandbox/profile.js');
    const { Profile } = await import('../../src/core/profile/schema.js');
    const { PdeskClient } = await import('../../src/core/client.js');
    const { TraceWriter } = await import('../../src/core/trace.js');
    const { buildChatMessage, sendMessage } = await import('../../src/core/api/chat.js');
    const { deskClientOptions } = await import('../../src/tui/main.js');
    const sandbox = await startSandbox({ port: 0, replyDelayMs: 60_000, log: () => undefined });
    const file = join(tempDir(), 'tui.trace');
    const profile = Profile.parse(sandboxProfile(sandbox.url));
    const trace = TraceWriter.open(file, profile);
    const client = new PdeskClient(profile, deskClientOptions({}, trace));
    try {
      const body = buildChatMessage(profile, {
        thread: 'enc-1',
        text: 'hi',
        sender: 'Patient/pat-1',
        recipient: 'PractitionerRole/1001',
        subject: 'Patient/pat-1',
      });
      await sendMessage(client, body);
    } finally {
      await client.close();
      trace.close();
      await sandbox.close();
    }
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const c1 = lines.filter((l) => l.op === 'C1');
    expect(c1.map((l) => [l.sending ?? false, l.status])).toEqual([
      [true, undefined],
      [false, 201],
    ]);
    expect(deskClientOptions({ readOnly: true })).toEqual({ readOnly: true, readOnlyWhy: '--read-only' });
  });
});
