// `pdesk listen` start-up on a large thread store (issue 35 item 18): a store of 100,000 records (chat messages
// with read markers and closes, in segments as the file store writes them), then the time from spawning
// `pdesk listen` to its first line (the URL: it takes pushes from then on) and its peak RSS (getrusage at exit,
// bench/rusage-at-exit.cjs). Budgets: start-up <= 300 ms and peak RSS < 100 MB with 100,000 records (issue 35),
// and start-up at most 2x the same process's on an empty store in the same run (what the records add, as a
// ratio: a busy machine moves it less). The first start on the new store is timed too (no summaries yet: it
// reads every segment once and writes them); no budget.
// Prints a final JSON line. Knobs: BENCH_LISTEN_RECORDS (default 100000); --runs n (default 9).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { budget, median, runsArg } from './lib.mjs';

const bin = fileURLToPath(new URL('../bin/pdesk.js', import.meta.url));
const rusage = fileURLToPath(new URL('./rusage-at-exit.cjs', import.meta.url));
const RECORDS = Number(process.env.BENCH_LISTEN_RECORDS ?? 100_000);
const RUNS = runsArg(9);
const SEGMENT_BYTES = 4 * 1024 * 1024; // src/core/threads/segments.ts
const NS = { portal: 'portal.example', practice: 'practice.example' };

function configDir() {
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-bench-listen-'));
  const profile = {
    name: 'bench',
    namespaces: NS,
    practice: { baseUrl: 'http://127.0.0.1:9/practice' },
    portal: { baseUrl: 'http://127.0.0.1:9/portal' },
  };
  writeFileSync(join(dir, 'profiles.json'), JSON.stringify({ schemaVersion: 1, defaultProfile: 'bench', profiles: { bench: profile } }), {
    mode: 0o600,
  });
  return dir;
}

const uuid = (i) => `${(0x10000000 + i).toString(16)}-4b1d-4c2e-9f3a-${String(i).padStart(12, '0')}`;

/** Record i of the store: mostly messages (UUID ids, as pdesk makes them), every 10th a read marker, every 50th a close. */
function record(i, at) {
  const thread = `enc-${i % 5000}`;
  if (i % 50 === 49)
    return {
      v: 1,
      kind: 'close',
      op: 'C4',
      via: 'received',
      at,
      thread: `closed-${i}`,
      resource: {
        resourceType: 'Encounter',
        id: `closed-${i}`,
        status: 'finished',
        identifier: [{ system: `${NS.practice}.encounter-id`, value: `closed-${i}` }],
      },
    };
  if (i % 10 === 9)
    return {
      v: 1,
      kind: 'read',
      op: 'C2',
      via: 'sent',
      at,
      id: uuid(i - 1),
      readAt: '2026-03-01T10:00:00',
      thread,
      resource: [
        { op: 'add', path: '/recipient/0/extension', value: { url: `${NS.portal}.ResourceSeenAt`, valueDateTime: '2026-03-01T10:00:00' } },
      ],
    };
  const id = uuid(i);
  const fromPatient = i % 2 === 0;
  return {
    v: 1,
    kind: 'message',
    op: fromPatient ? 'C1' : 'C3',
    via: fromPatient ? 'received' : 'sent',
    at,
    thread,
    id,
    resource: {
      resourceType: 'Communication',
      id,
      identifier: [{ system: `${NS.portal}.communication-id`, value: id }],
      status: 'completed',
      payload: [{ contentString: `Message ${i}: could the appointment on Thursday be moved to the afternoon? Thank you.` }],
      encounter: { identifier: [{ system: `${NS.practice}.encounter-id`, value: thread }] },
      recipient: [{ reference: fromPatient ? 'PractitionerRole/1001' : 'Patient/pat-1' }],
      sender: [{ reference: fromPatient ? 'Patient/pat-1' : 'PractitionerRole/1001' }],
      subject: [{ reference: 'Patient/pat-1' }],
      category: [{ coding: [{ system: `${NS.portal}.communication-type`, code: 'chat' }] }],
    },
  };
}

/** The store in segments of SEGMENT_BYTES: threads/bench.ndjson, then threads/bench.d/000002.ndjson, … */
function writeStore(dir, n) {
  const threads = join(dir, 'threads');
  mkdirSync(join(threads, 'bench.d'), { recursive: true, mode: 0o700 });
  const base = Date.parse('2026-01-01T00:00:00Z');
  let segment = 1;
  let lines = [];
  let bytes = 0;
  let total = 0;
  const flush = () => {
    const path = segment === 1 ? join(threads, 'bench.ndjson') : join(threads, 'bench.d', `${String(segment).padStart(6, '0')}.ndjson`);
    writeFileSync(path, lines.join(''), { mode: 0o600 });
    total += bytes;
    segment++;
    lines = [];
    bytes = 0;
  };
  for (let i = 0; i < n; i++) {
    const line = `${JSON.stringify(record(i, new Date(base + i * 1000).toISOString()))}\n`;
    lines.push(line);
    bytes += Buffer.byteLength(line);
    if (bytes >= SEGMENT_BYTES) flush();
  }
  if (lines.length) flush();
  return { segments: segment - 1, mb: total / 1024 / 1024 };
}

/** One `pdesk listen`: ms from spawn to its first line, then SIGTERM; its peak RSS (MB) and exit code. */
function startOnce(dir) {
  return new Promise((resolve, reject) => {
    const usage = join(dir, `rusage-${process.hrtime.bigint()}.json`);
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--require', rusage, bin, 'listen', '--port', '0', '--json'], {
      env: { ...process.env, PDESK_CONFIG_DIR: dir, PDESK_CACHE_DIR: join(dir, 'cache'), PDESK_BENCH_RUSAGE: usage },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let ms;
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.once('data', () => {
      ms = Number(process.hrtime.bigint() - t0) / 1e6;
      child.kill('SIGTERM');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (ms === undefined || code !== 0) return reject(new Error(`pdesk listen exited ${code} (first line after ${ms} ms): ${err}`));
      const r = JSON.parse(readFileSync(usage, 'utf8'));
      rmSync(usage, { force: true });
      resolve({ ms, rssMb: r.maxRssKb / 1024 });
    });
  });
}

const big = configDir();
const empty = configDir();
try {
  const t0 = Date.now();
  const store = writeStore(big, RECORDS);
  console.log(`store: ${RECORDS} records, ${store.segments} segments, ${store.mb.toFixed(1)} MB (written in ${Date.now() - t0} ms)`);
  const first = await startOnce(big);
  console.log(`first start (no summaries yet): ${first.ms.toFixed(0)} ms, peak RSS ${first.rssMb.toFixed(1)} MB`);
  await startOnce(empty);
  const runs = { big: [], empty: [] };
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so that a drift in the host's pace hits both alike.
    runs.big.push(await startOnce(big));
    runs.empty.push(await startOnce(empty));
  }
  const ms = (xs) => +median(xs.map((x) => x.ms)).toFixed(1);
  const rss = (xs) => +Math.max(...xs.map((x) => x.rssMb)).toFixed(1);
  const result = {
    name: 'listen',
    records: RECORDS,
    segments: store.segments,
    storeMb: +store.mb.toFixed(1),
    firstStartMs: +first.ms.toFixed(0),
    startMs: ms(runs.big),
    emptyStartMs: ms(runs.empty),
    ratioToEmpty: +(ms(runs.big) / ms(runs.empty)).toFixed(2),
    peakRssMb: rss(runs.big),
    emptyPeakRssMb: rss(runs.empty),
    runs: RUNS,
  };
  console.log(
    `start-up, median of ${RUNS}: ${result.startMs} ms with ${RECORDS} records, ${result.emptyStartMs} ms empty (${result.ratioToEmpty}x); ` +
      `peak RSS ${result.peakRssMb} MB (empty: ${result.emptyPeakRssMb} MB)`,
  );
  result.budget = {
    start: budget(`start-up with ${RECORDS} records`, result.startMs, { max: 300, unit: ' ms' }),
    // The same, as a ratio to the empty store's start in the same run: what a loaded machine changes less.
    ratio: budget(`start-up with ${RECORDS} records vs an empty store`, result.ratioToEmpty, { max: 2 }),
    rss: budget(`peak RSS with ${RECORDS} records`, result.peakRssMb, { below: 100, unit: ' MB' }),
  };
  for (const b of Object.values(result.budget)) console.log(`${b.ok ? 'ok   ' : 'UNDER'}  ${b.text}`);
  console.log(JSON.stringify(result));
} finally {
  rmSync(big, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
}
