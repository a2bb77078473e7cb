/**
 * What `pdesk doctor` reports: the result vocabulary of `pdesk check` (pass, fail, skip, omit, error, with
 * typed messages) for each step of a profile's triage, grouped by area.
 */
import type { CheckMessage, CheckOutcome, Summary } from '../check/model.js';

export const DOCTOR_AREAS = ['profile', 'practice system', 'portal', 'local files'] as const;
export type DoctorArea = (typeof DOCTOR_AREAS)[number];

export interface DoctorResult {
  /** `profile`, `secrets`, `practice-dns`, `portal-tls`, `thread-store`… */
  id: string;
  area: DoctorArea;
  title: string;
  result: CheckOutcome;
  messages: CheckMessage[];
  durationMs: number;
}

export interface DoctorReport {
  profile: string;
  startedAt: string;
  durationMs: number;
  results: DoctorResult[];
  summary: Summary;
}

/** A request slower than this, a certificate closer to expiry, a clock further off: a warning. */
export const DOCTOR_LIMITS = {
  /** Days before a TLS certificate expires. */
  certificateDays: 30,
  /** Seconds between the server's Date header and this machine's clock. */
  clockSkewS: 60,
  /** Seconds an OAuth2 token lives. */
  tokenLifetimeS: 60,
} as const;
