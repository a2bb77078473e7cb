/**
 * `pdesk trace show <file> [--curl]`: a trace written with `--trace` (src/core/trace.ts): each request and its
 * answer, headers and bodies (secrets redacted when traced), or with `--curl` the same requests as curl command
 * lines a vendor can run, credentials as shell variables named in a comment at the top.
 */
import type { Command } from 'commander';
import { command, subcommand } from '../../help.js';
import { verb } from '../../verb.js';

export function traceCommand(): Command {
  const cmd = command(
    'trace',
    'request traces written with --trace <file> (or PDESK_TRACE)',
    'pdesk appointments list --trace case-4711.trace',
    'pdesk trace show case-4711.trace',
  );
  subcommand(
    cmd,
    'show',
    'print a trace: every request and answer, or with --curl as curl command lines',
    'pdesk trace show case-4711.trace',
    'pdesk trace show case-4711.trace --curl > replay.sh',
  )
    .argument('<file>', 'the trace file')
    .option('--curl', 'print each request as a curl command line (credentials as $PDESK_… shell variables)')
    .action(verb(() => import('./show.js')));
  return cmd;
}
