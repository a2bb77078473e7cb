/**
 * `pdesk store status | migrate | import`: the desk's store (docs/decisions.md §17): the embedded file store in the config
 * folder, or the team store on PostgreSQL that `PDESK_STORE_URL` (or the variable `storeUrlEnv` in config.json
 * names) selects. `status` says which, where (the URL with its password hidden), whether it is reachable, its schema
 * version and what is pending, and who the operator is; it exits 5 when the database cannot be reached, 3 when it
 * refuses the login or was migrated by a newer pdesk. `migrate` applies pending migrations (`--dry-run`: lists
 * them); the team store also migrates itself on first use, so `migrate` is for the database owner who sets it up.
 */
import type { Command } from 'commander';
import { command, examples, subcommand } from '../../help.js';
import { verb } from '../../verb.js';

export function storeCommand(): Command {
  const cmd = command(
    'store',
    'the desk store: local files, or the team store on PostgreSQL (PDESK_STORE_URL)',
    'pdesk store status',
    'pdesk store migrate --dry-run',
    'pdesk store import --dry-run',
  );
  subcommand(
    cmd,
    'status',
    'which store, where (password hidden), reachable, schema version and pending migrations, and the operator',
    'pdesk store status',
    'PDESK_STORE_URL=postgres://alice:…@db.example/pdesk pdesk store status --json',
  ).action(verb(() => import('./status.js')));
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
    .action(verb(() => import('./migrate.js')));
  subcommand(
    cmd,
    'import',
    "copy the profile's local store (threads, messages, read markers, owners, notifications, audit trail) into the team store; a second run adds nothing",
    'pdesk store import --dry-run',
    'pdesk store import --all-profiles --json',
  )
    .option('--all-profiles', 'every profile with a local store in the config folder')
    .action(verb(() => import('./import.js')));
  return cmd;
}
