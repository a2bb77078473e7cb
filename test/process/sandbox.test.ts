/** `pdesk sandbox` as a process: prints its URL and a ready profile, serves, stays up until SIGTERM; bad options exit 2. */
import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { request } from 'undici';
import { BIN } from '../helpers/cli.js';

/** Start `pdesk sandbox …`, resolve with the first line of stdout; the caller stops it. */
function startProcess(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no output; stderr: ${err}`)), 15_000);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.slice(0, out.indexOf('\n')));
      }
    });
    child.on('exit', () => reject(new Error(`exited early; stderr: ${err}`)));
  });
  return { child, firstLine, exited, output: () => out, errors: () => err };
}

describe('pdesk sandbox', () => {
  test('--port 0 prints its URL and profile as one JSON line when piped, serves, and exits 0 on SIGTERM', async () => {
    const p = startProcess(['--port', '0', '--appointment-api', '1.0.0', '--approval-flow']);
    const info = JSON.parse(await p.firstLine);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.profile).toMatchObject({
      appointmentApi: '1.0.0',
      approvalFlow: true,
      practice: { baseUrl: `${info.url}/practice` },
      portal: { baseUrl: `${info.url}/portal` },
    });
    const res = await request(`${info.url}/practice/AppointmentType?service-category=gp`);
    expect(res.statusCode).toBe(200);
    expect(((await res.body.json()) as { resourceType: string }).resourceType).toBe('AppointmentType');
    // Still up a moment later (the entry point did not exit after the action).
    await new Promise((r) => setTimeout(r, 300));
    expect(p.child.exitCode).toBeNull();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  test('table output names the URL, the profile and how to import it; --token-env puts bearer auth in the profile', async () => {
    const p = startProcess(['--port', '0', '--output', 'table', '--token-env', 'SBX_TOKEN'], { SBX_TOKEN: 'tok-12345' });
    const line = await p.firstLine;
    const url = /listening on (http:\/\/\S+)/.exec(line)![1]!;
    await new Promise((r) => setTimeout(r, 200));
    expect(p.output()).toContain('pdesk profile import');
    expect(p.output()).toContain('"tokenEnv": "SBX_TOKEN"');
    expect(p.output()).not.toContain('tok-12345');
    expect((await request(`${url}/practice/PractitionerRole`)).statusCode).toBe(401);
    const ok = await request(`${url}/practice/PractitionerRole`, { headers: { authorization: 'Bearer tok-12345' } });
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(0);
  });
});
