/**
 * The profile store's lock (issue 35, item 6), as processes: ten `pdesk profile add` started at once against one
 * config folder all exit 0 and all ten profiles are in the store afterwards (before the lock, 3–6 of 10 survived);
 * a lock left behind by a process killed with -9 does not stop the next write.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

const add = (name: string) => [
  'profile',
  'add',
  '--name',
  name,
  '--practice-url',
  'https://practice.test/fhir',
  '--portal-url',
  'https://portal.test/fhir',
  '--portal-namespace',
  'portal.test',
  '--practice-namespace',
  'practice.test',
];

describe('concurrent profile writes', () => {
  it('ten profile add processes at once: every one exits 0 and every profile is kept', async () => {
    const dir = tempDir();
    const names = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const results = await Promise.all(names.map((n) => runCli(add(n), { configDir: dir, timeoutMs: 60_000 })));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const store = JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')) as { profiles: Record<string, unknown> };
    expect(Object.keys(store.profiles).sort()).toEqual(names);
    const list = await runCli(['profile', 'list', '--json'], { configDir: dir });
    expect((list.json() as Array<{ name: string }>).map((p) => p.name).sort()).toEqual(names);
  }, 90_000);

  it('a lock left by a process killed with -9 is taken over at once', async () => {
    const dir = tempDir();
    // A process that dies holding the lock: its pid is then no process's.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const pid = child.pid!;
    const { hostname } = await import('node:os');
    writeFileSync(join(dir, 'profiles.json.lock'), `${pid} ${hostname()}\n`);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const started = Date.now();
    const r = await runCli(add('after'), { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(readFileSync(join(dir, 'profiles.json'), 'utf8')).toContain('"after"');
  });
});
