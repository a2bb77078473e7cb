// `npm run bench`: every benchmark in turn (each prints a final JSON line), then a summary. Never run by `npm test`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const benches = ['startup.mjs', 'notifications.mjs', 'tui.mjs', 'check.mjs'];
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
    console.log(`${b}: no JSON summary line`);
  }
}
console.log('\n== summary');
console.log(JSON.stringify(results, null, 2));
process.exit(failed ? 1 : 0);
