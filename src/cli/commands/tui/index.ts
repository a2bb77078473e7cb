/** `pdesk tui [--sandbox] [--listen [port]]` (and `pdesk` alone): the interactive terminal desk. */
import type { Command } from 'commander';
import { command } from '../../help.js';
import { verb } from '../../verb.js';

export function tuiCommand(): Command {
  return command(
    'tui',
    'open the interactive terminal desk (the default when pdesk runs without a command on a terminal)',
    'pdesk tui --sandbox',
    'pdesk --profile practice-2.0.0 tui',
    'pdesk tui --sandbox --listen 4020',
  )
    .option('--sandbox', 'start the embedded sandbox in-process on a free port and open it (saved profiles are untouched)')
    .option('--listen [port]', "run the push receiver in-process (C1–C5 into the desk's store)")
    .action(verb(() => import('./tui.js')));
}
