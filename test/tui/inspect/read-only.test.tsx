/**
 * X-ray, raw view and Systems never write: on a read-only profile and on a production one, every X-ray (an
 * appointment, a chat thread, a medication request), each element opened raw, `w` and the Systems screen's
 * probes (opened, refreshed with r) send nothing but GET to the sandbox, ask no confirmation, and leave the
 * thread store and journals byte for byte as they were. Against a real sandbox.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../helpers/config.js';
import { writeJournal, writeStore } from '../../helpers/local-files.js';
import { type Desk, KEY, openDesk } from '../harness.js';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

/** Every file under `dir` with its bytes and modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      // Presence (which thread this desk has open, for the other operators: decisions.md §17) is no record and no
      // request: it comes and goes with the open thread.
      if (relative(dir, p).match(/^desk\/[^/]+\/presence$/)) continue;
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${statSync(p).mtimeMs} ${readFileSync(p, 'base64')}`;
    }
  };
  walk(dir);
  return out;
}

const writesTo = (d: Desk) => d.sandbox.received.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

const SETTINGS: Array<[string, { readOnly?: boolean; environment?: string }]> = [
  ['a read-only profile', { readOnly: true }],
  ['a production profile', { environment: 'production' }],
];

describe.each(SETTINGS)('inspecting on %s sends nothing but GET and writes no store', (_name, settings) => {
  it('X-ray of an appointment, of a thread and of a medication request, each element raw, w; Systems probing, r', async () => {
    const dir = tempDir();
    const out = tempDir();
    await writeStore(dir, 'sandbox', { open: 2, read: 1 });
    writeJournal(dir, 'sandbox', ['ok', 'sending']);
    const before = snapshot(dir);
    desk = await openDesk({
      screen: 'appointments',
      size: { columns: 100, rows: 40 },
      profile: settings,
      root: { configDir: dir, exportDir: out },
    });
    await desk.waitFor('3 appointments.');
    // An appointment's X-ray, then every element in turn opened raw (Enter) and written (w).
    await desk.press('X');
    await desk.waitFor("Chat threads (desk's store)");
    // Row by row (the title's position says which): a found element (●) opens raw and is written, a thread
    // element jumps to Chat; a write key pressed meanwhile reaches nothing.
    let opened = 0;
    for (let i = 1; i <= 9; i++) {
      const f = await desk.waitFor(new RegExp(` ${i}/9\n`));
      const row = f.split('\n').find((l) => l.startsWith('>'))!;
      if (row.includes('●')) {
        await desk.press(KEY.enter);
        const g = await desk.waitFor(/Raw · |Chat ›/);
        if (g.includes('Chat ›')) break;
        opened++;
        await desk.press('w');
        await vi.waitFor(() => expect(readdirSync(out)).toHaveLength(opened));
        await desk.press(KEY.esc);
        await desk.waitFor('X-ray · Appointment');
      }
      await desk.press('c', 'j');
    }
    expect(opened).toBeGreaterThanOrEqual(4);
    expect(desk.frame()).toContain('[3 Chat]');
    expect(desk.frame()).not.toMatch(/Cancel appointment|Type .* to confirm/);
    // The thread's X-ray (read markers) and a medication request's.
    await desk.press('X');
    await desk.waitFor('Messages and read markers');
    await desk.press(KEY.enter);
    await desk.press(KEY.esc, KEY.esc, '5');
    await desk.waitFor('mr-1');
    await desk.press('X');
    await desk.waitFor('Orders based on it (M1)');
    await desk.press('j', KEY.enter, 'w');
    await desk.waitFor('✓ Wrote');
    // Systems: opened (a round of probes), refreshed.
    await desk.press('0');
    await desk.waitFor(/Systems — 1 profile/);
    await desk.waitGone('probing…', 8000);
    await desk.press('r');
    await desk.waitGone('probing…', 8000);
    await desk.press('y');
    await desk.waitFor('Raw · profile sandbox and its probes');
    expect(desk.frame()).not.toMatch(/Type .* to confirm|\(y\/n\)/);
    expect(writesTo(desk)).toEqual([]);
    expect(desk.sandbox.received.length).toBeGreaterThan(5);
    expect(snapshot(dir)).toEqual(before);
    expect(readdirSync(out).length).toBeGreaterThanOrEqual(2);
  });
});
