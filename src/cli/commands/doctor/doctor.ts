/**
 * `pdesk doctor` — first-line triage of the selected profile, `--profiles a,b` or `--all-profiles`
 * (src/core/doctor): the profile, its secrets, DNS, TCP, TLS, token, a GET round trip and the clock per party,
 * the thread store and the bulk-send journals. Only GET requests are sent. A table on a terminal, JSON with
 * `--json` or when piped. Exit 0, or 7 when a step failed or errored.
 */
import { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { collectList } from '../../options.js';
import { examples } from '../../help.js';

interface DoctorCliOptions {
  profiles?: string[];
  allProfiles?: boolean;
}

export function doctorCommand(): Command {
  return new Command('doctor')
    .description('triage a profile: secrets, DNS, TCP, TLS, token, clock, a round trip, the thread store and journals')
    .addHelpText('after', examples('pdesk doctor', 'pdesk doctor --all-profiles --json'))
    .option('--profiles <names>', 'these profiles, concurrently (repeatable or a comma list)', collectList)
    .option('--all-profiles', 'every stored profile, concurrently')
    .addHelpText(
      'after',
      [
        '',
        'Warnings: a certificate expiring within 30 days, a clock more than 60 s off, a key file others can read,',
        'bulk-send rows whose outcome is uncertain. Exit 0, or 7 when a step failed or errored.',
      ].join('\n'),
    )
    .action(action(async (ctx, opts: DoctorCliOptions) => runDoctorCommand(ctx, opts)));
}

async function runDoctorCommand(ctx: Context, opts: DoctorCliOptions): Promise<void> {
  const { ExitCode, PdeskError } = await import('../../../core/errors.js');
  const { profileEntries } = await import('../../profile-selection.js');
  const { several, entries } = await profileEntries(ctx, opts);
  const { runDoctor } = await import('../../../core/doctor/index.js');
  const { liveRows, profilesTable, summaryLine } = await import('../../results-table.js');
  const table = ctx.format === 'table';
  const live = table && !several;
  const style = { color: ctx.color, width: ctx.width, idWidth: 18, passText: 'findings' as const, noun: 'steps' };
  if (live) ctx.out(`pdesk doctor · profile ${entries[0]!.name}`);
  const onResult = liveRows(ctx.out, style);
  const dir = await ctx.configDir();
  const observe = await ctx.observer();
  const reports = await Promise.all(
    entries.map((e) =>
      runDoctor({ name: e.name, raw: e.raw, configDir: dir, env: ctx.io.env, observe, onResult: live ? onResult : undefined }),
    ),
  );
  if (live) ctx.out(summaryLine(reports[0]!.summary, reports[0]!.durationMs, style));
  else if (table) ctx.out(profilesTable(reports, style));
  else ctx.emitOne(several ? reports : reports[0]);
  const bad = reports.filter((r) => r.summary.fail + r.summary.error > 0);
  if (bad.length)
    throw new PdeskError(
      `Doctor found problems: ${bad.map((r) => `${r.summary.fail + r.summary.error} step${r.summary.fail + r.summary.error > 1 ? 's' : ''} failed${several ? ` in ${r.profile}` : ''}`).join('; ')}.`,
      ExitCode.checks,
    );
}
