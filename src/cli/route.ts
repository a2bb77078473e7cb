/**
 * Which build runs a command line (bin/pdesk.js → dist/boot.cjs, src/cli/boot.ts; scripts/build.mjs):
 * - `cli`: dist/cli.cjs, the one-shot commands. The CLI and the core only, compiled with a code cache; it sends
 *   through node:http and has neither undici, the TUI nor conf to read and compile.
 * - `tui`: dist/tui.cjs, `pdesk tui` (and `pdesk` alone): everything, compiled with a code cache.
 * - `main`: the ESM build, dist/main.js and its split chunks, for the other long-running commands (`listen`, the
 *   sandbox, a bulk send with `--csv`, `check`, `doctor`: undici's pools) and the profile commands that write
 *   the store (conf): a process holds only the chunks it loads.
 * Every other command does one short job and is one-shot: the reads and writes of each API, `api`, `audit`,
 * `auth`, `trace`, `store`, `completion` and the shells' `__complete` callback, `profile list` and `show`. Every
 * build holds the team store's driver: a command that uses the desk's store runs from any of them.
 */
export type Build = 'cli' | 'tui' | 'main';

const MAIN_BUILD = new Set(['listen', 'sandbox', 'check', 'doctor']);
/** `profile` subcommands that write profiles.json through conf. */
const PROFILE_WRITES = new Set(['add', 'import', 'use', 'remove']);
/**
 * Global options that take a value, which may stand before the command (`--profile prod tui`). Not read from
 * the commander program, which a command line is routed before loading; a test holds the two in agreement.
 */
export const VALUE_OPTIONS = new Set(['--profile', '--limit', '--output', '--query', '--trace']);

/** The command words of a command line (`slots list`), at most `max`, skipping options and their values. */
export function commandWords(args: readonly string[], max = 2): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < max; i++) {
    const a = args[i]!;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) words.push(a);
  }
  return words;
}

/** Options the program answers itself, whatever else the line holds. */
const HELP_OR_VERSION = new Set(['-h', '--help', '-V', '--version']);

/**
 * The command line as run: one without a command word (`pdesk`, `pdesk --profile north`, `pdesk --read-only`)
 * opens the TUI, with its options; `--help` and `--version` stay the program's.
 */
export function withDefaultCommand(args: readonly string[]): readonly string[] {
  if (commandWords(args, 1).length || args.some((a) => HELP_OR_VERSION.has(a))) return args;
  return ['tui', ...args];
}

/** A bulk send (`--csv`): it runs from the ESM build, and its process gets the V8 settings of tuning.ts. */
export function isBulkSend(args: readonly string[]): boolean {
  return commandWords(withDefaultCommand(args))[0] !== 'tui' && args.some((a) => a === '--csv' || a.startsWith('--csv='));
}

export function buildFor(args: readonly string[]): Build {
  const [command, sub] = commandWords(withDefaultCommand(args));
  if (command === 'tui') return 'tui';
  if (isBulkSend(args)) return 'main';
  if (command === 'profile') return sub !== undefined && PROFILE_WRITES.has(sub) ? 'main' : 'cli';
  return command !== undefined && MAIN_BUILD.has(command) ? 'main' : 'cli';
}
