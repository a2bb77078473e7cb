/**
 * docs/cli.md is the command-line contract: every command pdesk has is named there in full (`pdesk auth token`),
 * and every option of every command, global ones included, appears in it. A command or option added without
 * its line in cli.md fails here.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { testIO } from '../../src/cli/io.js';
import { buildProgram } from '../../src/cli/main.js';

const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

/** Every visible command below `c`, with its full name and its options' long names. */
function commands(c: Command, path: string[] = []): Array<{ name: string; options: string[] }> {
  const out: Array<{ name: string; options: string[] }> = [];
  for (const sub of c.commands) {
    if ((sub as unknown as { _hidden?: boolean })._hidden) continue; // `pdesk __complete`, the completion callback
    const p = [...path, sub.name()];
    out.push({ name: `pdesk ${p.join(' ')}`, options: sub.options.flatMap((o) => (o.long ? [o.long] : [])) });
    out.push(...commands(sub, p));
  }
  return out;
}

describe('docs/cli.md', () => {
  const program = buildProgram({ io: testIO({}).io });
  const all = commands(program);

  it('names every command in full', () => {
    expect(all.length).toBeGreaterThan(30);
    expect(all.map((c) => c.name).filter((name) => !doc.includes(name))).toEqual([]);
  });

  it('names every option of every command, and every global option', () => {
    const missing = [
      ...program.options.flatMap((o) => (o.long && !doc.includes(`\`${o.long}`) ? [`global ${o.long}`] : [])),
      ...all.flatMap((c) => c.options.filter((o) => !doc.includes(o)).map((o) => `${c.name} ${o}`)),
    ];
    expect(missing).toEqual([]);
  });
});
