/** `pdesk tui` and bare `pdesk` as processes: without a terminal they explain the subcommands and exit 2. */
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
