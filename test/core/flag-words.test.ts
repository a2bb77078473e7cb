/**
 * Core speaks no face's words (issue 36): no string in src/core names a command-line option (`--csv`) or a pdesk
 * command (`pdesk profile show`). Core raises a FieldError naming the field and adds hints (src/core/errors.ts);
 * each face words them (src/cli/hints.ts, src/tui/field-errors.ts, src/tui/hints.ts). Comments may name flags.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';

const ROOT = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

/** Every string literal and template piece of a file (comments are not tokens of these kinds). */
function strings(path: string): Array<{ line: number; text: string }> {
  const sf = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Array<{ line: number; text: string }> = [];
  const visit = (n: ts.Node) => {
    if (ts.isStringLiteralLike(n) || ts.isTemplateLiteralToken(n))
      out.push({ line: sf.getLineAndCharacterOfPosition(n.getStart()).line + 1, text: n.text });
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** A string naming a flag, for the scan to find in this file. */
const PROBE = 'rerun with --resend-uncertain';
const FLAG = /(^|[\s("'`:[,])--[a-z]/;
const COMMAND = new RegExp(`\\bpdesk (${commands.map(([name]) => name).join('|')})\\b`);
/** Not a command the operator is told to run: the check suite's name on its test data (src/core/check/text.ts). */
const SIGNATURE = { file: 'src/core/check/text.ts', text: 'pdesk check' };

describe('core speaks no flag words', () => {
  const found = sources(join(ROOT, 'src/core')).flatMap((path) => {
    const file = relative(ROOT, path);
    return strings(path)
      .filter(({ text }) => FLAG.test(text) || COMMAND.test(text))
      .filter(({ text }) => !(file === SIGNATURE.file && text === SIGNATURE.text))
      .map(({ line, text }) => `${file}:${line}: ${JSON.stringify(text)}`);
  });

  it('no string in src/core names an option or a pdesk command', () => {
    expect(found).toEqual([]);
  });

  it('the scan sees strings, not comments, and tells a flag or a command from prose', () => {
    const seen = strings(join(ROOT, 'test/core/flag-words.test.ts')).map((s) => s.text);
    expect(seen).toContain(PROBE);
    expect(seen.some((t) => t.includes(['Comments', 'may', 'name'].join(' ')))).toBe(false); // the header's comment
    expect(COMMAND.test('run pdesk profile show north')).toBe(true);
    expect(COMMAND.test('pdesk reads at most 10 pages')).toBe(false);
    expect(FLAG.test('name it with --email-column')).toBe(true);
    expect(FLAG.test('an ISO date 2026--01')).toBe(false);
  });
});
