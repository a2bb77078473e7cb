/** Core's hints (src/core/errors.ts) in the TUI's words: where to look, on which screen. */
import type { Hint } from '../core/errors.js';

export function hintText(h: Hint): string {
  switch (h.kind) {
    case 'profile':
      return `profile "${h.profile}"${h.setting ? ` (${h.setting})` : ''}: see Systems (0)`;
    case 'auth-status':
      return `where the secrets of profile "${h.profile}" come from: pdesk --profile ${h.profile} auth status`;
    case 'store-migrate':
      return 'the team store needs migrating, as the database user that owns the schema (pdesk store migrate)';
  }
}
