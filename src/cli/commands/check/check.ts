/** `pdesk check`: the conformance suite (src/core/check) on the selected profile, or several at once. */
import { type FileHandle, open } from 'node:fs/promises';
import { typedReference } from '../../../core/api/appointments.js';
import { junitXml, reportJson, runSuite, selectChecks } from '../../../core/check/index.js';
import type { CheckInputs, CheckReport } from '../../../core/check/model.js';
import { ConfigError, ExitCode, PdeskError, UsageError } from '../../../core/errors.js';
import { redact } from '../../../core/redact.js';
import { baseUrlFor } from '../../../core/routes.js';
import { EmailAddress } from '../../../core/schemas/notification.js';
import { type Profile, validateProfile } from '../../../core/profile/schema.js';
import type { Context } from '../../context.js';
import { flagOf, positiveInt, systemCode } from '../../options.js';
import { profileEntries } from '../../profile-selection.js';
import { liveRows, profilesTable, summaryLine } from '../../results-table.js';

export interface CheckOptions {
  serviceCategory?: string;
  write?: boolean;
  patient?: string;
  encounter?: string;
  email?: string;
  only?: string[];
  junit?: string;
  profiles?: string[];
  allProfiles?: boolean;
  slow?: string;
}

export async function run(ctx: Context, opts: CheckOptions): Promise<void> {
  if (ctx.dryRun) throw new UsageError('--dry-run does not apply to pdesk check: it sends GET requests only, unless --write.');
  const inputs = checkedInputs(opts);
  const slowMs = opts.slow === undefined ? undefined : positiveInt(opts.slow, '--slow');
  const selected = selectChecks(opts.only);
  const { several, entries } = await profileEntries(ctx, opts);
  const profiles: Profile[] = entries.map((e) => validateProfile(e.raw, `profile "${e.name}"`));
  // Writes: a read-only profile (or --read-only) refuses the run before anything is sent; a production profile
  // asks first (src/cli/confirm.ts), once per profile.
  if (opts.write) {
    for (const p of profiles)
      if (p.readOnly || ctx.globals.readOnly)
        throw new ConfigError(
          `Profile "${p.name}" is read-only${p.readOnly ? '' : ' (--read-only)'}: check --write was not run, its writes (A6, A7, C1–C5, M3) would be refused; nothing was sent.`,
        );
    for (const p of profiles)
      await ctx.confirmWrite(p, {
        what: 'the write checks of pdesk check (A6, A7, C1–C5, M3: test data)',
        target: baseUrlFor(p, 'practice'),
      });
  }
  // A report file that cannot be written is found before anything is sent.
  const junitFile = opts.junit === undefined ? undefined : await openReportFile(opts.junit);

  const table = ctx.format === 'table';
  const style = { color: ctx.color, width: ctx.width, idWidth: Math.max(...selected.map((c) => c.id.length)) };
  const live = table && !several;
  if (live) ctx.out(header(profiles[0]!, !!opts.write));
  const onResult = liveRows(ctx.out, style);

  const dir = await ctx.configDir();
  const observe = await ctx.observer();
  const controller = new AbortController();
  const stop = () => controller.abort();
  ctx.io.onSignal('SIGINT', stop);
  // A later Ctrl-C finds the run over: aborting a settled controller does nothing.
  const reports: CheckReport[] = await Promise.all(
    profiles.map((profile) =>
      runSuite({
        profile,
        inputs,
        write: !!opts.write,
        only: opts.only,
        slowMs,
        signal: controller.signal,
        label: flagOf,
        onResult: live ? onResult : undefined,
        log: ctx.globals.verbose ? ctx.log : undefined,
        env: ctx.io.env,
        audit: { dir },
        observe,
        // Confirmed above: the client finds the profile settled and asks nothing more.
        beforeWrite: (w) => ctx.confirmWrite(profile, w),
      }),
    ),
  );

  if (junitFile) await junitFile.write(junitXml(reports));
  if (table) {
    if (live) {
      const r = reports[0]!;
      ctx.out(summaryLine(r.summary, r.durationMs, style));
    } else ctx.out(profilesTable(reports, style));
    const created = reports.flatMap((r) => r.created.map((c) => ({ ...c, profile: r.profile })));
    if (created.length) {
      ctx.out('Created on the servers:');
      for (const c of created) ctx.out(`  ${several ? `${c.profile}: ` : ''}${c.resource} (${c.check})${c.note ? `: ${c.note}` : ''}`);
      const left = created.filter((c) => c.undo === 'failed');
      if (left.length)
        ctx.out(`NOT undone (${left.length}): ${left.map((c) => `${several ? `${c.profile}: ` : ''}${c.resource}`).join(', ')}`);
    }
    if (junitFile) ctx.out(`JUnit report written to ${opts.junit}.`);
  } else {
    const json = reports.map(reportJson);
    ctx.emitOne(several ? json : json[0]);
  }

  if (controller.signal.aborted) {
    ctx.exitCode = 130;
    return;
  }
  // A run that left on a server what it meant to undo (a test booking still booked) does not pass either.
  const left = (r: CheckReport) => r.created.filter((c) => c.undo === 'failed').length;
  const bad = reports.filter((r) => r.summary.fail + r.summary.error > 0 || left(r) > 0);
  if (bad.length) {
    const what = bad.map(
      (r) =>
        `${r.summary.fail} failed and ${r.summary.error} errored${left(r) ? `, ${left(r)} not undone` : ''}${several ? ` in ${r.profile}` : ''}`,
    );
    throw new PdeskError(`Checks did not pass: ${what.join('; ')}.`, ExitCode.checks);
  }
}

function header(profile: Profile, write: boolean): string {
  return `pdesk check · profile ${profile.name}${profile.environment ? ` (${profile.environment})` : ''} · appointment API ${profile.appointmentApi}${profile.approvalFlow ? ', approval flow' : ''} · dialect ${profile.dialect ?? 'interface'} · ${write ? 'read and write' : 'read-only'}`;
}

/** The inputs given as options, checked before anything is sent (a bad one exits 2 naming its option). */
function checkedInputs(opts: CheckOptions): CheckInputs {
  const inputs: CheckInputs = {};
  if (opts.serviceCategory !== undefined) inputs.serviceCategory = systemCode(opts.serviceCategory, '--service-category');
  if (opts.patient !== undefined) {
    inputs.patient = typedReference('Patient', opts.patient, 'patient').slice('Patient/'.length);
  }
  if (opts.encounter !== undefined) {
    if (!opts.encounter.trim()) throw new UsageError('--encounter must not be empty.');
    inputs.encounter = opts.encounter;
  }
  if (opts.email !== undefined) {
    if (!EmailAddress.safeParse(opts.email).success) throw new UsageError(`--email must be an email address, not "${opts.email}".`);
    inputs.email = opts.email;
  }
  for (const [flag, given] of [
    ['--patient', opts.patient],
    ['--encounter', opts.encounter],
    ['--email', opts.email],
  ] as const)
    if (given !== undefined && !opts.write) throw new UsageError(`${flag} is an input of the write checks: add --write to send them.`);
  return inputs;
}

/** Open (create or truncate) a report file now; write it, redacted, at the end. */
async function openReportFile(path: string): Promise<{ write(text: string): Promise<void> }> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'w');
  } catch (e) {
    throw new UsageError(`--junit: cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  return {
    async write(text) {
      try {
        await fh.writeFile(redact(text));
      } finally {
        await fh.close();
      }
    },
  };
}
