/**
 * The bounded JSON reader (src/core/json.ts): never throws and never recurses whatever the text, agrees with
 * JSON.parse on what is JSON, refuses nesting beyond its bound naming the path, keeps the digits of integers beyond
 * 2^53 (or refuses them), and describes a text that is not JSON by line and column without quoting it. And a value
 * at the bound goes through every walker pdesk has for it (zod, the sanitiser, redaction, printing) without
 * overflowing the stack.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderJson, renderRecord } from '../../src/cli/output.js';
import { MAX_BODY_DEPTH, MAX_READ_DEPTH, deepPath, describeJsonProblem, readJson, syntaxProblem } from '../../src/core/json.js';
import { sanitizeDeep } from '../../src/core/sanitize.js';
import { Appointment } from '../../src/core/schemas/appointment.js';
import { parseResponse } from '../../src/core/schemas/common.js';

const nested = (levels: number, inner = '') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

describe('readJson', () => {
  it('reads JSON as JSON.parse does, and refuses nesting beyond the bound naming the path', () => {
    expect(readJson('{"a":[1,{"b":"c"}],"d":null}')).toEqual({ ok: true, value: { a: [1, { b: 'c' }], d: null } });
    expect(readJson(nested(MAX_READ_DEPTH)).ok).toBe(true);
    expect(readJson(nested(MAX_READ_DEPTH + 1))).toEqual({
      ok: false,
      problem: { kind: 'depth', path: '$[0][0][0][0][0][0]…[0]', maxDepth: MAX_READ_DEPTH },
    });
    expect(readJson('{"entry":[{"resource":{"x":[[["deep"]]]}}]}', { maxDepth: 5 })).toEqual({
      ok: false,
      problem: { kind: 'depth', path: '$.entry[0].resource.x[0]', maxDepth: 5 },
    });
    // Brackets inside strings (escaped quotes too) are text, not nesting.
    expect(readJson(`{"t":"${'['.repeat(5000)}\\"${'{'.repeat(5000)}"}`, { maxDepth: 2 }).ok).toBe(true);
    expect(readJson('{"odd key":{"a.b":[{}]}}', { maxDepth: 3 })).toMatchObject({ problem: { path: '$["odd key"]["a.b"][0]' } });
  });

  it('never throws and never overflows, on 1,000,000 levels or on unclosed ones', () => {
    for (const text of [
      nested(1_000_000),
      nested(400_000), // short enough to be parsed before its depth is measured
      '['.repeat(1_000_000),
      `{"a":${'{"a":'.repeat(200_000)}1`,
      `"${'\\'.repeat(100_001)}`,
    ]) {
      const r = readJson(text);
      expect(r.ok).toBe(false);
    }
  });

  it('names the same path whether the text is scanned before it is parsed (a large one) or parsed first', () => {
    const deep = (pad: number) => `{"pad":"${'x'.repeat(pad)}","entry":[{"resource":{"x":${nested(MAX_READ_DEPTH)}}}]}`;
    const small = readJson(deep(10));
    const large = readJson(deep(1_000_000));
    expect(small).toEqual({ ok: false, problem: { kind: 'depth', path: '$.entry[0].resource.x[0][0]…[0]', maxDepth: MAX_READ_DEPTH } });
    expect(large).toEqual(small);
  });

  it('keeps the digits of integers beyond 2^53 as strings, or refuses them naming the path', () => {
    const text = '{"id":9007199254740993,"n":-12345678901234567890,"safe":9007199254740991,"f":1.5e300,"s":"9007199254740993"}';
    expect(JSON.parse(text).id).toBe(9007199254740992); // what JSON.parse alone makes of it
    expect(readJson(text)).toEqual({
      ok: true,
      value: { id: '9007199254740993', n: '-12345678901234567890', safe: 9007199254740991, f: 1.5e300, s: '9007199254740993' },
    });
    const refused = readJson('{"entry":[{"resource":{"id":9007199254740993}}]}', { bigIntegers: 'refuse' });
    expect(refused).toEqual({ ok: false, problem: { kind: 'big-integer', path: '$.entry[0].resource.id', digits: '9007199254740993' } });
    if (!refused.ok)
      expect(describeJsonProblem(refused.problem)).toBe(
        'the integer 9007199254740993 is beyond what a JSON number keeps exactly (2^53); write it as a string',
      );
  });

  it('describes a text that is not JSON by line and column, never quoting it', () => {
    const secret = 'root:x:0:0:root:/root:/bin/bash\nmore secret lines';
    const r = readJson(secret);
    expect(r).toEqual({ ok: false, problem: { kind: 'syntax', path: '$', reason: 'unexpected character', line: 1, column: 1 } });
    if (!r.ok) expect(describeJsonProblem(r.problem)).not.toContain('root');
    expect(syntaxProblem('{\n  "a": 1,\n  b\n}')).toEqual({
      kind: 'syntax',
      path: '$',
      reason: 'expected a property name in double quotes',
      line: 3,
      column: 3,
    });
    expect(readJson('{"a":1}', { maxBytes: 6 })).toEqual({ ok: false, problem: { kind: 'size', path: '$', bytes: 7, maxBytes: 6 } });
  });

  it('agrees with JSON.parse on every text (fast-check): the same value, or a syntax problem where JSON.parse throws', () => {
    const texts = fc.oneof(
      fc.json({ depthSize: 'large' }),
      fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', ':', '1', '-', '.', 'e', 'a', ' ', 'n', 'u', 'l', 't') }),
      fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let expected: { ok: true; value: unknown } | { ok: false };
        try {
          expected = { ok: true, value: JSON.parse(text) };
        } catch {
          expected = { ok: false };
        }
        const got = readJson(text, { maxDepth: 10_000 });
        if (expected.ok) {
          expect(got.ok).toBe(true);
          // Integers beyond 2^53, kept as their digits, are the one difference.
          if (got.ok && JSON.stringify(got.value) !== JSON.stringify(expected.value)) expect(text).toMatch(/\d{16}/);
          expect(syntaxProblem(text)).toBeUndefined();
        } else {
          expect(got.ok).toBe(false);
          if (!got.ok) expect(got.problem.kind).toBe('syntax');
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('a value at the bound goes through every walker without overflowing the stack', () => {
  it('zod (a resource with a deep unknown field), the sanitiser, printing as JSON and as a table', () => {
    const deep = (readJson(nested(MAX_READ_DEPTH - 6, '"bottom"')) as { value: unknown }).value;
    const answer = { resourceType: 'Appointment', id: 'a1', status: 'booked', extension: [{ url: 'urn:x', valueDeep: deep }] };
    const parsed = parseResponse(Appointment, answer);
    expect(deepPath([sanitizeDeep(parsed)], MAX_READ_DEPTH)).toBeUndefined();
    expect(renderJson([parsed], 'json')).toContain('"bottom"');
    expect(renderRecord(parsed as Record<string, unknown>)).toContain('extension');
  });

  it('deepPath finds the path, recursing no deeper than its bound whatever the value', () => {
    let v: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) v = { a: [v] };
    expect(deepPath(v, MAX_READ_DEPTH)).toHaveLength(MAX_READ_DEPTH);
    expect(deepPath({ a: { b: [{}] } }, 3)).toEqual(['a', 'b', 0]);
    expect(deepPath({ a: { b: [{}] } }, 4)).toBeUndefined();
    expect(MAX_BODY_DEPTH).toBeLessThan(MAX_READ_DEPTH); // an answer echoing a body, wrapped, is still read
  });
});
