/**
 * `pdesk tui --trace <file>` (and PDESK_TRACE) under a pseudo-terminal (script(1)), against a sandbox that wants
 * a bearer token: the session's exchanges land in the trace, after its header line, with the token redacted, in
 * a 0600 file. The TUI wires the trace itself (src/tui/main.tsx), so only a real process shows it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type Env, tempDir, withSandbox, writeProfiles } from '../helpers/cli.js';

const hasScript = !spawnSync('script', ['--version']).error;
const TOKEN = 'tui-trace-token-11235';

let env: Env;
beforeAll(async () => {
  env = await withSandbox({ token: TOKEN });
  const auth = { type: 'bearer' as const, tokenEnv: 'SANDBOX_TOKEN' };
  writeProfiles(env.configDir, [
    { ...env.profile, practice: { baseUrl: `${env.sandbox.url}/practice`, auth }, portal: { baseUrl: `${env.sandbox.url}/portal`, auth } },
  ]);
});
afterAll(() => env.close());

/** Run `pdesk tui`: its first screen loads, then the Appointments screen (2), then q quits. */
async function session(args: string[], more: Record<string, string> = {}): Promise<void> {
  const full: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    ...process.env,
    PDESK_CONFIG_DIR: env.configDir,
    SANDBOX_TOKEN: TOKEN,
    TERM: 'xterm-256color',
    NO_COLOR: '1',
    ...more,
  }))
    if (v !== undefined) full[k] = v;
  delete full.PDESK_PROFILE;
  const cmd = `stty rows 24 cols 100 2>/dev/null; exec '${process.execPath}' '${BIN}' ${args.map((a) => `'${a}'`).join(' ')}`;
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env: full, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
  const closed = new Promise<void>((r) => child.on('close', () => r()));
  try {
    const until = async (text: string) => {
      const t0 = Date.now();
      while (!out.includes(text)) {
        if (Date.now() - t0 > 10_000) throw new Error(`no "${text}" on the screen:\n${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until(' · 1/3'); // the first screen (Slots) has loaded its service categories
    child.stdin!.write('2'); // Appointments
    await until('appt-1');
    child.stdin!.write('q');
    await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

describe.skipIf(!hasScript)('pdesk tui --trace', () => {
  it('records the session’s exchanges without the token, with --trace and with PDESK_TRACE', async () => {
    const file = join(tempDir(), 'tui.trace');
    await session(['tui', '--trace', file]);
    await session(['tui'], { PDESK_TRACE: file });
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const headers = lines.filter((l) => l.trace === 'pdesk-trace');
    expect(headers).toHaveLength(2);
    expect(headers[0]).toMatchObject({ profile: 'sandbox', auth: { practice: { type: 'bearer' } } });
    const appointments = lines.filter((l) => l.op === 'A5');
    expect(appointments.length).toBeGreaterThanOrEqual(2); // the appointments screen loaded in each session
    expect(appointments[0]).toMatchObject({ method: 'GET', status: 200, requestHeaders: { authorization: 'Bearer ***' } });
  }, 30_000);
});
