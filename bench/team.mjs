// The team desk (issue 37 item 8), against a throw-away PostgreSQL cluster (test/helpers/pg-cluster.ts, with fsync
// on, unlike the tests'), each figure
// beside an anchor measured in the same run:
// - pushes/s acknowledged by two `pdesk listen` processes into one team store, 16 senders at once, against the same
//   two processes on one config folder's file store (the ratio is the figure; no budget);
// - push → another operator's TUI frame: a push sent to a listener until the frame of a Chat screen (the whole Root,
//   in-process, on its own store connection) shows it; median and p95, budget p95 <= 250 ms (the file store's
//   figure beside it: its change events come from watching the files);
// - the Chat thread list with 10,000 threads: first frame (the first page's rows) as a ratio to `node -e 0`
//   (<= 3x, the TUI's first-frame budget) and key press to frame on it (median <= 16 ms), on both engines.
// Run after `npm run build` (npm run bench does it). Prints a final JSON line. Without PostgreSQL it says so and
// exits 1. Knobs: BENCH_TEAM_PUSHES (default 4000), --runs n (latency pushes, default 60).
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keyTimes, loadHarness } from './harness.mjs';
import { budget, median, percentile, runsArg, timeProcess } from './lib.mjs';

const bin = fileURLToPath(new URL('../bin/pdesk.js', import.meta.url));
const PUSHES = Number(process.env.BENCH_TEAM_PUSHES ?? 4000);
const SENDERS = 16;
const LATENCY_PUSHES = runsArg(60);
const THREADS = 10_000;
/** The sandbox's namespaces, which the tests' messages (test/helpers/chat.ts) are written in. */
const NS = { portal: 'portal.example', practice: 'practice.example' };
const PROFILE = 'bench';

const HARNESS = `
  import React from 'react';
  import { render } from 'ink-testing-library';
  import { Root } from './src/tui/app.js';
  import { Profile } from './src/core/profile/schema.js';
  import { openPgStore } from './src/core/store/pg/index.js';
  import { openFileStore } from './src/core/store/file/index.js';
  import { pgInstalled, pgMissingReason, startCluster } from './test/helpers/pg-cluster.js';
  import { chatMessage } from './test/helpers/chat.js';
  export { React, render, Root, Profile, openPgStore, openFileStore, pgInstalled, pgMissingReason, startCluster, chatMessage };
`;

const dir = mkdtempSync(join(tmpdir(), 'pdesk-bench-team-'));
const h = await loadHarness(dir, HARNESS, 'team-harness');
if (!h.pgInstalled) {
  console.error(`bench/team.mjs: ${h.pgMissingReason}`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}

const profile = {
  name: PROFILE,
  namespaces: NS,
  practice: { baseUrl: 'http://127.0.0.1:9/practice' },
  portal: { baseUrl: 'http://127.0.0.1:9/portal' },
};

/** A config folder holding the bench profile. */
function configDir(name) {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true, mode: 0o700 });
  writeFileSync(join(d, 'profiles.json'), JSON.stringify({ schemaVersion: 1, defaultProfile: PROFILE, profiles: { [PROFILE]: profile } }), {
    mode: 0o600,
  });
  return d;
}

/** `pdesk listen` on port 0; resolves with its URL once it prints it (its later lines are read and dropped). */
function listen(config, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'listen', '--port', '0', '--json'], {
      env: { ...process.env, PDESK_CONFIG_DIR: config, PDESK_CACHE_DIR: join(dir, 'cache'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let url;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      if (url) return;
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      url = JSON.parse(out.slice(0, nl)).listening;
      const stop = () =>
        new Promise((r) => {
          if (child.exitCode !== null) return r();
          child.once('exit', r);
          child.kill('SIGTERM');
        });
      resolve({ url, stop });
    });
    child.on('exit', (code) => {
      if (!url) reject(new Error(`pdesk listen exited ${code} before its URL: ${err}`));
    });
  });
}

/** A patient's chat message (C1) as the portal pushes it (the tests' own, in the profile's namespaces). */
const message = (id, thread, text) => JSON.stringify(h.chatMessage(id, thread, text, 'Patient/pat-1', 'PractitionerRole/1001'));

const agent = new Agent({ keepAlive: true, maxSockets: SENDERS });

/** POST a C1 to a listener; resolves with the status once the answer is read. */
function push(base, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/practice/Communication`,
      { method: 'POST', agent, headers: { 'content-type': 'application/fhir+json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `n` pushes by SENDERS senders at once, each to the two listeners in turn; pushes acknowledged per second. */
async function throughput(urls, n, tag) {
  let next = 0;
  let acked = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async (_, s) => {
      for (let i = next++; i < n; i = next++) {
        const id = `${tag}-${i}`;
        const status = await push(urls[(i + s) % urls.length], message(id, `enc-${i % 500}`, `Push ${i} of ${tag}`));
        if (status === 201) acked++;
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  if (acked !== n) throw new Error(`${tag}: ${acked} of ${n} pushes acknowledged with 201`);
  return n / s;
}

/** Two listeners on one store; warm up, then the timed pushes. */
async function twoListeners(name, env) {
  const config = configDir(name);
  const first = await listen(config, env); // the first migrates a new team store
  const second = await listen(config, env);
  try {
    await throughput([first.url, second.url], 300, `${name}-warm`);
    return await throughput([first.url, second.url], PUSHES, name);
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The Chat screen of operator bob on `store`, 120x30. */
function chatScreen(store, config) {
  return h.render(
    h.React.createElement(h.Root, {
      profile: h.Profile.parse(profile),
      store,
      operator: 'bob',
      configDir: config,
      size: { columns: 120, rows: 30 },
      initialScreen: 'chat',
      listProfiles: async () => [],
      onQuit: () => undefined,
    }),
  );
}

async function until(ui, test, timeoutMs = 20_000) {
  const t0 = Date.now();
  while (!test(ui.lastFrame() ?? '')) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`no such frame within ${timeoutMs} ms:\n${ui.lastFrame()}`);
    await sleep(1); // a 1 ms timer: figures are to the millisecond
  }
}

/** Push → frame: each push (to a listener) timed until another operator's Chat screen shows its text. */
async function latency(store, config, env) {
  const listener = await listen(config, env);
  const ui = chatScreen(store, config);
  try {
    await until(ui, (f) => f.includes('Chat threads'));
    // One thread: its row (selected, at the top) shows each new message (new threads would push the selection's
    // window down the list once it is full).
    await push(listener.url, message('warm-1', 'enc-lat', 'warm up')); // the first push starts what is lazy
    await until(ui, (f) => f.includes('warm up'));
    const times = [];
    for (let i = 0; i < LATENCY_PUSHES; i++) {
      const text = `latency ${i} ${Math.random().toString(36).slice(2, 8)}`;
      const t0 = performance.now();
      void push(listener.url, message(`lat-${i}-${Date.now()}`, 'enc-lat', text));
      await until(ui, (f) => f.includes(text));
      times.push(performance.now() - t0);
      await sleep(30 + (i % 5) * 10);
    }
    return times;
  } finally {
    ui.unmount();
    await listener.stop();
  }
}

/** 10,000 threads of one message each, in the team store (rows as the store writes them). */
async function seedTeam(url) {
  const store = h.openPgStore(url);
  await store.open();
  await store.sql.unsafe(`
    insert into pdesk.threads (profile, thread, messages, unread, last_at, last_text, last_from, sort_at)
    select '${PROFILE}', 'enc-' || g, 1, 1, ts, 'Message ' || g || ': could the appointment on Thursday be moved?', 'portal', ts
    from (select g, timestamptz '2026-01-01' + g * interval '1 minute' as ts from generate_series(1, ${THREADS}) g) s;
    insert into pdesk.messages (profile, id, thread, op, via, at, text, resource)
    select '${PROFILE}', 'm-' || g, 'enc-' || g, 'C1', 'received', timestamptz '2026-01-01' + g * interval '1 minute', 'Message ' || g,
           json_build_object('resourceType', 'Communication', 'id', 'm-' || g, 'payload', json_build_array(json_build_object('contentString', 'Message ' || g)))
    from generate_series(1, ${THREADS}) g;
    update pdesk.threads t set last_seq = m.seq from pdesk.messages m where m.profile = t.profile and m.id = 'm-' || substr(t.thread, 5);`);
  await store.close();
}

/** The same 10,000 threads in a config folder's thread store. */
function seedFiles(config) {
  const lines = [];
  for (let g = 1; g <= THREADS; g++) {
    const at = new Date(Date.UTC(2026, 0, 1) + g * 60_000).toISOString();
    const id = `m-${g}`;
    const resource = JSON.parse(message(id, `enc-${g}`, `Message ${g}: could the appointment on Thursday be moved?`));
    lines.push(JSON.stringify({ v: 1, kind: 'message', op: 'C1', via: 'received', at, thread: `enc-${g}`, id, resource }));
  }
  mkdirSync(join(config, 'threads'), { recursive: true, mode: 0o700 });
  writeFileSync(join(config, 'threads', `${PROFILE}.ndjson`), `${lines.join('\n')}\n`, { mode: 0o600 });
}

/** First frame of the 10,000-thread list (its first page's rows), the whole list, then key press → frame on it. */
async function bigList(store, config) {
  const t0 = performance.now();
  const ui = chatScreen(store, config);
  await until(ui, (f) => / · 1\/\d+/.test(f));
  const first = performance.now() - t0;
  await until(ui, (f) => f.includes(` · 1/${THREADS}`));
  const whole = performance.now() - t0;
  const keys = [];
  for (let i = 0; i < 60; i++) keys.push('\u001B[6~'); // PageDown
  for (let i = 0; i < 60; i++) keys.push('j');
  for (let i = 0; i < 60; i++) keys.push('\u001B[5~'); // PageUp
  keys.push('G', 'g');
  const times = await keyTimes(ui, keys);
  const sane = / · 1\/10000/.test(ui.lastFrame());
  ui.unmount();
  return { first, whole, times, sane };
}

// PostgreSQL's own defaults (fsync on): a push is acknowledged after its commit is on disk, as the file store's
// append is fsynced before its acknowledgement.
const cluster = await h.startCluster({ durable: true });
const stores = [];
try {
  // 1. Pushes acknowledged per second: the team store against the file store, two listeners each.
  const teamUrl = await cluster.createDatabase();
  const fileRate = await twoListeners('file', {});
  const pgRate = await twoListeners('team', { PDESK_STORE_URL: teamUrl });
  console.log(
    `pushes/s acknowledged by two listeners, ${SENDERS} senders, ${PUSHES} pushes: team store ${pgRate.toFixed(0)}, file store ${fileRate.toFixed(0)} (${(pgRate / fileRate).toFixed(2)}x)`,
  );

  // 2. Push → another operator's frame.
  const latUrl = await cluster.createDatabase();
  const pgStore = h.openPgStore(latUrl);
  stores.push(pgStore);
  const pgTimes = await latency(pgStore, configDir('lat-team'), { PDESK_STORE_URL: latUrl });
  const fileConfig = configDir('lat-file');
  const fileStore = h.openFileStore(fileConfig);
  stores.push(fileStore);
  const fileTimes = await latency(fileStore, fileConfig, {});
  const lat = {
    median: median(pgTimes),
    p95: percentile(pgTimes, 95),
    max: Math.max(...pgTimes),
    fileMedian: median(fileTimes),
    fileP95: percentile(fileTimes, 95),
  };
  console.log(
    `push -> another operator's TUI frame (${pgTimes.length} pushes): team store median ${lat.median.toFixed(1)} ms p95 ${lat.p95.toFixed(1)} ms max ${lat.max.toFixed(1)} ms; file store median ${lat.fileMedian.toFixed(1)} ms p95 ${lat.fileP95.toFixed(1)} ms`,
  );

  // 3. The Chat list with 10,000 threads.
  const nodeTimes = [];
  for (let i = 0; i < 9; i++) nodeTimes.push(await timeProcess(process.execPath, ['-e', '0']));
  const nodeMs = median(nodeTimes);
  const bigUrl = await cluster.createDatabase();
  await seedTeam(bigUrl);
  const bigFiles = configDir('big-file');
  seedFiles(bigFiles);
  const lists = {};
  for (const [name, open, config] of [
    ['team', () => h.openPgStore(bigUrl), configDir('big-team')],
    ['file', () => h.openFileStore(bigFiles), bigFiles],
  ]) {
    const warm = open();
    await bigList(warm, config); // warm-up (JIT, the store's first read)
    await warm.close();
    const store = open();
    stores.push(store);
    const r = await bigList(store, config);
    lists[name] = {
      firstMs: r.first,
      wholeMs: r.whole,
      firstRatio: r.first / nodeMs,
      keyMedian: median(r.times),
      keyP95: percentile(r.times, 95),
      sane: r.sane,
    };
    console.log(
      `Chat list, ${THREADS} threads, ${name} store: first frame ${r.first.toFixed(1)} ms (${(r.first / nodeMs).toFixed(2)}x node -e 0 = ${nodeMs.toFixed(1)} ms), whole list ${r.whole.toFixed(1)} ms; key -> frame median ${median(r.times).toFixed(2)} ms p95 ${percentile(r.times, 95).toFixed(2)} ms${r.sane ? '' : ' (the list did not end on row 1: check the harness)'}`,
    );
  }

  const result = {
    name: 'team',
    senders: SENDERS,
    pushes: PUSHES,
    pushesPerS: { team: +pgRate.toFixed(0), file: +fileRate.toFixed(0), teamOverFile: +(pgRate / fileRate).toFixed(2) },
    pushToFrame: {
      pushes: pgTimes.length,
      medianMs: +lat.median.toFixed(1),
      p95Ms: +lat.p95.toFixed(1),
      maxMs: +lat.max.toFixed(1),
      fileMedianMs: +lat.fileMedian.toFixed(1),
      fileP95Ms: +lat.fileP95.toFixed(1),
    },
    list10k: Object.fromEntries(
      Object.entries(lists).map(([k, v]) => [
        k,
        {
          firstFrameMs: +v.firstMs.toFixed(1),
          firstFrameRatio: +v.firstRatio.toFixed(2),
          wholeListMs: +v.wholeMs.toFixed(1),
          keyMedianMs: +v.keyMedian.toFixed(2),
          keyP95Ms: +v.keyP95.toFixed(2),
        },
      ]),
    ),
    nodeMs: +nodeMs.toFixed(1),
  };
  result.budget = {
    pushToFrame: budget("push -> another operator's frame p95 (team store)", result.pushToFrame.p95Ms, { max: 250, unit: ' ms' }),
    teamListFirst: budget('10,000-thread list first frame (team store)', result.list10k.team.firstFrameRatio, { max: 3 }),
    teamListKey: budget('10,000-thread list key press median (team store)', result.list10k.team.keyMedianMs, { max: 16, unit: ' ms' }),
    fileListFirst: budget('10,000-thread list first frame (file store)', result.list10k.file.firstFrameRatio, { max: 3 }),
    fileListKey: budget('10,000-thread list key press median (file store)', result.list10k.file.keyMedianMs, { max: 16, unit: ' ms' }),
  };
  for (const b of Object.values(result.budget)) console.log(`${b.ok ? 'ok   ' : 'UNDER'}  ${b.text}`);
  console.log(JSON.stringify(result));
} finally {
  agent.destroy();
  for (const s of stores) await s.close().catch(() => undefined);
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
