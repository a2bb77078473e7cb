/**
 * What every command's --help shares: its examples (`examples()`, after the options), the root help's last words
 * (`START_HERE`), and the order of a command group's help (its commands before the global options, which may stand
 * anywhere on the line and would otherwise come between `-h` and the list of commands).
 *
 * Examples use dates relative to today (`--from today --to +7d`, `--start 'tomorrow 09:00'`), so they never go stale;
 * test/cli/help.test.ts holds every command to having them.
 */
import { Command, Help } from 'commander';

/** `addHelpText('after', …)` text: an "Examples:" heading and the command lines, each within 80 columns. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/** A command pdesk has (a noun, or a command without verbs), with its description and examples. */
export function command(name: string, description: string, ...exampleLines: string[]): Command {
  return new Command(name).description(description).addHelpText('after', examples(...exampleLines));
}

/** A verb of `noun`, with its description and examples; its arguments, options and action follow. */
export function subcommand(noun: Command, name: string, description: string, ...exampleLines: string[]): Command {
  return noun
    .command(name)
    .description(description)
    .addHelpText('after', examples(...exampleLines));
}

/** The last words of `pdesk --help`. */
export const START_HERE = [
  '',
  'Start here: `pdesk tui --sandbox` (the desk on a built-in practice system),',
  '`pdesk --help <command>` (its options and examples), and docs/cli.md (the',
  'command-line contract) beside the README in the pdesk package.',
].join('\n');

/**
 * commander's help with a command group's "Commands:" before its "Global Options:" (commander prints them the other
 * way round). Installed with `configureHelp({ formatHelp })`, so `this` is the Help instance.
 */
export function formatHelp(this: Help, cmd: Command, helper: Help): string {
  const text = Help.prototype.formatHelp.call(this, cmd, helper);
  if (!cmd.parent || cmd.commands.length === 0) return text;
  const lines = text.split('\n');
  const globals = lines.indexOf('Global Options:');
  const commands = lines.indexOf('Commands:');
  if (globals < 0 || commands < globals) return text;
  // Each section ends with an empty line; the commands are the last section.
  const end = lines.findIndex((l, i) => i > commands && l === '');
  const commandList = lines.slice(commands, end < 0 ? lines.length : end + 1);
  return [
    ...lines.slice(0, globals),
    ...commandList,
    ...lines.slice(globals, commands),
    ...lines.slice(end < 0 ? lines.length : end + 1),
  ].join('\n');
}

/**
 * `pdesk --help slots list` as `pdesk slots list --help`: commander would print the root's help for it (the first
 * unknown option sends every word after it to the root), where git and gh print the command's.
 */
export function helpFirst(args: readonly string[]): readonly string[] {
  if ((args[0] === '--help' || args[0] === '-h') && args.length > 1 && !args[1]!.startsWith('-')) return [...args.slice(1), args[0]];
  return args;
}
