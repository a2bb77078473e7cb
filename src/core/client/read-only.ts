/**
 * The read-only layer: a profile's `readOnly`, or a client made read-only (`--read-only`, a check without writes),
 * sends GET only; anything else is refused before it is sent (ConfigError, exit 3), for every face.
 */
import { ConfigError } from '../errors.js';
import type { OpId } from '../ops.js';
import type { Profile } from '../profile/schema.js';
import { what } from './describe.js';
import type { Layer } from './layer.js';

/** The refusal of a request under read-only: one sentence naming the profile and the operation. */
export function refusal(profile: Profile, why: string | undefined, op: OpId | undefined, method: string, url: string): ConfigError {
  const who = profile.readOnly
    ? `Profile "${profile.name}" is read-only`
    : `Profile "${profile.name}" is read-only ${why ? `(${why})` : 'here'}`;
  return new ConfigError(`${who}: ${what(profile, op, method, url)} was not sent.`);
}

export function readOnlyLayer(profile: Profile, why: string | undefined): Layer {
  return (next) => (req) => {
    if (req.method !== 'GET') throw refusal(profile, why, req.op, req.method, req.url);
    return next(req);
  };
}
