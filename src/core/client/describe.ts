/** How the client names a request to the operator: `A6 (POST /Appointment)`, its base URL, its redacted description. */
import type { OpId } from '../ops.js';
import type { Profile } from '../profile/schema.js';
import { redact, redactHeaders } from '../redact.js';
import { baseUrlFor } from '../routes.js';
import type { Outgoing, RequestDescription, WriteDescription } from './layer.js';

/**
 * A URL as the profile's base URL it is under (the longest that fits) and the rest: `/Appointment` under
 * `https://practice.example/fhir`. A URL under none is its origin and path. Redacted.
 */
export function splitUrl(profile: Profile, url: string): { base: string; path: string } {
  const bases = [
    baseUrlFor(profile, 'practice'),
    baseUrlFor(profile, 'portal'),
    ...(['appointment', 'chat', 'medication'] as const).map((api) => baseUrlFor(profile, 'practice', api)),
    baseUrlFor(profile, 'portal', 'chat'),
  ].sort((a, b) => b.length - a.length);
  const base = bases.find((b) => url.startsWith(`${b}/`) || url.startsWith(`${b}?`));
  if (base) return { base: redact(base), path: redact(url.slice(base.length)) };
  try {
    const u = new URL(url);
    return { base: redact(u.origin), path: redact(url.slice(u.origin.length) || '/') };
  } catch {
    return { base: '', path: redact(url) };
  }
}

/** `A6 (POST /Appointment)`: a request as the operator knows it. */
export function what(profile: Profile, op: OpId | undefined, method: string, url: string): string {
  const w = `${method} ${splitUrl(profile, url).path}`;
  return op ? `${op} (${w})` : w;
}

/** A request as a dry run prints it: redacted, without its party, a JSON body parsed. */
export function describeRequest(req: Outgoing): RequestDescription {
  return {
    ...(req.op ? { op: req.op } : {}),
    method: req.method,
    url: redact(req.url),
    headers: redactHeaders(req.headers),
    ...(req.body === undefined ? {} : { body: req.json ? JSON.parse(req.body) : req.body }),
  };
}

/** A write as a confirmation shows it: what it is, where it goes, and the request. */
export function describeWrite(profile: Profile, req: Outgoing): WriteDescription {
  return {
    request: describeRequest(req),
    what: what(profile, req.op, req.method, req.url),
    target: splitUrl(profile, req.url).base,
    ...(req.signal ? { signal: req.signal } : {}),
  };
}
