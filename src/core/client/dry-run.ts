/**
 * The dry-run layer (`--dry-run`, outermost of the guards): the request that would have been sent is handed to the
 * face, redacted, even one the guards below would refuse; then `DryRunStop` ends the command before anything is
 * sent or printed as done. A read a write depends on (`readForWrite`) is sent: it changes nothing.
 */
import { describeRequest } from './describe.js';
import type { Layer, RequestDescription } from './layer.js';

/**
 * Control flow, not an error: the entry point ends the run with exit 0 when it sees it; the request rides along for
 * callers without a sink. Its own module, so that a command line's entry can recognise it without the client.
 */
export class DryRunStop {
  constructor(readonly request: RequestDescription) {}
}

export function dryRunLayer(onDryRun: ((request: RequestDescription) => void) | undefined): Layer {
  return (next) => (req) => {
    if (req.readForWrite && req.method === 'GET') return next(req);
    const request = describeRequest(req);
    onDryRun?.(request);
    throw new DryRunStop(request);
  };
}
