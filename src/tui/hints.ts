/** Core's hints (src/core/errors.ts) in the TUI's words: where to look, on which screen. */
import type { Hint } from '../core/errors.js';

/** A hint as a phrase of the status line; none where the TUI offers no such thing (booking in the past). */
export function hintText(h: Hint): string | undefined {
  switch (h.kind) {
    case 'profile':
      return `profile "${h.profile}"${h.setting ? ` (${h.setting})` : ''}: see Systems (0)`;
    case 'auth-status':
      return `where the secrets of profile "${h.profile}" come from: pdesk --profile ${h.profile} auth status`;
    case 'store-migrate':
      return 'the team store needs migrating, as the database user that owns the schema (pdesk store migrate)';
    case 'store-status':
      return 'which setting chose the team store, and whether it answers: pdesk store status';
    case 'allow-past':
      return undefined;
  }
}

/** The phrases of an error's hints the TUI has words for. */
export function hintsText(e: { hints: readonly Hint[] }): string[] {
  return e.hints.map(hintText).filter((t): t is string => t !== undefined);
}
