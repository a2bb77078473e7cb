/**
 * Start-up and the install path of bin/pdesk.js as a real process: --help and --version, the TUI refused without
 * a terminal, and a clear message when the build (dist/) is missing.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers/cli.js';

describe('start-up', () => {
  it('--help lists the commands on stdout and exits 0; --version prints the version', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pdesk \[options\] \[command\]/);
    for (const cmd of ['profile', 'slots', 'appointments', 'chat', 'notifications', 'medications', 'listen', 'sandbox', 'tui'])
      expect(help.stdout).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
    expect(help.stderr).toBe('');
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toBe('0.1.0\n');
  });

  it('pdesk without a command and without a terminal explains the subcommands and exits 2', async () => {
    const r = await runCli([], { configDir: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('pdesk: pdesk tui needs a terminal: standard input and output must both be a TTY.');
    expect(r.stderr).toContain('pdesk slots list --service-category');
  });
});

describe('the install path', () => {
  it('a missing build says how to make it, and exits 1 without a stack trace', async () => {
    // bin/pdesk.js alone, as after a checkout without `npm install`: no dist/ beside it.
    const root = tempDir();
    mkdirSync(join(root, 'bin'));
    cpSync(BIN, join(root, 'bin', 'pdesk.js'));
    const { spawn } = await import('node:child_process');
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(root, 'bin', 'pdesk.js'), '--help'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('pdesk: the build is missing: run `npm run build` (or `npm install`) in the pdesk folder.\n');
  });
});
