/** `pdesk doctor`: first-line triage (src/core/doctor) of the selected profile, or several at once. */
import { runDoctor } from '../../../core/doctor/index.js';
import { ExitCode, PdeskError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { profileEntries } from '../../profile-selection.js';
import { liveRows, profilesTable, summaryLine } from '../../results-table.js';

export interface DoctorOptions {
  profiles?: string[];
  allProfiles?: boolean;
}

export async function run(ctx: Context, opts: DoctorOptions): Promise<void> {
  const { several, entries } = await profileEntries(ctx, opts);
  const table = ctx.format === 'table';
  const live = table && !several;
  const style = { color: ctx.color, width: ctx.width, idWidth: 18, passText: 'findings' as const, noun: 'steps' };
  if (live) ctx.out(`pdesk doctor · profile ${entries[0]!.name}`);
  const onResult = liveRows(ctx.out, style);
  const dir = await ctx.configDir();
  const observe = await ctx.observer();
  // The team store when one is configured (doctor reads the local files otherwise); a settings problem is the
  // desk's, reported by the command.
  const selection = await ctx.storeSelection();
  const store = selection.engine === 'postgres' ? await ctx.deskStore() : undefined;
  const reports = await Promise.all(
    entries.map((e) =>
      runDoctor({ name: e.name, raw: e.raw, configDir: dir, env: ctx.io.env, observe, store, onResult: live ? onResult : undefined }),
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
