/**
 * Dates and times as decisions.md §2 and §12 want them. Command-line dates are the operator's local calendar
 * dates and accept `YYYY-MM-DD`, full ISO 8601, `today`, `tomorrow`, `yesterday` and `+Nd`/`-Nd`/`+Nw`, each of the
 * relative forms optionally with a local time (`tomorrow 09:30`), so examples and scripts need no calendar date.
 *
 * On date-fns, imported function by function (`date-fns/parseISO`, …): the bundle then carries those few modules
 * and no locale. Formatting is `lightFormat` (numeric tokens, no locale) and `formatISO` for the offset, where
 * `format` would build the English locale at load (docs/performance.md).
 */
import { addDays } from 'date-fns/addDays';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { formatISO } from 'date-fns/formatISO';
import { isValid } from 'date-fns/isValid';
import { lightFormat } from 'date-fns/lightFormat';
import { parseISO } from 'date-fns/parseISO';
import { FieldError } from './errors.js';

const RELATIVE = /^([+-])(\d{1,4})([dw])$/;
/** A relative day and a local time after it: `tomorrow 09:30`, `+2d 14:00`. */
const RELATIVE_TIME = /^(\S+)[ t]([01]?\d|2[0-3]):([0-5]\d)$/;

/** Local midnight of a relative day (`today`, `tomorrow`, `yesterday`, `+Nd`, `-Nd`, `+Nw`), or undefined. */
function relativeDay(v: string, now: Date): Date | undefined {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (v === 'today') return midnight;
  if (v === 'tomorrow') return addDays(midnight, 1);
  if (v === 'yesterday') return addDays(midnight, -1);
  const rel = RELATIVE.exec(v);
  return rel ? addDays(midnight, (rel[1] === '-' ? -1 : 1) * Number(rel[2]) * (rel[3] === 'w' ? 7 : 1)) : undefined;
}

/**
 * A point in time from an operator's value (relative forms are local midnight of that day, or the local time given
 * after them); `field` names the value in the error (a FieldError: `--from` on the command line, `From` in the TUI).
 */
export function parseWhen(input: string, field: string, now = new Date()): Date {
  const v = input.trim().toLowerCase();
  const day = relativeDay(v, now);
  if (day) return day;
  const at = RELATIVE_TIME.exec(v);
  const timed = at && relativeDay(at[1]!, now);
  if (timed) return new Date(timed.getFullYear(), timed.getMonth(), timed.getDate(), Number(at[2]), Number(at[3]));
  if (/^\d{4}-\d{2}-\d{2}([t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?)?$/.test(v)) {
    const d = parseISO(input.trim());
    if (isValid(d)) return d;
  }
  throw new FieldError(field, `must be a date (YYYY-MM-DD, ISO 8601, today, tomorrow or +Nd), not "${input}"`);
}

/** Local calendar date `YYYY-MM-DD`. */
export function localDay(d: Date): string {
  return lightFormat(d, 'yyyy-MM-dd');
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
 * An instant as the operator's local time for display (`yyyy-MM-dd HH:mm` by default; a `lightFormat` pattern:
 * y M d H m s and 'quoted' text), or the text itself when it is not a date (server text: the caller sanitises
 * before display).
 */
export function localTimeText(iso: string | undefined, pattern = 'yyyy-MM-dd HH:mm'): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : lightFormat(d, pattern);
}

/** Local date-time without offset (read marker `valueDateTime`). */
export function localNoOffset(d: Date): string {
  return lightFormat(d, "yyyy-MM-dd'T'HH:mm:ss");
}

/** ISO 8601 with the local UTC offset (`authoredOn`), `+00:00` rather than `Z` where local time is UTC. */
export function withOffset(d: Date): string {
  // formatISO writes `Z` for a zero offset; date-fns's `xxx` (and pdesk's records) write `+00:00`.
  return formatISO(d).replace(/Z$/, '+00:00');
}

export function addDaysToDay(day: string, n: number): string {
  return localDay(addDays(parseISO(day), n));
}

export function daysBetween(startDay: string, endDay: string): number {
  return differenceInCalendarDays(parseISO(endDay), parseISO(startDay));
}
