/** Text of the Systems screen: a row per profile (coloured cells), the selected profile's detail lines. */
import { isProduction } from '../../../core/profile/schema.js';
import type { PartyProbe, SystemStatus } from '../../../core/systems/index.js';
import { PROBE_REQUEST } from '../../../core/systems/probe.js';
import type { SortColumn } from '../../components/sort.js';
import { clean, clockTime, fit, idWidth, type Seg, segColumns } from '../../format.js';

const PROBE_COLOR: Record<PartyProbe['state'], string> = {
  ok: 'green',
  reachable: 'green',
  refused: 'yellow',
  error: 'yellow',
  unreachable: 'red',
  config: 'red',
};

/** A party's cell: `ok 12 ms`, `reachable (404) 3 ms`, `unreachable`; `…` before the first answer. */
export function probeCell(p: PartyProbe | undefined, probing: boolean, invalid: boolean): Seg {
  if (invalid) return { text: '-', dim: true };
  if (!p) return { text: probing ? '…' : '-', dim: true };
  const text =
    p.state === 'reachable'
      ? `reachable (${p.status}) ${p.ms} ms`
      : p.state === 'ok'
        ? `ok ${p.ms} ms`
        : p.state === 'unreachable'
          ? p.text
          : p.state === 'refused'
            ? `refused ${p.status}`
            : p.state === 'config'
              ? 'not sent'
              : p.text;
  return { text, color: PROBE_COLOR[p.state] };
}

const count = (n: number | undefined, warn = false): Seg =>
  n === undefined ? { text: '-', dim: true } : { text: String(n), ...(warn && n > 0 ? { color: 'yellow', bold: true } : {}) };

export interface SystemsLayout {
  header: string[];
  widths: number[];
  cells: (s: SystemStatus, current: string) => Seg[];
}

/** Fixed widths: environment, API, practice, portal, unread, open, uncertain (the last error takes the rest). */
const ENV_W = 10;
const API_W = 5;
const PARTY_W = [11, 22];
const COUNT_W = [4, 4, 3];
const ERROR_MIN = 10;

/**
 * Columns for a row of `width`. Profile names are never cut when they can be shown whole: the last-error column
 * gives way first, then the API (the detail lines below the list have both); only a terminal too narrow for
 * the name with the reachability columns cuts it.
 */
export function systemsLayout(width: number, names: readonly string[]): SystemsLayout {
  const longest = Math.max(8, ...names.map((n) => clean(n).length + 2));
  const need = (api: boolean, err: boolean) => {
    const cols = [ENV_W, ...(api ? [API_W] : []), ...PARTY_W, ...COUNT_W, ...(err ? [ERROR_MIN] : [])];
    return cols.reduce((a, b) => a + b, 0) + 2 * cols.length;
  };
  const fits = (api: boolean, err: boolean) => longest + need(api, err) <= width;
  const [wide, withError] = fits(true, true) ? [true, true] : fits(true, false) ? [true, false] : [false, false];
  const nameW = idWidth(
    names.map((n) => `* ${n}`),
    8,
    width,
    need(wide, withError),
  );
  const fixed = [ENV_W, ...(wide ? [API_W] : []), ...PARTY_W, ...COUNT_W];
  const widths = withError ? [nameW, ...fixed, 0] : [nameW, ...fixed.slice(0, -1), 0];
  const header = [
    'PROFILE',
    'ENV',
    ...(wide ? ['API'] : []),
    'PRACTICE',
    'PORTAL',
    'UNRD',
    'OPEN',
    'UNC',
    ...(withError ? ['LAST ERROR'] : []),
  ];
  const cells = (s: SystemStatus, current: string): Seg[] => {
    const env = s.profile?.environment ?? (s.invalid ? 'invalid' : '');
    // A read-only profile (GET only) says so beside its environment (cut to make room), as the header does.
    const ro = s.profile?.readOnly ? ' ro' : '';
    const envText = (t: string) => (ro ? `${fit(clean(t), ENV_W - ro.length)}${ro}` : clean(t));
    const row: Seg[] = [
      { text: clean(`${s.name === current ? '* ' : '  '}${s.name}`), bold: s.name === current },
      s.profile && isProduction(s.profile)
        ? { text: envText(env.toUpperCase()), color: 'red', bold: true }
        : { text: envText(env), color: s.invalid ? 'red' : ro ? 'yellow' : undefined },
    ];
    if (wide) row.push({ text: s.profile?.appointmentApi ?? '' });
    row.push(
      probeCell(s.practice, s.probing, !!s.invalid),
      probeCell(s.portal, s.probing, !!s.invalid),
      count(s.counts?.unread, true),
      count(s.counts?.open),
      count(s.counts?.uncertain, true),
    );
    if (withError) row.push({ text: clean(s.lastError?.text ?? ''), color: 'red' });
    return segColumns(row, widths, width);
  };
  return { header, widths, cells };
}

/** Latency for sorting: answered first by time, then the rest. */
const latency = (p: PartyProbe | undefined) => (p && (p.state === 'ok' || p.state === 'reachable') ? p.ms : undefined);

export const SYSTEM_COLUMNS: readonly SortColumn<SystemStatus>[] = [
  { key: 'n', name: 'profile', value: (s) => s.name },
  { key: 'e', name: 'environment', value: (s) => s.profile?.environment },
  { key: 'a', name: 'API', value: (s) => s.profile?.appointmentApi },
  { key: 'p', name: 'practice latency', value: (s) => latency(s.practice) },
  { key: 'o', name: 'portal latency', value: (s) => latency(s.portal) },
  { key: 'u', name: 'unread', value: (s) => s.counts?.unread, desc: true },
  { key: 'c', name: 'open chats', value: (s) => s.counts?.open, desc: true },
  { key: 'b', name: 'uncertain bulk rows', value: (s) => s.counts?.uncertain, desc: true },
  { key: 'l', name: 'last error', value: (s) => s.lastError?.at, desc: true },
];

function probeLine(party: 'practice' | 'portal', p: PartyProbe | undefined, probing: boolean): string {
  const what = PROBE_REQUEST[party];
  const label = party === 'practice' ? 'practice' : 'portal  ';
  if (!p) return `${label}  ${probing ? 'probing…' : 'not probed'} (${what})`;
  const head =
    p.state === 'ok'
      ? `ok: HTTP ${p.status} in ${p.ms} ms`
      : p.state === 'reachable'
        ? `reachable (HTTP ${p.status}) in ${p.ms} ms`
        : p.state === 'refused'
          ? `credentials refused (HTTP ${p.status})`
          : p.state === 'config'
            ? `not sent: ${p.error ?? ''}`
            : `${p.text}${p.error ? `: ${p.error}` : ''}`;
  return `${label}  ${head} · ${clockTime(p.at)} (${what})`;
}

/** The selected profile in full: base URLs, each probe as a sentence, the local counts, the last error. */
export function detailLines(s: SystemStatus): string[] {
  if (s.invalid) return [clean(`${s.name}: ${s.invalid}`), 'Fix it with pdesk profile import (pdesk doctor says more).'];
  const p = s.profile!;
  const c = s.counts;
  return [
    clean(
      `${s.name} · ${p.environment ?? 'no environment'}${p.readOnly ? ' · read-only (GET only)' : ''} · appt API ${p.appointmentApi} · practice ${p.practice.baseUrl} · portal ${p.portal.baseUrl}`,
    ),
    clean(probeLine('practice', s.practice, s.probing)),
    clean(probeLine('portal', s.portal, s.probing)),
    c
      ? `local     ${c.unread} unread · ${c.open} open chat${c.open === 1 ? '' : 's'} of ${c.threads} · ${c.uncertain} uncertain bulk row${c.uncertain === 1 ? '' : 's'}${c.failed ? ` · ${c.failed} failed` : ''}`
      : 'local     (no config folder: no thread store or journals)',
    s.lastError ? clean(`last error ${clockTime(s.lastError.at)} ${s.lastError.text}`) : 'last error (none)',
  ];
}
