/** The raw view's JSON (src/tui/inspect/json.ts): sanitised, redacted, coloured by token. */
import { afterEach, describe, expect, it } from 'vitest';
import { registerSecret, secretScope } from '../../../src/core/redact.js';
import { JSON_COLORS, colorLine, rawLines } from '../../../src/tui/inspect/json.js';

let forget: (() => void) | undefined;
afterEach(() => forget?.());

describe('raw JSON', () => {
  it('pretty-prints, strips control sequences a server sent and redacts secrets', () => {
    forget = secretScope();
    registerSecret('tok-123456');
    const lines = rawLines({ id: 'a', text: 'x\u001b[2Jy', auth: 'Bearer tok-123456' });
    expect(lines).toEqual(['{', '  "id": "a",', '  "text": "x\\u001b[2Jy",', '  "auth": "Bearer ***"', '}']);
    expect(lines.join('\n')).not.toContain('\u001b');
    expect(rawLines(undefined)).toEqual(['(nothing)']);
  });

  it('colours keys, strings, numbers, literals and punctuation, losing no character', () => {
    const line = '  "count": 12, "ok": true, "name": "a \\" b", "none": null';
    const segs = colorLine(line);
    expect(segs.map((s) => s.text).join('')).toBe(line);
    const colour = (text: string) => segs.find((s) => s.text === text)?.color;
    expect(colour('"count"')).toBe(JSON_COLORS.key);
    expect(colour('12')).toBe(JSON_COLORS.number);
    expect(colour('true')).toBe(JSON_COLORS.literal);
    expect(colour('"a \\" b"')).toBe(JSON_COLORS.string);
    expect(colour('null')).toBe(JSON_COLORS.literal);
  });
});
