/** `pdesk api <METHOD> <path>`: a raw request with the profile's auth and headers, the JSON answer printed. */
import { UsageError } from '../../../core/errors.js';
import { baseUrlFor, encodeQuery } from '../../../core/routes.js';
import type { Context } from '../../context.js';
import { keyValues, oneOf } from '../../options.js';
import { safeJson } from '../../output.js';
import { API_METHODS } from './methods.js';

export interface ApiOptions {
  /** `<METHOD>`. */
  method: string;
  path: string;
  party: string;
  body?: string;
  param?: string[];
}

export async function run(ctx: Context, opts: ApiOptions): Promise<void> {
  const { method: methodArg, path } = opts;
  const method = methodArg.toUpperCase();
  if (!(API_METHODS as readonly string[]).includes(method))
    throw new UsageError(`<METHOD> must be one of ${API_METHODS.join(', ')}, not "${methodArg}".`);
  const party = oneOf(opts.party, ['practice', 'portal'] as const, '--party');
  const query = keyValues(opts.param, '--param');
  if (opts.body !== undefined && (method === 'GET' || method === 'HEAD')) throw new UsageError(`--body cannot be sent with ${method}.`);
  if (!path.trim()) throw new UsageError('<path> must not be empty.');
  const body = opts.body === undefined ? undefined : ctx.readJson(opts.body, '--body');

  const profile = await ctx.profile();
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    // A full URL gets the profile's credentials only when it is on one of this party's servers.
    let origin: string | undefined;
    try {
      origin = new URL(path).origin;
    } catch {
      /* reported below */
    }
    const apis = party === 'practice' ? (['appointment', 'chat', 'medication'] as const) : (['chat'] as const);
    const allowed = new Set([baseUrlFor(profile, party), ...apis.map((a) => baseUrlFor(profile, party, a))].map((u) => new URL(u).origin));
    if (!origin || !/^https?:/.test(path) || !allowed.has(origin))
      throw new UsageError(`<path> must be a path or a URL on the ${party} server (${[...allowed].join(', ')}), not "${path}".`, [
        "pdesk api sends the profile's credentials only to the profile's own servers.",
      ]);
  }
  const qs = encodeQuery(query);
  const target = qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;

  const client = await ctx.client();
  const res = await client.raw(method, party, target, body);
  const value = res.body === undefined ? { ok: true, status: res.status } : res.body;
  // Indented JSON on a terminal too (a raw answer has no table form); --query applies as everywhere.
  ctx.emitOne(value, () => safeJson(value, true));
}
