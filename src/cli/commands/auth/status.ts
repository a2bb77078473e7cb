/** `pdesk auth status`: the profile's authentication per party, nothing secret; exit 3 when a secret does not resolve. */
import { type AuthState, type PartyAuthState, authState } from '../../../core/auth-state.js';
import { ConfigError } from '../../../core/errors.js';
import { sanitize } from '../../../core/sanitize.js';
import type { Context } from '../../context.js';

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

export async function run(ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  const s = await authState(profile, { env: ctx.io.env, offline: ctx.dryRun, now: ctx.now().getTime() });
  if (ctx.format === 'table') {
    ctx.out(sanitize(statusText(s), true));
  } else ctx.emitOne(s);
  const bad: PartyAuthState[] = s.parties.filter((p) => !p.resolves);
  if (bad.length) {
    throw new ConfigError(
      `The authentication of profile "${s.profile}" does not resolve for the ${bad.map((p) => partyName(p.party)).join(' and the ')}.`,
      bad.map((p) => `${partyName(p.party)}: ${p.problem}`),
    );
  }
}
