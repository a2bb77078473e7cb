/** Output formats (src/cli/output.ts): tables fit the terminal width, server text is sanitised, JSON/NDJSON. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Column, MAX_JSON_DEPTH, renderJson, renderRecord, renderTable, safeJson, tooDeep } from '../../src/cli/output.js';
import { ContractError, ExitCode } from '../../src/core/errors.js';
import { stubServer } from '../helpers/http.js';
import { run, tempDir, writeProfiles } from '../helpers/run.js';

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

  it('strips bidirectional overrides from cells: a U+202E cannot show a name or text reversed (issue 35, item 20)', () => {
    const out = renderTable<Row>([{ a: 'Anna\u202E Berg', b: 'report\u202Efdp.exe', c: '\u2067x\u2069' }], cols, 100);
    expect(out).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(out.split('\n')[1]).toMatch(/^Anna Berg\s+reportfdp\.exe\s+x$/);
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
    const { renderJson } = await import('../../src/cli/output.js');
    const value = [{ text: 'a\u009b31mred\u007f\u0085' }];
    for (const format of ['json', 'ndjson'] as const) {
      const text = renderJson(value, format);
      expect(text).not.toMatch(/[\u007f-\u009f]/);
      expect(text).toContain('\\u009b');
      expect(format === 'json' ? JSON.parse(text) : JSON.parse(text.split('\n')[0]!)).toEqual(format === 'json' ? value : value[0]);
    }
  });
});

describe('JSON output of an answer nested absurdly deep', () => {
  const nest = (levels: number): unknown => {
    let v: unknown = 'bottom';
    for (let i = 0; i < levels; i++) v = { a: v };
    return v;
  };

  it('safeJson names the path of a value nested more than MAX_JSON_DEPTH levels (exit 6), without recursing', () => {
    let error: unknown;
    try {
      safeJson({ entry: [{ resource: { deep: nest(100_000) } }] }, true);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).exitCode).toBe(ExitCode.contract);
    expect((error as ContractError).path).toBe('$.entry[0].resource.deep.a.a….a');
    expect((error as ContractError).message).toBe(
      `The server's answer does not match the interface at $.entry[0].resource.deep.a.a….a: the value is nested more than ${MAX_JSON_DEPTH} levels deep.`,
    );
    expect(tooDeep(nest(MAX_JSON_DEPTH + 1))).toHaveLength(MAX_JSON_DEPTH);
    expect(tooDeep([nest(3)], 3)).toEqual([0, 'a', 'a']);
  });

  it('a value exactly MAX_JSON_DEPTH levels deep prints as JSON.stringify prints it', () => {
    const v = nest(MAX_JSON_DEPTH - 1);
    expect(tooDeep(v)).toBeUndefined();
    expect(safeJson(v, true)).toBe(JSON.stringify(v, null, 2));
    expect(safeJson(v)).toBe(JSON.stringify(v));
  });

  it('a table cell of a nested value copes: renderRecord shows that it is too deep instead of crashing', () => {
    const out = renderRecord({ id: 'x', deep: nest(100_000) }, 100).split('\n');
    expect(out).toEqual(['id    x', `deep  (nested more than ${MAX_JSON_DEPTH} levels deep)`]);
  });
});

describe('a command printing an answer nested 100,000 levels deep (stub server: a real one cannot send it)', () => {
  // Written as text: JSON.stringify itself cannot serialise it.
  const deep = `${'['.repeat(100_000)}"bottom"${']'.repeat(100_000)}`;
  const deepAppointment = `{"resourceType":"Appointment","id":"a1","status":"booked","extension":[{"url":"urn:x","valueDeep":${deep}}]}`;

  async function stubProfile(): Promise<{ dir: string; received: () => number }> {
    const s = await stubServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      res.end(`{"resourceType":"Bundle","entry":[{"resource":${deepAppointment}}]}`);
    });
    const dir = tempDir();
    writeProfiles(dir, [
      { name: 'stub', namespaces: { portal: 'p', practice: 'q' }, practice: { baseUrl: s.url }, portal: { baseUrl: s.url } },
    ]);
    return { dir, received: () => s.received.length };
  }

  it('is refused as it is read, in every format and by pdesk api: exit 6 naming the path and the bound, never 1', async () => {
    const { dir } = await stubProfile();
    for (const args of [
      ['appointments', 'list', '--json'],
      ['appointments', 'list', '--output', 'ndjson'],
      ['appointments', 'list', '--output', 'table'],
      ['api', 'GET', '/Appointment'],
    ]) {
      const r = await run(args, { configDir: dir });
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr.split('\n')[0]).toMatch(
        /^pdesk: The server's answer does not match the interface at \$\.entry\[0\]\.resource\.extension\[0\]\.valueDeep…\[0\]: the value is nested more than 1000 levels deep \(pdesk reads at most 1000\)\.$/,
      );
      expect(r.stderr).toMatch(args[0] === 'api' ? /request: GET http:\/\// : /request: A5 GET http:\/\//);
      expect(r.stderr).not.toContain('Maximum call stack');
      expect(r.stdout).toBe('');
    }
  });
});
