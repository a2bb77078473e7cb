/**
 * FHIR search tokens `system|code` (service categories, identifiers, docs/decisions.md §2): one parser for
 * every face, so the sandbox, the receiver, the CLI and the TUI read `a|b`, `|b` and a bare `b` alike.
 */

export interface Token {
  /** Undefined for a bare code (no `|`): it then matches any system. */
  system?: string;
  code: string;
}

/** `system|code` → `{system, code}`; a bare `code` has no system. Splits at the first `|`. */
export function parseToken(token: string): Token {
  const bar = token.indexOf('|');
  return bar < 0 ? { code: token } : { system: token.slice(0, bar), code: token.slice(bar + 1) };
}

/** Does a coding or identifier (`system`, `code` or `value`) match the token? A bare token matches any system. */
export function tokenMatches(t: Token, system: string | undefined, code: string): boolean {
  return code === t.code && (!t.system || t.system === system);
}

/** A complete `system|code` with both parts non-empty (what an operator must type where the system matters). */
export function isFullToken(token: string): boolean {
  return /^[^|]+\|[^|]+$/.test(token);
}
