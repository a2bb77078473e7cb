/**
 * What pdesk does with a 3xx answer (decisions.md §3, "Redirects"). A redirect is never a success: a write is never
 * sent again to the new place (RedirectError, exit 5, naming the `Location` and the profile setting to change), and
 * the client records it as not done. A GET follows a redirect on the same origin, or from http to https of the same
 * host, at most MAX_REDIRECTS times; the party's credentials go only to the party's own origins. Anything else stops
 * with a RedirectError.
 */
import type { Profile } from './profile/schema.js';
import { RedirectError, statusLine } from './errors.js';
import type { OpId, Party } from './ops.js';
import { isSecretHeader, redact } from './redact.js';
import { baseUrlFor } from './routes.js';

/** Redirects one GET follows at most. */
export const MAX_REDIRECTS = 5;

/** One redirect a GET followed: the status, and the URL it pointed to. */
export interface Hop {
  status: number;
  from: string;
  to: string;
}

/** Every 3xx: none of them is an answer to the request itself. */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** The profile settings that hold base URLs, each with its URL (no trailing slash), longest first. */
function baseSettings(profile: Profile): Array<{ setting: string; base: string; party: Party }> {
  const out: Array<{ setting: string; base: string; party: Party }> = [];
  for (const party of ['practice', 'portal'] as const) {
    out.push({ setting: `${party}.baseUrl`, base: baseUrlFor(profile, party), party });
    for (const api of party === 'practice' ? (['appointment', 'chat', 'medication'] as const) : (['chat'] as const)) {
      const block = (profile[party] as Record<string, { baseUrl?: string } | undefined>)[api];
      if (block?.baseUrl) out.push({ setting: `${party}.${api}.baseUrl`, base: baseUrlFor(profile, party, api), party });
    }
  }
  return out.sort((a, b) => b.base.length - a.base.length);
}

/** The setting whose base URL `url` is under (the longest), or undefined. */
export function baseSettingOf(profile: Profile, url: string): { setting: string; base: string; party: Party } | undefined {
  return baseSettings(profile).find((b) => url === b.base || url.startsWith(`${b.base}/`) || url.startsWith(`${b.base}?`));
}

/** The origins of a party's base URLs: where its credentials may go. */
export function partyOrigins(profile: Profile, party: Party): Set<string> {
  return new Set(
    baseSettings(profile)
      .filter((b) => b.party === party)
      .map((b) => new URL(b.base).origin),
  );
}

const pathOnly = (u: string) => u.replace(/[?#].*$/, '');

/**
 * What to change in the profile so that `url` is asked where `location` points: the base URL setting (when the
 * location is the same path under another base), the operation's route path (the same base, another path), else
 * the base URL setting to check.
 */
export function profileFix(profile: Profile, op: OpId | undefined, url: string, location: string): string {
  const at = baseSettingOf(profile, url);
  const who = `in profile "${profile.name}"`;
  if (!at) return `check the base URLs ${who}`;
  const rest = pathOnly(url.slice(at.base.length));
  const target = pathOnly(location);
  if (rest && target.endsWith(rest) && target.length > rest.length)
    return `set ${at.setting} ${who} to ${redact(target.slice(0, -rest.length))}`;
  if (op && target.startsWith(`${at.base}/`)) return `set routes.${op}.path ${who} to "${redact(target.slice(at.base.length))}"`;
  return `check ${at.setting} ${who}`;
}

/** The request being redirected, as the client has it. */
export interface Redirected {
  op?: OpId;
  party: Party;
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** `A4 (GET /Slot)`: how the client names a request. */
type Namer = (op: OpId | undefined, method: string, url: string) => string;

/**
 * The next request of a GET answered 3xx (its URL and headers, credentials left out for an origin outside the
 * party's), or the RedirectError that ends it. `hops` are the redirects followed so far.
 */
export function followRedirect(
  profile: Profile,
  req: Redirected,
  answer: { status: number; headers: Record<string, string> },
  hops: readonly Hop[],
  name: Namer,
): { url: string; headers: Record<string, string>; hop: Hop } {
  // Named as it was asked: the first URL of the chain.
  const first = hops[0]?.from ?? req.url;
  const what = name(req.op, req.method, first);
  const line = statusLine(answer.status);
  const request = `request: ${req.op ? `${req.op} ` : ''}${req.method} ${redact(first)}`;
  const chain = [...hops.map((h) => h.from), req.url];
  let location: string | undefined;
  try {
    location = answer.headers.location ? new URL(answer.headers.location, req.url).toString() : undefined;
  } catch {
    location = undefined;
  }
  if (!location || !/^https?:$/.test(new URL(location).protocol))
    throw new RedirectError(
      `${what} was answered ${line} ${answer.headers.location ? `with a Location pdesk cannot follow (${redact(answer.headers.location)})` : 'without a Location'}; it was not done.`,
      answer.status,
      undefined,
      [request],
    );
  const to = redact(location);
  if (req.method !== 'GET')
    throw new RedirectError(
      `${what} was redirected to ${to} (${line}) and not sent again, so it was not done: ${profileFix(profile, req.op, first, location)} if the server has moved there.`,
      answer.status,
      location,
      [request, 'A redirect answers no request: nothing was stored, and pdesk never sends a write to another place on its own.'],
    );
  const hop: Hop = { status: answer.status, from: req.url, to: location };
  if (chain.includes(location))
    throw new RedirectError(`${what} is redirected in a loop (${[...chain, location].map(redact).join(' → ')}).`, answer.status, location, [
      request,
      `The server's redirects never end: ${profileFix(profile, req.op, first, location)}.`,
    ]);
  if (hops.length >= MAX_REDIRECTS)
    throw new RedirectError(`${what} was redirected more than ${MAX_REDIRECTS} times; pdesk stopped at ${to}.`, answer.status, location, [
      request,
      `${profileFix(profile, req.op, first, location)} to the address the server answers at.`.replace(/^./, (c) => c.toUpperCase()),
    ]);
  const from = new URL(req.url);
  const next = new URL(location);
  const upgrade = from.protocol === 'http:' && next.protocol === 'https:' && from.hostname === next.hostname;
  if (next.origin !== from.origin && !upgrade)
    throw new RedirectError(
      `${what} was redirected to ${to} (${line}), another origin, which pdesk does not follow: ${profileFix(profile, req.op, first, location)} if the server has moved there.`,
      answer.status,
      location,
      [request, "A profile's requests and credentials go only to its own origins."],
    );
  // The party's credentials go only to the party's own origins: an https upgrade to an origin the profile does not
  // name is asked without them (a server that wants them answers 401, and the profile is changed to https).
  if (partyOrigins(profile, req.party).has(next.origin)) return { url: location, headers: req.headers, hop };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (!isSecretHeader(k)) headers[k] = v;
  return { url: location, headers, hop };
}
