/**
 * `pdesk tui --sandbox` as a process under a pseudo-terminal (script(1)): it enters the alternate screen, draws
 * the header, and restores the terminal (leaves the alternate screen, shows the cursor) whether it ends by q,
 * Ctrl-C, SIGTERM or SIGHUP; the temporary thread-store folder is removed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { BIN, tempDir, writeProfiles } from '../helpers/cli.js';

const hasScript = !spawnSync('script', ['--version']).error;
const LEAVE = '\u001b[?1049l';
const ENTER = '\u001b[?1049h';

/** `tmp` is the child's TMPDIR, so the sandbox folder it makes is its own (other tests start sandboxes too). */
function start(configDir: string, tmp: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const env: Record<string, string> = { ...process.env, PDESK_CONFIG_DIR: configDir, TMPDIR: tmp, TERM: 'xterm-256color' } as Record<
    string,
    string
  >;
  delete env.CI;
  const cmd = `stty rows 24 cols 80 2>/dev/null; exec '${process.execPath}' '${BIN}' tui --sandbox`;
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function until(cond: () => boolean, ms = 10_000) {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The pid of the pdesk process under script (its child). */
function pdeskPid(scriptPid: number): number {
  const r = spawnSync('pgrep', ['-P', String(scriptPid)], { encoding: 'utf8' });
  return Number(r.stdout.trim().split('\n')[0]);
}

const sandboxDirs = (tmp: string) => readdirSync(tmp).filter((d) => d.startsWith('pdesk-tui-sandbox-'));

describe.skipIf(!hasScript)('pdesk tui under a terminal', () => {
  // Ctrl-C is an interrupt (130), whether it is read as a key in raw mode or lands as SIGINT before Ink set raw mode.
  const cases: Array<[string, (p: ReturnType<typeof start>) => void, number[]]> = [
    ['q', (p) => p.child.stdin!.write('q'), [0]],
    ['Ctrl-C', (p) => p.child.stdin!.write('\u0003'), [130]],
    ['SIGTERM', (p) => process.kill(pdeskPid(p.child.pid!), 'SIGTERM'), [143]],
    ['SIGHUP', (p) => process.kill(pdeskPid(p.child.pid!), 'SIGHUP'), [129]],
  ];
  for (const [name, stop, code] of cases) {
    it(`restores the terminal after ${name}`, async () => {
      const dir = tempDir();
      const tmp = tempDir();
      const p = start(dir, tmp);
      try {
        await until(() => p.output().includes('appt API 2.0.0'));
        const mine = sandboxDirs(tmp);
        expect(mine).toHaveLength(1);
        expect(p.output()).toContain(ENTER);
        stop(p);
        const exit = await Promise.race([p.exited, new Promise<string>((r) => setTimeout(() => r('hung'), 6000))]);
        expect(code).toContain(exit);
        const out = p.output();
        expect(out.lastIndexOf(LEAVE)).toBeGreaterThan(out.lastIndexOf(ENTER));
        expect(out.slice(out.lastIndexOf(LEAVE))).toContain('\u001b[?25h');
        for (const d of mine) expect(existsSync(`${tmp}/${d}`)).toBe(false);
      } finally {
        try {
          process.kill(-p.child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe.skipIf(!hasScript)('pdesk tui opening on the Systems screen', () => {
  /** Run `pdesk tui <args>` under a terminal with two saved profiles; return what it drew, then quit. */
  async function firstScreen(args: string, ready: RegExp, env: Record<string, string> = {}): Promise<string> {
    const dir = tempDir();
    const closed = 'http://127.0.0.1:9';
    writeProfiles(dir, [
      { ...sandboxProfile(closed), name: 'alpha' },
      { ...sandboxProfile(closed), name: 'beta', environment: 'production' },
    ]);
    const all = { ...process.env, ...env, PDESK_CONFIG_DIR: dir, TERM: 'xterm-256color' } as Record<string, string>;
    delete all.CI;
    if (!env.PDESK_PROFILE) delete all.PDESK_PROFILE;
    const cmd = `stty rows 24 cols 100 2>/dev/null; exec '${process.execPath}' '${BIN}' ${args}`;
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env: all, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
    try {
      await until(() => /appt API/.test(out) && ready.test(out));
      await new Promise((r) => setTimeout(r, 300));
      child.stdin!.write('q');
      return out;
    } finally {
      setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 3000).unref();
    }
  }

  it('with several saved profiles and none named it opens on Systems; a profile named opens its desk', async () => {
    const none = await firstScreen('tui', /Systems — 2 profiles/);
    expect(none).toContain('[0 Systems]');
    expect(none).toContain('Systems — 2 profiles');
    // `pdesk --profile beta`, without the word tui, is the same desk as `pdesk tui --profile beta`.
    for (const args of ['tui --profile beta', '--profile beta']) {
      const named = await firstScreen(args, /\[1 Slots\]/);
      expect(named).toContain('[1 Slots]');
      expect(named).not.toContain('Systems — ');
      expect(named).toContain('PRODUCTION');
    }
    const byEnv = await firstScreen('tui', /\[1 Slots\]/, { PDESK_PROFILE: 'alpha' });
    expect(byEnv).toContain('[1 Slots]');
    expect(byEnv).not.toContain('[0 Systems]');
  });
});
