/** `pdesk profile list`: the stored profiles. */
import type { ProfileInput } from '../../../core/profile/schema.js';
import type { Context } from '../../context.js';

interface ProfileRow {
  name: string;
  default: boolean;
  environment?: string;
  practiceUrl?: string;
  portalUrl?: string;
  appointmentApi?: string;
}

function row(name: string, isDefault: boolean, p: ProfileInput): ProfileRow {
  return {
    name,
    default: isDefault,
    environment: p.environment,
    practiceUrl: p.practice?.baseUrl,
    portalUrl: p.portal?.baseUrl,
    appointmentApi: p.appointmentApi ?? '2.0.0',
  };
}

export async function run(ctx: Context): Promise<void> {
  const rows = (await ctx.store()).list().map((p) => row(p.name, p.isDefault, p.profile));
  ctx.emitList<ProfileRow>(rows, [
    { header: 'NAME', value: (r) => r.name },
    { header: 'DEFAULT', value: (r) => (r.default ? '*' : '') },
    { header: 'ENVIRONMENT', value: (r) => r.environment },
    { header: 'PRACTICE URL', value: (r) => r.practiceUrl, flex: true },
    { header: 'API', value: (r) => r.appointmentApi },
  ]);
  if (rows.length === 0 && ctx.format === 'table') ctx.err('Add one with `pdesk profile import <file>` or `pdesk profile add`.');
}
