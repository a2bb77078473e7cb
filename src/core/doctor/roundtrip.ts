/**
 * Doctor's round trip of one party: one GET, its answer judged as the commands judge it. At the practice system,
 * A2 (PractitionerRole): a 2xx must be read as every command reads it (bounded: src/core/json.ts) and be a Bundle of
 * PractitionerRoles (the schema every list command parses it with), or every command that reads it would exit 6. At the portal, which provides
 * no GET operation, any answer from its base URL shows the round trip. At either, a base URL that redirects is a
 * failure naming where it points (a write there would not be done), and the answer's bounds are the profile's.
 */
import type { ApiResult, PdeskClient } from '../client.js';
import { ContractError, HttpError, statusLine } from '../errors.js';
import type { Party } from '../ops.js';
import type { CheckMessage } from '../check/model.js';
import { profileFix } from '../redirect.js';
import { PractitionerRole } from '../schemas/appointment.js';
import { parseBundle } from '../schemas/bundle.js';

/** One GET to a party, judged; `took` says how long it has been since it started. */
export async function roundTrip(client: PdeskClient, party: Party, signal?: AbortSignal): Promise<CheckMessage[]> {
  const t0 = performance.now();
  const took = () => `${Math.round(performance.now() - t0)} ms`;
  // Named as the operator knows it: the practice system's A2, the portal's base URL.
  const what = party === 'practice' ? 'A2' : "the portal's base URL";
  let res: ApiResult;
  try {
    res = party === 'practice' ? await client.call('A2', { signal }) : await client.raw('GET', 'portal', '/', undefined, { signal });
  } catch (e) {
    if (e instanceof HttpError) {
      if (e.status === 401 || e.status === 403)
        return [{ type: 'error', text: `the server refused the credentials: ${statusLine(e.status)} (check the profile's auth).` }];
      if (party === 'portal' && e.status < 500)
        return [
          {
            type: 'info',
            text: `the base URL answered ${statusLine(e.status)} in ${took()} (the portal has no GET operation: any answer shows the round trip).`,
          },
        ];
      return [{ type: 'error', text: `${what} answered ${statusLine(e.status)}${e.status === 404 ? ': check the base URL' : ''}.` }];
    }
    if (e instanceof ContractError) {
      if (party === 'portal') return [{ type: 'info', text: `the base URL answered in ${took()} (not JSON).` }];
      // Read as every command reads it (bounded: src/core/json.ts), so what fails here fails them too.
      return [{ type: 'error', text: `A2 answered in ${took()}, but ${lowerFirst(e.message)} ${EVERY_COMMAND}`, path: e.path }];
    }
    return [{ type: 'error', text: (e as Error).message }];
  }
  const messages: CheckMessage[] = [];
  const hops = res.redirects ?? [];
  if (hops.length) {
    const first = hops[0]!;
    const last = hops[hops.length - 1]!;
    messages.push({
      type: 'error',
      text: `the ${party === 'practice' ? 'practice system' : 'portal'}'s base URL redirects: GET ${first.from} answered ${statusLine(first.status)} pointing to ${last.to}${hops.length > 1 ? ` (${hops.length} redirects)` : ''}. Reads follow it, but a write there is not done: ${profileFix(client.profile, party === 'practice' ? 'A2' : undefined, first.from, last.to)}.`,
    });
  }
  const answered = `${party === 'practice' ? 'A2' : 'GET of the base URL'} answered ${statusLine(res.status)} in ${took()}`;
  if (party === 'portal') return [...messages, { type: 'info', text: `${answered}.` }];
  const problem = a2Problem(res.body);
  messages.push(
    problem ? { type: 'error', text: `${answered}, but ${problem.text}`, path: problem.path } : { type: 'info', text: `${answered}.` },
  );
  return messages;
}

/** Why A2's answer would make every command that reads it fail (and where), or undefined. */
function a2Problem(body: unknown): { text: string; path?: string } | undefined {
  if (body === undefined) return { text: 'the answer has no body: every command that reads A2 would fail (exit 6).' };
  try {
    parseBundle(PractitionerRole, body);
  } catch (e) {
    if (!(e instanceof ContractError)) throw e;
    return { text: `${lowerFirst(e.message)} ${EVERY_COMMAND}`, path: e.path };
  }
  return undefined;
}

const EVERY_COMMAND = 'Every command that reads A2 would fail (exit 6).';
const lowerFirst = (s: string) => `${s.charAt(0).toLowerCase()}${s.slice(1)}`;
