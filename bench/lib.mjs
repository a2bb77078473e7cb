// Shared bench helpers: whole-process timing, statistics and budgets. Figures are reported as ratios to
// `node -e 0` measured in the same run, since single timings vary from machine to machine.
import { spawn } from 'node:child_process';

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** Wall time of one process from spawn to exit, in ms. */
export function timeProcess(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`));
      else resolve(ms);
    });
  });
}

/** Median wall time over `runs` after `warmup` runs; the cases are interleaved so drift hits them alike. */
export async function compare(cases, { runs = 15, warmup = 2 } = {}) {
  const times = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const c of cases) {
      const ms = await timeProcess(c.cmd, c.args, c.env);
      if (i >= warmup) times[c.name].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, { median: median(v), p95: percentile(v, 95), runs: v.length }]));
}

/**
 * A budget: `value` against a limit (`max`: at most, `below`: less than, `min`: at least). Printed with `ok`, or
 * `UNDER` when it is missed; `npm run bench` (bench/run.mjs) exits non-zero when any budget in a bench's JSON line has
 * `ok: false`.
 */
export function budget(label, value, { max, below, min, unit = 'x' }) {
  const [limit, ok, bound] =
    max !== undefined
      ? [{ max }, value <= max, `<= ${max}${unit}`]
      : below !== undefined
        ? [{ below }, value < below, `< ${below}${unit}`]
        : [{ min }, value >= min, `>= ${min}${unit}`];
  return { label, value, ...limit, ok, text: `${label} ${value}${unit} (${bound}: ${ok ? 'ok' : 'UNDER'})` };
}

/** Command-line knobs shared by the benches: `--runs n`. */
export function runsArg(fallback) {
  const i = process.argv.indexOf('--runs');
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
