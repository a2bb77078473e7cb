// TUI budgets (issues 4 and 11): time from start to the first frame of `pdesk tui --sandbox` under a pty
// (script(1)), as a ratio to `node -e 0` in the same run (target <= 3x; pdesk's code cache in a fresh folder,
// written by the first, uncounted run), and key press to next frame on the 10,000-slot list in-process (median
// and p95, target < 16 ms), built with the same dependency patches as dist/. Prints a final JSON line
// {name: 'tui', ...}. Run after `npm run build` (npm run bench does it). Usage: node bench/tui.mjs [--runs n]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { inkText } from '../scripts/build-patches.mjs';
import { budget, median, percentile, runsArg, timeProcess } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/pdesk.js');
const RUNS = runsArg(7);
const HEADER = 'appt API';

/** Environment for a child TUI: no CI markers (Ink draws nothing live under CI), a fresh config and cache folder. */
function tuiEnv(configDir) {
  const env = {
    ...process.env,
    PDESK_CONFIG_DIR: configDir,
    PDESK_CACHE_DIR: join(configDir, 'cache'),
    PDESK_CODE_CACHE: '1',
    TERM: process.env.TERM && process.env.TERM !== 'dumb' ? process.env.TERM : 'xterm-256color',
  };
  for (const k of Object.keys(env)) if (k === 'CI' || k === 'CONTINUOUS_INTEGRATION' || k.startsWith('CI_')) delete env[k];
  return env;
}

const shq = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Spawn `pdesk tui --sandbox` in an 80x24 pty; resolve with ms from spawn to the first frame showing the header. */
function firstFrame(configDir) {
  return new Promise((resolve, reject) => {
    const cmd = `stty rows 24 cols 80 2>/dev/null; exec ${shq(process.execPath)} ${shq(bin)} tui --sandbox`;
    const t0 = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: tuiEnv(configDir), detached: true });
    let out = '';
    let ms;
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      reject(new Error(`no first frame within 15 s; output:\n${out.slice(-500)}`));
    }, 15_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (ms === undefined && out.includes(HEADER)) {
        ms = Number(process.hrtime.bigint() - t0) / 1e6;
        child.stdin.write('q');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (ms === undefined) reject(new Error(`pdesk tui --sandbox exited ${code} before a frame:\n${out.slice(-500)}`));
      else resolve(ms);
    });
  });
}

/** Bundle a small in-process harness (the real SlotList under the real key router) and load it. */
async function loadHarness(dir) {
  const outfile = join(dir, 'tui-keys-harness.mjs');
  await build({
    stdin: {
      contents: `
        import React from 'react';
        import { useInput } from 'ink';
        import { render } from 'ink-testing-library';
        import { KeyRouterProvider, useKeyRouterState } from './src/tui/keys.js';
        import { SlotList } from './src/tui/screens/slots.js';
        function Host({ children }) {
          const { router, version } = useKeyRouterState(() => undefined);
          useInput((i, k) => router.dispatch(i, k));
          return React.createElement(KeyRouterProvider, { router, version }, children);
        }
        export { React, render, Host, SlotList };
      `,
      resolveDir: root,
      loader: 'tsx',
      sourcefile: 'tui-keys-harness.tsx',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    // Ink imports the devtools only in development; stub it so the one-file harness has no dangling import.
    // Ink's text libraries get the patches dist/ gets (scripts/build-patches.mjs), so keys are timed as shipped.
    plugins: [
      inkText,
      {
        name: 'stub-devtools',
        setup(b) {
          b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
          b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
            contents: 'export default { initialize() {}, connectToDevTools() {} };',
          }));
        },
      },
    ],
    banner: { js: "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);" },
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

function manySlots(n) {
  const out = [];
  const day0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < n; i++) {
    const start = day0 + Math.floor(i / 24) * 86_400_000 + (8 * 60 + (i % 24) * 20) * 60_000;
    out.push({
      resourceType: 'Slot',
      id: `slot-${i}`,
      status: 'free',
      start: new Date(start).toISOString().replace('.000Z', 'Z'),
      end: new Date(start + 20 * 60_000).toISOString().replace('.000Z', 'Z'),
      extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' } }],
    });
  }
  return out;
}

const nextTurn = () => new Promise((r) => setImmediate(r));

async function keyLatency(h) {
  const slots = manySlots(10_000);
  const t0 = performance.now();
  const ui = h.render(h.React.createElement(h.Host, null, h.React.createElement(h.SlotList, { slots, width: 80, height: 19 })));
  while (!ui.lastFrame()) await nextTurn();
  const firstRender = performance.now() - t0;
  const keys = [];
  for (let i = 0; i < 120; i++) keys.push('\u001B[6~'); // PageDown
  for (let i = 0; i < 60; i++) keys.push('\u001B[B'); // Down
  for (let i = 0; i < 60; i++) keys.push('\u001B[5~'); // PageUp
  keys.push('\u001B[F', '\u001B[H'); // End, Home
  const times = [];
  for (const k of keys) {
    const before = ui.frames.length;
    const s = performance.now();
    ui.stdin.write(k);
    while (ui.frames.length === before) await nextTurn();
    times.push(performance.now() - s);
  }
  const last = ui.lastFrame();
  ui.unmount();
  return { firstRender, times, sane: /1\/10000/.test(last) };
}

if (spawnSync('script', ['--version'], { encoding: 'utf8' }).error) {
  console.error('bench/tui.mjs needs script(1) (util-linux) for a pty.');
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'pdesk-bench-tui-'));
try {
  // Start-up: interleaved so drift hits both alike.
  const nodeTimes = [];
  const frameTimes = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const n = await timeProcess(process.execPath, ['-e', '0']);
    const f = await firstFrame(dir);
    if (i > 0) {
      nodeTimes.push(n);
      frameTimes.push(f);
    }
  }
  const nodeMs = median(nodeTimes);
  const frameMs = median(frameTimes);
  const frameRatio = frameMs / nodeMs;

  const h = await loadHarness(dir);
  await keyLatency(h); // warm-up (JIT)
  const k = await keyLatency(h);
  const keyMedian = median(k.times);
  const keyP95 = percentile(k.times, 95);

  console.log(`node -e 0                          median ${nodeMs.toFixed(1).padStart(7)} ms`);
  console.log(
    `pdesk tui --sandbox first frame    median ${frameMs.toFixed(1).padStart(7)} ms  p95 ${percentile(frameTimes, 95).toFixed(1).padStart(7)} ms  ${frameRatio.toFixed(2)}x`,
  );
  console.log(`10,000-slot list first render             ${k.firstRender.toFixed(1).padStart(7)} ms`);
  console.log(
    `key press -> next frame (${k.times.length} keys)  median ${keyMedian.toFixed(2).padStart(6)} ms  p95 ${keyP95.toFixed(2).padStart(6)} ms  max ${Math.max(...k.times).toFixed(2)} ms`,
  );
  // The key budget is on the median (the issue's "< 16 ms per key press"); p95 is reported beside it.
  const frame = budget('first frame', +frameRatio.toFixed(2), { max: 3 });
  const key = budget('key press median', +keyMedian.toFixed(2), { max: 16, unit: ' ms' });
  console.log(
    `budget: ${frame.text}, ${key.text} (p95 ${keyP95.toFixed(2)} ms)${k.sane ? '' : ' (the list did not end on row 1: check the harness)'}`,
  );
  console.log(
    JSON.stringify({
      name: 'tui',
      nodeMs: +nodeMs.toFixed(1),
      firstFrameMs: +frameMs.toFixed(1),
      firstFrameRatio: +frameRatio.toFixed(2),
      list10kFirstRenderMs: +k.firstRender.toFixed(1),
      keyMedianMs: +keyMedian.toFixed(2),
      keyP95Ms: +keyP95.toFixed(2),
      keys: k.times.length,
      budget: { firstFrame: frame, key: { ...key, p95Ms: +keyP95.toFixed(2) } },
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
