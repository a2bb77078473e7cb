// Start-up budget (issue 2): `pdesk --help` at most 2x `node -e 0`, one read command against a local sandbox
// at most 4x, as whole-process medians in the same run. Prints a final JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare } from './lib.mjs';

const bin = fileURLToPath(new URL('../bin/pdesk.js', import.meta.url));

function startSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve({ url: m[0], child });
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}

const { url, child } = await startSandbox();
const dir = mkdtempSync(join(tmpdir(), 'pdesk-bench-'));
const profile = {
  name: 'bench',
  namespaces: { portal: 'portal.example', practice: 'practice.example' },
  practice: { baseUrl: `${url}/practice` },
  portal: { baseUrl: `${url}/portal` },
};
writeFileSync(join(dir, 'profiles.json'), JSON.stringify({ schemaVersion: 1, defaultProfile: 'bench', profiles: { bench: profile } }), {
  mode: 0o600,
});
const env = { PDESK_CONFIG_DIR: dir };
try {
  const r = await compare([
    { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
    { name: 'pdesk --help', cmd: process.execPath, args: [bin, '--help'], env },
    {
      name: 'pdesk appointment-types list',
      cmd: process.execPath,
      args: [bin, 'appointment-types', 'list', '--service-category', 'gp', '--json'],
      env,
    },
    {
      name: 'pdesk slots list (one week)',
      cmd: process.execPath,
      args: [bin, 'slots', 'list', '--service-category', 'urn:pdesk:service-category|gp', '--from', 'today', '--to', '+6d', '--json'],
      env,
    },
  ]);
  const base = r['node -e 0'].median;
  const rows = Object.entries(r).map(([name, t]) => ({
    name,
    medianMs: +t.median.toFixed(1),
    p95Ms: +t.p95.toFixed(1),
    ratio: +(t.median / base).toFixed(2),
  }));
  for (const row of rows)
    console.log(
      `${row.name.padEnd(32)} median ${String(row.medianMs).padStart(7)} ms  p95 ${String(row.p95Ms).padStart(7)} ms  ${row.ratio}x`,
    );
  const help = rows.find((x) => x.name === 'pdesk --help').ratio;
  const read = rows.find((x) => x.name === 'pdesk appointment-types list').ratio;
  console.log(`budget: --help ${help}x (<= 2x: ${help <= 2 ? 'ok' : 'OVER'}), read command ${read}x (<= 4x: ${read <= 4 ? 'ok' : 'OVER'})`);
  console.log(JSON.stringify({ name: 'startup', rows, budget: { help: { ratio: help, max: 2 }, read: { ratio: read, max: 4 } } }));
} finally {
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
