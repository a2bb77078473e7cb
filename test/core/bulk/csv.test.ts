/** CSV of bulk sends (src/core/bulk/csv.ts): separator detection, streaming with quotes, newlines in fields and a BOM. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SEND_CHUNK_BYTES, csvLine, detectDelimiter, eachRecord, openCsv } from '../../../src/core/bulk/csv.js';

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

  it("reads the same records in a bulk send's small pieces as in one: fields and characters cut by a piece's end", async () => {
    const d = tmp();
    const all = async (f: string, chunk: number) => {
      const rows: string[][] = [];
      await eachRecord(openCsv(f, ';', chunk), (rec) => void rows.push(rec));
      return rows;
    };
    // Non-empty fields of any text (quotes, separators, CR/LF, multi-byte and astral characters), after a BOM.
    const field = fc.string({ unit: fc.constantFrom('a', 'é', '日', '😀', ';', '"', '\r', '\n', ' ', 'x'), minLength: 1, maxLength: 12 });
    const rows = fc.array(fc.array(field, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 60 });
    await fc.assert(
      fc.asyncProperty(rows, fc.integer({ min: 1, max: 64 }), async (rs, chunk) => {
        const f = join(d, 'p.csv');
        writeFileSync(f, `\ufeff${csvLine(['a', 'b'], ';')}${rs.map((r) => csvLine(r, ';')).join('')}`);
        expect(await all(f, chunk)).toEqual([['a', 'b'], ...rs]);
      }),
      { numRuns: 150 },
    );
    // A file several of the send's pieces long, read at that size, gives what one read of it gives.
    const f = join(d, 'long.csv');
    const line = (i: number) => `p${i}@example.org;"Grüße ${i};\n😀 ""${i}"""`;
    writeFileSync(f, `email;note\n${Array.from({ length: 400 }, (_, i) => line(i)).join('\n')}\n`);
    const whole = await all(f, 1024 * 1024);
    expect(whole).toHaveLength(401);
    expect(whole[1]).toEqual(['p0@example.org', 'Grüße 0;\n😀 "0"']);
    expect(await all(f, SEND_CHUNK_BYTES)).toEqual(whole);
  });

  describe('eachRecord', () => {
    // Enough rows for several reads of the file (64 kB each), so that the reader also waits for the stream.
    const many = (n: number) => `email,name\n${Array.from({ length: n }, (_, i) => `p${i}@example.org,P ${i}`).join('\n')}\n`;

    it('hands over every record in order, across reads of the file, and waits while the callback waits', async () => {
      const f = join(tmp(), 'many.csv');
      writeFileSync(f, many(20_000));
      const seen: string[] = [];
      let waits = 0;
      await eachRecord(openCsv(f, ','), (rec) => {
        seen.push(rec[0]!);
        if (seen.length % 5000 !== 0) return undefined;
        waits++;
        return new Promise((r) => setTimeout(() => r(undefined), 5));
      });
      expect(seen).toHaveLength(20_001);
      expect(seen[0]).toBe('email');
      expect(seen.slice(1).every((e, i) => e === `p${i}@example.org`)).toBe(true);
      expect(waits).toBe(4);
    });

    it('stops when the callback says false, at once or after waiting, and closes the stream', async () => {
      const f = join(tmp(), 'stop.csv');
      writeFileSync(f, many(20_000));
      for (const later of [false, true]) {
        let n = 0;
        const parser = openCsv(f, ',');
        await eachRecord(parser, () => (++n < 7_000 ? undefined : later ? Promise.resolve(false as const) : false));
        expect(n).toBe(7_000);
        expect(parser.destroyed).toBe(true);
      }
    });

    it('rejects with the parse error after handing over the records before it', async () => {
      const f = join(tmp(), 'broken.csv');
      writeFileSync(f, `${many(3_000)}"unclosed,quote\n`);
      let n = 0;
      const e = await eachRecord(openCsv(f, ','), () => void n++).catch((err: unknown) => err);
      expect(n).toBe(3_001);
      expect((e as { code?: string }).code).toBe('CSV_QUOTE_NOT_CLOSED');
    });

    it('rejects when the file cannot be read', async () => {
      const e = await eachRecord(openCsv(join(tmp(), 'missing.csv'), ','), () => undefined).catch((err: unknown) => err);
      expect((e as NodeJS.ErrnoException).code).toBe('ENOENT');
    });
  });
});
