/**
 * `pdesk api <METHOD> <path>` — raw escape hatch (like `gh api`): any method and path under a party's base URL,
 * sent with the profile's auth and headers through the same client as every command (so --verbose, --dry-run,
 * redaction, retries of idempotent methods and the exit codes 4/5/6 all apply). Prints the JSON answer.
 */
import { Command } from 'commander';
import { action } from '../../context.js';
import { collect } from '../../options.js';
import { safeJson } from '../../output.js';
import { examples } from '../../help.js';

export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export function apiCommand(): Command {
  const cmd = new Command('api')
    .description("send a raw request with the profile's auth and headers, print the JSON answer")
    .addHelpText(
      'after',
      examples(
        "pdesk api GET '/Slot?status=free'",
        'pdesk api GET /PractitionerRole --param speciality=0100',
        'pdesk api POST /Communication --party portal --body message.json --dry-run',
      ),
    )
    .argument('<METHOD>', `HTTP method: ${API_METHODS.join(', ')}`)
    .argument('<path>', "path under the party's base URL, e.g. /Slot?status=free (or a full URL on that server)")
    .option('--party <party>', 'practice or portal: whose base URL, auth and headers to use', 'practice')
    .option('--body <file|->', 'JSON body from a file or standard input, sent as application/fhir+json')
    .option('--param <key=value>', 'query parameter, URL-encoded (repeatable), as for the list commands', collect)
    .action(
      action(async (ctx, methodArg: string, path: string, opts: { party: string; body?: string; param?: string[] }) => {
        const { UsageError } = await import('../../../core/errors.js');
        const { oneOf, keyValues } = await import('../../options.js');
        const method = methodArg.toUpperCase();
        if (!(API_METHODS as readonly string[]).includes(method))
          throw new UsageError(`<METHOD> must be one of ${API_METHODS.join(', ')}, not "${methodArg}".`);
        const party = oneOf(opts.party, ['practice', 'portal'] as const, '--party');
        const query = keyValues(opts.param, '--param');
        if (opts.body !== undefined && (method === 'GET' || method === 'HEAD'))
          throw new UsageError(`--body cannot be sent with ${method}.`);
        if (!path.trim()) throw new UsageError('<path> must not be empty.');
        const body = opts.body === undefined ? undefined : ctx.readJson(opts.body, '--body');

        const profile = await ctx.profile();
        const { baseUrlFor, encodeQuery } = await import('../../../core/routes.js');
        if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
          // A full URL gets the profile's credentials only when it is on one of this party's servers.
          let origin: string | undefined;
          try {
            origin = new URL(path).origin;
          } catch {
            /* reported below */
          }
          const apis = party === 'practice' ? (['appointment', 'chat', 'medication'] as const) : (['chat'] as const);
          const allowed = new Set(
            [baseUrlFor(profile, party), ...apis.map((a) => baseUrlFor(profile, party, a))].map((u) => new URL(u).origin),
          );
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
      }),
    );
  return cmd;
}
