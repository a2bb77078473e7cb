/**
 * `pdesk tui` honours NO_COLOR and --no-color (cli.md global options): run under a pseudo-terminal (script(1)),
 * its screen has no colour escapes then, and has them otherwise.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';

const hasScript = !spawnSync('script', ['--version']).error;
// SGR foreground/background colours: 30–37, 39, 40–47, 49, 90–97, 100–107, 38;5;n and 38;2;r;g;b.
const COLOUR = /\u001b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;

/** The first screenful of `pdesk tui --sandbox`, then it is stopped. */
async function screen(args: string[], env: Record<string, string | undefined>): Promise<string> {
  const full: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, PDESK_CONFIG_DIR: tempDir(), TERM: 'xterm-256color', ...env }))
    if (v !== undefined) full[k] = v;
  delete full.CI;
  delete full.FORCE_COLOR;
  const cmd = `stty rows 24 cols 80 2>/dev/null; exec '${process.execPath}' '${BIN}' ${args.join(' ')}`;
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env: full, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
  const closed = new Promise<void>((r) => child.on('close', () => r()));
  try {
    const t0 = Date.now();
    while (!out.includes('appt API')) {
      if (Date.now() - t0 > 10_000) throw new Error(`no screen:\n${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 200));
    child.stdin!.write('q');
    await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
    return out;
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

describe.skipIf(!hasScript)('pdesk tui colours', () => {
  it('uses colour on a terminal by default', async () => {
    expect(await screen(['tui', '--sandbox'], { NO_COLOR: undefined })).toMatch(COLOUR);
  });

  it('uses none with NO_COLOR set', async () => {
    const out = await screen(['tui', '--sandbox'], { NO_COLOR: '1' });
    expect(out).toContain('appt API');
    expect(out).not.toMatch(COLOUR);
  });

  it('uses none with --no-color', async () => {
    const out = await screen(['tui', '--sandbox', '--no-color'], { NO_COLOR: undefined });
    expect(out).toContain('appt API');
    expect(out).not.toMatch(COLOUR);
  });
});
