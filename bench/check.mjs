// Speed of `pdesk check` (issue 8): the read-only suite against a local sandbox completes in under 3 s, and
// `--all-profiles` on five profiles (five sandboxes, checked concurrently) takes less than twice one profile's
// time. Whole-process medians, as every pdesk benchmark. Prints a final JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { budget, compare } from './lib.mjs';

const bin = fileURLToPath(new URL('../bin/pdesk.js', import.meta.url));
const PROFILES = 5;

function startSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--no-profile', '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve({ url: m[0], child });
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}

const sandboxes = await Promise.all(Array.from({ length: PROFILES }, startSandbox));
const dir = mkdtempSync(join(tmpdir(), 'pdesk-bench-check-'));
const profiles = Object.fromEntries(
  sandboxes.map(({ url }, i) => [
    `practice-${i + 1}`,
    {
      name: `practice-${i + 1}`,
      namespaces: { portal: 'portal.example', practice: 'practice.example' },
      practice: { baseUrl: `${url}/practice` },
      portal: { baseUrl: `${url}/portal` },
      check: { serviceCategory: 'urn:pdesk:service-category|gp' },
    },
  ]),
);
writeFileSync(join(dir, 'profiles.json'), JSON.stringify({ schemaVersion: 1, defaultProfile: 'practice-1', profiles }), { mode: 0o600 });
const env = { PDESK_CONFIG_DIR: dir };
try {
  const r = await compare(
    [
      { name: 'pdesk check (one profile)', cmd: process.execPath, args: [bin, 'check', '--json'], env },
      { name: `pdesk check --all-profiles (${PROFILES})`, cmd: process.execPath, args: [bin, 'check', '--all-profiles', '--json'], env },
    ],
    { runs: 9, warmup: 2 },
  );
  const rows = Object.entries(r).map(([name, t]) => ({ name, medianMs: +t.median.toFixed(1), p95Ms: +t.p95.toFixed(1) }));
  for (const row of rows)
    console.log(`${row.name.padEnd(36)} median ${String(row.medianMs).padStart(7)} ms  p95 ${String(row.p95Ms).padStart(7)} ms`);
  const one = rows[0].medianMs;
  const five = rows[1].medianMs;
  const ratio = +(five / one).toFixed(2);
  const budgets = {
    oneMs: budget('pdesk check, one profile', one, { max: 3000, unit: ' ms' }),
    allProfiles: budget(`pdesk check --all-profiles (${PROFILES}) vs one profile`, ratio, { max: 2 }),
  };
  for (const b of Object.values(budgets)) console.log(`budget: ${b.text}`);
  console.log(JSON.stringify({ name: 'check', rows, budget: budgets }));
} finally {
  for (const s of sandboxes) s.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
