/**
 * The young-generation cap of a bulk send (src/cli/tuning.ts), in a process of its own (it changes a V8 flag for
 * the rest of the process): the new space stops growing once it has reached the cap, where it doubles without it,
 * and grows again once the cap is ended.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

/** The module as JavaScript beside a driver that allocates with survivors and reports the new space's sizes. */
function driver(): string {
  const dir = tempDir();
  const source = readFileSync(join(import.meta.dirname, '../../src/cli/tuning.ts'), 'utf8');
  writeFileSync(join(dir, 'tuning.mjs'), transformSync(source, { loader: 'ts', format: 'esm' }).code);
  writeFileSync(
    join(dir, 'driver.mjs'),
    `import { getHeapSpaceStatistics } from 'node:v8';
import { capYoungGeneration } from './tuning.mjs';
const size = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
// Short-lived garbage first: a scavenge commits the second semi-space (the size doubles without growing).
for (let i = 0; i < 200000; i++) globalThis.sink = { i };
const start = size();
const factor = Number(process.argv[2]);
const stop = factor > 0 ? capYoungGeneration(start * factor, 1) : () => undefined;
let max = start;
const ring = new Array(100000);
for (let i = 0; i < 2000000; i++) {
  ring[i % ring.length] = { i, s: 'row ' + i };
  if (i % 1000 === 0) {
    max = Math.max(max, size());
    await new Promise((r) => setTimeout(r, 1));
  }
}
max = Math.max(max, size());
stop();
// Ended: the new space grows again as V8 would.
for (let i = 0; i < 2000000; i++) {
  ring[i % ring.length] = { i, s: 'row ' + i };
  if (i % 1000 === 0) await new Promise((r) => setTimeout(r, 1));
}
console.log(JSON.stringify({ start, max, after: size() }));
`,
  );
  return join(dir, 'driver.mjs');
}

const run = (script: string, factor: number): { start: number; max: number; after: number } =>
  JSON.parse(execFileSync(process.execPath, [script, String(factor)], { encoding: 'utf8' }));

describe('capYoungGeneration', () => {
  it('the new space grows past twice its size without the cap, stops at the cap with it, and grows again once it ends', () => {
    const script = driver();
    const free = run(script, 0);
    expect(free.max).toBeGreaterThan(2 * free.start);
    const capped = run(script, 2);
    expect(capped.max).toBeGreaterThanOrEqual(capped.start);
    expect(capped.max).toBeLessThanOrEqual(2 * capped.start);
    const now = run(script, 1); // already at the cap: no growth at all
    expect(now.max).toBe(now.start);
    // Once the cap is ended (the send is over), the new space grows again.
    expect(now.after).toBeGreaterThan(now.max);
  });
});
