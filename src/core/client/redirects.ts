/**
 * The redirect layer (decisions.md §3, "Redirects"; the rules are src/core/redirect.ts): a GET answered 3xx is
 * asked again where it points, through every layer, when it may follow; anything else stops with a RedirectError.
 * A redirect is never the answer.
 */
import { redact } from '../redact.js';
import { type Hop, followRedirect, isRedirect } from '../redirect.js';
import type { Profile } from '../profile/schema.js';
import { statusLine } from '../errors.js';
import { what } from './describe.js';
import type { Layer } from './layer.js';

export function redirectLayer(profile: Profile, log: ((line: string) => void) | undefined): Layer {
  const name = (op: Parameters<typeof what>[1], method: string, url: string) => what(profile, op, method, url);
  return (next) => async (first) => {
    let req = first;
    let res = await next(req);
    if (!isRedirect(res.status)) return res;
    const hops: Hop[] = [];
    while (isRedirect(res.status)) {
      const to = followRedirect(profile, req, res, hops, name);
      log?.(`↪ following ${statusLine(res.status)} to ${redact(to.url)}`);
      hops.push(to.hop);
      req = { ...req, url: to.url, headers: to.headers };
      res = await next(req);
    }
    return { ...res, redirects: hops };
  };
}
