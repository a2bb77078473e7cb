/**
 * `pdesk tui [--sandbox] [--listen [port]]` (and `pdesk` alone): the interactive terminal desk. Ink and React
 * load only here, with `await import`. Without a terminal on stdin and stdout it says how to use the
 * subcommands instead and exits 2.
 */
import { Command } from 'commander';
import { action } from '../../context.js';
import { examples } from '../../help.js';

export const NOT_A_TTY_HINT = [
  'Use the subcommands instead, for example:',
  '  pdesk slots list --service-category <system|code> --from today --to +7d',
  '  pdesk appointments list',
  '  pdesk appointments book --patient <id> --comment <text> --slot-json <file|->',
  '  pdesk chat threads · pdesk notifications send … · pdesk medications list',
  'Run `pdesk --help` for every command.',
];

export function tuiCommand(): Command {
  return new Command('tui')
    .description('open the interactive terminal desk (the default when pdesk runs without a command on a terminal)')
    .addHelpText('after', examples('pdesk tui --sandbox', 'pdesk --profile practice-2.0.0 tui', 'pdesk tui --sandbox --listen 4020'))
    .option('--sandbox', 'start the embedded sandbox in-process on a free port and open it (saved profiles are untouched)')
    .option('--listen [port]', 'run the push receiver in-process (C1–C5 into the thread store)')
    .action(
      action(async (ctx, opts: { sandbox?: boolean; listen?: string | boolean }) => {
        const { UsageError } = await import('../../../core/errors.js');
        if (!ctx.io.stdinIsTTY || !ctx.io.stdoutIsTTY)
          throw new UsageError('pdesk tui needs a terminal: standard input and output must both be a TTY.', NOT_A_TTY_HINT);
        let listen: number | true | undefined;
        if (opts.listen === true) listen = true;
        else if (typeof opts.listen === 'string') {
          const { positiveInt } = await import('../../options.js');
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
        let runTui: typeof import('../../../tui/main.js').runTui;
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
      }),
    );
}
