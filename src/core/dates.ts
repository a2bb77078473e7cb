/**
 * Dates and times as decisions.md §2 and §12 want them. Command-line dates are the operator's local calendar
 * dates and accept `YYYY-MM-DD`, full ISO 8601, `today`, `tomorrow`, `yesterday` and `+Nd`/`-Nd`/`+Nw`.
 *
 * Written on `Date` alone: date-fns (88 kB bundled, its locale built when it loads) cost every one-shot command
 * that touches a date ~17 M instructions (~2.5 ms) for the five functions pdesk used. parseISO and format below
 * keep date-fns's semantics for the inputs and patterns pdesk has (DEVELOPERS.md, "Stack notes").
 */
import { FieldError } from './errors.js';

/** `d` plus `n` calendar days, same local time of day (across DST changes too). */
function addDays(d: Date, n: number): Date {
  const r = new Date(d.getTime());
  r.setDate(r.getDate() + n);
  return r;
}

/** Calendar days from `b` to `a` in local time. */
function differenceInCalendarDays(a: Date, b: Date): number {
  return Math.round(
    (Date.UTC(a.getFullYear(), a.getMonth(), a.getDate()) - Date.UTC(b.getFullYear(), b.getMonth(), b.getDate())) / 86_400_000,
  );
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}(?:[.,]\d+)?))?(Z|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * date-fns's `parseISO` for `YYYY-MM-DD[(T| )HH:mm[:ss[.fff]][Z|±HH[:]mm]]`: without an offset the time is local;
 * an invalid date (2026-02-30, 25:00, an offset's minutes past 59) is an Invalid Date.
 */
function parseISO(input: string): Date {
  const m = ISO.exec(input);
  if (!m) return new Date(Number.NaN);
  const [year, month, day] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const [hours, minutes, seconds] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number((m[6] ?? '0').replace(',', '.'))];
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const timeOk = hours === 24 ? minutes === 0 && seconds === 0 : hours < 25 && minutes < 60 && seconds < 60;
  if (month < 0 || month > 11 || day < 1 || day > daysInMonth || !timeOk || Number(m[10] ?? 0) > 59) return new Date(Number.NaN);
  const utc = new Date(0);
  utc.setUTCFullYear(year, month, day);
  const ms = utc.getTime() + hours * 3_600_000 + minutes * 60_000 + seconds * 1000;
  if (m[7] === 'Z') return new Date(ms);
  if (m[7]) return new Date(ms - (m[8] === '+' ? 1 : -1) * (Number(m[9]) * 3_600_000 + Number(m[10]) * 60_000));
  const t = new Date(ms);
  const local = new Date(0);
  local.setFullYear(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
  local.setHours(t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds(), t.getUTCMilliseconds());
  return local;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** The date-fns `format` tokens pdesk uses: yyyy MM dd HH mm ss, xxx (local offset `+01:00`), and 'quoted' text. */
const TOKENS: Record<string, (d: Date) => string> = {
  yyyy: (d) => pad(d.getFullYear(), 4),
  MM: (d) => pad(d.getMonth() + 1),
  dd: (d) => pad(d.getDate()),
  HH: (d) => pad(d.getHours()),
  mm: (d) => pad(d.getMinutes()),
  ss: (d) => pad(d.getSeconds()),
  xxx: (d) => {
    const offset = -d.getTimezoneOffset();
    return `${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
  },
};

function format(d: Date, pattern: string): string {
  return pattern.replace(/'([^']*)'|([A-Za-z])\2*/g, (token, quoted: string | undefined) => {
    if (quoted !== undefined) return quoted;
    const f = TOKENS[token];
    if (!f) throw new RangeError(`date pattern token "${token}" is not one pdesk formats (${Object.keys(TOKENS).join(' ')})`);
    return f(d);
  });
}

const RELATIVE = /^([+-])(\d{1,4})([dw])$/;

/**
 * A point in time from an operator's value (relative forms are local midnight of that day); `field` names the value
 * in the error (a FieldError: `--from` on the command line, `From` in the TUI).
 */
export function parseWhen(input: string, field: string, now = new Date()): Date {
  const v = input.trim().toLowerCase();
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (v === 'today') return midnight;
  if (v === 'tomorrow') return addDays(midnight, 1);
  if (v === 'yesterday') return addDays(midnight, -1);
  const rel = RELATIVE.exec(v);
  if (rel) return addDays(midnight, (rel[1] === '-' ? -1 : 1) * Number(rel[2]) * (rel[3] === 'w' ? 7 : 1));
  if (/^\d{4}-\d{2}-\d{2}([t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?)?$/.test(v)) {
    const d = parseISO(input.trim());
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new FieldError(field, `must be a date (YYYY-MM-DD, ISO 8601, today, tomorrow or +Nd), not "${input}"`);
}

/** Local calendar date `YYYY-MM-DD`. */
export function localDay(d: Date): string {
  return format(d, 'yyyy-MM-dd');
}

/** A command-line date as the operator's local calendar date. */
export function parseDay(input: string, field: string, now = new Date()): string {
  return localDay(parseWhen(input, field, now));
}

/** ISO 8601 UTC with `Z` (slot and appointment times). */
export function utcInstant(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, 'Z');
}

export function parseInstant(input: string, field: string, now = new Date()): string {
  return utcInstant(parseWhen(input, field, now));
}

/**
 * An instant as the operator's local time for display (`yyyy-MM-dd HH:mm` by default; a pattern of the tokens
 * `format` knows), or the text itself when it is not a date (server text: the caller sanitises before display).
 */
export function localTimeText(iso: string | undefined, pattern = 'yyyy-MM-dd HH:mm'): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : format(d, pattern);
}

/** Local date-time without offset (read marker `valueDateTime`). */
export function localNoOffset(d: Date): string {
  return format(d, "yyyy-MM-dd'T'HH:mm:ss");
}

/** ISO 8601 with the local UTC offset (`authoredOn`), `+00:00` rather than `Z` where local time is UTC. */
export function withOffset(d: Date): string {
  return format(d, "yyyy-MM-dd'T'HH:mm:ssxxx");
}

export function addDaysToDay(day: string, n: number): string {
  return localDay(addDays(parseISO(day), n));
}

export function daysBetween(startDay: string, endDay: string): number {
  return differenceInCalendarDays(parseISO(endDay), parseISO(startDay));
}
