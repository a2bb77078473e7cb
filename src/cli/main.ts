/**
 * pdesk entry point: builds the commander program, runs one command, prints errors as one sentence plus
 * detail lines with the exit codes of cli.md, and exits explicitly once output is flushed (undici keeps a
 * process alive for a while after its last request). The TUI and the sandbox are imported only when used.
 */
import { Command, CommanderError, Option } from 'commander';
import { ExitCode, FieldError, PdeskError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import { sanitize } from '../core/sanitize.js';
import { commands } from './commands/index.js';
import { safeJson } from './output.js';
import { type Context, deferRequiredOptions } from './context.js';

export const VERSION = '0.1.0';

export function buildProgram(): Command {
  const program = new Command('pdesk')
    .description('Terminal desk for the patient portal and practice systems: appointments, chat, notifications, medication.')
    .version(VERSION, '-V, --version')
    .option('--profile <name>', 'profile to use (else PDESK_PROFILE, else the default profile)')
    .option('--json', 'print JSON (same as --output json)')
    .option('--limit <n>', 'list commands: stop after n resources (0 = no limit)', '1000')
    .addOption(new Option('--output <format>', 'table, json or ndjson (default: table on a terminal, json when piped)'))
    .option('--dry-run', 'print the request (secrets redacted) and send nothing')
    .option('--verbose', 'request and response summary lines on stderr (secrets redacted)')
    .option('--no-color', 'no colours (NO_COLOR is honoured too)')
    // Each command's --help lists the global options too: they may stand anywhere on the line (cli.md).
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError(false)
    .exitOverride()
    // Errors are printed by reportError as one sentence; help asked for by a missing subcommand goes to stderr.
    .configureOutput({ outputError: () => undefined });
  for (const make of commands) {
    const cmd = make();
    cmd.copyInheritedSettings(program);
    for (const sub of cmd.commands) sub.copyInheritedSettings(program);
    deferRequiredOptions(cmd);
    program.addCommand(cmd);
  }
  return program;
}

function commanderMessage(e: CommanderError): string {
  // One sentence: commander puts its suggestion on a line of its own, "\n(Did you mean list?)".
  const m = e.message.replace(/^error:\s*/, '').replace(/\s*\n\s*\(Did you mean ([^)]*)\)\s*$/, ': did you mean $1');
  const sentence = m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** Fields core names whose option is not simply `--<field in kebab case>`. */
const FLAG_OF_FIELD: Record<string, string> = { slot: '--slot-json' };

/** The command-line option of a field core names in a FieldError (`serviceCategory` → `--service-category`). */
export function flagOf(field: string): string {
  return FLAG_OF_FIELD[field] ?? `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Print an error: one sentence, then detail lines; a stack only with --verbose. */
export function reportError(e: unknown, verbose: boolean, args: readonly string[] = []): number {
  const write = (line: string) => process.stderr.write(`${redact(sanitize(line, true))}\n`);
  if (e instanceof PdeskError && e.name === 'DryRunResult') {
    // The body may carry server text (a reorder is built from an M2 read): escaped and redacted like any output.
    process.stdout.write(`${redact(safeJson((e as PdeskError & { request: unknown }).request, true))}\n`);
    return ExitCode.ok;
  }
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return ExitCode.ok;
    // A command group without its subcommand (`pdesk slots`): commander printed its help on stderr.
    if (e.code === 'commander.help') return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    write(`pdesk: ${commanderMessage(e)}`);
    write('  Run with --help for usage.');
    return ExitCode.usage;
  }
  if (e instanceof PdeskError) {
    // An invalid body given with --body is the operator's file: say which option it came from.
    const fromBody = e.name === 'BodyError' && args.includes('--body');
    const message = e instanceof FieldError ? e.render(flagOf) : e.message;
    write(`pdesk: ${fromBody ? `--body: ${message}` : message}`);
    for (const d of e.details) write(`  ${d}`);
    if (verbose && e.stack) write(e.stack);
    return e.exitCode;
  }
  write(`pdesk: unexpected error: ${(e as Error)?.message ?? String(e)}`);
  if (verbose && (e as Error)?.stack) write((e as Error).stack!);
  else write('  Run with --verbose for details.');
  return ExitCode.unexpected;
}

function flushAndExit(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

export async function run(argv: string[]): Promise<void> {
  // A reader that stops early (`pdesk slots list … | head -1`) is not an error: stop quietly, no stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(ExitCode.ok);
    throw e;
  });
  // `pdesk` with no command opens the TUI.
  const args = argv.length === 0 ? ['tui'] : argv;
  const program = buildProgram();
  let code: number = ExitCode.ok;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    code = reportError(e, args.includes('--verbose'), args);
  }
  const ctx = (program as Command & { pdeskContext?: Context }).pdeskContext;
  if (ctx?.keepAlive) return; // long-running commands (sandbox, listen, tui) exit on their own
  await ctx?.close().catch(() => undefined);
  flushAndExit(process.exitCode !== undefined && code === 0 ? Number(process.exitCode) : code);
}
