/**
 * Unit tests of the bulk-send core (src/core/bulk): placeholder templates, separator detection and CSV
 * streaming, the journal (group commit, torn last line, run records and boot ids, lock), and the
 * classification of request failures into retryable and uncertain.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { csvLine, detectDelimiter, openCsv } from '../../../src/core/bulk/csv.js';
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
import { classify, failedCsvPath } from '../../../src/core/bulk/notifications.js';
import { compileTemplate, placeholders } from '../../../src/core/bulk/template.js';
import { HttpError, NetworkError, UsageError } from '../../../src/core/errors.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'pdesk-bulk-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('templates', () => {
  const header = ['email', 'first name', 'city'];
  it('fills {column} placeholders from the row, with {{ and }} as literal braces', () => {
    const t = compileTemplate('Hello {first name} from { city }! {{not a placeholder}}', header, '--text', 'x.csv');
    expect(t.columns).toEqual(['first name', 'city']);
    expect(t.render(['a@b.org', 'Jane', 'Utrecht'])).toBe('Hello Jane from Utrecht! {not a placeholder}');
  });
  it('a template without placeholders renders as is', () => {
    expect(compileTemplate('Plain', header, '--topic', 'x.csv').render(['a', 'b', 'c'])).toBe('Plain');
  });
  it('refuses a placeholder naming no column, naming it and listing the columns', () => {
    let err: unknown;
    try {
      compileTemplate('Hi {name}', header, '--text', 'people.csv');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('--text uses the placeholder {name}, but people.csv has no column "name".');
    expect((err as UsageError).details.join('\n')).toContain('"first name"');
  });
  it('refuses unmatched and empty braces', () => {
    expect(() => placeholders('Hi {name', '--topic')).toThrow(/--topic has an unmatched "\{"/);
    expect(() => placeholders('Hi }', '--topic')).toThrow(/unmatched "\}"/);
    expect(() => placeholders('Hi {}', '--text')).toThrow(/empty placeholder/);
  });
  it('refuses a placeholder naming a duplicated column', () => {
    expect(() => compileTemplate('{a}', ['a', 'a'], '--text', 'x.csv')).toThrow(/more than one column "a"/);
  });
});

describe('CSV', () => {
  it('detects the separator from the header line, ignoring quoted text and a BOM', () => {
    expect(detectDelimiter('email,name\nx;y;z;w')).toBe(',');
    expect(detectDelimiter('\ufeffemail;name;city\n')).toBe(';');
    expect(detectDelimiter('"a,b,c";d;e\n')).toBe(';');
    expect(detectDelimiter('email\tname\n')).toBe('\t');
    expect(detectDelimiter('email\n')).toBe(',');
  });
  it('streams quoted fields with separators, quotes and newlines, after a BOM', async () => {
    const f = join(tmp(), 'a.csv');
    writeFileSync(f, '\ufeffemail;name;note\r\na@example.org;"Doe; Jane";"line 1\r\nline ""2"""\r\n\r\nb@example.org;Bob;\r\n');
    const rows: string[][] = [];
    for await (const r of openCsv(f, ';')) rows.push(r as string[]);
    expect(rows).toEqual([
      ['email', 'name', 'note'],
      ['a@example.org', 'Doe; Jane', 'line 1\r\nline "2"'],
      ['b@example.org', 'Bob', ''],
    ]);
  });
  it('writes lines that read back as the same fields', async () => {
    const f = join(tmp(), 'b.csv');
    const fields = ['x', 'a,b', 'say "hi"', 'two\nlines', ' padded '];
    writeFileSync(f, csvLine(['1', '2', '3', '4', '5'], ',') + csvLine(fields, ','));
    const rows: string[][] = [];
    for await (const r of openCsv(f, ',')) rows.push(r as string[]);
    expect(rows[1]).toEqual(fields);
  });
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
    w.note({ row: 2, hash: rowHash(['b']), state: 'started' });
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
    w.note({ row: 4, hash: rowHash(['4']), state: 'started' });
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
    expect(readFileSync(`${path}.lock`, 'utf8').trim()).toBe(String(process.pid));
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

describe('classify', () => {
  it('a definite answer is a failure to retry; 5xx and network errors are server-side', () => {
    expect(classify(new HttpError(422, { method: 'POST', url: 'u' }))).toMatchObject({ state: 'failed', status: 422, server: false });
    expect(classify(new HttpError(503, { method: 'POST', url: 'u' }))).toMatchObject({ state: 'failed', status: 503, server: true });
    expect(classify(new NetworkError('Cannot reach x (connection refused).', [], 'ECONNREFUSED'))).toMatchObject({
      state: 'failed',
      server: true,
    });
  });
  it('a lost connection or a time-out after sending is uncertain, never retried blindly', () => {
    expect(classify(new NetworkError('Cannot reach x (connection reset).', [], 'ECONNRESET')).state).toBe('unknown');
    expect(classify(new NetworkError('No answer within 30000 ms.', [], 'TIMEOUT')).state).toBe('unknown');
    expect(classify(new Error('boom')).state).toBe('unknown');
  });
  it('names the failed-rows CSV after the journal', () => {
    expect(failedCsvPath('/d/people.csv.journal.ndjson')).toBe('/d/people.csv.failed.csv');
    expect(failedCsvPath('/d/run1.log')).toBe('/d/run1.log.failed.csv');
  });
});
