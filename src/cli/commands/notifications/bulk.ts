/**
 * `pdesk notifications send --csv`: C5, one notification per CSV row, resumable through a journal without sending
 * anything twice (src/core/bulk/notifications.ts). Runs from the ESM build (src/cli/route.ts).
 */
import { mkdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import {
  BulkSend,
  type BulkCounters,
  type BulkSummary,
  DEFAULT_CONCURRENCY,
  defaultJournalPath,
} from '../../../core/bulk/notifications.js';
import { type RateState, parseRate } from '../../../core/bulk/rate.js';
import { BulkSender } from '../../../core/bulk/sender.js';
import { splitUrl } from '../../../core/client/describe.js';
import { PdeskError, UsageError } from '../../../core/errors.js';
import { resolveRoute } from '../../../core/routes.js';
import { isProduction } from '../../../core/profile/schema.js';
import type { Context } from '../../context.js';
import type { Signal } from '../../io.js';
import { flagOf, positiveInt } from '../../options.js';
import type { SendOptions } from './send.js';

const SINGLE_ONLY = ['email', 'body'] as const;

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const perSecond = (r: number) => `${r >= 10 ? Math.round(r) : r.toFixed(1)}/s`;

/**
 * `1234/3000 rows · 812/s · 3 failed · ETA 2s`. With the run's pace (`rate`): the rate of the last second, the
 * limit when there is one (`48/s (limit 50/s)`), a pause after a 429 and how many 429s the run had.
 */
export function progressLine(c: BulkCounters, now = Date.now(), rate?: RateState): string {
  const done = c.sent + c.skipped + c.failed + c.uncertain;
  const worked = c.sent + c.failed;
  const secs = Math.max(0.001, (now - c.startedAt) / 1000);
  const average = worked / secs;
  const parts = [`${done}${c.total !== undefined ? `/${c.total}` : ''} rows`];
  if (rate) parts.push(`${perSecond(rate.current)}${rate.limit !== undefined ? ` (limit ${perSecond(rate.limit)})` : ''}`);
  else parts.push(perSecond(average));
  if (rate && rate.pausedMs > 0) parts.push(`paused ${(rate.pausedMs / 1000).toFixed(1)}s (HTTP 429)`);
  parts.push(`${c.failed} failed`);
  if (c.uncertain) parts.push(`${c.uncertain} uncertain`);
  if (c.throttled) parts.push(`${c.throttled} × 429`);
  if (c.total !== undefined && average > 0) parts.push(`ETA ${duration(((c.total - done) / average) * 1000)}`);
  return parts.join(' · ');
}

function summaryText(s: BulkSummary, ms: number): string {
  const lines = [
    `sent ${s.sent} · skipped ${s.skipped} (sent before) · failed ${s.failed} · uncertain ${s.uncertain}   (${s.total} rows, ${(ms / 1000).toFixed(1)} s${s.interrupted ? ', interrupted' : ''})`,
    `journal      ${s.journal}`,
  ];
  if (s.failedCsv) lines.push(`failed rows  ${s.failedCsv}`);
  return lines.join('\n');
}

export async function run(ctx: Context, opts: SendOptions): Promise<void> {
  const singleOnly = SINGLE_ONLY.filter((k) => opts[k] !== undefined);
  if (singleOnly.length)
    throw new UsageError(`--csv takes the addresses from the CSV and cannot be combined with ${singleOnly.map(flagOf).join(', ')}.`);
  const concurrency = opts.concurrency === undefined ? undefined : positiveInt(opts.concurrency, '--concurrency');
  if (concurrency !== undefined && concurrency > 256) throw new UsageError(`--concurrency must be at most 256, not ${concurrency}.`);
  const rateArg = opts.rate === undefined ? undefined : parseRate(opts.rate);
  if (opts.rate !== undefined && rateArg === undefined)
    throw new UsageError(`--rate must be a number of requests per second, such as 50 or 50/s, not "${opts.rate}".`);
  const io = ctx.io;
  const tty = io.stderrIsTTY;
  const profile = await ctx.profile();
  // One connection per request slot (ClientOptions.connections).
  const client = await ctx.client({ connections: concurrency ?? DEFAULT_CONCURRENCY });
  const warn = (line: string) => ctx.err(line);
  const production = isProduction(profile);
  // A read-only profile (or --read-only) refuses before anything is journaled; --dry-run still prints the request.
  if (!ctx.dryRun) {
    const refused = client.refusalOf('C5');
    if (refused) throw refused;
  }

  // Journals live in the config folder (cli.md), one per profile and CSV file, unless --journal says otherwise.
  let journal = opts.journal;
  if (journal === undefined) {
    journal = defaultJournalPath(await ctx.configDir(), profile.name, opts.csv!);
    mkdirSync(dirname(journal), { recursive: true, mode: 0o700 });
  }
  // Opened once the run is confirmed (it may ask for a token); the rows go through it.
  let sender: BulkSender | undefined;
  const job: BulkSend = await BulkSend.prepare(
    {
      csv: opts.csv!,
      journal,
      text: opts.text!,
      topic: opts.topic!,
      emailColumn: opts.emailColumn,
      concurrency,
      resendUncertain: !!opts.resendUncertain,
      // On production the question names the row count.
      countRows: tty || production,
      readOnly: ctx.dryRun,
      rate: rateArg ?? profile.bulk?.rate,
    },
    {
      profile,
      warn,
      send: (json, audited, intent) => sender!.send(json, audited, intent),
      intents: () => sender!.intents(),
      flushAudit: () => sender?.flushAudit(),
    },
  );

  if (ctx.dryRun) {
    const first = await job.firstBody();
    if (!first) {
      ctx.emitOne({ ok: true, message: 'nothing to send: every row is acknowledged in the journal or invalid', journal: job.journalPath });
      return;
    }
    ctx.err(`dry run: the request for row ${first.row} (one request per row to send; nothing is sent, no journal written)`);
    await client.call('C5', { body: first.body }); // prints the request (onDryRun) and stops the command (DryRunStop)
    return;
  }

  // Production: the operator confirms the whole run (its rows and the portal) before the first row, once.
  try {
    const rows = job.counters.total;
    await ctx.confirmWrite(profile, {
      what: `${rows === undefined ? 'a notification' : `up to ${rows} notification${rows === 1 ? '' : 's'}`} (C5, one per row of ${basename(job.csvPath)})`,
      target: splitUrl(profile, resolveRoute(profile, 'C5').url).base,
    });
    sender = await BulkSender.open(client, 'C5');
  } catch (e) {
    job.abandon();
    throw e;
  }

  // Ctrl-C: stop starting rows, let the ones in flight finish and record; a second Ctrl-C quits at once.
  let interrupted = false;
  const onSignal = (sig: Signal) => {
    if (!interrupted) {
      interrupted = true;
      job.stop();
      if (tty) io.stderr.write('\r\x1b[2K');
      ctx.err(
        `pdesk: ${sig === 'SIGINT' ? 'interrupted' : 'terminated'}; finishing ${job.counters.inFlight} request(s) in flight (press Ctrl-C again to quit at once).`,
      );
    } else {
      ctx.err('pdesk: quitting; rows in flight have no recorded outcome and are reported as uncertain by the next run.');
      io.exitNow(130);
    }
  };
  // Left installed until the process exits, so that no signal ends it before the summary.
  io.onSignal('SIGINT', onSignal);
  io.onSignal('SIGTERM', onSignal);

  let timer: NodeJS.Timeout | undefined;
  if (tty) {
    timer = setInterval(() => {
      if (!job.stopped) io.stderr.write(`\r\x1b[2K${progressLine(job.counters, Date.now(), job.rate())}`);
    }, 200);
  }
  const started = Date.now();
  let summary: BulkSummary;
  try {
    summary = await job.run();
  } finally {
    if (timer) {
      clearInterval(timer);
      io.stderr.write('\r\x1b[2K');
    }
  }
  const ms = Date.now() - started;

  if (ctx.format === 'table') ctx.out(summaryText(summary, ms));
  else {
    const { sent, skipped, failed, uncertain, journal, failedCsv, interrupted } = summary;
    ctx.emitOne({
      sent,
      skipped,
      failed,
      uncertain,
      journal,
      ...(failedCsv ? { failedCsv } : {}),
      ...(interrupted ? { interrupted } : {}),
    });
  }

  if (summary.error) throw summary.error;
  if (summary.exitCode === 130) {
    ctx.err('pdesk: interrupted; run the same command again to send the remaining rows.');
    ctx.exitCode = 130;
    return;
  }
  if (summary.exitCode !== 0) {
    const parts = [];
    const of = `of ${summary.total} row${summary.total === 1 ? '' : 's'}`;
    if (summary.failed) parts.push(`${summary.failed} ${of} failed`);
    if (summary.uncertain)
      parts.push(`${summary.uncertain} ${parts.length ? '' : `${of} `}${summary.uncertain === 1 ? 'has' : 'have'} an unknown outcome`);
    const details = [`failed rows and reasons: ${summary.failedCsv ?? '(not written)'}`];
    if (summary.failed) details.push('Run the same command again to retry the failed rows; acknowledged rows are not sent again.');
    if (summary.uncertain)
      details.push(
        'Rows with an unknown outcome may have reached the portal: check, then rerun with --resend-uncertain to send them anyway.',
      );
    throw new PdeskError(`${parts.join(', and ')}.`, summary.exitCode as 4 | 5, details);
  }
}
