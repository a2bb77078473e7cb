/**
 * Core's errors in the command line's words: a FieldError names its option (`--from`), a hint the command that
 * helps (`pdesk profile show north`). Core names fields and hints, never flags or commands (src/core/errors.ts).
 */
import { FieldError, type Hint, type PdeskError } from '../core/errors.js';
import { flagOf } from './options.js';

/** A hint as a detail line naming the command to run. */
export function hintLine(h: Hint): string {
  switch (h.kind) {
    case 'profile':
      return `Its settings${h.setting ? ` (${h.setting})` : ''}: pdesk profile show ${h.profile}`;
    case 'auth-status':
      return `Where its secrets come from: pdesk --profile ${h.profile} auth status`;
    case 'store-migrate':
      return 'Run pdesk store migrate (as the database user that owns the schema).';
    case 'store-status':
      return 'Which setting chose this store, and whether it answers: pdesk store status';
    case 'allow-past':
      return '--allow-past books it anyway.';
  }
}

/** An error's sentence and detail lines as the command line says them. */
export function cliWords(e: PdeskError): { message: string; details: string[] } {
  const field = e instanceof FieldError;
  return {
    message: field ? e.render(flagOf) : e.message,
    details: [...(field ? e.renderDetails(flagOf) : e.details), ...e.hints.map(hintLine)],
  };
}
