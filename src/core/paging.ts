/**
 * Where a Bundle's `next` link is asked (decisions.md §3, "Paging"). A FHIR server writes its own configured base
 * URL into its links, which may be another origin than the profile's (`localhost` for `127.0.0.1`, an internal host
 * behind a proxy). A link on the API's own origin is followed as it is. One on another origin is followed on the
 * profile's origin (the link's path and query kept) when `paging.rewriteOrigin` allows it, by default when the
 * link's path is under the profile's base path; otherwise the list is incomplete (IncompleteListError, exit 6),
 * never silently cut short. The profile's credentials never go to an origin outside it.
 */
import type { Profile } from './profile/schema.js';
import { IncompleteListError } from './errors.js';
import { redact } from './redact.js';
import { baseSettingOf } from './redirect.js';

/**
 * The URL to ask for the next page: `link` resolved against `from` (the operation's URL), on the origin of `base`
 * (the operation's API base URL). `log` hears about a rewritten origin.
 */
export function nextPageUrl(profile: Profile, base: string, from: string, link: string, log?: (line: string) => void): string {
  const own = new URL(base);
  let abs: URL;
  try {
    abs = new URL(link, from);
  } catch {
    throw new IncompleteListError(`The list is incomplete: the server's next link is not a URL (${JSON.stringify(redact(link))}).`);
  }
  if (abs.origin === own.origin) return abs.toString();
  const basePath = own.pathname.replace(/\/+$/, '');
  const under = abs.pathname === basePath || abs.pathname.startsWith(`${basePath}/`);
  const setting = profile.paging?.rewriteOrigin;
  const other = redact(abs.origin);
  if (setting ?? under) {
    const rewritten = new URL(`${abs.pathname}${abs.search}`, own.origin).toString();
    log?.(`next link on ${other}: asked on the profile's origin instead (paging.rewriteOrigin): ${redact(rewritten)}`);
    return rewritten;
  }
  const at = baseSettingOf(profile, base)?.setting ?? 'the base URL';
  const why =
    setting === false
      ? 'paging.rewriteOrigin is false in the profile'
      : `its path ${redact(abs.pathname)} is not under the profile's base path ${basePath || '/'}`;
  // A search's link is {base}/{Type}?…: the server's idea of the base URL is the link without its last segment.
  const theirs = redact(`${abs.origin}${abs.pathname.replace(/\/[^/]*$/, '')}`);
  throw new IncompleteListError(
    `The list is incomplete: the server's next link points to ${other}, another origin than the profile's (${own.origin}), and ${why}.`,
    [
      `next link: ${redact(abs.toString())}`,
      `pdesk sends a profile's requests and credentials only to its own origins. If ${theirs} is the same server under another address, set ${at} of profile "${profile.name}" to it; or set paging.rewriteOrigin to true to ask for such links on ${own.origin}, their path kept.`,
    ],
  );
}
