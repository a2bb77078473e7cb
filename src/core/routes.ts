/**
 * Route table of decisions.md §2 and per-profile overrides. An operation id (A1…M4) resolves to a method, a
 * URL under the providing party's base URL (per-API override first), extra headers and a content type.
 * Path parameters are always percent-encoded.
 */
import type { ApiName, OpId, Party, Profile } from '../profiles/schema.js';
import { UsageError } from './errors.js';

export const FHIR_JSON = 'application/fhir+json';
export const JSON_PATCH = 'application/json-patch+json';

export interface OpDef {
  id: OpId;
  title: string;
  party: Party;
  api: ApiName;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Default path template; A1 depends on the appointment API version. */
  path: string | ((profile: Profile) => string);
  contentType?: string;
}

const op = (d: OpDef) => d;
export const OPS: Record<OpId, OpDef> = {
  A1: op({ id: 'A1', title: 'Get bookable appointment types', party: 'practice', api: 'appointment', method: 'GET', path: (p) => (p.appointmentApi === '1.0.0' ? '/AppointmentType' : '/ValueSet') }),
  A2: op({ id: 'A2', title: 'List practitioner roles', party: 'practice', api: 'appointment', method: 'GET', path: '/PractitionerRole' }),
  A3: op({ id: 'A3', title: 'Search schedules', party: 'practice', api: 'appointment', method: 'GET', path: '/Schedule' }),
  A4: op({ id: 'A4', title: 'Search available slots', party: 'practice', api: 'appointment', method: 'GET', path: '/Slot' }),
  A5: op({ id: 'A5', title: 'Search appointments', party: 'practice', api: 'appointment', method: 'GET', path: '/Appointment' }),
  A6: op({ id: 'A6', title: 'Create an appointment', party: 'practice', api: 'appointment', method: 'POST', path: '/Appointment', contentType: FHIR_JSON }),
  A7: op({ id: 'A7', title: 'Cancel an appointment', party: 'practice', api: 'appointment', method: 'POST', path: '/AppointmentResponse', contentType: FHIR_JSON }),
  C1: op({ id: 'C1', title: 'Send message to the practice system', party: 'practice', api: 'chat', method: 'POST', path: '/Communication', contentType: FHIR_JSON }),
  C2: op({ id: 'C2', title: 'Mark message as read', party: 'practice', api: 'chat', method: 'PATCH', path: '/Communication/{communicationId}', contentType: JSON_PATCH }),
  C3: op({ id: 'C3', title: 'Send message to the portal', party: 'portal', api: 'chat', method: 'POST', path: '/Communication', contentType: FHIR_JSON }),
  C4: op({ id: 'C4', title: 'Close a chat', party: 'portal', api: 'chat', method: 'PUT', path: '/Encounter/{encounterId}', contentType: FHIR_JSON }),
  C5: op({ id: 'C5', title: 'Send a notification', party: 'portal', api: 'chat', method: 'POST', path: '/Communication', contentType: FHIR_JSON }),
  M1: op({ id: 'M1', title: 'List medication requests', party: 'practice', api: 'medication', method: 'GET', path: '/MedicationRequest' }),
  M2: op({ id: 'M2', title: 'Get a medication request', party: 'practice', api: 'medication', method: 'GET', path: '/MedicationRequest/{id}' }),
  M3: op({ id: 'M3', title: 'Order a medication', party: 'practice', api: 'medication', method: 'POST', path: '/MedicationRequest', contentType: FHIR_JSON }),
  M4: op({ id: 'M4', title: 'Search pharmacies', party: 'practice', api: 'medication', method: 'GET', path: '/Organization' }),
};

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The `{name}` placeholders of a path template. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** The path parameters of an operation's default route (`communicationId` for C2), which an override may use. */
export function pathParams(opId: OpId): string[] {
  const path = OPS[opId].path;
  return typeof path === 'string' ? placeholders(path) : [];
}

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
  const apiBlock = api ? (block as Record<string, unknown>)[api] as { baseUrl?: string } | undefined : undefined;
  return (apiBlock?.baseUrl ?? block.baseUrl).replace(/\/+$/, '');
}

/** Party headers, then per-API headers on top. */
export function headersFor(profile: Profile, party: Party, api?: ApiName): Record<string, string> {
  const block = party === 'practice' ? profile.practice : profile.portal;
  const apiBlock = api ? (block as Record<string, unknown>)[api] as { headers?: Record<string, string> } | undefined : undefined;
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
  const template = override?.path ?? (typeof def.path === 'function' ? def.path(profile) : def.path);
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
