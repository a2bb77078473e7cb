// Start-up budgets (issue 11): whole-process medians in the same run, as ratios to `node -e 0`, beside two
// anchors that do the same one-shot GET without pdesk: node:http (the floor for a Node command that does one
// request) and undici's request() (what loading undici costs). Budgets: `pdesk --help` <= 1.2x, one read
// command against a local sandbox (`appointment-types list`) <= 1.5x, `slots list` of a week (4 pages) <= 1.8x.
// pdesk runs with its V8 code cache in a fresh folder, written by the warm-up runs as a user's first run
// writes it; the read command is also timed without the cache (a first run after installing: no budget).
// Prints a final JSON line. Usage: node bench/startup.mjs [--runs n]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { budget, compare, runsArg } from './lib.mjs';

const bin = fileURLToPath(new URL('../bin/pdesk.js', import.meta.url));
const anchor = (name) => fileURLToPath(new URL(`./anchors/${name}`, import.meta.url));

function startSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--no-profile'], { stdio: ['ignore', 'pipe', 'inherit'] });
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
const env = { PDESK_CONFIG_DIR: dir, PDESK_CACHE_DIR: join(dir, 'cache'), PDESK_CODE_CACHE: '1' };
// The anchors GET what `appointment-types list` gets first: its A1 request.
const a1 = `${url}/practice/ValueSet?service-category=gp`;
const read = ['appointment-types', 'list', '--service-category', 'gp', '--json'];
try {
  const r = await compare(
    [
      { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
      { name: 'anchor: node:http GET', cmd: process.execPath, args: [anchor('http-get.mjs'), a1] },
      { name: 'anchor: undici request() GET', cmd: process.execPath, args: [anchor('undici-get.mjs'), a1] },
      { name: 'pdesk --help', cmd: process.execPath, args: [bin, '--help'], env },
      { name: 'pdesk appointment-types list', cmd: process.execPath, args: [bin, ...read], env },
      {
        name: 'pdesk slots list (one week)',
        cmd: process.execPath,
        args: [bin, 'slots', 'list', '--service-category', 'urn:pdesk:service-category|gp', '--from', 'today', '--to', '+6d', '--json'],
        env,
      },
      {
        name: 'pdesk appointment-types list, no code cache',
        cmd: process.execPath,
        args: [bin, ...read],
        env: { ...env, PDESK_CODE_CACHE: '0' },
      },
    ],
    { runs: runsArg(25) }, // a median of 15 swung by a tenth between runs of the bench on this host
  );
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
  const ratio = (name) => rows.find((x) => x.name === name).ratio;
  const budgets = {
    help: budget('--help', ratio('pdesk --help'), { max: 1.2 }),
    read: budget('read command', ratio('pdesk appointment-types list'), { max: 1.5 }),
    slots: budget('slots list of a week', ratio('pdesk slots list (one week)'), { max: 1.8 }),
  };
  console.log(
    `budget: ${Object.values(budgets)
      .map((b) => b.text)
      .join(', ')}`,
  );
  console.log(JSON.stringify({ name: 'startup', rows, budget: budgets }));
} finally {
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
