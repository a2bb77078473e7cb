/**
 * `pdesk tui`: the interactive terminal desk. Ink and React load only here, and only after the environment they read
 * as they load is set (below): the one `import()` of a verb module. Without a terminal on stdin and stdout it says
 * how to use the subcommands instead and exits 2.
 */
import { UsageError } from '../../../core/errors.js';
import type * as TuiMain from '../../../tui/main.js';
import type { Context } from '../../context.js';
import { positiveInt } from '../../options.js';

export interface TuiOptions {
  sandbox?: boolean;
  listen?: string | boolean;
}

export const NOT_A_TTY_HINT = [
  'Use the subcommands instead, for example:',
  '  pdesk slots list --service-category <system|code> --from today --to +7d',
  '  pdesk appointments list',
  '  pdesk appointments book --patient <id> --comment <text> --slot-json <file|->',
  '  pdesk chat threads · pdesk notifications send … · pdesk medications list',
  'Run `pdesk --help` for every command.',
];

export async function run(ctx: Context, opts: TuiOptions): Promise<void> {
  if (!ctx.io.stdinIsTTY || !ctx.io.stdoutIsTTY)
    throw new UsageError('pdesk tui needs a terminal: standard input and output must both be a TTY.', NOT_A_TTY_HINT);
  let listen: number | true | undefined;
  if (opts.listen === true) listen = true;
  else if (typeof opts.listen === 'string') {
    listen = positiveInt(opts.listen, '--listen', { allowZero: true });
    if (listen > 65535) throw new UsageError(`--listen must be a port between 0 and 65535, not "${opts.listen}".`);
  }
  // The one place a command writes the process's environment: Ink and chalk read process.env (not the IO)
  // when they load, and the TUI only ever runs in a real process on a terminal (checked above).
  // Ink decides once, when it loads, that a CI environment gets no live frames (is-in-ci); this is an
  // operator at a terminal (checked above), so hide CI markers while Ink loads, then put them back.
  // --no-color and NO_COLOR (cli.md): Ink's chalk reads `--no-color` from argv but not NO_COLOR, so say it
  // with FORCE_COLOR=0, which chalk reads once when it loads.
  if (!ctx.color) process.env.FORCE_COLOR = '0';
  const ciVars = ['CI', 'CONTINUOUS_INTEGRATION'] as const;
  const saved = ciVars.map((k) => [k, process.env[k]] as const);
  for (const k of ciVars) delete process.env[k];
  let runTui: typeof TuiMain.runTui;
  try {
    ({ runTui } = await import('../../../tui/main.js'));
  } finally {
    for (const [k, v] of saved) if (v !== undefined) process.env[k] = v;
  }
  // runTui exits the process itself once the terminal is restored; an error before the first frame
  // (no such profile, sandbox cannot start) goes back to the entry point with its exit code.
  ctx.keepAlive = true;
  try {
    await runTui({
      profileName: ctx.globals.profile,
      sandbox: !!opts.sandbox,
      listen,
      verbose: !!ctx.globals.verbose,
      readOnly: !!ctx.globals.readOnly,
      trace: ctx.globals.trace ?? (ctx.io.env.PDESK_TRACE || undefined),
    });
  } catch (e) {
    ctx.keepAlive = false;
    throw e;
  }
}
