/**
 * `pdesk store migrate`: apply the team store's pending migrations (`--dry-run`: list them); for the database owner
 * who sets it up, since the team store also migrates itself on first use.
 */
import { ConfigError } from '../../../core/errors.js';
import { LATEST_VERSION, pgMigrate } from '../../../core/store/pg/index.js';
import { redactStoreUrl } from '../../../core/store/select.js';
import type { Context } from '../../context.js';
import { selected } from './selected.js';

export async function run(ctx: Context): Promise<void> {
  const { store, operator } = await selected(ctx);
  if (store.engine === 'file') {
    throw new ConfigError('No team store is configured: the local file store needs no migrations.', [
      'Set PDESK_STORE_URL to postgres://user:password@host:5432/database (or storeUrlEnv in config.json) to use one.',
    ]);
  }
  const url = redactStoreUrl(store.url);
  const r = await pgMigrate(store.url, operator.name, { dryRun: ctx.dryRun });
  const pending = r.before.pending;
  const result = {
    url,
    dryRun: ctx.dryRun,
    from: r.before.version,
    to: ctx.dryRun ? r.before.version : LATEST_VERSION,
    ...(ctx.dryRun ? { pending } : { applied: r.applied }),
  };
  if (ctx.format !== 'table') return ctx.emitOne(result);
  if (ctx.dryRun)
    ctx.out(
      pending.length
        ? [`Would apply to ${url}:`, ...pending.map((m) => `  ${m.version}: ${m.name}`)].join('\n')
        : `The team store at ${url} is up to date (schema version ${r.before.version}); nothing to apply.`,
    );
  else
    ctx.out(
      r.applied.length
        ? [
            `Applied to ${url} (schema version ${r.before.version} → ${LATEST_VERSION}):`,
            ...r.applied.map((m) => `  ${m.version}: ${m.name}`),
          ].join('\n')
        : `The team store at ${url} is up to date (schema version ${r.before.version}).`,
    );
}
