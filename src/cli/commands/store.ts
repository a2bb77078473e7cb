/**
 * `pdesk store status | migrate` — the desk's store (docs/decisions.md §17): the embedded file store in the config
 * folder, or the team store on PostgreSQL that `PDESK_STORE_URL` (or the variable `storeUrlEnv` in config.json
 * names) selects. `status` says which, where (the URL with its password hidden), whether it is reachable, its schema
 * version and what is pending, and who the operator is; it exits 5 when the database cannot be reached, 3 when it
 * refuses the login or was migrated by a newer pdesk. `migrate` applies pending migrations (`--dry-run`: lists
 * them); the team store also migrates itself on first use, so `migrate` is for the database owner who sets it up.
 */
import { Command } from 'commander';
import type { Operator } from '../../core/operator.js';
import type { StoreSelection } from '../../core/store/select.js';
import type { PgStatus } from '../../core/store/pg/index.js';
import { action, type Context } from '../context.js';
import { examples } from '../help.js';
import { importCommand } from './store/import.js';

type FileStatus = { engine: 'file'; folder: string };

/** The store the settings and environment select, and the operator. */
async function selected(ctx: Context): Promise<{ store: StoreSelection; operator: Operator }> {
  return { store: await ctx.storeSelection(), operator: await ctx.operator() };
}

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

async function status(ctx: Context): Promise<void> {
  const { store, operator } = await selected(ctx);
  let shown: (FileStatus | PgStatus) & { operator: Operator };
  let error: unknown;
  if (store.engine === 'file') shown = { engine: 'file', folder: await ctx.configDir(), operator };
  else {
    const { pgStatus } = await import('../../core/store/pg/index.js');
    const r = await pgStatus(store.url, store.source);
    shown = { ...r.status, operator };
    error = r.error;
    if (!error && r.status.newer?.length) {
      const { ConfigError } = await import('../../core/errors.js');
      error = new ConfigError(`The team store at ${r.status.url} was migrated by a newer pdesk (version ${Math.max(...r.status.newer)}).`, [
        'Upgrade pdesk to use it.',
      ]);
    }
  }
  if (ctx.format === 'table') {
    const { sanitize } = await import('../../core/sanitize.js');
    ctx.out(sanitize(statusText(shown), true));
  } else ctx.emitOne(shown);
  if (error) throw error;
}

async function migrate(ctx: Context): Promise<void> {
  const { store, operator } = await selected(ctx);
  if (store.engine === 'file') {
    const { ConfigError } = await import('../../core/errors.js');
    throw new ConfigError('No team store is configured: the local file store needs no migrations.', [
      'Set PDESK_STORE_URL to postgres://user:password@host:5432/database (or storeUrlEnv in config.json) to use one.',
    ]);
  }
  const { pgMigrate, LATEST_VERSION } = await import('../../core/store/pg/index.js');
  const { redactStoreUrl } = await import('../../core/store/select.js');
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

export function storeCommand(): Command {
  const cmd = new Command('store')
    .description('the desk store: local files, or the team store on PostgreSQL (PDESK_STORE_URL)')
    .addHelpText('after', examples('pdesk store status', 'pdesk store migrate --dry-run', 'pdesk store import --dry-run'));
  cmd
    .command('status')
    .description('which store, where (password hidden), reachable, schema version and pending migrations, and the operator')
    .addHelpText('after', examples('pdesk store status', 'PDESK_STORE_URL=postgres://alice:…@db.example/pdesk pdesk store status --json'))
    .action(action(async (ctx) => status(ctx)));
  cmd
    .command('migrate')
    .description('apply pending migrations to the team store (with --dry-run: list them); run by the database owner')
    .addHelpText(
      'after',
      `\nThe team store also applies pending migrations on first use.\n${examples(
        'pdesk store migrate --dry-run',
        'PDESK_STORE_URL=postgres://owner:…@db.example/pdesk pdesk store migrate',
      )}`,
    )
    .action(action(async (ctx) => migrate(ctx)));
  cmd.addCommand(importCommand());
  return cmd;
}
