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
  const production = isProduction(profile);
  return (next) => (req) => {
    if (!isWrite(req.method)) return next(req);
    if (!confirm) {
      if (production)
        return Promise.reject(
          new UsageError(
            `Profile "${profile.name}" is a production profile: ${what(profile, req.op, req.method, req.url)} was not sent, as nothing here can confirm it.`,
          ),
        );
      return next(req);
    }
    let asked: Promise<void> | void;
    try {
      asked = confirm(req.write ?? describeWrite(profile, req));
    } catch (e) {
      return Promise.reject(e);
    }
    // A hook that has nothing to ask (not production, or confirmed already) answers at once, without a promise.
    return asked ? asked.then(() => next(req)) : next(req);
  };
}
