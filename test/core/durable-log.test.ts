/** The durable log under the audit trail and the bulk journal (src/core/durable-log.ts): group commit, one write a turn. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalWriter, type RowRecord, rowHash } from '../../src/core/bulk/journal.js';
import { DurableLog } from '../../src/core/durable-log.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'pdesk-log-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const header = {
  journal: 'pdesk-notifications',
  version: 1,
  template: 'aaaaaaaaaaaaaaaa',
  emailColumn: 'email',
  csv: '/x.csv',
  created: 'now',
};
const journal = { what: 'journal', openError: (e: Error) => e };
const line = (r: RowRecord) => JournalWriter.line(r);

describe('DurableLog', () => {
  it('group commit: records appended together share fsyncs, and each resolves once written', async () => {
    const path = join(tmp(), 'j.ndjson');
    const w = await DurableLog.open(path, { ...journal, first: JSON.stringify(header) });
    const before = w.batches;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => w.append(line({ row: i + 1, hash: rowHash([String(i)]), state: 'ok', status: 201 }))),
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
    const audit = await DurableLog.open(join(dir, 'audit.ndjson'), { what: 'audit trail', openError: (e) => e });
    const log = await DurableLog.open(join(dir, 'j.ndjson'), { ...journal, first: JSON.stringify(header) });
    const text = (f: string) => readFileSync(join(dir, f), 'utf8');
    const order: string[] = [];
    log.beforeWrite = () => {
      order.push(`journal write, audit holds ${text('audit.ndjson').split('\n').length - 1} line(s)`);
      audit.flush();
    };
    const audited = audit.append('{"audit":1}');
    const recorded = log.append(line({ row: 1, hash: rowHash(['a']), state: 'ok', status: 201 }));
    expect(text('audit.ndjson')).toBe(''); // not before the end of the turn
    expect(text('j.ndjson').split('\n')).toHaveLength(2); // the header only
    void log.noteAtWrite(line({ row: 2, hash: rowHash(['b']), state: 'started' }));
    log.flush(); // at once, with what was buffered
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
    await Promise.all([audit.close(), log.close()]);
  });

  it("noteAtWrite: the line rides the turn's one write with the lines appended in it; the turn's notes share one promise, resolved once the lines are in the file", async () => {
    const path = join(tmp(), 'j.ndjson');
    const w = await DurableLog.open(path, { ...journal, first: JSON.stringify(header) });
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
    const recorded = w.append(line({ row: 1, hash: rowHash(['a']), state: 'ok', status: 201 }));
    const notes = [2, 3].map((row) => {
      const written = w.noteAtWrite(line({ row, hash: rowHash([String(row)]), state: 'started' }));
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
    const later = w.noteAtWrite(line({ row: 4, hash: rowHash(['4']), state: 'started' }));
    expect(later).not.toBe(notes[0]);
    expect(await later).toBeUndefined();
    expect(rows()).toEqual([1, 2, 3, 4]);
    await recorded;
    await w.close();
  });

  it('noteAtWrite: a write that fails resolves with the error (no rejection), and later notes get it at once', async () => {
    if (!existsSync('/dev/full')) return; // Linux: every write to /dev/full fails with ENOSPC
    const w = await DurableLog.open('/dev/full', journal);
    const seen: string[] = [];
    const recorded = w.append(line({ row: 1, hash: rowHash(['a']), state: 'ok', status: 201 }));
    const note = w.noteAtWrite(line({ row: 2, hash: rowHash(['b']), state: 'started' }));
    void note.then((error) => seen.push(error?.message ?? 'written'));
    await expect(recorded).rejects.toThrow(/Cannot write the journal \/dev\/full \(ENOSPC\)/);
    await note;
    await recorded.catch((e: { details: string[] }) =>
      expect(e.details).toContain('The disk (or a file size limit) is full: make room, then run the same command again.'),
    );
    expect(seen).toEqual([expect.stringMatching(/Cannot write the journal \/dev\/full \(ENOSPC\)/)]);
    const afterwards = w.noteAtWrite(line({ row: 3, hash: rowHash(['c']), state: 'started' }));
    expect((await afterwards)?.message).toMatch(/ENOSPC/);
    await w.close();
  });
});
