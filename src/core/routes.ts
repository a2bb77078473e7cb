/**
 * Route table of decisions.md §2 and per-profile overrides. An operation id (A1…M4) resolves to a method, a
 * URL under the providing party's base URL (per-API override first), extra headers and a content type.
 * Path parameters are always percent-encoded.
 */
import type { Profile } from './profile/schema.js';
import { UsageError } from './errors.js';
import { type ApiName, OPS, type OpId, PLACEHOLDER, type Party } from './ops.js';

export interface ResolvedRoute {
  op: OpId;
  party: Party;
  method: string;
  url: string;
  contentType?: string;
  headers: Record<string, string>;
}

/** Base URL of the API that provides `api` for `party` (per-API override first), without trailing slash. */
export function baseUrlFor(profile: Profile, party: Party, api?: ApiName): string {
  const block = party === 'practice' ? profile.practice : profile.portal;
  const apiBlock = api ? ((block as Record<string, unknown>)[api] as { baseUrl?: string } | undefined) : undefined;
  return (apiBlock?.baseUrl ?? block.baseUrl).replace(/\/+$/, '');
}

/** Party headers, then per-API headers on top. */
export function headersFor(profile: Profile, party: Party, api?: ApiName): Record<string, string> {
  const block = party === 'practice' ? profile.practice : profile.portal;
  const apiBlock = api ? ((block as Record<string, unknown>)[api] as { headers?: Record<string, string> } | undefined) : undefined;
  return { ...(block.headers ?? {}), ...(apiBlock?.headers ?? {}) };
}

/** encodeURIComponent, but a lone surrogate (possible in server text) is a usage error, not a URIError crash. */
function encodeText(v: string, what: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    throw new UsageError(`The value for ${what} is not valid Unicode text.`);
  }
}

/** Fill `{name}` placeholders: operation parameters and `{portalNamespace}`, `{practiceNamespace}`, encoded. */
export function fillTemplate(template: string, params: Record<string, string>, profile: Profile): string {
  const all: Record<string, string> = {
    portalNamespace: profile.namespaces.portal,
    practiceNamespace: profile.namespaces.practice,
    ...params,
  };
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const v = all[name];
    if (v === undefined) throw new UsageError(`The route template ${template} needs a value for {${name}}.`);
    // URL parsing would resolve a "." or ".." segment (even encoded as %2E) and address another resource.
    if (v === '.' || v === '..') throw new UsageError(`The value for {${name}} cannot be "${v}".`);
    return encodeText(v, `{${name}}`);
  });
}

/** Query string with repeated keys kept in order; `|` and `,` are encoded (%7C, %2C). */
export function encodeQuery(query: ReadonlyArray<readonly [string, string]>): string {
  if (query.length === 0) return '';
  return query.map(([k, v]) => `${encodeText(k, 'a query parameter name')}=${encodeText(v, `the query parameter ${k}`)}`).join('&');
}

export function resolveRoute(
  profile: Profile,
  opId: OpId,
  params: Record<string, string> = {},
  query: ReadonlyArray<readonly [string, string]> = [],
): ResolvedRoute {
  const def = OPS[opId];
  const override = profile.routes?.[opId];
  const template = override?.path ?? (typeof def.path === 'function' ? def.path(profile.appointmentApi) : def.path);
  const path = fillTemplate(template, params, profile);
  const qs = encodeQuery(query);
  const url = `${baseUrlFor(profile, def.party, def.api)}${path}${qs ? (path.includes('?') ? '&' : '?') + qs : ''}`;
  return {
    op: opId,
    party: def.party,
    method: override?.method ?? def.method,
    url,
    contentType: override?.contentType ?? def.contentType,
    headers: headersFor(profile, def.party, def.api),
  };
}
