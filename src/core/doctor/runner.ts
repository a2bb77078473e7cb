/**
 * `pdesk doctor`: first-line triage of one profile, step by step. The profile is valid; its secrets resolve;
 * per party (practice system, portal): DNS, TCP connect time, the TLS certificate (subject, days to expiry),
 * an OAuth2 token and its lifetime, one GET round trip, the server's clock against ours (its Date header);
 * then the local thread store and bulk-send journals. A step that cannot run because an earlier one failed is
 * skipped, naming it. Only GET requests are sent.
 */
import { type Exchange, PdeskClient } from '../client.js';
import type { Party } from '../ops.js';
import type { Profile } from '../profile/schema.js';
import { readPemFile } from '../profile/secrets.js';
import { validateProfile } from '../profile/schema.js';
import { authHeader, oauthTokenExpiry } from '../auth.js';
import type { CheckMessage, CheckOutcome } from '../check/model.js';
import { summarize } from '../check/model.js';
import type { Transport, TlsFiles } from '../transport.js';
import type { DeskStore } from '../store/types.js';
import { journalMessages, threadStoreMessages } from './local.js';
import { DOCTOR_LIMITS, type DoctorArea, type DoctorReport, type DoctorResult } from './model.js';
import { probeDns, probeTcp, probeTls } from './network.js';
import { roundTrip } from './roundtrip.js';
import { secretMessages } from './secrets.js';

export interface DoctorOptions {
  /** The profile's name and its stored (not yet validated) content. */
  name: string;
  raw: unknown;
  /** The config folder holding the thread store and journals. */
  configDir: string;
  signal?: AbortSignal;
  onResult?: (r: DoctorResult) => void;
  transport?: Transport;
  /** Where the variables the profile names are read (the process's by default). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Also called with every exchange (a `--trace` file). */
  observe?: (e: Exchange) => void;
  /** The desk's store when it is the team store (else the thread store in `configDir` is read). */
  store?: DeskStore;
}

/** A step's outcome: messages (an `error` makes it fail), or `omit`/`skip` with the reason. */
type StepOutcome = { messages: CheckMessage[] } | { result: 'omit' | 'skip'; reason: string };

const PARTY_AREA: Record<Party, DoctorArea> = { practice: 'practice system', portal: 'portal' };

export async function runDoctor(o: DoctorOptions): Promise<DoctorReport> {
  const startedAt = new Date();
  const results: DoctorResult[] = [];
  const step = async (id: string, area: DoctorArea, title: string, fn: () => Promise<StepOutcome> | StepOutcome) => {
    const t0 = performance.now();
    let outcome: StepOutcome;
    if (o.signal?.aborted) outcome = { result: 'skip', reason: 'the run was stopped before this step' };
    else
      try {
        outcome = await fn();
      } catch (e) {
        outcome = { messages: [{ type: 'error', text: `pdesk fault: ${(e as Error)?.message ?? String(e)}` }] };
      }
    const r: DoctorResult =
      'reason' in outcome
        ? { id, area, title, result: outcome.result, messages: [{ type: 'info', text: outcome.reason }], durationMs: 0 }
        : {
            id,
            area,
            title,
            result: outcome.messages.some((m) => m.type === 'error') ? 'fail' : 'pass',
            messages: outcome.messages,
            durationMs: Math.round(performance.now() - t0),
          };
    results.push(r);
    o.onResult?.(r);
    return r.result;
  };

  let profile: Profile | undefined;
  await step('profile', 'profile', 'the profile is valid', () => {
    try {
      profile = validateProfile(o.raw, `profile "${o.name}"`);
    } catch (e) {
      return { messages: [{ type: 'error', text: (e as Error).message }] };
    }
    const p = profile;
    return {
      messages: [
        {
          type: 'info',
          text: `appointment API ${p.appointmentApi}, approval flow ${p.approvalFlow ? 'on' : 'off'}${p.environment ? `, environment ${p.environment}` : ''}.`,
        },
      ],
    };
  });

  if (!profile) {
    for (const [id, area, title] of skippedWithoutProfile)
      await step(id, area, title, () => ({ result: 'skip', reason: 'needs a valid profile' }));
  } else {
    const p = profile;
    await step('secrets', 'profile', 'its secrets resolve (variables, token commands, key files)', () => ({
      messages: secretMessages(p, o.env),
    }));
    const exchanges: Exchange[] = [];
    const client = new PdeskClient(p, {
      transport: o.transport,
      readOnly: true,
      readOnlyWhy: 'the doctor only reads',
      env: o.env,
      observe: (e) => {
        exchanges.push(e);
        o.observe?.(e);
      },
    });
    try {
      for (const party of ['practice', 'portal'] as const) await partySteps(p, party, client, exchanges, step, o.signal);
    } finally {
      if (!o.transport) await client.close();
    }
  }

  await step('thread-store', 'local files', "the desk's store is readable", async () => ({
    messages: (await threadStoreMessages(o.configDir, o.name, o.store)).messages,
  }));
  await step('journals', 'local files', 'no bulk-send rows are waiting', async () => ({
    messages: (await journalMessages(o.configDir, o.name)).messages,
  }));

  return {
    profile: o.name,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    results,
    summary: summarize(results),
  };
}

const partyTitles = (party: Party) => {
  const who = party === 'practice' ? 'the practice system' : 'the portal';
  return [
    [`${party}-dns`, `${who}'s host names resolve`],
    [`${party}-tcp`, `${who} accepts TCP connections`],
    [`${party}-tls`, `${who}'s TLS certificate is valid and not about to expire`],
    [`${party}-token`, `an OAuth2 token for ${who} is obtained`],
    [`${party}-roundtrip`, `${who} answers a GET`],
    [`${party}-clock`, `${who}'s clock agrees with this machine's`],
  ] as const;
};

const skippedWithoutProfile: Array<readonly [string, DoctorArea, string]> = [
  ['secrets', 'profile', 'its secrets resolve (variables, token commands, key files)'],
  ...(['practice', 'portal'] as const).flatMap((party) => partyTitles(party).map(([id, title]) => [id, PARTY_AREA[party], title] as const)),
];

type Step = (id: string, area: DoctorArea, title: string, fn: () => Promise<StepOutcome> | StepOutcome) => Promise<CheckOutcome>;

/** The distinct origins of a party: its base URL and any per-API base URL. */
function origins(profile: Profile, party: Party): URL[] {
  const block = profile[party] as { baseUrl: string } & Partial<Record<'appointment' | 'chat' | 'medication', { baseUrl?: string }>>;
  const urls = [block.baseUrl, block.appointment?.baseUrl, block.chat?.baseUrl, block.medication?.baseUrl].filter((u): u is string => !!u);
  const seen = new Map<string, URL>();
  for (const u of urls) {
    const url = new URL(u);
    if (!seen.has(url.origin)) seen.set(url.origin, url);
  }
  return [...seen.values()];
}

async function partySteps(profile: Profile, party: Party, client: PdeskClient, exchanges: Exchange[], step: Step, signal?: AbortSignal) {
  const area = PARTY_AREA[party];
  const titles = Object.fromEntries(partyTitles(party).map(([id, title]) => [id.slice(party.length + 1), title])) as Record<string, string>;
  const timeoutMs = profile.timeouts?.connectMs ?? 5000;
  const urls = origins(profile, party);
  const block = profile[party];

  const probeAll = async (probe: (u: URL) => Promise<{ ok: boolean; messages: CheckMessage[] }>) => {
    const all = await Promise.all(urls.map(probe));
    return { ok: all.every((p) => p.ok), messages: all.flatMap((p) => p.messages) };
  };
  let dnsOk = false;
  await step(`${party}-dns`, area, titles.dns!, async () => {
    const dns = await probeAll((u) => probeDns(u, timeoutMs));
    dnsOk = dns.ok;
    return { messages: dns.messages };
  });
  let tcpOk = false;
  await step(`${party}-tcp`, area, titles.tcp!, async () => {
    if (!dnsOk) return { result: 'skip', reason: `needs ${party}-dns` };
    const tcp = await probeAll((u) => probeTcp(u, timeoutMs));
    tcpOk = tcp.ok;
    return { messages: tcp.messages };
  });

  let tls: TlsFiles | undefined;
  let tlsReadable = true;
  try {
    tls = block.tls && {
      ca: block.tls.caFile ? readPemFile(block.tls.caFile, 'CA') : undefined,
      cert: block.tls.certFile ? readPemFile(block.tls.certFile, 'client certificate') : undefined,
      key: block.tls.keyFile ? readPemFile(block.tls.keyFile, 'client key') : undefined,
    };
  } catch {
    tlsReadable = false;
  }
  await step(`${party}-tls`, area, titles.tls!, async () => {
    const https = urls.filter((u) => u.protocol === 'https:');
    if (!https.length) return { result: 'omit', reason: 'plain HTTP: there is no TLS certificate to check' };
    if (!tcpOk) return { result: 'skip', reason: `needs ${party}-tcp` };
    if (!tlsReadable) return { result: 'skip', reason: 'the TLS files of the profile cannot be read (see secrets)' };
    const all = await Promise.all(https.map((u) => probeTls(u, tls, timeoutMs)));
    return { messages: all.flatMap((p) => p.messages) };
  });

  await step(`${party}-token`, area, titles.token!, async () => {
    const auth = block.auth;
    if (auth?.type !== 'oauth2-client-credentials')
      return { result: 'omit', reason: `auth ${auth?.type ?? 'none'}: there is no token to obtain` };
    const t0 = performance.now();
    try {
      await authHeader(auth, party, tls);
    } catch (e) {
      return {
        messages: [
          {
            type: 'error',
            text: `${(e as Error).message}${'details' in (e as object) ? ` ${(e as { details: string[] }).details.join(' ')}` : ''}`,
          },
        ],
      };
    }
    const ms = Math.round(performance.now() - t0);
    const expiry = oauthTokenExpiry(auth);
    const lifetime = expiry === undefined ? undefined : Math.round((expiry - Date.now()) / 1000);
    const messages: CheckMessage[] = [
      {
        type: 'info',
        text: `token obtained from ${auth.tokenUrl} in ${ms} ms${lifetime === undefined ? '' : `, valid for ${lifetime} s`}.`,
      },
    ];
    if (lifetime !== undefined && lifetime < DOCTOR_LIMITS.tokenLifetimeS)
      messages.push({ type: 'warning', text: `the token lives only ${lifetime} s: pdesk asks for a new one before almost every request.` });
    return { messages };
  });

  const before = exchanges.length;
  await step(`${party}-roundtrip`, area, titles.roundtrip!, async () => {
    if (!tcpOk) return { result: 'skip', reason: `needs ${party}-tcp` };
    return { messages: await roundTrip(client, party, signal) };
  });
  const answered = exchanges.slice(before).find((e) => e.status !== undefined);
  await step(`${party}-clock`, area, titles.clock!, () => {
    if (!answered) return { result: 'skip', reason: `needs an answer from ${party}-roundtrip` };
    return { messages: clockMessages(answered) };
  });
}

/** The server's clock from its Date header against ours at the middle of the exchange (the header has whole seconds). */
function clockMessages(e: Exchange): CheckMessage[] {
  const date = e.responseHeaders?.date;
  if (!date) return [{ type: 'warning', text: 'the answer carries no Date header: the clock cannot be compared.' }];
  const server = Date.parse(date);
  if (Number.isNaN(server)) return [{ type: 'warning', text: `the Date header is not a date: ${JSON.stringify(date)}.` }];
  const ours = Date.parse(e.startedAt) + e.ms / 2;
  const skew = Math.round((server + 500 - ours) / 1000);
  const off = Math.abs(skew);
  if (off > DOCTOR_LIMITS.clockSkewS)
    return [
      {
        type: 'warning',
        text: `the server's clock is ${off} s ${skew > 0 ? 'ahead of' : 'behind'} this machine's: date searches shift, and signed tokens (JWT) may be refused as not yet or no longer valid.`,
      },
    ];
  return [{ type: 'info', text: `the server's clock is within ${Math.max(1, off)} s of this machine's.` }];
}
