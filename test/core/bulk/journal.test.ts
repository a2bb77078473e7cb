/** The bulk-send journal (src/core/bulk/journal.ts): group commit, a torn last line, run records and boot ids, the lock. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  RowState,
  RowTable,
  isUncertain,
  loadJournal,
  lockJournal,
  openJournal,
  rowHash,
  shortHash,
} from '../../../src/core/bulk/journal.js';
import { bootId } from '../../../src/core/durable-log.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'pdesk-bulk-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('journal', () => {
  const base = (path: string) => ({
    path,
    templateHash: 'aaaaaaaaaaaaaaaa',
    emailColumn: 'email',
    csvPath: '/x.csv',
    warn: () => undefined,
  });
  const header = {
    journal: 'pdesk-notifications' as const,
    version: 1,
    template: 'aaaaaaaaaaaaaaaa',
    emailColumn: 'email',
    csv: '/x.csv',
    created: 'now',
  };

  it('reads the last record of each row; a torn last line is cut off with a warning', async () => {
    const path = join(tmp(), 'j.ndjson');
    const w = await openJournal(path, header);
    await w.record({ row: 1, hash: rowHash(['a']), state: 'sending' });
    await w.record({ row: 1, hash: rowHash(['a']), state: 'ok', status: 201 });
    await w.record({ row: 2, hash: rowHash(['b']), state: 'sending' });
    await w.record({ row: 2, hash: rowHash(['b']), state: 'failed', status: 503 });
    await w.record({ row: 3, hash: rowHash(['c']), state: 'sending' });
    await w.close();
    appendFileSync(path, '{"row":3,"hash":"0123'); // crash mid-write
    const warnings: string[] = [];
    const j = await loadJournal({ ...base(path), warn: (l) => warnings.push(l) });
    expect(warnings.join('\n')).toMatch(/last line of the journal .* is incomplete/);
    expect(j.rows.state(1)).toBe(RowState.ok);
    expect(j.rows.state(2)).toBe(RowState.failed);
    expect(j.rows.state(3)).toBe(RowState.sending); // no run record: not known to be from this boot
    expect(isUncertain(j.rows.state(3))).toBe(true);
    expect(j.rows.state(4)).toBe(RowState.none);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true); // repaired for appending
    expect(j.rows.hashMatches(1, rowHash(['a']))).toBe(true);
    expect(j.rows.hashMatches(1, rowHash(['A']))).toBe(false);
  });

  it('a sending without `started`, written since this boot, reads back as queued (not sent)', async () => {
    const boot = bootId();
    if (!boot) return; // no boot id on this platform: every `sending` stays uncertain
    const path = join(tmp(), 'j.ndjson');
    const w = await openJournal(path, header);
    await w.append(JSON.stringify({ run: 'r1', boot, pid: 1 }));
    await w.record({ row: 1, hash: rowHash(['a']), state: 'sending' });
    await w.record({ row: 2, hash: rowHash(['b']), state: 'sending' });
    void w.recordAtWrite({ row: 2, hash: rowHash(['b']), state: 'started' });
    await w.record({ row: 3, hash: rowHash(['c']), state: 'sending' });
    await w.record({ row: 3, hash: rowHash(['c']), state: 'cancelled' });
    await w.append(JSON.stringify({ run: 'r2', boot: 'another-boot', pid: 2 }));
    await w.record({ row: 4, hash: rowHash(['d']), state: 'sending' });
    await w.close();
    const j = await loadJournal(base(path));
    expect(j.rows.state(1)).toBe(RowState.queued);
    expect(isUncertain(j.rows.state(1))).toBe(false);
    expect(j.rows.state(2)).toBe(RowState.started);
    expect(isUncertain(j.rows.state(2))).toBe(true);
    expect(j.rows.state(3)).toBe(RowState.none);
    expect(j.rows.state(4)).toBe(RowState.sending);
  });

  it('a row left uncertain stays uncertain when a --resend-uncertain run journals it and stops before sending it', async () => {
    const path = join(tmp(), 'j.ndjson');
    const w = await openJournal(path, header);
    await w.append(JSON.stringify({ run: 'r1', boot: bootId(), pid: 1 }));
    for (const [row, state] of [
      [1, 'unknown'],
      [2, 'started'],
      [3, 'failed'],
      [4, 'unknown'],
    ] as const) {
      await w.record({ row, hash: rowHash([String(row)]), state: 'sending' });
      await w.record({ row, hash: rowHash([String(row)]), state });
    }
    // Run 2 (--resend-uncertain, same boot): rows 1–3 journaled, then Ctrl-C (1, 3) or a kill (2) before their requests.
    await w.append(JSON.stringify({ run: 'r2', boot: bootId(), pid: 2 }));
    for (const row of [1, 2, 3, 4]) await w.record({ row, hash: rowHash([String(row)]), state: 'sending' });
    await w.record({ row: 1, hash: rowHash(['1']), state: 'cancelled' });
    await w.record({ row: 3, hash: rowHash(['3']), state: 'cancelled' });
    void w.recordAtWrite({ row: 4, hash: rowHash(['4']), state: 'started' });
    await w.record({ row: 4, hash: rowHash(['4']), state: 'ok' });
    await w.close();
    const j = await loadJournal(base(path));
    expect(j.rows.state(1)).toBe(RowState.unknown);
    expect(j.rows.state(2)).toBe(RowState.started);
    expect(isUncertain(j.rows.state(1)) && isUncertain(j.rows.state(2))).toBe(true);
    expect(j.rows.state(3)).toBe(RowState.none); // a definite failure, not started again: sent by the next run
    expect(j.rows.state(4)).toBe(RowState.ok);
  });

  it('refuses a journal of another template, and a file that is not a journal', async () => {
    const path = join(tmp(), 'j.ndjson');
    const w = await openJournal(path, header);
    await w.close();
    await expect(loadJournal({ ...base(path), templateHash: 'bbbbbbbbbbbbbbbb' })).rejects.toThrow(
      /written for another text, topic or emailColumn; refusing to mix two sends in one journal/,
    );
    const other = join(tmp(), 'other.txt');
    writeFileSync(other, 'hello\nworld\n');
    await expect(loadJournal(base(other))).rejects.toThrow(/is not the journal of a pdesk bulk send/);
    expect(readFileSync(other, 'utf8')).toBe('hello\nworld\n'); // left untouched
  });

  it('a torn header alone (crash while creating the journal) reads as a new journal', async () => {
    const path = join(tmp(), 'j.ndjson');
    writeFileSync(path, '{"journal":"pdesk-noti');
    const j = await loadJournal({ ...base(path), warn: () => undefined });
    expect(j.header).toBeUndefined();
    expect(j.rows.count).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('locks a journal against a second run; a lock left by a dead process is taken over', () => {
    const path = join(tmp(), 'j.ndjson');
    const unlock = lockJournal(path);
    writeFileSync(`${path}.lock`, '1\n'); // pid 1 is alive (init)
    expect(() => lockJournal(path)).toThrow(/in use by another pdesk \(pid 1\)/);
    writeFileSync(`${path}.lock`, `${process.pid}\n`);
    unlock();
    expect(existsSync(`${path}.lock`)).toBe(false);
    writeFileSync(`${path}.lock`, '999999999\n'); // no such process
    const again = lockJournal(path);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(`${process.pid} ${hostname()}\n`);
    again();
  });

  it('RowTable grows for large row numbers and keeps 64-bit row hashes', () => {
    const t = new RowTable();
    const h = shortHash('x');
    t.set(100_000, RowState.ok, h);
    expect(t.state(100_000)).toBe(RowState.ok);
    expect(t.hashMatches(100_000, h)).toBe(true);
    expect(t.hashMatches(100_000, shortHash('y'))).toBe(false);
    expect(t.maxRow).toBe(100_000);
    expect(t.count).toBe(1);
  });
});
