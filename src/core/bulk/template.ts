/**
 * `{column}` placeholders of bulk sends (the text and the topic): compiled once against the CSV header, so a
 * placeholder naming no column is refused before anything is sent. `{{` and `}}` stand for literal braces.
 */
import { FieldError } from '../errors.js';

export type Part = string | { column: string; index: number };

export interface Template {
  source: string;
  parts: Part[];
  /** Column names the template uses, in order of first use. */
  columns: string[];
  render(row: readonly string[]): string;
}

const TOKEN = /\{\{|\}\}|\{([^{}]*)\}|[{}]/g;

/** The placeholder names of a template, in order (no header needed); `field` names the template in errors. */
export function placeholders(source: string, field: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(TOKEN)) {
    const tok = m[0];
    if (tok === '{{' || tok === '}}') continue;
    if (tok === '{' || tok === '}')
      throw new FieldError(field, `has an unmatched "${tok}"; write {{ or }} for a literal brace, or {column} for a placeholder`);
    const name = m[1]!.trim();
    if (!name) throw new FieldError(field, 'has an empty placeholder {}; write {column} with a column name of the CSV');
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** Compile `source` against `header`; a placeholder naming no column (or an ambiguous one) exits 2. */
export function compileTemplate(source: string, header: readonly string[], field: string, csvName: string): Template {
  const names = placeholders(source, field);
  const index = new Map<string, number>();
  header.forEach((h, i) => {
    if (!index.has(h)) index.set(h, i);
  });
  for (const name of names) {
    if (!index.has(name))
      throw new FieldError(field, `uses the placeholder {${name}}, but ${csvName} has no column "${name}"`, [
        `columns: ${header.map((h) => JSON.stringify(h)).join(', ')}`,
      ]);
    if (header.indexOf(name) !== header.lastIndexOf(name))
      throw new FieldError(field, `uses the placeholder {${name}}, but ${csvName} has more than one column "${name}"`);
  }
  const parts: Part[] = [];
  let literal = '';
  let last = 0;
  for (const m of source.matchAll(TOKEN)) {
    literal += source.slice(last, m.index);
    last = m.index! + m[0].length;
    if (m[0] === '{{') literal += '{';
    else if (m[0] === '}}') literal += '}';
    else {
      if (literal) parts.push(literal);
      literal = '';
      const column = m[1]!.trim();
      parts.push({ column, index: index.get(column)! });
    }
  }
  literal += source.slice(last);
  if (literal) parts.push(literal);
  // Two functions, not one that tests which kind it is: a template without placeholders and one with them then keep
  // their own type feedback, and a bulk send's optimised code is not thrown away when it meets the other kind.
  const fixed = parts.every((p) => typeof p === 'string') ? parts.join('') : undefined;
  const render =
    fixed !== undefined
      ? () => fixed
      : (row: readonly string[]) => {
          let text = '';
          for (const p of parts) text += typeof p === 'string' ? p : (row[p.index] ?? '');
          return text;
        };
  return { source, parts, columns: names, render };
}
