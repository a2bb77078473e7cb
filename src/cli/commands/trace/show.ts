/** `pdesk trace show`: a trace file's requests and answers, or the same requests as curl command lines. */
import type { Exchange } from '../../../core/client.js';
import { statusLine } from '../../../core/errors.js';
import { sanitize } from '../../../core/sanitize.js';
import { parseTrace } from '../../../core/trace.js';
import type { Context } from '../../context.js';
import { readTextArg } from '../../options.js';
import { curlScript } from './curl.js';

export interface ShowOptions {
  file: string;
  curl?: boolean;
}

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

export async function run(ctx: Context, opts: ShowOptions): Promise<void> {
  const trace = parseTrace(readTextArg(opts.file, '<file>', ctx.io), opts.file);
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
}
