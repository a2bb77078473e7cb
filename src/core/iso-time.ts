/**
 * `new Date(ms).toISOString()`, for the instants a running process stamps its records with (the bulk journal's lines,
 * the audit trail's records: thousands a second in a bulk send, each a Date and a formatted string otherwise). The
 * text up to the second is made once per second; the milliseconds are put after it.
 */
let second = Number.NaN;
let prefix = '';

/** Years 1970 to 9999 (what toISOString writes with four digits); anything else goes to toISOString. */
const LAST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > LAST) return new Date(ms).toISOString();
  const r = ms % 1000;
  const s = ms - r;
  if (s !== second) {
    prefix = new Date(s).toISOString().slice(0, 20); // 2026-11-24T02:54:16.
    second = s;
  }
  return `${prefix}${r < 10 ? '00' : r < 100 ? '0' : ''}${r}Z`;
}
