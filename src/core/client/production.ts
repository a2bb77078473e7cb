/**
 * The confirmation layer: every write (any method but GET, HEAD, OPTIONS) is handed to the face's confirmation
 * hook before it goes further (the CLI's typed name or `--yes`, the TUI's typed name; each asks on a production
 * profile only). Throwing stops it: nothing is sent, nothing audited. A client of a production profile without a
 * hook sends no write at all (UsageError, exit 2): no face can skip the confirmation.
 */
import { UsageError } from '../errors.js';
import { type Profile, isProduction } from '../profile/schema.js';
import { describeWrite, what } from './describe.js';
import { type Layer, type WriteDescription, isWrite } from './layer.js';

export type ConfirmWrite = (write: WriteDescription) => Promise<void> | void;

export function confirmationLayer(profile: Profile, confirm: ConfirmWrite | undefined): Layer {
  return (next) => async (req) => {
    if (!isWrite(req.method)) return next(req);
    if (!confirm) {
      if (isProduction(profile))
        throw new UsageError(
          `Profile "${profile.name}" is a production profile: ${what(profile, req.op, req.method, req.url)} was not sent, as nothing here can confirm it.`,
        );
      return next(req);
    }
    const asked = confirm(req.write ?? describeWrite(profile, req));
    if (asked) await asked;
    return next(req);
  };
}
