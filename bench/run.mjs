// `npm run bench`: every benchmark in turn (each prints a final JSON line), then a summary of every budget, written
// to bench/results.json (the latest figures; the README's table shows them, history lives in git). Exits non-zero
// when a benchmark fails or a budget is missed. Never run by `npm test`.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const benches = ['startup.mjs', 'notifications.mjs', 'tui.mjs', 'check.mjs', 'listen.mjs', 'team.mjs'];
const results = [];
let failed = false;
for (const b of benches) {
  const file = fileURLToPath(new URL(b, import.meta.url));
  if (!existsSync(file)) continue;
  console.log(`\n== ${b}`);
  const r = spawnSync(process.execPath, [file, ...process.argv.slice(2)], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.stdout.write(r.stdout);
  if (r.status !== 0) {
    failed = true;
    console.log(`${b} exited ${r.status}`);
    continue;
  }
  const last = r.stdout.trim().split('\n').pop();
  try {
    results.push(JSON.parse(last));
  } catch {
    failed = true;
    console.log(`${b}: no JSON summary line`);
  }
}

/** Every budget of a bench's JSON line: `budget: {name: {ok, text}}`, made by bench/lib.mjs `budget()`. */
function budgetsOf(result) {
  return Object.values(result.budget ?? {})
    .filter((b) => typeof b?.ok === 'boolean')
    .map((b) => ({ bench: result.name, ...b, text: `${result.name}: ${b.text}` }));
}

console.log('\n== summary');
console.log(JSON.stringify(results, null, 2));
console.log('\n== budgets');
const budgets = results.flatMap(budgetsOf);
for (const b of budgets) console.log(`${b.ok ? 'ok   ' : 'UNDER'}  ${b.text}`);
if (budgets.some((b) => !b.ok)) failed = true;

// The figures of a whole run only (a run of one bench, or with --runs, is not the project's figure).
if (process.argv.length === 2 && results.length === benches.length) {
  const file = fileURLToPath(new URL('results.json', import.meta.url));
  const machine = { node: process.version, platform: `${process.platform} ${process.arch}`, cpus: cpus().length };
  writeFileSync(file, `${JSON.stringify({ ranAt: new Date().toISOString(), machine, budgets, results }, null, 2)}\n`);
  console.log(`\nfigures written to ${file}`);
}
process.exit(failed ? 1 : 0);
