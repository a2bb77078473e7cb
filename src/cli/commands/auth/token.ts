/** `pdesk auth token`: a party's bearer or OAuth2 access token alone on stdout, the only command that prints a secret. */
import { accessToken } from '../../../core/auth-state.js';
import { UsageError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { oneOf } from '../../options.js';

export interface TokenOptions {
  party: string;
}

export async function run(ctx: Context, opts: TokenOptions): Promise<void> {
  const party = oneOf(opts.party, ['practice', 'portal'] as const, '--party');
  if (ctx.dryRun) {
    throw new UsageError('--dry-run does not apply to auth token: it prints a token and sends nothing but a token request.');
  }
  ctx.printSecret(await accessToken(await ctx.profile(), party, { env: ctx.io.env }));
}
