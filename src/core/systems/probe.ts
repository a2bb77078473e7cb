/**
 * Reachability of one party of a profile, for the TUI's Systems screen: one light request that changes
 * nothing (decisions.md §13), sent by a read-only client with no retries and its own deadline.
 *
 * - practice system: A2 (`GET /PractitionerRole?_count=1`), an operation every practice system provides;
 * - portal: it provides only C3–C5 (POST, PUT), so no GET is defined: a GET of its base URL, whose answer
 *   (any HTTP status) shows the portal is reachable, reported as `reachable (HTTP nnn)`, never as "ok".
 */
import type { Profile } from '../profile/schema.js';
import { responseBytes } from '../bounds.js';
import { PdeskClient } from '../client.js';
import { ContractError, HttpError, NetworkError, PdeskError, RedirectError, TooLargeError } from '../errors.js';
import type { Party } from '../ops.js';
import { redact } from '../redact.js';
import { sanitize } from '../sanitize.js';
import { createTransport } from '../transport-default.js';

/** Default deadline of one probe. */
export const PROBE_TIMEOUT_MS = 5000;

export type ProbeState =
  /** The practice system answered A2 with a 2xx. */
  | 'ok'
  /** The portal answered the GET of its base URL (any status but 401/403). */
  | 'reachable'
  /** The server answered, refusing the credentials (401, 403). */
  | 'refused'
  /** It answered, but not as the interface says (an error status for A2, a body that is not JSON). */
  | 'error'
  /** No answer: connection refused, host unknown, time-out. */
  | 'unreachable'
  /** Nothing was sent: the profile cannot be used as it is (an unset secret variable, a bad base URL). */
  | 'config';

export interface PartyProbe {
  party: Party;
  state: ProbeState;
  /** HTTP status when the server answered. */
  status?: number;
  /** Whole time of the request. */
  ms: number;
  /** When the probe ended (ISO 8601). */
  at: string;
  /** Short text for a table cell: `ok 12 ms`, `reachable (HTTP 404) 3 ms`, `unreachable`. */
  text: string;
  /** What went wrong, one sanitised and redacted sentence. */
  error?: string;
}

/** What each party's probe sends (for the screen's help and the decision record). */
export const PROBE_REQUEST: Record<Party, string> = {
  practice: 'A2: GET /PractitionerRole?_count=1',
  portal: 'GET of the base URL: the portal provides no GET operation',
};

/**
 * A client for probes: GET only (any other method is refused before it is sent), no retries, the probe's
 * deadline as request time-out and at most that as connect time-out. Close it when done.
 */
export function probeClient(profile: Profile, timeoutMs = PROBE_TIMEOUT_MS): PdeskClient {
  const transport = createTransport({
    connectMs: Math.min(profile.timeouts?.connectMs ?? timeoutMs, timeoutMs),
    requestMs: timeoutMs,
    retriesMax: 0,
    connections: 2,
    maxResponseBytes: responseBytes(profile),
  });
  return new PdeskClient(profile, { readOnly: true, readOnlyWhy: 'the Systems screen probes with GET only', transport });
}

const clean = (s: string) => redact(sanitize(s));

function errorText(e: unknown): string {
  if (e instanceof PdeskError) {
    const detail = e.details.find((d) => !/^(GET|POST|PUT|PATCH|HEAD) /.test(d) && !/^request: /.test(d) && !/^Check that /.test(d));
    return clean(detail ? `${e.message} ${detail}` : e.message);
  }
  return clean((e as Error)?.message ?? String(e));
}

/** Probe one party; never throws (an abort is reported as `unreachable`, "abandoned"). */
export async function probeParty(client: PdeskClient, party: Party, o: { signal?: AbortSignal } = {}): Promise<PartyProbe> {
  const t0 = performance.now();
  const done = (p: Omit<PartyProbe, 'party' | 'ms' | 'at'>): PartyProbe => ({
    party,
    ms: Math.round(performance.now() - t0),
    at: new Date().toISOString(),
    ...p,
  });
  try {
    const res =
      party === 'practice'
        ? await client.call('A2', { query: [['_count', '1']], signal: o.signal })
        : await client.raw('GET', 'portal', '/', undefined, { signal: o.signal });
    // A base URL that redirects is no place to send writes to (they are never followed): not `ok`.
    const hop = res.redirects?.[0];
    if (hop)
      return done({
        state: 'error',
        status: hop.status,
        text: `redirect ${hop.status}`,
        error: redact(sanitize(`the base URL redirects to ${hop.to}`)),
      });
    const r = done({ state: party === 'practice' ? 'ok' : 'reachable', status: res.status, text: '' });
    r.text = party === 'practice' ? `ok ${r.ms} ms` : `reachable (HTTP ${res.status}) ${r.ms} ms`;
    return r;
  } catch (e) {
    if (e instanceof HttpError) {
      if (e.status === 401 || e.status === 403) {
        const r = done({ state: 'refused', status: e.status, text: '', error: `credentials refused (HTTP ${e.status})` });
        r.text = `refused (HTTP ${e.status})`;
        return r;
      }
      if (party === 'portal') {
        const r = done({ state: 'reachable', status: e.status, text: '' });
        r.text = `reachable (HTTP ${e.status}) ${r.ms} ms`;
        return r;
      }
      return done({ state: 'error', status: e.status, text: `HTTP ${e.status}`, error: errorText(e) });
    }
    if (e instanceof ContractError) return done({ state: 'error', text: 'not JSON', error: errorText(e) });
    // Answered, so sent: not a configuration problem.
    if (e instanceof RedirectError) return done({ state: 'error', status: e.status, text: `redirect ${e.status}`, error: errorText(e) });
    if (e instanceof TooLargeError) return done({ state: 'error', text: 'too large', error: errorText(e) });
    if (e instanceof NetworkError)
      return done({ state: 'unreachable', text: e.code === 'TIMEOUT' ? 'time-out' : 'unreachable', error: errorText(e) });
    if (e instanceof PdeskError) return done({ state: 'config', text: 'not sent', error: errorText(e) });
    return done({ state: 'error', text: 'error', error: errorText(e) });
  }
}
