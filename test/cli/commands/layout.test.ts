/**
 * Where a command's code lives (DEVELOPERS.md, "Commands"): `pdesk <noun> <verb>` runs `run(ctx, options)` of
 * src/cli/commands/<noun>/<verb>.ts (a command without verbs, <noun>/<noun>.ts), which its noun's definitions
 * (<noun>/index.ts) load with one `import()` when that command line runs. A verb module imports statically; the
 * TUI's is the one exception (Ink reads the environment as it loads, so the TUI is imported after it is set).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { testIO } from '../../../src/cli/io.js';
import { buildProgram } from '../../../src/cli/main.js';

const COMMANDS = fileURLToPath(new URL('../../../src/cli/commands', import.meta.url));

/** Every command that runs (not a group), as `[noun, verb]`; `[noun, noun]` for one without verbs. */
function runnable(program: Command): Array<[string, string]> {
  return program.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .flatMap((noun) =>
      noun.commands.length ? noun.commands.map((v) => [noun.name(), v.name()] as [string, string]) : [[noun.name(), noun.name()]],
    );
}

describe('the commands layout', () => {
  const commands = runnable(buildProgram({ io: testIO().io }));

  it("each command's code is src/cli/commands/<noun>/<verb>.ts, exporting run; its noun loads it with import()", async () => {
    expect(commands.length).toBeGreaterThan(35);
    for (const [noun, verb] of commands) {
      const file = join(COMMANDS, noun, `${verb}.ts`);
      expect(existsSync(file), `${noun} ${verb}: ${file}`).toBe(true);
      expect(readFileSync(join(COMMANDS, noun, 'index.ts'), 'utf8'), `${noun}/index.ts`).toContain(`import('./${verb}.js')`);
      const mod = (await import(file)) as { run?: unknown };
      expect(typeof mod.run, `${noun}/${verb}.ts`).toBe('function');
    }
  }, 60_000);

  it('a module of a noun other than its definitions imports statically (the TUI alone waits for its environment)', () => {
    const dynamic: string[] = [];
    for (const noun of readdirSync(COMMANDS, { withFileTypes: true }).filter((d) => d.isDirectory()))
      for (const f of readdirSync(join(COMMANDS, noun.name)).filter((f) => f.endsWith('.ts') && f !== 'index.ts')) {
        const calls = readFileSync(join(COMMANDS, noun.name, f), 'utf8').match(/\bimport\(['"][^'"]+['"]\)/g) ?? [];
        for (const c of calls) dynamic.push(`${noun.name}/${f}: ${c}`);
      }
    expect(dynamic).toEqual(["tui/tui.ts: import('../../../tui/main.js')"]);
  });
});
