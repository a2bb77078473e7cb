/**
 * `pdesk store import [--all-profiles]` — copy the local store of the selected profile (or of every profile with
 * one in the config folder) into the team store: threads, messages, read markers, closes, owners, notifications and
 * the audit trail (docs/decisions.md §17, "Moving a team over"). Idempotent: a second run adds nothing, and a run
 * cut off is finished by the next. `--dry-run` counts what would be copied and changes nothing. Without a team store
 * it exits 3.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../../core/errors.js';
import { sanitize } from '../../../core/sanitize.js';
import { type ImportResult, importLocalStore } from '../../../core/store/pg/import.js';
import type { PgDeskStore } from '../../../core/store/pg/store.js';
import type { Context } from '../../context.js';

export interface ImportOptions {
  allProfiles?: boolean;
}

const WORDS: Array<[keyof ImportResult['added'], string]> = [
  ['messages', 'messages'],
  ['reads', 'read markers'],
  ['closes', 'closes'],
  ['owners', 'owner changes'],
  ['notifications', 'notifications'],
  ['audit', 'audit records'],
];

/** The profiles with a thread store or an audit trail in the config folder. */
function localProfiles(dir: string): string[] {
  const names = new Set<string>();
  for (const folder of ['threads', 'audit'])
    try {
      for (const f of readdirSync(join(dir, folder)))
        if (f.endsWith('.ndjson') && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(f.slice(0, -7))) names.add(f.slice(0, -7));
    } catch {
      /* no such folder */
    }
  return [...names].sort();
}

/** `120 messages, 3 closes` (what is not zero), or `nothing`. */
const counts = (c: ImportResult['added']) =>
  WORDS.filter(([k]) => c[k] > 0)
    .map(([k, w]) => `${c[k]} ${w}`)
    .join(', ') || 'nothing';

export async function run(ctx: Context, opts: ImportOptions): Promise<void> {
  const selection = await ctx.storeSelection();
  if (selection.engine === 'file') {
    throw new ConfigError('No team store is configured: there is nothing to import into.', [
      'Set PDESK_STORE_URL to postgres://user:password@host:5432/database (or storeUrlEnv in config.json) to use one.',
    ]);
  }
  const dir = await ctx.configDir();
  const profiles = opts.allProfiles ? localProfiles(dir) : [(await ctx.profile()).name];
  const store = (await ctx.deskStore()) as PgDeskStore;
  const results: ImportResult[] = [];
  for (const profile of profiles)
    results.push(await importLocalStore(store, dir, profile, { dryRun: ctx.dryRun, warn: (w) => ctx.err(`pdesk: warning: ${w}`) }));
  const url = store.where('');
  if (ctx.format !== 'table') return ctx.emitOne({ url, dryRun: ctx.dryRun, profiles: results });
  const lines = [`${ctx.dryRun ? 'Would import into' : 'Imported into'} ${url}:`];
  if (!results.length) lines.push('  no profile has a local store in this config folder');
  for (const r of results) {
    lines.push(`  ${r.profile}: ${counts(r.added)}${ctx.dryRun ? '' : ' added'}`);
    if (Object.values(r.present).some((n) => n > 0)) lines.push(`    already there: ${counts(r.present)}`);
    if (r.unknown)
      lines.push(`    not copied: ${r.unknown} message${r.unknown === 1 ? '' : 's'} whose outcome is unknown (pdesk audit shows them)`);
  }
  ctx.out(sanitize(lines.join('\n'), true));
}
