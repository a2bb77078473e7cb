/** Output formats (src/cli/output.ts): tables fit the terminal width, server text is sanitised, JSON/NDJSON. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Column, renderJson, renderRecord, renderTable } from '../src/cli/output.js';

interface Row {
  a: string;
  b: string;
  c?: string | number;
}
const cols: Column<Row>[] = [
  { header: 'ID', value: (r) => r.a },
  { header: 'DISPLAY', value: (r) => r.b, flex: true },
  { header: 'N', value: (r) => r.c },
];

describe('renderTable', () => {
  it('pads columns, two spaces apart, no trailing spaces, undefined as empty', () => {
    const out = renderTable<Row>(
      [
        { a: 'x1', b: 'hello', c: 3 },
        { a: 'longer-id', b: 'b' },
      ],
      cols,
      100,
    );
    expect(out.split('\n')).toEqual(['ID         DISPLAY  N', 'x1         hello    3', 'longer-id  b']);
  });

  it('shrinks flexible columns first and marks cut text with …', () => {
    const rows = [{ a: 'id-000001', b: 'x'.repeat(80), c: 'keep-me' }];
    const out = renderTable<Row>(rows, cols, 40).split('\n');
    for (const line of out) expect(line.length).toBeLessThanOrEqual(40);
    expect(out[1]).toContain('id-000001');
    expect(out[1]).toContain('keep-me');
    expect(out[1]).toContain('…');
  });

  it('shrinks other columns too when flexible ones are not enough, down to 6 characters', () => {
    const rows = [{ a: 'a'.repeat(30), b: 'b'.repeat(30), c: 'c'.repeat(30) }];
    const out = renderTable<Row>(rows, cols, 40).split('\n');
    for (const line of out) expect(line.length).toBeLessThanOrEqual(40);
    const tiny = renderTable<Row>(rows, cols, 5).split('\n');
    // Three columns of at least 6 plus two gaps of 2: the floor wins over a too-narrow terminal.
    expect(tiny[1]).toBe('aaaaa…  bbbbb…  ccccc…');
  });

  it('strips control sequences from cells', () => {
    const out = renderTable<Row>([{ a: '\u001b]0;pwned\u0007id', b: '\u001b[31mred\u001b[0m\u009b2J\nline2', c: 'x\u0000y' }], cols, 100);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('red line2');
    expect(out).not.toContain('pwned');
    expect(out.split('\n')).toHaveLength(2);
  });

  it('fits any width it can (fast-check): no line is wider than max(width, the 6-character floor)', () => {
    const cell = fc.string({ maxLength: 60 });
    fc.assert(
      fc.property(fc.array(fc.record({ a: cell, b: cell, c: cell }), { maxLength: 8 }), fc.integer({ min: 1, max: 200 }), (rows, width) => {
        const lines = renderTable<Row>(rows, cols, width).split('\n');
        expect(lines).toHaveLength(rows.length + 1);
        const natural = cols.map((c) => Math.max(c.header.length, ...rows.map((r) => String(c.value(r) ?? '').length)));
        const floor = natural.reduce((s, w) => s + Math.min(w, 6), 0) + 2 * (cols.length - 1);
        for (const line of lines) {
          expect(line.length).toBeLessThanOrEqual(Math.max(width, floor));
          expect(line).toBe(line.trimEnd());
        }
        // A table that fits is not cut at all.
        if (natural.reduce((s, w) => s + w, 0) + 4 <= width) expect(lines.join('\n')).not.toContain('…');
      }),
      { numRuns: 300 },
    );
  });
});

describe('renderRecord', () => {
  it('field/value lines, nested values as JSON, sanitised and cut to the width', () => {
    const out = renderRecord(
      { id: 'a-1', status: 'booked\u001b[2J', participant: [{ actor: { reference: 'Patient/p1' } }], long: 'z'.repeat(200) },
      60,
    );
    const lines = out.split('\n');
    expect(lines[0]).toBe('id           a-1');
    expect(lines[1]).toBe('status       booked');
    expect(lines[2]).toBe('participant  [{"actor":{"reference":"Patient/p1"}}]');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(60);
    expect(lines[3]!.endsWith('…')).toBe(true);
  });
});

describe('renderJson', () => {
  it('json is indented; ndjson is one value per line', () => {
    expect(renderJson([{ a: 1 }, { b: 2 }], 'json')).toBe('[\n  {\n    "a": 1\n  },\n  {\n    "b": 2\n  }\n]');
    expect(renderJson([{ a: 1 }, { b: 'x\ny' }], 'ndjson')).toBe('{"a":1}\n{"b":"x\\ny"}');
    expect(renderJson({ ok: true }, 'ndjson')).toBe('{"ok":true}');
  });
});

describe('renderJson on a terminal', () => {
  it('escapes DEL and C1 controls (a raw U+009B is a CSI) and stays the same JSON value', async () => {
    const { renderJson } = await import('../src/cli/output.js');
    const value = [{ text: 'a\u009b31mred\u007f\u0085' }];
    for (const format of ['json', 'ndjson'] as const) {
      const text = renderJson(value, format);
      expect(text).not.toMatch(/[\u007f-\u009f]/);
      expect(text).toContain('\\u009b');
      expect(format === 'json' ? JSON.parse(text) : JSON.parse(text.split('\n')[0]!)).toEqual(format === 'json' ? value : value[0]);
    }
  });
});

describe('Context stderr', () => {
  it('ctx.err strips control sequences and redacts registered secrets (stderr may carry untrusted text)', async () => {
    const { Command } = await import('commander');
    const { Context } = await import('../src/cli/context.js');
    const { registerSecret } = await import('../src/core/redact.js');
    registerSecret('unit-err-S3CRET-4f2a');
    const ctx = new Context(new Command('x'));
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      ctx.err('pdesk listen: could not store POST /portal/\u001b]0;pwned\u0007x\u009b2Jy: token unit-err-S3CRET-4f2a\nsecond line');
    } finally {
      process.stderr.write = original;
    }
    expect(written.join('')).toBe('pdesk listen: could not store POST /portal/xy: token ***\nsecond line\n');
  });
});
