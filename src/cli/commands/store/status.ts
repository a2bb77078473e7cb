/**
 * `pdesk store status`: which store, where (the URL with its password hidden), whether it is reachable, its schema
 * version and what is pending, and who the operator is; exit 5 when the database cannot be reached, 3 when it refuses
 * the login or was migrated by a newer pdesk.
 */
import { ConfigError } from '../../../core/errors.js';
import type { Operator } from '../../../core/operator.js';
import { type PgStatus, pgStatus } from '../../../core/store/pg/index.js';
import { sanitize } from '../../../core/sanitize.js';
import type { Context } from '../../context.js';
import { selected } from './selected.js';

type FileStatus = { engine: 'file'; folder: string };

/** `store status` as text. */
export function statusText(s: (FileStatus | PgStatus) & { operator: Operator }): string {
  const who = `${s.operator.name} (${s.operator.source === 'os-user' ? 'the login name' : s.operator.source === 'settings' ? 'config.json' : 'PDESK_OPERATOR'})`;
  if (s.engine === 'file') return [`engine    file (this machine only)`, `folder    ${s.folder}`, `operator  ${who}`].join('\n');
  const lines = [`engine    postgres`, `url       ${s.url}`, `from      ${s.source}`, `operator  ${who}`];
  if (!s.reachable) return [...lines, `reachable no: ${s.error ?? 'unknown'}`].join('\n');
  lines.push(`reachable yes (PostgreSQL ${s.server})`, `schema    version ${s.schemaVersion} of ${s.latestVersion}`);
  for (const p of s.pending ?? []) lines.push(`pending   ${p.version}: ${p.name}`);
  if (s.pending?.length) lines.push('          (applied on first use, or now with pdesk store migrate)');
  if (s.newer?.length) lines.push(`newer     ${s.newer.join(', ')}: migrated by a newer pdesk; upgrade pdesk`);
  if (s.changed?.length) lines.push(`changed   ${s.changed.join(', ')}: applied with a different text than this pdesk's`);
  return lines.join('\n');
}

export async function run(ctx: Context): Promise<void> {
  const { store, operator } = await selected(ctx);
  let shown: (FileStatus | PgStatus) & { operator: Operator };
  let error: unknown;
  if (store.engine === 'file') shown = { engine: 'file', folder: await ctx.configDir(), operator };
  else {
    const r = await pgStatus(store.url, store.source);
    shown = { ...r.status, operator };
    error = r.error;
    if (!error && r.status.newer?.length) {
      error = new ConfigError(`The team store at ${r.status.url} was migrated by a newer pdesk (version ${Math.max(...r.status.newer)}).`, [
        'Upgrade pdesk to use it.',
      ]);
    }
  }
  if (ctx.format === 'table') {
    ctx.out(sanitize(statusText(shown), true));
  } else ctx.emitOne(shown);
  if (error) throw error;
}
