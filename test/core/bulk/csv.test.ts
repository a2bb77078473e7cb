/** CSV of bulk sends (src/core/bulk/csv.ts): separator detection, streaming with quotes, newlines in fields and a BOM. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { csvLine, detectDelimiter, openCsv } from '../../../src/core/bulk/csv.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'pdesk-bulk-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
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
