/**
 * Runs the suite against one profile: each selected check in turn (write checks `omit` unless `write`; a check
 * missing an input `skip`, naming it), with live progress (`onStart`, `onResult`) and an AbortSignal, then the
 * clean-up (a booking the run made and did not cancel is cancelled), and returns the report.
 *
 * Read-only is structural: without `write` the run's client refuses any method but GET before it is sent, so
 * even a faulty check cannot change a server. Every exchange is attached to the check it belongs to, redacted
 * by the client (`observe`).
 */
import { type ClientOptions, type Exchange, PdeskClient } from '../client.js';
import { ContractError, HttpError, NetworkError, PdeskError, statusLine } from '../errors.js';
import type { Transport } from '../transport.js';
import { ReadBudget } from '../bounds.js';
import type { Profile } from '../profile/schema.js';
import { buildCancellation, typedReference } from '../api/appointments.js';
import { dialectOf, searchReference } from '../api/dialect.js';
import { Appointment } from '../schemas/appointment.js';
import { sameInstant } from './answers.js';
import { cancelVerdict, readBack } from './appointments.js';
import { resourceEntries, search } from './search.js';
import { rawId } from './text.js';
import { type Booking, CheckContext, type CheckDef, MAX_MESSAGES, Run, SkipCheck } from './context.js';
import type { CheckInfo, CheckInputs, CheckMessage, CheckOutcome, CheckReport, CheckResult, InputName } from './model.js';
import { summarize } from './model.js';
import { selectChecks } from './suite.js';
import { CHECK_TEXT } from './text.js';

/** A request slower than this is a warning (docs/cli.md, "pdesk check"). */
export const DEFAULT_SLOW_MS = 2000;

export interface SuiteOptions {
  profile: Profile;
  /** Inputs given for this run; each one missing is taken from the profile's `check` block. */
  inputs?: CheckInputs;
  /** Run the write checks too (they omit otherwise). */
  write?: boolean;
  /** Operation ids or check ids (`selectChecks`); none: the whole suite. */
  only?: readonly string[];
  slowMs?: number;
  signal?: AbortSignal;
  /** How the face names an input or option in skip reasons (`--patient`); default the field name. */
  label?: (field: InputName | 'write' | 'only') => string;
  onStart?: (check: CheckInfo) => void;
  onResult?: (result: CheckResult) => void;
  /** Share a transport (its pools are not closed by the run); default a new one, closed at the end. */
  transport?: Transport;
  /** Record the run's writes in the audit trail of this config folder (ClientOptions.audit). */
  audit?: ClientOptions['audit'];
  /** Also called with every exchange (a `--trace` file). */
  observe?: ClientOptions['observe'];
  /** The face's confirmation of a write on a production profile (ClientOptions.beforeWrite): without it none is sent. */
  beforeWrite?: ClientOptions['beforeWrite'];
  /** --verbose lines. */
  log?: (line: string) => void;
  /** "Now" for the dates searched (tests). */
  now?: Date;
  /** Where the variables the profile names are read (the process's by default). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The run's inputs: those given, then the profile's `check` block. */
export function checkInputs(profile: Profile, given: CheckInputs = {}): CheckInputs {
  const p = profile.check ?? {};
  const out: CheckInputs = {};
  for (const k of ['serviceCategory', 'patient', 'encounter', 'email'] as const) {
    const v = given[k] ?? p[k];
    if (v) out[k] = v;
  }
  return out;
}

export async function runSuite(o: SuiteOptions): Promise<CheckReport> {
  const checks = selectChecks(o.only);
  const startedAt = new Date();
  const write = !!o.write;
  const label = o.label ?? ((f: string) => f);
  const holder: { run?: Run } = {};
  const client = new PdeskClient(o.profile, {
    transport: o.transport,
    log: o.log,
    readOnly: !write,
    readOnlyWhy: write ? undefined : 'a check without writes',
    env: o.env,
    audit: o.audit,
    // The run's searches read at most the profile's read bounds in all (decisions.md §3, "Bounds").
    readBudget: ReadBudget.of(o.profile),
    beforeWrite: o.beforeWrite,
    observe: (e) => {
      holder.run?.observe(e);
      o.observe?.(e);
    },
  });
  const run = new Run({
    profile: o.profile,
    client,
    inputs: checkInputs(o.profile, o.inputs),
    write,
    signal: o.signal,
    slowMs: o.slowMs ?? DEFAULT_SLOW_MS,
    label,
    now: o.now ?? startedAt,
    selected: new Set(checks.map((c) => c.id)),
  });
  holder.run = run;
  const results: CheckResult[] = [];
  try {
    for (const def of checks) {
      const { run: _code, ...info } = def;
      o.onStart?.(info);
      const r = await runOne(run, def, info);
      results.push(r);
      o.onResult?.(r);
    }
  } finally {
    if (write) await cleanUp(run);
    if (!o.transport) await client.close();
  }
  return {
    profile: o.profile.name,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    write,
    dialect: dialectOf(o.profile),
    results,
    summary: summarize(results),
    created: run.created,
  };
}

async function runOne(run: Run, def: CheckDef, info: CheckInfo): Promise<CheckResult> {
  const s = run.settings;
  const done = (result: CheckOutcome, messages: CheckMessage[], durationMs = 0, exchanges: Exchange[] = []): CheckResult => ({
    ...info,
    result,
    messages,
    durationMs,
    exchanges,
  });
  if (s.signal?.aborted) return done('skip', [{ type: 'info', text: 'the run was stopped before this check' }]);
  if (def.write && !s.write) return done('omit', [{ type: 'info', text: `a write check: sent only with ${s.label('write')}` }]);
  const missing = def.needs.filter((n) => !s.inputs[n]);
  if (missing.length)
    return done('skip', [
      {
        type: 'info',
        text: `needs ${missing.map((n) => s.label(n)).join(' and ')} (or ${missing.map((n) => `check.${n}`).join(' and ')} in the profile)`,
      },
    ]);

  run.sink = [];
  const c = new CheckContext(run, info);
  const t0 = performance.now();
  let result: CheckOutcome;
  try {
    await def.run(c);
    result = c.messages.some((m) => m.type === 'error') ? 'fail' : 'pass';
  } catch (e) {
    const verdict = classify(e);
    result = verdict.result;
    c.messages.unshift(verdict.message);
  }
  const durationMs = Math.round(performance.now() - t0);
  const exchanges = run.sink;
  run.sink = [];
  for (const x of exchanges)
    if (x.ms > s.slowMs)
      c.add({ type: 'warning', text: `${x.op ?? ''} ${x.method} ${x.url} took ${x.ms} ms (more than ${s.slowMs} ms)`.trim() });
  if (c.dropped) c.messages.push({ type: 'info', text: `${c.dropped} more messages not listed (at most ${MAX_MESSAGES} per check).` });
  return done(result, c.messages, durationMs, exchanges);
}

/**
 * What a thrown error means for a check: a 4xx to a request the interface allows, or an answer that is not JSON,
 * is a failed expectation (`fail`); a 5xx, a network error, a time-out, a configuration problem or a fault of
 * pdesk leaves no verdict (`error`).
 */
export function classify(e: unknown): { result: CheckOutcome; message: CheckMessage } {
  if (e instanceof SkipCheck) return { result: 'skip', message: { type: 'info', text: e.reason } };
  if (e instanceof HttpError) {
    const detail = e.details.filter((d) => !d.startsWith('request: '));
    const text = [e.message, ...detail].join('; ');
    return { result: e.status >= 500 ? 'error' : 'fail', message: { type: 'error', text } };
  }
  if (e instanceof ContractError) return { result: 'fail', message: { type: 'error', text: e.message, path: e.path } };
  if (e instanceof NetworkError)
    return { result: 'error', message: { type: 'error', text: [e.message, ...e.details.slice(1, 2)].join(' ') } };
  if (e instanceof PdeskError) return { result: 'error', message: { type: 'error', text: [e.message, ...e.details].join(' ') } };
  return { result: 'error', message: { type: 'error', text: `pdesk fault: ${(e as Error)?.message ?? String(e)}` } };
}

/**
 * Undo what the run booked and did not cancel, by the server's ids (decisions.md §16): the booking of A6-book when a
 * later step failed or was not selected, a double booking the server accepted, a booking whose answer never came
 * (looked up by its test comment and start when the id sent is unknown to the server, which may have chosen its own).
 * Each cancellation is read back with A5; what was not cancelled is marked `undo: failed` and fails the run. What the
 * interface cannot undo (messages, notifications, orders) is marked `undo: none`.
 */
async function cleanUp(run: Run): Promise<void> {
  const all: Booking[] = [run.data.booking, ...run.data.extraBookings].filter((b): b is Booking => !!b);
  const patient = run.settings.inputs.patient;
  for (const b of all) {
    if (b.state !== 'created' && b.state !== 'unknown') continue;
    let entry = b.created ?? run.created.find((r) => r.resource === `Appointment/${b.id}`);
    if (!patient) {
      if (entry) Object.assign(entry, { note: 'NOT cancelled: no patient to cancel as', undo: 'failed' });
      continue;
    }
    run.sink = [];
    try {
      let id = b.id;
      if (!entry) {
        // No answer came: the server may hold it under an id of its own. Found by what the check sent, if at all.
        const found = await findUnanswered(run, b);
        if (!found) continue;
        id = found;
        entry = run.recordCreated({ resource: `Appointment/${id}`, op: 'A6', check: b.check, note: 'its booking got no answer' });
      }
      const body = buildCancellation(id, typedReference('Patient', patient, 'patient'), CHECK_TEXT.cancel);
      const res = await run.settings.client.call('A7', { body });
      const answered = statusLine(res.status);
      const verdict = cancelVerdict(id, answered, await readBack(run, id), `cancelled after the run (${answered})`);
      Object.assign(entry, { ...verdict.created, note: `${entry.note ? `${entry.note}; ` : ''}${verdict.created.note}` });
      b.state = verdict.cancelled ? 'cancelled' : 'not-cancelled';
    } catch (e) {
      const why = e instanceof PdeskError ? e.message : String(e);
      if (entry) Object.assign(entry, { note: `${entry.note ? `${entry.note}; ` : ''}NOT cancelled: ${why}`, undo: 'failed' });
      else
        run.recordCreated({
          resource: `Appointment/${b.id}`,
          op: 'A6',
          check: b.check,
          note: `its booking got no answer and may exist; NOT cancelled: ${why}`,
          undo: 'failed',
        });
    }
  }
  for (const c of run.created) c.undo ??= c.op === 'A6' ? 'failed' : 'none';
  run.sink = [];
}

/**
 * The id of a booking whose A6 got no answer, if the server holds it: by the id sent, else the test patient's booking
 * with the check's comment at the same start that is not cancelled. Undefined when there is none (it was never made).
 */
async function findUnanswered(run: Run, b: Booking): Promise<string | undefined> {
  const patient = run.settings.inputs.patient;
  // A double booking has the same start as A6-book's booking, and is not that one.
  const main = run.data.booking;
  const query: Array<[string, string]> = patient
    ? [['patient', searchReference(dialectOf(run.settings.profile), 'Patient', patient.replace(/^Patient\//, ''))]]
    : [];
  const s = await search(run.settings.client, 'A5', { query }, resourceEntries(Appointment), { searchset: true });
  const hit =
    s.items.find((i) => rawId(i.raw) === b.id) ??
    s.items.find((i) => {
      const a = i.raw as { comment?: unknown; start?: unknown; status?: unknown };
      return (
        a?.comment === CHECK_TEXT.booking &&
        a.status !== 'cancelled' &&
        (b === main || rawId(i.raw) !== main?.id) &&
        (!main || (typeof a.start === 'string' && sameInstant(a.start, main.start)))
      );
    });
  return hit ? rawId(hit.raw) : undefined;
}
