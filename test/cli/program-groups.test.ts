/**
 * A command line builds only the command group it runs (src/cli/main.ts: buildProgram with the line, groupOf).
 * These check that the group is the right one, and that every line parses, helps and fails exactly as it does with
 * every group built: the root's help and commander's suggestions need them all, and get them all.
 */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';
import { testIO } from '../../src/cli/io.js';
import { buildProgram, groupOf } from '../../src/cli/main.js';

/** The program built for a line, and what commander made of it: its output, and the error it stopped with. */
async function parsed(args: string[], oneGroup: boolean) {
  const t = testIO();
  const program = buildProgram({ io: t.io }, oneGroup ? args : undefined);
  let error = '';
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    error = e instanceof CommanderError ? `${e.code} ${e.exitCode} ${e.message}` : `not commander's: ${String(e)}`;
  }
  return { program, output: { stdout: t.stdout(), stderr: t.stderr(), error } };
}

describe('a command line builds only its command group', () => {
  it('each group is listed under the name its command has', () => {
    for (const [name, make] of commands) expect(make().name()).toBe(name);
    expect(new Set(commands.map(([name]) => name)).size).toBe(commands.length);
  });

  it('finds the group past the root options and their values; anything else needs every group', () => {
    const program = buildProgram({ io: testIO().io });
    expect(groupOf(program, ['slots', 'list'])).toBe('slots');
    // A value that is a group's name is still the option's value.
    expect(groupOf(program, ['--profile', 'slots', 'appointments', 'list'])).toBe('appointments');
    expect(groupOf(program, ['--profile=prod', '--json', '--limit', '5', '--no-color', 'slots'])).toBe('slots');
    expect(groupOf(program, ['--query', 'x', '--output', 'table', 'chat', 'threads'])).toBe('chat');
    for (const line of [
      ['--help', 'slots'],
      ['-h', 'slots'],
      ['--version'],
      ['-V'],
      ['help', 'slots'],
      ['slot'],
      ['--bogus', 'slots'],
      ['--', 'slots'],
      [],
    ])
      expect(groupOf(program, line), line.join(' ')).toBeUndefined();
  });

  it('every help, usage error and suggestion is the same as with every group built', async () => {
    const all = buildProgram({ io: testIO().io });
    const lines: string[][] = [
      ['--help'],
      ['--help', 'slots'],
      ['-h', 'slots', 'list'],
      ['--version', 'slots'],
      ['help', 'slots'],
      ['--version'],
      ['slot', 'list'],
      ['slots'],
      ['slots', 'lst'],
      ['slots', 'list', '--bogus'],
      ['--bogus', 'slots', 'list'],
      ['--profile', 'slots', 'appointments'],
    ];
    for (const group of all.commands) {
      lines.push([group.name(), '--help']);
      for (const sub of group.commands)
        lines.push([group.name(), sub.name(), '--help'], ['--json', group.name(), sub.name(), '--no-such-option']);
    }
    expect(lines.length).toBeGreaterThan(2 * commands.length);
    for (const args of lines) {
      const whole = (await parsed(args, false)).output;
      const one = (await parsed(args, true)).output;
      expect(one, args.join(' ')).toEqual(whole);
      expect(whole.stdout + whole.stderr + whole.error, args.join(' ')).not.toBe('');
    }
    // And the lines that name a group did build that group alone.
    expect((await parsed(['slots', 'list', '--help'], true)).program.commands).toHaveLength(1);
    expect((await parsed(['--help'], true)).program.commands).toHaveLength(commands.length);
  });
});
