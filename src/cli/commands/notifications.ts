/**
 * `pdesk notifications send` — C5 send a notification (practice system → portal): one (`--email`, or a
 * complete resource with `--body`), or one per CSV row (`--csv`), resumable through a journal without sending
 * anything twice (src/core/bulk/notifications.ts).
 */
import { Command } from 'commander';
import type { BulkCounters, BulkSend, BulkSummary } from '../../core/bulk/notifications.js';
import type { RateState } from '../../core/bulk/rate.js';
import { readBody } from '../body.js';
import { action, type Context } from '../context.js';
import type { Signal } from '../io.js';
import { examples } from '../help.js';

interface SendOptions {
  email?: string;
  topic?: string;
  text?: string;
  body?: string;
  csv?: string;
  emailColumn?: string;
  concurrency?: string;
  journal?: string;
  resendUncertain?: boolean;
  rate?: string;
}

const SINGLE_ONLY = ['email', 'body'] as const;
const BULK_ONLY = ['emailColumn', 'concurrency', 'journal', 'resendUncertain', 'rate'] as const;
const flag = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

async function single(ctx: Context, opts: SendOptions): Promise<void> {
  const { UsageError, BodyError } = await import('../../core/errors.js');
  const { buildNotification, sendNotification } = await import('../../core/api/notifications.js');
  const bulkOnly = BULK_ONLY.filter((k) => opts[k] !== undefined);
  if (bulkOnly.length)
    throw new UsageError(`${bulkOnly.map(flag).join(', ')} ${bulkOnly.length > 1 ? 'go' : 'goes'} with --csv (a bulk send).`);
  let body = readBody(ctx, 'notification');
  if (body === undefined) {
    const missing = (['email', 'topic', 'text'] as const).filter((k) => opts[k] === undefined);
    if (missing.length)
      throw new UsageError(
        `${missing.map(flag).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required (or --csv for a bulk send, or --body for a complete notification).`,
      );
    try {
      body = buildNotification(await ctx.profile(), { email: opts.email!.trim(), topic: opts.topic!, text: opts.text! });
    } catch (e) {
      if (e instanceof BodyError && /telecom/.test(e.path)) throw new UsageError(`--email must be an email address, not "${opts.email}".`);
      throw e;
    }
  }
  const res = await sendNotification(await ctx.client(), body);
  // Without a body, what is known of the Communication made: its id and Location (decisions.md §16).
  const { createdJson } = await import('../created.js');
  ctx.emitWrite(res.status, createdJson(res.status, res.body, res.created));
}

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

async function bulk(ctx: Context, opts: SendOptions): Promise<void> {
  const { UsageError, PdeskError } = await import('../../core/errors.js');
  const { BulkSend: Bulk, DEFAULT_CONCURRENCY, defaultJournalPath } = await import('../../core/bulk/notifications.js');
  const { positiveInt } = await import('../options.js');
  const singleOnly = SINGLE_ONLY.filter((k) => opts[k] !== undefined);
  if (singleOnly.length)
    throw new UsageError(`--csv takes the addresses from the CSV and cannot be combined with ${singleOnly.map(flag).join(', ')}.`);
  const missing = (['topic', 'text'] as const).filter((k) => opts[k] === undefined);
  if (missing.length) throw new UsageError(`${missing.map(flag).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required with --csv.`);
  const concurrency = opts.concurrency === undefined ? undefined : positiveInt(opts.concurrency, '--concurrency');
  if (concurrency !== undefined && concurrency > 256) throw new UsageError(`--concurrency must be at most 256, not ${concurrency}.`);
  const { parseRate } = await import('../../core/bulk/rate.js');
  const rateArg = opts.rate === undefined ? undefined : parseRate(opts.rate);
  if (opts.rate !== undefined && rateArg === undefined)
    throw new UsageError(`--rate must be a number of requests per second, such as 50 or 50/s, not "${opts.rate}".`);
  // undici's WebAssembly HTTP parser stays on V8's baseline (Liftoff) code: its optimising compile, which V8 starts
  // a second into a run, holds ~35 MB at its peak (the largest part of a bulk send's peak RSS), and the
  // baseline code parses these small answers as fast (measured: bench/notifications.mjs, docs/performance.md).
  // Set before the first request compiles the parser; it changes nothing else.
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
  // Old space grows by at most a fifth between full collections (V8 reads this at every one): a bulk send promotes
  // short-lived rows in the thousands, and the default growth let the heap reach ~60 MB before collecting them
  // (100,000 rows peaked at ~126 MB, ~110 MB with this; about 1% more instructions; docs/performance.md).
  setFlagsFromString('--heap-growing-percent=20');
  const io = ctx.io;
  const tty = io.stderrIsTTY;
  const profile = await ctx.profile();
  // One connection per request slot (ClientOptions.connections).
  const client = await ctx.client({ connections: concurrency ?? DEFAULT_CONCURRENCY });
  const warn = (line: string) => ctx.err(line);
  const { isProduction } = await import('../../profiles/schema.js');
  const production = isProduction(profile);
  // A read-only profile (or --read-only) refuses before anything is journaled; --dry-run still prints the request.
  if (!ctx.dryRun) {
    const refused = client.refusalOf('C5');
    if (refused) throw refused;
  }

  // Journals live in the config folder (cli.md), one per profile and CSV file, unless --journal says otherwise.
  let journal = opts.journal;
  if (journal === undefined) {
    const { mkdirSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    journal = defaultJournalPath(await ctx.configDir(), profile.name, opts.csv!);
    mkdirSync(dirname(journal), { recursive: true, mode: 0o700 });
  }
  const job: BulkSend = await Bulk.prepare(
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
      send: (json, audited, intent) => client.call('C5', { json, audited, statusOnly: true, intent }),
      intents: () => client.aheadIntents('C5'),
      flushAudit: () => client.flushAudit(),
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
    const { resolveRoute } = await import('../../core/routes.js');
    const { basename } = await import('node:path');
    const rows = job.counters.total;
    await ctx.confirmWrite(profile, {
      what: `${rows === undefined ? 'a notification' : `up to ${rows} notification${rows === 1 ? '' : 's'}`} (C5, one per row of ${basename(job.csvPath)})`,
      target: client.splitUrl(resolveRoute(profile, 'C5').url).base,
    });
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
  // The young generation stops growing at 2 × 8 MB during the run (young-cap.ts): ~110 → ~95 MB at the peak of
  // 100,000 rows.
  const uncap = (await import('../young-cap.js')).capYoungGeneration();
  try {
    summary = await job.run();
  } finally {
    uncap();
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

export function notificationsCommand(): Command {
  const cmd = new Command('notifications')
    .description('notifications to patients (C5)')
    .addHelpText(
      'after',
      examples("pdesk notifications send --email jane@example.org --topic 'Lab results' \\", "  --text 'Your results are in.'"),
    );
  cmd
    .command('send')
    .description('send a notification: one with --email, or one per row of a CSV with --csv, resumable (C5)')
    .option('--email <addr>', "the patient's email address (one notification)")
    .option('--topic <t>', 'topic text; with --csv a template with {column} placeholders')
    .option('--text <t>', 'message text; with --csv a template with {column} placeholders')
    .option('--body <file|->', 'a complete notification Communication to send as is (after validation)')
    .option('--csv <file>', 'bulk: one notification per row; the header names the columns (, or ; separated)')
    .option('--email-column <name>', 'bulk: the column holding the address (default: email)')
    .option('--concurrency <n>', 'bulk: requests in flight at once, each on a connection of its own (default: 8)')
    .option(
      '--journal <file>',
      "bulk: where each row's outcome is recorded (default: journals/<profile>/<csv name>-<id>.journal.ndjson in the config folder)",
    )
    .option('--resend-uncertain', 'bulk: also send rows whose earlier outcome is unknown (may send them twice)')
    .option('--rate <n>', "bulk: at most n requests per second, e.g. 50 or 50/s (default: the profile's bulk.rate, else no limit)")
    .addHelpText(
      'after',
      [
        examples(
          'pdesk notifications send --email jane@example.org --topic "Lab results" \\',
          '  --text "Your results are in."',
          'pdesk notifications send --csv patients.csv --topic "Reminder" \\',
          '  --text "Dear {name}, see you on {date}." --rate 50',
        ),
        '',
        'A bulk send is resumable: run the same command again after failures, Ctrl-C',
        'or a crash. Rows the portal acknowledged are skipped, failed rows are sent',
        'again, and rows whose outcome is unknown are listed in the failed-rows CSV',
        'beside the journal and sent only with --resend-uncertain. Exit 4 or 5 when',
        'rows failed (5 for server or network failures and unknown outcomes), 130',
        'after Ctrl-C.',
        '',
        'A 429 (Too Many Requests) pauses the whole run for its Retry-After and halves',
        'the rate, and the row is sent again: it fails no row. After a quiet second the',
        'rate comes back by a tenth every 250 ms. --rate caps the rate from the start;',
        'the progress line shows the rate of the last second.',
      ].join('\n'),
    )
    .action(
      action(async (ctx, opts: SendOptions) => {
        if (opts.csv !== undefined) await bulk(ctx, opts);
        else await single(ctx, opts);
      }),
    );
  return cmd;
}
