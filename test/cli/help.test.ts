/**
 * Help (src/cli/help.ts): every command's --help, command groups included, ends its usage with examples that use
 * no calendar dates and fit 80 columns; a group lists its commands before the global options; an operation's id
 * comes after the plain words; the root help ends with where to start; `pdesk --help <command>` is that command's
 * help.
 */
import { type Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { testIO } from '../../src/cli/io.js';
import { buildProgram, runProgram } from '../../src/cli/main.js';

/** Every visible command below `c` as its command words (`['chat', 'send']`), groups included. */
function commandPaths(c: Command, path: string[] = []): string[][] {
  return c.commands
    .filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden)
    .flatMap((sub) => [[...path, sub.name()], ...commandPaths(sub, [...path, sub.name()])]);
}

/** What `pdesk <words> --help` prints on stdout. */
async function help(words: string[]): Promise<string> {
  const t = testIO();
  try {
    await buildProgram({ io: t.io }).parseAsync([...words, '--help'], { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError) || e.code !== 'commander.helpDisplayed') throw e;
  }
  return t.stdout();
}

/** The lines of the "Examples:" section: from its heading to the next empty line. */
function examplesOf(text: string): string[] {
  const lines = text.split('\n');
  const at = lines.indexOf('Examples:');
  if (at < 0) return [];
  const end = lines.findIndex((l, i) => i > at && l.trim() === '');
  return lines.slice(at + 1, end < 0 ? lines.length : end);
}

describe('help', () => {
  const paths = commandPaths(buildProgram({ io: testIO().io }));

  it('every command and command group has examples: pdesk command lines, no calendar dates, within 80 columns', async () => {
    expect(paths.length).toBeGreaterThan(40);
    const without: string[] = [];
    for (const words of paths) {
      const name = `pdesk ${words.join(' ')}`;
      const lines = examplesOf(await help(words));
      if (!lines.some((l) => /(^|[\s(])pdesk /.test(l))) without.push(name);
      for (const line of lines) {
        expect(line, name).toMatch(/^ {2}( {2})?\S/); // a command, or its continuation
        expect([...line].length, `${name}: ${line}`).toBeLessThanOrEqual(80);
        // Dates relative to today (`--from today --to +7d`), so an example never shows a day gone by.
        expect(line, name).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
      }
    }
    expect(without).toEqual([]);
  });

  it("a command group lists its commands before the global options, and a command's op id follows its plain words", async () => {
    const chat = await help(['chat']);
    const commands = chat.indexOf('\nCommands:\n');
    const globals = chat.indexOf('\nGlobal Options:\n');
    expect(commands).toBeGreaterThan(0);
    expect(globals).toBeGreaterThan(commands);
    // Nothing lost in the move: the same sections as commander's own order.
    expect(chat).toMatch(/^ {2}send \[options\] +send a message, portal → practice \(C1\)$/m);
    expect(chat).toMatch(/^ {2}--profile <name> /m);
    expect(chat.indexOf('\nExamples:\n')).toBeGreaterThan(globals);
    for (const words of paths) {
      const text = await help(words);
      const description = text.split('\n\n')[1] ?? '';
      // "C1: send…" read id-first; the id belongs after the words ("send a message … (C1)").
      expect(description, words.join(' ')).not.toMatch(/^[ACM]\d:/);
    }
  });

  it('the root help ends with where to start', async () => {
    const root = await help([]);
    expect(root.trimEnd().split('\n').slice(-3).join(' ')).toMatch(
      /^Start here: `pdesk tui --sandbox` .*`pdesk --help <command>` .*docs\/cli\.md/,
    );
  });

  it('pdesk --help <command> prints that command’s help, as pdesk <command> --help does', async () => {
    const t = testIO();
    const r = await runProgram(['--help', 'slots', 'list'], { io: t.io });
    expect(r.code).toBe(0);
    expect(t.stdout()).toBe(await help(['slots', 'list']));
    expect(t.stdout()).toMatch(/^Usage: pdesk slots list/);
  });
});
