/**
 * `pdesk sandbox` as a process: prints its URL and profile as its first line, serves, stays up until SIGINT or
 * SIGTERM and then releases its port; the README's scripted session runs as written, in bash, on a free port.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';

/** Start `pdesk sandbox …` with a config folder of its own, resolve with the first line of stdout; the caller stops it. */
function startProcess(args: string[], env: Record<string, string> = {}) {
  const configDir = tempDir();
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], {
    env: { ...process.env, NO_COLOR: '1', PDESK_CONFIG_DIR: configDir, ...env },
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
  return { child, configDir, firstLine, exited, output: () => out, errors: () => err };
}

/** Whether a new server can listen on the port (it was released). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
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
    // Saved before the line was printed.
    expect(JSON.parse(readFileSync(join(p.configDir, 'profiles.json'), 'utf8')).profiles.sandbox).toEqual(info.profile);
    const res = await request(`${info.url}/practice/AppointmentType?service-category=gp`);
    expect(res.statusCode).toBe(200);
    expect(((await res.body.json()) as { resourceType: string }).resourceType).toBe('AppointmentType');
    // Still up a moment later (the entry point did not exit after the action).
    await new Promise((r) => setTimeout(r, 300));
    expect(p.child.exitCode).toBeNull();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  test('--no-profile names the profile and how to import it; --token-env puts bearer auth in the profile', async () => {
    const p = startProcess(['--port', '0', '--output', 'table', '--no-profile', '--token-env', 'SBX_TOKEN'], { SBX_TOKEN: 'tok-12345' });
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

  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    test(`${signal} closes it with a client connection kept alive, and releases the port`, async () => {
      const p = startProcess(['--port', '0', '--no-profile']);
      const { url } = JSON.parse(await p.firstLine);
      const port = Number(new URL(url).port);
      // A keep-alive connection left open, as a TUI or a bulk send leaves one.
      const res = await request(`${url}/practice/PractitionerRole`);
      await res.body.dump();
      expect(await portIsFree(port)).toBe(false);
      p.child.kill(signal);
      expect(await p.exited).toBe(0);
      expect(await portIsFree(port)).toBe(true);
    });
});

describe("the README's scripted session", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const marker = '<!-- scripted session: test/process/sandbox.test.ts runs this block as written -->';
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(marker)))?.[1] ?? '';

  test.skipIf(spawnSync('bash', ['--version']).error)('runs as written in bash, on any free port, and frees the port at the end', () => {
    expect(readme).toContain(marker);
    expect(block).toContain('pdesk sandbox --port 0');
    // `pdesk` on the PATH as an installed package puts it there: a command that runs bin/pdesk.js.
    const dir = tempDir();
    writeFileSync(join(dir, 'pdesk'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
    chmodSync(join(dir, 'pdesk'), 0o755);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), PATH: `${dir}:${process.env.PATH}` };
    env.PDESK_CONFIG_DIR = join(dir, 'config');
    delete env.PDESK_PROFILE;
    const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', block], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toMatch(/pdesk: /);
    expect(r.status).toBe(0);
    // The booking went through: the last command's output is the created appointment.
    expect(r.stdout).toMatch(/"resourceType": "Appointment"/);
    expect(r.stdout).toMatch(/"status": "booked"/);
    // The sandbox the block started stopped and let its port go (its URL is in the file the block wrote).
    const { url } = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8').split('\n')[0]!);
    return portIsFree(Number(new URL(url).port)).then((free) => expect(free).toBe(true));
  });
});
