/**
 * The JSON report of `pdesk check --json` (docs/cli.md "Live systems"): one object per profile, `{profile,
 * startedAt, results: [{id, op, title, result, messages, durationMs, requests: [{method, url, status, ms}]}],
 * summary}`, plus `area` per result and the run's `write`, `durationMs` and `created` resources. Requests are
 * the exchanges' summaries (already redacted by the client); bodies stay out of the report.
 */
import type { CheckReport, CreatedResource, CheckMessage, CheckOutcome, Summary } from './model.js';
import type { OpId } from '../ops.js';

export interface RequestJson {
  method: string;
  url: string;
  /** null when no answer came (network error, time-out). */
  status: number | null;
  ms: number;
  error?: string;
}

export interface ResultJson {
  id: string;
  op: OpId;
  area: string;
  title: string;
  result: CheckOutcome;
  messages: CheckMessage[];
  durationMs: number;
  requests: RequestJson[];
}

export interface ReportJson {
  profile: string;
  startedAt: string;
  durationMs: number;
  write: boolean;
  dialect: 'interface' | 'r4';
  results: ResultJson[];
  summary: Summary;
  created: CreatedResource[];
}

export function reportJson(r: CheckReport): ReportJson {
  return {
    profile: r.profile,
    startedAt: r.startedAt,
    durationMs: r.durationMs,
    write: r.write,
    dialect: r.dialect,
    results: r.results.map((x) => ({
      id: x.id,
      op: x.op,
      area: x.area,
      title: x.title,
      result: x.result,
      messages: x.messages,
      durationMs: x.durationMs,
      requests: x.exchanges.map((e) => ({
        method: e.method,
        url: e.url,
        status: e.status ?? null,
        ms: e.ms,
        ...(e.error ? { error: e.error.message } : {}),
      })),
    })),
    summary: r.summary,
    created: r.created,
  };
}
