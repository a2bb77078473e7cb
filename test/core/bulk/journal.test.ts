/** The bulk-send journal (src/core/bulk/journal.ts): group commit, a torn last line, run records and boot ids, the lock. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  JournalWriter,
  RowState,
  RowTable,
  bootId,
  isUncertain,
  loadJournal,
  lockJournal,
  rowHash,
  shortHash,
} from '../../../src/core/bulk/journal.js';

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

  it('group commit: records appended together share fsyncs, and each resolves once written', async () => {
    const path = join(tmp(), 'j.ndjson');
    const w = await JournalWriter.open(path, header);
    const before = w.batches;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => w.record({ row: i + 1, hash: rowHash([String(i)]), state: 'ok', status: 201 })),
    );
    expect(w.batches - before).toBeGreaterThanOrEqual(1);
    expect(w.batches - before).toBeLessThan(10);
    await w.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(201);
    expect(JSON.parse(lines[200]!)).toMatchObject({ row: 200, state: 'ok', status: 201 });
  });

  it('lines are written at the end of the turn, or at once by flush; beforeWrite runs first (the audit trail before the journal)', async () => {
    const dir = tmp();
    const audit = await JournalWriter.open(join(dir, 'audit.ndjson'), undefined, { what: 'audit trail' });
    const journal = await JournalWriter.open(join(dir, 'j.ndjson'), header);
    const text = (f: string) => readFileSync(join(dir, f), 'utf8');
    const order: string[] = [];
    journal.beforeWrite = () => {
      order.push(`journal write, audit holds ${text('audit.ndjson').split('\n').length - 1} line(s)`);
      audit.flush();
    };
    const audited = audit.append('{"audit":1}');
    const recorded = journal.record({ row: 1, hash: rowHash(['a']), state: 'ok', status: 201 });
    expect(text('audit.ndjson')).toBe(''); // not before the end of the turn
    expect(text('j.ndjson').split('\n')).toHaveLength(2); // the header only
    void journal.noteAtWrite({ row: 2, hash: rowHash(['b']), state: 'started' });
    journal.flush(); // at once, with what was buffered
    expect(order).toEqual(['journal write, audit holds 0 line(s)']);
    expect(text('audit.ndjson')).toBe('{"audit":1}\n');
    expect(
      text('j.ndjson')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).row),
    ).toEqual([undefined, 1, 2]);
    await Promise.all([audited, recorded]);
    // Without flush, appended lines are written at the end of the turn.
    const later = audit.append('{"audit":2}');
    await new Promise((r) => setImmediate(r));
    expect(text('audit.ndjson')).toBe('{"audit":1}\n{"audit":2}\n');
    await later;
    await Promise.all([audit.close(), journal.close()]);
  });

  it("noteAtWrite: the line rides the turn's one write with the lines appended in it; the turn's notes share one promise, resolved once the lines are in the file", async () => {
    const path = join(tmp(), 'j.ndjson');
    const w = await JournalWriter.open(path, header);
    let writes = 0;
    w.beforeWrite = () => {
      writes++;
    };
    const rows = () =>
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l).row as number);
    const seen: string[] = [];
    const recorded = w.record({ row: 1, hash: rowHash(['a']), state: 'ok', status: 201 });
    const notes = [2, 3].map((row) => {
      const written = w.noteAtWrite({ row, hash: rowHash([String(row)]), state: 'started' });
      void written.then((error) => seen.push(error ? `error: ${error.message}` : `row ${row} written; file holds ${rows().join(',')}`));
      return written;
    });
    expect(notes[0]).toBe(notes[1]);
    await Promise.resolve();
    expect(seen).toEqual([]); // not before the end of the turn
    await new Promise((r) => setImmediate(r));
    expect(writes).toBe(1);
    expect(seen).toEqual(['row 2 written; file holds 1,2,3', 'row 3 written; file holds 1,2,3']);
    // A note of a later turn waits for that turn's write.
    const later = w.noteAtWrite({ row: 4, hash: rowHash(['4']), state: 'started' });
    expect(later).not.toBe(notes[0]);
    expect(await later).toBeUndefined();
    expect(rows()).toEqual([1, 2, 3, 4]);
    await recorded;
    await w.close();
  });

  it('noteAtWrite: a write that fails resolves with the error (no rejection), and later notes get it at once', async () => {
    if (!existsSync('/dev/full')) return; // Linux: every write to /dev/full fails with ENOSPC
    const w = await JournalWriter.open('/dev/full', undefined);
    const seen: string[] = [];
    const recorded = w.record({ row: 1, hash: rowHash(['a']), state: 'ok', status: 201 });
    const note = w.noteAtWrite({ row: 2, hash: rowHash(['b']), state: 'started' });
    void note.then((error) => seen.push(error?.message ?? 'written'));
    await expect(recorded).rejects.toThrow(/Cannot write the journal \/dev\/full \(ENOSPC\)/);
    await note;
    await recorded.catch((e: { details: string[] }) =>
      expect(e.details).toContain('The disk (or a file size limit) is full: make room, then run the same command again.'),
    );
    expect(seen).toEqual([expect.stringMatching(/Cannot write the journal \/dev\/full \(ENOSPC\)/)]);
    const afterwards = w.noteAtWrite({ row: 3, hash: rowHash(['c']), state: 'started' });
    expect((await afterwards)?.message).toMatch(/ENOSPC/);
    await w.close();
  });

  it('reads the last record of each row; a torn last line is cut off with a warning', async () => {
    const path = join(tmp(), 'j.ndjson');
    const w = await JournalWriter.open(path, header);
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
    const w = await JournalWriter.open(path, header);
    await w.append(JSON.stringify({ run: 'r1', boot, pid: 1 }));
    await w.record({ row: 1, hash: rowHash(['a']), state: 'sending' });
    await w.record({ row: 2, hash: rowHash(['b']), state: 'sending' });
    void w.noteAtWrite({ row: 2, hash: rowHash(['b']), state: 'started' });
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
    const w = await JournalWriter.open(path, header);
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
    void w.noteAtWrite({ row: 4, hash: rowHash(['4']), state: 'started' });
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
    const w = await JournalWriter.open(path, header);
    await w.close();
    await expect(loadJournal({ ...base(path), templateHash: 'bbbbbbbbbbbbbbbb' })).rejects.toThrow(
      /written for another --text, --topic or --email-column/,
    );
    const other = join(tmp(), 'other.txt');
    writeFileSync(other, 'hello\nworld\n');
    await expect(loadJournal(base(other))).rejects.toThrow(/is not a pdesk notifications journal/);
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
