/**
 * Server text is untrusted: remove terminal control sequences (CSI, OSC, DCS, single ESC sequences), every
 * other C0/C1 control character, and the Unicode bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and its
 * kin: embeddings, overrides, isolates, the directional marks), which make a terminal show text in another order
 * than it is (`exe.txt` for `txt.exe`), before anything reaches a terminal. Newlines and tabs become spaces unless
 * `keepNewlines` is set.
 */
const ESCAPES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_KEEP_NL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function sanitize(text: string, keepNewlines = false): string {
  const noEsc = text.replace(ESCAPES, '');
  if (keepNewlines) return noEsc.replace(CONTROLS_KEEP_NL, '').replace(/\r\n?/g, '\n');
  return noEsc.replace(/[\t\n\r]/g, ' ').replace(CONTROLS, '');
}

/** Deeply sanitise every string of a JSON value (for table output and the TUI). */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitize(value, true) as T;
  if (Array.isArray(value)) return value.map((v) => sanitizeDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[sanitize(k)] = sanitizeDeep(v);
    return out as T;
  }
  return value;
}
