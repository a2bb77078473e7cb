/**
 * `pdesk auth status | token` — the profile's authentication per party. `status` shows the kind, where the secret
 * comes from, whether it resolves, an OAuth2 token's expiry and scopes and the TLS client certificate's expiry,
 * and nothing secret; it exits 3 when a party's secret does not resolve. `token --party practice|portal` prints
 * the bearer or OAuth2 access token alone on stdout, for other tools: the only command that prints a secret
 * (Context.printSecret), and only there.
 */
import { Command } from 'commander';
import type { AuthState, PartyAuthState } from '../../../core/auth-state.js';
import { action, type Context } from '../../context.js';
import { examples } from '../../help.js';

const partyName = (p: string) => (p === 'practice' ? 'practice system' : 'portal');

function expiryText(iso: string | undefined, seconds: number | undefined): string {
  if (!iso) return 'expiry unknown';
  if (seconds === undefined) return `expires ${iso}`;
  if (seconds <= 0) return `expired at ${iso}`;
  const left = seconds < 120 ? `${seconds} s` : seconds < 7200 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds / 3600)} h`;
  return `expires ${iso} (in ${left})`;
}

/** The listing of `auth status`: one block per party. */
export function statusText(s: AuthState): string {
  const lines = [`Profile ${s.profile}${s.environment ? ` (${s.environment})` : ''}`];
  for (const p of s.parties) {
    lines.push('', `${partyName(p.party)}  ${p.baseUrl}`);
    lines.push(`  auth      ${p.type}${p.username ? ` as ${p.username}` : ''}`);
    if (p.source) lines.push(`  secret    ${p.source}`);
    if (p.type !== 'none') lines.push(`  resolves  ${p.resolves ? 'yes' : 'no'}${p.problem ? `: ${p.problem}` : ''}`);
    if (p.token && (p.token.expiresAt || p.token.scopes))
      lines.push(
        `  token     ${expiryText(p.token.expiresAt, p.token.expiresInS)}${p.token.scopes ? `; scopes ${p.token.scopes.join(' ')}` : ''}`,
      );
    if (p.tls)
      lines.push(
        `  tls       client certificate ${p.tls.certFile}: ${
          p.tls.problem ??
          `${p.tls.subject ? `${p.tls.subject}, ` : ''}${(p.tls.daysLeft ?? 0) < 0 ? 'expired' : 'expires'} ${p.tls.expiresAt} (${p.tls.daysLeft} days)`
        }`,
      );
  }
  return lines.join('\n');
}

async function status(ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  const { authState } = await import('../../../core/auth-state.js');
  const s = await authState(profile, { env: ctx.io.env, offline: ctx.dryRun, now: ctx.now().getTime() });
  if (ctx.format === 'table') {
    const { sanitize } = await import('../../../core/sanitize.js');
    ctx.out(sanitize(statusText(s), true));
  } else ctx.emitOne(s);
  const bad: PartyAuthState[] = s.parties.filter((p) => !p.resolves);
  if (bad.length) {
    const { ConfigError } = await import('../../../core/errors.js');
    throw new ConfigError(
      `The authentication of profile "${s.profile}" does not resolve for the ${bad.map((p) => partyName(p.party)).join(' and the ')}.`,
      bad.map((p) => `${partyName(p.party)}: ${p.problem}`),
    );
  }
}

export function authCommand(): Command {
  const cmd = new Command('auth')
    .description("the profile's authentication: its state per party, or a token for other tools")
    .addHelpText('after', examples('pdesk auth status', 'export PDESK_PRACTICE_TOKEN=$(pdesk auth token --party practice)'));
  cmd
    .command('status')
    .description('per party: auth type, where the secret comes from, whether it resolves, token and certificate expiry (nothing secret)')
    .addHelpText('after', examples('pdesk auth status', 'pdesk --profile acme-live auth status --json'))
    .action(action(async (ctx) => status(ctx)));
  cmd
    .command('token')
    .description('print the bearer or OAuth2 access token of a party on stdout (for curl and other tools)')
    .requiredOption('--party <party>', 'practice or portal')
    .addHelpText(
      'after',
      [
        '',
        'The only pdesk command that prints a secret, alone on stdout.',
        examples(
          'export PDESK_PRACTICE_TOKEN=$(pdesk auth token --party practice)',
          'curl -H "Authorization: Bearer $(pdesk auth token --party portal)" \\',
          '  https://portal.example.org/api/Communication',
        ),
      ].join('\n'),
    )
    .action(
      action(async (ctx, opts: { party: string }) => {
        const { oneOf } = await import('../../options.js');
        const party = oneOf(opts.party, ['practice', 'portal'] as const, '--party');
        if (ctx.dryRun) {
          const { UsageError } = await import('../../../core/errors.js');
          throw new UsageError('--dry-run does not apply to auth token: it prints a token and sends nothing but a token request.');
        }
        const { accessToken } = await import('../../../core/auth-state.js');
        ctx.printSecret(await accessToken(await ctx.profile(), party, { env: ctx.io.env }));
      }),
    );
  return cmd;
}
