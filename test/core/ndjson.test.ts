/** Reading pdesk's append-only NDJSON files (src/core/ndjson.ts): torn last line and bad lines skipped, each with a warning. */
import { describe, expect, it } from 'vitest';
import { parseNdjson, readNdjson } from '../../src/core/ndjson.js';

describe('parseNdjson', () => {
  it('reads every object, skipping a line that is not one and a torn last line, with a warning each', () => {
    const r = parseNdjson('{"a":1}\n\nnot json\n[1,2]\n{"b":2}\n{"c":', 'f');
    expect(r.records).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 5, value: { b: 2 } },
    ]);
    expect(r.warnings).toEqual([
      'f: line 3 is not a JSON record; skipped.',
      'f: line 4 is not a JSON record; skipped.',
      'f: the last line (6) is incomplete, a write torn by a crash; skipped.',
    ]);
  });

  it('a file that ends with its newline has no torn line; a missing file is empty', () => {
    expect(parseNdjson('{"a":1}\n', 'f')).toEqual({ records: [{ line: 1, value: { a: 1 } }], warnings: [] });
    expect(readNdjson('/nonexistent/pdesk/file.ndjson', 'f')).toEqual({ records: [], warnings: [] });
  });
});
