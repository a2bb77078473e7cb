/**
 * `pdesk trace show <file> [--curl]` — a trace written with `--trace` (src/core/trace.ts): each request and its
 * answer, headers and bodies (secrets redacted when traced), or with `--curl` the same requests as curl command
 * lines a vendor can run, credentials as shell variables named in a comment at the top.
 */
import { Command } from 'commander';
import type { Exchange } from '../../core/client.js';
import { action } from '../context.js';
import { examples } from '../help.js';

/** A body as indented lines: pretty JSON when it is JSON, else the text. */
function bodyLines(text: string): string[] {
  try {
    return JSON.stringify(JSON.parse(text), null, 2).split('\n');
  } catch {
    return text.split('\n');
  }
}

/** One exchange, readable: the request line, then request headers and body (>), then the answer (<). */
export function exchangeText(e: Exchange, n: number, statusLine: (s: number) => string): string[] {
  const outcome =
    e.status !== undefined
      ? statusLine(e.status)
      : e.sending
        ? 'outcome unknown: the request was sent and the run ended before its answer was traced'
        : `no answer: ${e.error?.message ?? 'unknown'}`;
  const lines = [
    `#${n} ${e.startedAt} ${e.op ? `${e.op} ` : ''}${e.method} ${e.url} → ${outcome}${e.ms === undefined ? '' : ` (${e.ms} ms${e.attempts && e.attempts > 1 ? `, ${e.attempts} attempts` : ''})`}`,
  ];
  for (const [k, v] of Object.entries(e.requestHeaders ?? {})) lines.push(`  > ${k}: ${v}`);
  if (e.requestBody !== undefined) lines.push(...bodyLines(e.requestBody).map((l) => `  > ${l}`));
  if (e.status !== undefined) {
    for (const [k, v] of Object.entries(e.responseHeaders ?? {})) lines.push(`  < ${k}: ${v}`);
    if (e.responseBody) lines.push(...bodyLines(e.responseBody).map((l) => `  < ${l}`));
  }
  return lines;
}

export function traceCommand(): Command {
  const cmd = new Command('trace')
    .description('request traces written with --trace <file> (or PDESK_TRACE)')
    .addHelpText('after', examples('pdesk appointments list --trace case-4711.trace', 'pdesk trace show case-4711.trace'));
  cmd
    .command('show')
    .description('print a trace: every request and answer, or with --curl as curl command lines')
    .addHelpText('after', examples('pdesk trace show case-4711.trace', 'pdesk trace show case-4711.trace --curl > replay.sh'))
    .argument('<file>', 'the trace file')
    .option('--curl', 'print each request as a curl command line (credentials as $PDESK_… shell variables)')
    .action(
      action(async (ctx, file: string, opts: { curl?: boolean }) => {
        const { readTextArg } = await import('../options.js');
        const { parseTrace, curlScript } = await import('../../core/trace.js');
        const trace = parseTrace(readTextArg(file, '<file>', ctx.io), file);
        for (const w of trace.warnings) ctx.err(`pdesk: warning: ${w}`);
        if (opts.curl) {
          const script = curlScript(trace);
          ctx.out(script.lines.length ? script.lines.join('\n') : '# (no requests in this trace)');
          return;
        }
        if (ctx.format !== 'table') {
          ctx.emitList(
            trace.exchanges.map((x) => x.exchange),
            [],
          );
          return;
        }
        const { statusLine } = await import('../../core/errors.js');
        const { sanitize } = await import('../../core/sanitize.js');
        if (!trace.exchanges.length) {
          ctx.out('(no requests in this trace)');
          return;
        }
        const out: string[] = [];
        trace.exchanges.forEach((x, i) => {
          if (i > 0) out.push('');
          out.push(...exchangeText(x.exchange, i + 1, statusLine));
        });
        // Answers are server text: no control sequence reaches the terminal.
        ctx.out(sanitize(out.join('\n'), true));
      }),
    );
  return cmd;
}
