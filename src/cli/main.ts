/**
 * pdesk entry point. `buildProgram(deps)` makes the commander program from the commands' definitions
 * (src/cli/commands/<noun>/index.ts); `runProgram(argv, deps)` runs one command with the IO, profile loader, client
 * factory and clock it is given and returns its exit code (cli.md), printing errors as one sentence plus detail
 * lines; it never exits the process, so tests run it in-process with `testIO()`. A command's code is loaded only
 * when its line runs (src/cli/verb.ts). `run(argv)` is the process's entry (bin/pdesk.js): the system IO, then an
 * explicit exit once output is flushed (undici keeps a process alive for a while after its last request).
 */
import { Command, CommanderError, Option } from 'commander';
import { forgetTokens } from '../core/auth.js';
import { DryRunStop } from '../core/client/dry-run.js';
import { ExitCode, PdeskError } from '../core/errors.js';
import { redact, secretScope } from '../core/redact.js';
import { sanitize } from '../core/sanitize.js';
import { forgetCommandSecrets } from '../core/profile/secrets.js';
import { commands } from './commands/index.js';
import type { Context, Deps } from './context.js';
import { START_HERE, formatHelp, helpFirst } from './help.js';
import { type IO, systemIO } from './io.js';
import { cliWords } from './hints.js';
import { collect } from './options.js';
import { deferRequiredOptions } from './required.js';
import { withDefaultCommand } from './route.js';
import { contextOfRun, setDeps } from './verb.js';

export const VERSION = '0.1.0';

/**
 * The commander program; `deps` (the system IO by default) is what its actions run with. With the command line
 * `args`, only the command group it runs is built when that is certain (`groupOf`): a command does not build the
 * other groups' commands and options.
 */
export function buildProgram(deps: Deps = { io: systemIO() }, args?: readonly string[]): Command {
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
    .option('--query <JMESPath>', 'JMESPath expression applied to the JSON output; implies JSON (not with --output table)', collect)
    .option('--read-only', 'send GET requests only: anything else exits 3 before it is sent (as profile readOnly)')
    .option('--yes', 'confirm writes on a production profile without a terminal prompt')
    .option('--trace <file>', 'append every request and answer of this run to an NDJSON file, secrets redacted (or PDESK_TRACE)')
    // Each command's --help lists the global options too: they may stand anywhere on the line (cli.md); a command
    // group lists its commands first (help.ts).
    .configureHelp({ showGlobalOptions: true, formatHelp })
    .addHelpText('after', START_HERE)
    .showHelpAfterError(false)
    .exitOverride()
    // Errors are printed by reportError as one sentence; help asked for by a missing subcommand goes to stderr.
    .configureOutput({
      outputError: () => undefined,
      writeOut: (t) => void deps.io.stdout.write(t),
      writeErr: (t) => void deps.io.stderr.write(t),
      // Help fits the terminal (commander's own default: 80 columns when not on one); pdesk's help has no colours.
      getOutHelpWidth: () => deps.io.columns() ?? 80,
      getErrHelpWidth: () => 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    });
  setDeps(program, deps);
  const only = args && groupOf(program, args);
  for (const [name, make] of commands) {
    if (only !== undefined && name !== only) continue;
    const cmd = make();
    cmd.copyInheritedSettings(program);
    for (const sub of cmd.commands) sub.copyInheritedSettings(program);
    deferRequiredOptions(cmd);
    program.addCommand(cmd);
  }
  return program;
}

/**
 * The command group a command line runs, when nothing but that group is needed to parse it: its first word is a
 * group's name, and only root options the program knows stand before it. Anything else (`--help` or `--version`
 * before it, `help`, a word that is no group, so that commander can suggest one, an unknown option) needs every
 * group: undefined.
 */
export function groupOf(program: Command, args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) return commands.some(([name]) => name === a) ? a : undefined;
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const option = program.options.find((o) => o.long === flag || o.short === flag);
    if (!option || option.long === '--version') return undefined;
    if ((option.required || option.optional) && flag === a) i++; // its value is the next argument
  }
  return undefined;
}

function commanderMessage(e: CommanderError): string {
  // One sentence: commander puts its suggestion on a line of its own, "\n(Did you mean list?)".
  const m = e.message.replace(/^error:\s*/, '').replace(/\s*\n\s*\(Did you mean ([^)]*)\)\s*$/, ': did you mean $1');
  const sentence = m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** Print an error on `io`'s stderr: one sentence, then detail lines; a stack only with --verbose. Returns the exit code. */
export function reportError(e: unknown, verbose: boolean, args: readonly string[], io: Pick<IO, 'stderr'>): number {
  const write = (line: string) => void io.stderr.write(`${redact(sanitize(line, true))}\n`);
  // --dry-run: the request was printed by the client's onDryRun; stopping there is success.
  if (e instanceof DryRunStop) return ExitCode.ok;
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
    const { message, details } = cliWords(e);
    write(`pdesk: ${fromBody ? `--body: ${message}` : message}`);
    for (const d of details) write(`  ${d}`);
    // An HTTP, contract, network or usage error is expected and fully said above; a stack helps only for a fault.
    if (verbose && e.stack && e.exitCode === ExitCode.unexpected) write(e.stack);
    return e.exitCode;
  }
  write(`pdesk: unexpected error: ${(e as Error)?.message ?? String(e)}`);
  if (verbose && (e as Error)?.stack) write((e as Error).stack!);
  else write('  Run with --verbose for details.');
  return ExitCode.unexpected;
}

export interface ProgramResult {
  code: number;
  /** The Context of the command that ran, if one got that far. */
  context?: Context;
  /** What the command threw, if anything (DryRunStop included). */
  error?: unknown;
}

/**
 * Run one command with `deps` and return its exit code; nothing here exits the process. A command that stays
 * (sandbox, listen, tui: `context.keepAlive`) keeps its client and secrets; any other has its client closed and
 * the secrets and tokens it registered forgotten when it ends, so runs in one process do not share them.
 */
export async function runProgram(argv: readonly string[], deps: Deps): Promise<ProgramResult> {
  // `pdesk` with no command (`pdesk --profile north` too) opens the TUI; `pdesk --help <command>` is that command's help.
  const args = [...helpFirst(withDefaultCommand(argv))];
  // The shells' completion callback (`pdesk completion`): its words are what the user typed, never options of
  // pdesk, so commander does not parse them; it never fails and never sends anything.
  if (args[0] === '__complete') {
    const { runComplete } = await import('./completion/complete.js');
    await runComplete(buildProgram(deps), args.slice(1), deps.io);
    return { code: ExitCode.ok };
  }
  const forgetSecrets = secretScope();
  // A command may say its exit code with ctx.exitCode; one that sets process.exitCode (written before ctx had
  // it) is honoured too, and process.exitCode is put back so that it does not outlive the run.
  const exitCodeBefore = process.exitCode;
  const program = buildProgram(deps, args);
  let code: number = ExitCode.ok;
  let error: unknown;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    error = e;
    code = reportError(e, args.includes('--verbose'), args, deps.io);
  }
  const context = contextOfRun(program);
  const setByCommand = process.exitCode !== exitCodeBefore ? Number(process.exitCode) : undefined;
  process.exitCode = exitCodeBefore;
  if (code === ExitCode.ok) code = context?.exitCode ?? setByCommand ?? code;
  if (context?.keepAlive) return { code, context, error };
  await context?.close().catch(() => undefined);
  forgetSecrets();
  forgetTokens();
  forgetCommandSecrets();
  return { code, context, error };
}

function flushAndExit(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/** The process's entry (bin/pdesk.js). */
export async function run(argv: string[]): Promise<void> {
  // A reader that stops early (`pdesk slots list … | head -1`) is not an error: stop quietly, no stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(ExitCode.ok);
    throw e;
  });
  const { code, context } = await runProgram(argv, { io: systemIO() });
  if (context?.keepAlive) return; // long-running commands (sandbox, listen, tui) exit on their own
  flushAndExit(code);
}
