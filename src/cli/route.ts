/**
 * Which bundle runs a command line (bin/pdesk.js → dist/boot.cjs, src/cli/boot.ts). dist/full.cjs holds
 * everything and runs the long-running commands (the TUI, `listen`, the sandbox, a bulk send with `--csv`,
 * `check`, `doctor`: Ink, React, undici's pools) and the profile commands that write the store (conf). Every
 * other command is one-shot and runs from dist/cli.cjs, which holds the CLI and the core only, sends through
 * node:http and has neither undici, the TUI nor conf to read and compile.
 */
const FULL_BUNDLE = new Set(['tui', 'listen', 'sandbox', 'check', 'doctor']);
/** `profile` subcommands that write profiles.json through conf. */
const PROFILE_WRITES = new Set(['add', 'import', 'use', 'remove']);
/** Global options that take a value, which may stand before the command (`--profile prod tui`). */
const VALUE_OPTIONS = new Set(['--profile', '--limit', '--output']);

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

/** Whether a command line runs from dist/full.cjs rather than dist/cli.cjs. */
export function usesFullBundle(args: readonly string[]): boolean {
  if (args.length === 0) return true; // `pdesk` opens the TUI
  if (args.some((a) => a === '--csv' || a.startsWith('--csv='))) return true;
  const [command, sub] = commandWords(args);
  if (command === 'profile') return sub !== undefined && PROFILE_WRITES.has(sub);
  return command !== undefined && FULL_BUNDLE.has(command);
}
