// TUI budgets (issues 4 and 11): time from start to the first frame of `pdesk tui --sandbox` under a pty
// (script(1)), as a ratio to `node -e 0` in the same run (target <= 3x; pdesk's code cache in a fresh folder,
// written by the first, uncounted run), and key press to next frame on the 10,000-slot list in-process (median
// and p95, target < 16 ms), built with the same dependency patches as dist/. Prints a final JSON line
// {name: 'tui', ...}. Then the same two budgets while the Systems screen refreshes FIVE profiles (five
// `pdesk sandbox` processes answering after --latency): `pdesk tui` opening on Systems with five saved profiles,
// and key presses on the Systems screen in-process while its probes run (refresh every second), beside the same
// keys with no refresh running. Run after `npm run build` (npm run bench does it). Usage: node bench/tui.mjs [--runs n]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keyTimes, loadHarness } from './harness.mjs';
import { budget, median, percentile, runsArg, timeProcess } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/pdesk.js');
const RUNS = runsArg(15); // a median of fewer runs swung by a tenth between runs of the bench on this host
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

/**
 * Spawn `pdesk tui <args>` in an 80x24 pty; resolve with ms from spawn to the first frame showing the header
 * (`args` default: --sandbox). With `until`, keep going until that text is drawn too and resolve with both times.
 */
function firstFrame(configDir, args = ['--sandbox'], until) {
  return new Promise((resolve, reject) => {
    const cmd = `stty rows 24 cols 80 2>/dev/null; exec ${shq(process.execPath)} ${shq(bin)} tui ${args.map(shq).join(' ')}`;
    const t0 = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: tuiEnv(configDir), detached: true });
    let out = '';
    let ms;
    let untilMs;
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      reject(new Error(`no first frame within 15 s; output:\n${out.slice(-500)}`));
    }, 15_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (ms === undefined && out.includes(HEADER)) ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (ms !== undefined && untilMs === undefined && (!until || until.test(out))) {
        untilMs = Number(process.hrtime.bigint() - t0) / 1e6;
        child.stdin.write('q');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (untilMs === undefined) reject(new Error(`pdesk tui ${args.join(' ')} exited ${code} before a frame:\n${out.slice(-500)}`));
      else resolve(until ? { ms, untilMs } : ms);
    });
  });
}

const SLOTS_HARNESS = `
        import React from 'react';
        import { useInput } from 'ink';
        import { render } from 'ink-testing-library';
        import { KeyRouterProvider } from './src/tui/keys/router.js';
        import { useKeyRouterState } from './src/tui/keys/useKeyRouterState.js';
        import { SlotList } from './src/tui/screens/slots/slot-list.js';
        function Host({ children }) {
          const { router, version } = useKeyRouterState(() => undefined);
          useInput((i, k) => router.dispatch(i, k));
          return React.createElement(KeyRouterProvider, { router, version }, children);
        }
        export { React, render, Host, SlotList };
      `;

/** The whole TUI (Root) on the Systems screen, with the profile schema to build its profiles. */
const SYSTEMS_HARNESS = `
        import React from 'react';
        import { render } from 'ink-testing-library';
        import { Root } from './src/tui/app.js';
        import { Profile } from './src/core/profile/schema.js';
        export { React, render, Root, Profile };
      `;

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
  const times = await keyTimes(ui, keys);
  const last = ui.lastFrame();
  ui.unmount();
  return { firstRender, times, sane: /1\/10000/.test(last) };
}

/** Latency of every answer of the five sandboxes: a probe round is in flight for a good part of each second. */
const SANDBOX_LATENCY_MS = 300;
const PROFILES = 5;

/** Start `pdesk sandbox` on a free port with answers delayed; resolve with its process and ready profile. */
function startSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--no-profile', '--latency', String(SANDBOX_LATENCY_MS)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) {
        try {
          resolve({ child, info: JSON.parse(line) });
        } catch (e) {
          reject(e);
        }
      }
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`pdesk sandbox exited ${code}: ${out}`)));
  });
}

/** Five saved profiles, one per sandbox (`site-1` … `site-5`, the third in production), in `configDir`. */
function writeFiveProfiles(configDir, sandboxes) {
  const profiles = sandboxes.map((s, i) => ({
    ...s.info.profile,
    name: `site-${i + 1}`,
    environment: i === 2 ? 'production' : 'test',
  }));
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, 'profiles.json'),
    JSON.stringify({ schemaVersion: 1, defaultProfile: profiles[0].name, profiles: Object.fromEntries(profiles.map((p) => [p.name, p])) }),
    { mode: 0o600 },
  );
  return profiles;
}

/**
 * Key press to frame on the Systems screen (the whole Root, 100x30) while it probes five profiles, refreshing
 * every second: j and k in turn, each timed until the frame shows the selection on the expected row (a frame
 * drawn for a probe's answer does not count). Also: the time to the first frame and to five rows all answered.
 */
async function systemsKeys(h, profiles, configDir, refreshS = 1) {
  const parsed = profiles.map((p) => h.Profile.parse(p));
  const entries = parsed.map((p) => ({ name: p.name, profile: p }));
  const t0 = performance.now();
  const ui = h.render(
    h.React.createElement(h.Root, {
      profile: parsed[0],
      size: { columns: 100, rows: 30 },
      initialScreen: 'systems',
      configDir,
      listProfiles: async () => entries,
      systemsRefreshS: refreshS,
      onQuit: () => undefined,
    }),
  );
  while (!ui.lastFrame()) await nextTurn();
  const firstRender = performance.now() - t0;
  const answered = () => (ui.lastFrame().match(/ ok \d+ ms/g) ?? []).length >= PROFILES;
  const deadline = Date.now() + 30_000;
  while (!answered()) {
    if (Date.now() > deadline) throw new Error(`the Systems screen did not show ${PROFILES} answers:\n${ui.lastFrame()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const allAnswered = performance.now() - t0;
  const times = [];
  let whileProbing = 0;
  const selected = () => /^>\s+\*?\s*(site-\d)/m.exec(ui.lastFrame())?.[1];
  for (let i = 0; i < 120; i++) {
    const want = `site-${(i % 2) + 1 === 1 ? 2 : 1}`; // j to site-2, k back to site-1
    if (ui.lastFrame().includes('probing…')) whileProbing++;
    const s = performance.now();
    ui.stdin.write(i % 2 === 0 ? 'j' : 'k');
    const until = Date.now() + 10_000;
    while (selected() !== want) {
      if (Date.now() > until) throw new Error(`no frame with ${want} selected:\n${ui.lastFrame()}`);
      await new Promise((r) => setTimeout(r, 1)); // a 1 ms timer: figures are to the millisecond
    }
    times.push(performance.now() - s);
    // Spread the presses over several refreshes (an operator's pace, not a burst).
    await new Promise((r) => setTimeout(r, 20 + (i % 7) * 11));
  }
  ui.unmount();
  return { firstRender, allAnswered, times, whileProbing };
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

  const h = await loadHarness(dir, SLOTS_HARNESS, 'tui-keys-harness');
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
  // The Systems screen refreshing five profiles: five sandboxes whose every answer takes SANDBOX_LATENCY_MS.
  const sandboxes = await Promise.all(Array.from({ length: PROFILES }, () => startSandbox()));
  let sys;
  try {
    const sysDir = join(dir, 'systems');
    const profiles = writeFiveProfiles(sysDir, sandboxes);
    // `pdesk tui` with five saved profiles and none named opens on Systems and probes them all at once.
    const sysNode = [];
    const sysFrames = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const n = await timeProcess(process.execPath, ['-e', '0']);
      const f = await firstFrame(sysDir, [], /Systems — 5 profiles/);
      if (i > 0) {
        sysNode.push(n);
        sysFrames.push(f);
      }
    }
    const sh = await loadHarness(dir, SYSTEMS_HARNESS, 'tui-systems-harness');
    await systemsKeys(sh, profiles, sysDir); // warm-up (JIT)
    // The same keys on the same screen with no refresh after the first round: what the refreshing costs.
    const quiet = await systemsKeys(sh, profiles, sysDir, 3600);
    const k5 = await systemsKeys(sh, profiles, sysDir);
    const nodeMs5 = median(sysNode);
    const frameMs5 = median(sysFrames.map((f) => f.ms));
    const listedMs5 = median(sysFrames.map((f) => f.untilMs));
    sys = {
      nodeMs: nodeMs5,
      frameMs: frameMs5,
      frameRatio: frameMs5 / nodeMs5,
      listedMs: listedMs5,
      listedRatio: listedMs5 / nodeMs5,
      firstRender: k5.firstRender,
      allAnswered: k5.allAnswered,
      keyMedian: median(k5.times),
      keyP95: percentile(k5.times, 95),
      keyMax: Math.max(...k5.times),
      keys: k5.times.length,
      whileProbing: k5.whileProbing,
      quietMedian: median(quiet.times),
      quietP95: percentile(quiet.times, 95),
    };
  } finally {
    for (const s of sandboxes) s.child.kill('SIGTERM');
  }
  const frame5 = budget(`Systems (${PROFILES} profiles) first frame`, +sys.frameRatio.toFixed(2), { max: 3 });
  const key5 = budget('key press median while it refreshes', +sys.keyMedian.toFixed(2), { max: 16, unit: ' ms' });
  console.log(
    `pdesk tui, Systems with ${PROFILES} profiles: first frame median ${sys.frameMs.toFixed(1).padStart(7)} ms  ${sys.frameRatio.toFixed(2)}x; five rows listed ${sys.listedMs.toFixed(1)} ms (${sys.listedRatio.toFixed(2)}x)`,
  );
  console.log(
    `Systems in-process: first render ${sys.firstRender.toFixed(1)} ms, all ${PROFILES} answered (${SANDBOX_LATENCY_MS} ms latency each) ${sys.allAnswered.toFixed(1)} ms`,
  );
  console.log(
    `key press -> frame while refreshing ${PROFILES} profiles every 1 s (${sys.keys} keys, ${sys.whileProbing} pressed during a probe round)  median ${sys.keyMedian.toFixed(2)} ms  p95 ${sys.keyP95.toFixed(2)} ms  max ${sys.keyMax.toFixed(2)} ms`,
  );
  console.log(
    `the same keys with no refresh running                median ${sys.quietMedian.toFixed(2)} ms  p95 ${sys.quietP95.toFixed(2)} ms; refreshing / quiet: median ${(sys.keyMedian / sys.quietMedian).toFixed(2)}x, p95 ${(sys.keyP95 / sys.quietP95).toFixed(2)}x`,
  );
  console.log(
    `budget: ${frame5.text}, ${key5.text} (p95 ${sys.keyP95.toFixed(2)} ms; refreshing / quiet ${(sys.keyMedian / sys.quietMedian).toFixed(2)}x)`,
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
      budget: {
        firstFrame: frame,
        key: { ...key, p95Ms: +keyP95.toFixed(2) },
        systemsFirstFrame: frame5,
        systemsKey: { ...key5, p95Ms: +sys.keyP95.toFixed(2) },
      },
      systems: {
        profiles: PROFILES,
        sandboxLatencyMs: SANDBOX_LATENCY_MS,
        refreshS: 1,
        firstFrameMs: +sys.frameMs.toFixed(1),
        firstFrameRatio: +sys.frameRatio.toFixed(2),
        listedMs: +sys.listedMs.toFixed(1),
        listedRatio: +sys.listedRatio.toFixed(2),
        allAnsweredMs: +sys.allAnswered.toFixed(1),
        keyMedianMs: +sys.keyMedian.toFixed(2),
        keyP95Ms: +sys.keyP95.toFixed(2),
        keys: sys.keys,
        keysDuringProbes: sys.whileProbing,
        quietKeyMedianMs: +sys.quietMedian.toFixed(2),
        quietKeyP95Ms: +sys.quietP95.toFixed(2),
        refreshingOverQuietMedian: +(sys.keyMedian / sys.quietMedian).toFixed(2),
      },
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
