/**
 * `pdesk profile add` on a real pseudo-terminal (util-linux `script`): the process's own standard input is a
 * terminal, the prompts are answered line by line, a bad answer is asked again. The prompts themselves are
 * tested in-process (test/cli/commands/profile.test.ts); this checks the system IO's terminal path.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers/cli.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

/** Run a command with a pseudo-terminal as stdin (util-linux `script`), typing `lines`, then end of input. */
function onTerminal(argv: string[], lines: string[], configDir: string): Promise<{ code: number; text: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', argv.map(quote).join(' '), '/dev/null'], {
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'PDESK_PROFILE')),
        PDESK_CONFIG_DIR: configDir,
        NO_COLOR: '1',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (text += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (text += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, text });
    });
    child.stdin.end(lines.map((l) => `${l}\n`).join(''));
  });
}

describe('profile add on a terminal (a process)', () => {
  it.skipIf(!hasScript)('asks for what is missing, re-asking after a bad answer', async () => {
    const dir = tempDir();
    const answers = [
      'https://practice.test/fhir',
      'notaurl',
      'https://portal.test/fhir',
      'portal.test',
      'practice.test',
      'test',
      '',
      'y',
      '',
    ];
    const out = await onTerminal([process.execPath, BIN, 'profile', 'add', '--name', 'tty'], answers, dir);
    expect(out.code, out.text).toBe(0);
    expect(out.text).toContain('Practice system base URL');
    expect(out.text).toContain('--portal-url must be an http:// or https:// URL, not "notaurl".');
    const shown = (await runCli(['profile', 'show', 'tty', '--json'], { configDir: dir })).json();
    expect(shown).toMatchObject({
      name: 'tty',
      environment: 'test',
      approvalFlow: true,
      namespaces: { portal: 'portal.test', practice: 'practice.test' },
      practice: { baseUrl: 'https://practice.test/fhir', auth: { type: 'none' } },
    });
  });

  it.skipIf(!hasScript)('end of input cancels with exit 2 and saves nothing', async () => {
    const dir = tempDir();
    const out = await onTerminal([process.execPath, BIN, 'profile', 'add'], ['only-a-name'], dir);
    expect(out.code).toBe(2);
    expect(out.text).toContain('profile add was cancelled before --practice-url was given.');
    expect((await runCli(['profile', 'list', '--json'], { configDir: dir })).json()).toEqual([]);
  });
});
