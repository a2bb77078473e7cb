/**
 * The terminal table of `pdesk check` and `pdesk doctor`: rows grouped under their area, ✓ ✗ – per check, the
 * duration, the first message of each failure (the reason of a skip or omit, else the title), a summary line;
 * and for several profiles one summary row each. Rows can be printed as results arrive (`row`), since a run
 * reports its checks in area order. Server text is sanitised here (it reaches the terminal); redaction is done
 * by the Context's writer.
 */
import { sanitize } from '../core/sanitize.js';

export type Outcome = 'pass' | 'fail' | 'error' | 'skip' | 'omit';
export interface Row {
  id: string;
  area: string;
  title: string;
  result: Outcome;
  messages: ReadonlyArray<{ type: string; text: string; path?: string }>;
  durationMs: number;
}
export type Counts = Record<Outcome, number>;

const SYMBOL: Record<Outcome, string> = { pass: '✓', fail: '✗', error: '✗', skip: '–', omit: '–' };
const COLOUR: Record<Outcome, string> = { pass: '32', fail: '31', error: '31', skip: '2', omit: '2' };

export interface TableStyle {
  color: boolean;
  width: number;
  /** Width of the id column (the longest id of the checks that will run). */
  idWidth: number;
  /** What a passed row shows: its title (check), or its findings (doctor: the first warning, else the first message). */
  passText?: 'title' | 'findings';
  /** What the rows are, for the summary line: `checks` or `steps`. */
  noun?: string;
}

const paint = (s: TableStyle, code: string, text: string) => (s.color ? `\x1b[${code}m${text}\x1b[0m` : text);

function fit(text: string, width: number): string {
  const flat = sanitize(text).replace(/\s+/g, ' ');
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(1, width - 1))}…`;
}

/** What a row says after its duration: the first error (or message) of a failure, the reason of a skip, else the title. */
function rowText(r: Row, s?: TableStyle): string {
  if (r.result === 'pass' && s?.passText === 'findings') {
    const m = r.messages.find((x) => x.type === 'warning') ?? r.messages[0];
    return m ? `${m.type === 'warning' ? 'warning: ' : ''}${m.text}` : r.title;
  }
  if (r.result === 'pass') {
    const warn = r.messages.filter((m) => m.type === 'warning').length;
    return warn ? `${r.title} (${warn} warning${warn > 1 ? 's' : ''})` : r.title;
  }
  const m = r.messages.find((x) => x.type === 'error') ?? r.messages[0];
  const first = m ? `${m.path ? `${m.path}: ` : ''}${m.text}` : '';
  return `${r.result} ${first}`;
}

export function areaHeading(area: string, s: TableStyle): string {
  return paint(s, '1', `${area.charAt(0).toUpperCase()}${area.slice(1)}`);
}

export function duration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}

/**
 * What a live run prints per result: the area's heading when the area changes (results come in area order),
 * then the result's row.
 */
export function liveRows(out: (line: string) => void, s: TableStyle): (r: Row) => void {
  let area: string | undefined;
  return (r) => {
    if (r.area !== area) {
      area = r.area;
      out(areaHeading(area, s));
    }
    out(row(r, s));
  };
}

/** One check's line: `  ✓ A1-types          42 ms  A1 answers …`. */
export function row(r: Row, s: TableStyle): string {
  const ran = r.result !== 'skip' && r.result !== 'omit';
  const rest = `${r.id.padEnd(s.idWidth)}  ${(ran ? duration(r.durationMs) : '').padStart(7)}  `;
  const text = fit(rowText(r, s), Math.max(20, s.width - rest.length - 4));
  return `  ${paint(s, COLOUR[r.result], SYMBOL[r.result])} ${rest}${text}`;
}

/** `9 passed, 1 failed, 0 errors, 2 skipped, 12 omitted · 24 checks in 0.6 s`. */
export function summaryLine(c: Counts, ms: number, s: TableStyle): string {
  const total = c.pass + c.fail + c.error + c.skip + c.omit;
  const bad = c.fail + c.error > 0;
  const text = `${c.pass} passed, ${c.fail} failed, ${c.error} error${c.error === 1 ? '' : 's'}, ${c.skip} skipped, ${c.omit} omitted · ${total} ${s.noun ?? 'checks'} in ${duration(ms)}`;
  return paint(s, bad ? '31' : '32', text);
}

/** Every row of one run, grouped by area, then the summary line. */
export function resultsTable(rows: readonly Row[], counts: Counts, ms: number, s: TableStyle): string {
  const out: string[] = [];
  let area: string | undefined;
  for (const r of rows) {
    if (r.area !== area) {
      area = r.area;
      out.push(areaHeading(area, s));
    }
    out.push(row(r, s));
  }
  out.push(summaryLine(counts, ms, s));
  return out.join('\n');
}

/** Several profiles: one summary row each, then the first message of every failure. */
export function profilesTable(
  reports: ReadonlyArray<{ profile: string; results: readonly Row[]; summary: Counts; durationMs: number }>,
  s: TableStyle,
): string {
  const nameWidth = Math.max(7, ...reports.map((r) => r.profile.length));
  const cols = ['PASS', 'FAIL', 'ERROR', 'SKIP', 'OMIT'];
  const out = [`${'PROFILE'.padEnd(nameWidth)}  ${cols.map((c) => c.padStart(5)).join(' ')}  TIME`];
  for (const r of reports) {
    const c = r.summary;
    const bad = c.fail + c.error > 0;
    const line = `${sanitize(r.profile).padEnd(nameWidth)}  ${[c.pass, c.fail, c.error, c.skip, c.omit].map((n) => String(n).padStart(5)).join(' ')}  ${duration(r.durationMs)}`;
    out.push(paint(s, bad ? '31' : '32', line));
  }
  const failures = reports.flatMap((r) =>
    r.results.filter((x) => x.result === 'fail' || x.result === 'error').map((x) => ({ p: r.profile, x })),
  );
  if (failures.length) {
    out.push('');
    for (const { p, x } of failures) out.push(fit(`${p}  ${SYMBOL[x.result]} ${x.id}  ${rowText(x, s)}`, s.width));
  }
  return out.join('\n');
}
