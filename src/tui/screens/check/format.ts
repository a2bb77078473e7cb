/** Text of the Check screen: a row per check (coloured result), a check's detail with its redacted requests and answers. */
import type { Exchange } from '../../../core/client.js';
import type { CheckResult } from '../../../core/check/model.js';
import { sanitize } from '../../../core/sanitize.js';
import type { SortColumn } from '../../components/sort.js';
import { clean, type Seg, segColumns } from '../../format.js';
import type { CheckRow } from './useCheck.js';

const RESULT: Record<CheckResult['result'], Seg> = {
  pass: { text: '✓ pass', color: 'green' },
  fail: { text: '✗ fail', color: 'red', bold: true },
  error: { text: '✗ error', color: 'red', bold: true },
  skip: { text: '– skip', dim: true },
  omit: { text: '– omit', dim: true },
};

export const CHECK_WIDTHS = [18, 9, 7, 0];
export const CHECK_HEADER = ['CHECK', 'RESULT', 'TIME', 'WHAT / FIRST MESSAGE'];

export function checkRow(r: CheckRow, width: number): Seg[] {
  const res = r.result;
  const state: Seg = res
    ? RESULT[res.result]
    : r.state === 'running'
      ? { text: '⠿ running', color: 'yellow' }
      : { text: '· waiting', dim: true };
  const first = res && res.result !== 'pass' ? (res.messages.find((m) => m.type === 'error') ?? res.messages[0]) : undefined;
  const what = first ? `${first.path ? `${first.path}: ` : ''}${first.text}` : r.title;
  return segColumns(
    [
      { text: r.id },
      state,
      { text: res && res.result !== 'omit' && res.result !== 'skip' ? `${res.durationMs} ms` : '' },
      { text: clean(what) },
    ],
    CHECK_WIDTHS,
    width,
  );
}

const ORDER = { fail: 0, error: 1, pass: 2, skip: 3, omit: 4 } as const;
export const CHECK_COLUMNS: readonly SortColumn<CheckRow>[] = [
  { key: 'i', name: 'check', value: (r) => r.id },
  { key: 'o', name: 'operation', value: (r) => r.op },
  { key: 'r', name: 'result', value: (r) => (r.result ? ORDER[r.result.result] : undefined) },
  { key: 't', name: 'time', value: (r) => (r.result && r.result.durationMs > 0 ? r.result.durationMs : undefined), desc: true },
];

/** Most lines of one body shown in the detail (the raw view, `y`, has it whole). */
const BODY_LINES = 60;

function bodyLines(text: string | undefined): string[] {
  if (!text) return [];
  let pretty = text;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    /* not JSON: as sent */
  }
  const lines = pretty.split('\n');
  const shown = lines.slice(0, BODY_LINES).map((l) => `      ${sanitize(l)}`);
  if (lines.length > BODY_LINES) shown.push(`      … ${lines.length - BODY_LINES} more lines (y: the whole check as JSON)`);
  return shown;
}

function exchangeLines(x: Exchange, i: number): string[] {
  const out = [`  ${i + 1}. → ${x.op ? `${x.op} ` : ''}${x.method} ${x.url}`];
  for (const [k, v] of Object.entries(x.requestHeaders)) out.push(`      ${k}: ${v}`);
  out.push(...bodyLines(x.requestBody));
  if (x.status !== undefined) {
    out.push(`     ← HTTP ${x.status} in ${x.ms} ms${x.attempts && x.attempts > 1 ? ` (${x.attempts} attempts)` : ''}`);
    for (const [k, v] of Object.entries(x.responseHeaders ?? {})) out.push(`      ${k}: ${v}`);
    out.push(...bodyLines(x.responseBody));
  } else out.push(`     ← no answer after ${x.ms} ms: ${x.error?.message ?? 'unknown'}`);
  return out;
}

/** A check in full: what it checks, its result and messages, then every request and answer (secrets redacted). */
export function checkDetail(r: CheckResult): string[] {
  const lines = [
    `${r.id} · ${r.op} · ${r.area} · ${r.result}${r.durationMs ? ` · ${r.durationMs} ms` : ''}`,
    r.title,
    '',
    `Messages (${r.messages.length})`,
    ...(r.messages.length ? r.messages.map((m) => `  ${m.type.padEnd(7)} ${m.path ? `${m.path}: ` : ''}${m.text}`) : ['  (none)']),
    '',
    `Requests and answers (${r.exchanges.length}; secrets redacted)`,
    ...(r.exchanges.length ? r.exchanges.flatMap(exchangeLines) : ['  (none: nothing was sent for this check)']),
  ];
  return lines.map((l) => clean(l));
}
