/**
 * The result model of `pdesk check` (and `pdesk doctor`): the vocabulary of Inferno and JUnit. Each check ends
 * `pass`, `fail` (an expectation of the interface was not met), `skip` (an input it needs was not given, or
 * what it needs could not be found), `omit` (not asked for: a write check in a read-only run) or `error` (no
 * verdict: a network error, a time-out, a 5xx, or a fault of pdesk). Messages are typed `error` (makes the
 * check fail), `warning` or `info`, each naming the JSON path it is about when there is one.
 */
import type { Exchange } from '../client.js';
import type { OpId } from '../ops.js';

export const OUTCOMES = ['pass', 'fail', 'error', 'skip', 'omit'] as const;
export type CheckOutcome = (typeof OUTCOMES)[number];

export type MessageType = 'error' | 'warning' | 'info';
export interface CheckMessage {
  type: MessageType;
  text: string;
  /** The JSON path of the answer (or body) the message is about: `$.entry[3].resource.start`. */
  path?: string;
}

/** The areas of the suite, in report order (one JUnit testsuite each). */
export const AREAS = ['appointments', 'chat', 'notifications', 'medication'] as const;
export type Area = (typeof AREAS)[number];

/** The inputs a check may need: options of `pdesk check`, or the profile's `check` block. */
export interface CheckInputs {
  serviceCategory?: string;
  patient?: string;
  encounter?: string;
  email?: string;
}
export type InputName = keyof CheckInputs;

/** What a check is, without running it (for listings, `--only`, a screen's list before the run). */
export interface CheckInfo {
  /** `A4-free-only`: the operation id, then what is checked. */
  id: string;
  op: OpId;
  area: Area;
  title: string;
  /** Inputs it cannot run without. */
  needs: readonly InputName[];
  /** It sends requests that change the server (POST, PUT, PATCH): only with `write`. */
  write: boolean;
}

/** A resource a write check created on the server, and what became of it. */
export interface CreatedResource {
  /** `Appointment/6f1c…`, or a description when the server named no id (`Communication (notification to …)`). */
  resource: string;
  op: OpId;
  /** The check that created it. */
  check: string;
  /** What was done about it: `cancelled by A7-cancel`, `cancelled after the run`, or why it is left. */
  note?: string;
  /**
   * Undoing it: `done` (undone, and read back so), `failed` (the run meant to undo it and could not, or could not
   * confirm it: the run does not pass), `none` (the interface has no way to undo it: a message, an order).
   */
  undo?: 'done' | 'failed' | 'none';
}

export interface CheckResult extends CheckInfo {
  result: CheckOutcome;
  messages: CheckMessage[];
  durationMs: number;
  /** Every HTTP exchange the verdict rests on, in order, secrets redacted (shared reads appear in each check using them). */
  exchanges: Exchange[];
}

export type Summary = Record<CheckOutcome, number>;

export interface CheckReport {
  profile: string;
  /** ISO 8601. */
  startedAt: string;
  durationMs: number;
  /** Whether the write checks were asked for. */
  write: boolean;
  /** The profile's body dialect the run sent its writes in (decisions.md §16). */
  dialect: 'interface' | 'r4';
  results: CheckResult[];
  summary: Summary;
  /** Every resource the run created on the servers (write checks only). */
  created: CreatedResource[];
}

export function emptySummary(): Summary {
  return { pass: 0, fail: 0, error: 0, skip: 0, omit: 0 };
}

export function summarize(results: readonly { result: CheckOutcome }[]): Summary {
  const s = emptySummary();
  for (const r of results) s[r.result]++;
  return s;
}

/** Nothing failed and nothing errored: exit 0 (else 7). */
export function allPassed(summary: Summary): boolean {
  return summary.fail === 0 && summary.error === 0;
}
