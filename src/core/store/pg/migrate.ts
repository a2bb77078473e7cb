/**
 * Applying the team store's migrations (migrations.ts). `migrate` runs in one transaction that first takes a
 * transaction-level advisory lock, so processes starting together apply each migration once: the second waits for
 * the first to commit, then finds nothing pending. `pdesk.schema_migrations` records each version with the
 * SHA-256 of the text applied. A database migrated by a newer pdesk (a version this one does not know) is refused:
 * its tables may no longer mean what this version thinks.
 *
 * Reading the state (`schemaState`) needs no privilege beyond reading; only applying a migration needs the
 * right to create objects (docs/decisions.md §17: the owner role migrates, operators' roles read and write rows).
 */
import { hash } from 'node:crypto';
import { ExitCode } from '../../errors.js';
import type { Sql, Tx } from './connect.js';
import { StoreError } from './connect.js';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations.js';

/** The advisory lock key of migrations (any constant: "pdesk" in ASCII). */
export const MIGRATION_LOCK = 0x706465736b;

export interface AppliedMigration {
  version: number;
  name: string;
  checksum: string;
  appliedAt: string;
  appliedBy: string;
}

export interface SchemaState {
  /** The newest version applied (0: none). */
  version: number;
  applied: AppliedMigration[];
  /** Known to this pdesk and not applied yet, in order. */
  pending: Array<Pick<Migration, 'version' | 'name'>>;
  /** Versions applied that this pdesk does not know (a newer pdesk migrated the database). */
  unknown: number[];
  /** Applied migrations whose text differs from this pdesk's. */
  changed: number[];
  latest: number;
}

export const checksumOf = (m: Migration) => hash('sha256', m.sql);

async function readApplied(sql: Sql | Tx): Promise<AppliedMigration[]> {
  // Read from the catalog with this statement's snapshot: to_regclass() answers from the session's catalog cache,
  // which, after waiting for the migration lock, may still say "no such table" of one another process just created.
  const [{ exists }] = await sql<[{ exists: boolean }]>`
    select exists (select 1 from pg_catalog.pg_tables where schemaname = 'pdesk' and tablename = 'schema_migrations') as exists`;
  if (!exists) return [];
  const rows = await sql<Array<{ version: number; name: string; checksum: string; applied_at: Date; applied_by: string }>>`
    select version, name, checksum, applied_at, applied_by from pdesk.schema_migrations order by version`;
  return rows.map((r) => ({
    version: r.version,
    name: r.name,
    checksum: r.checksum,
    appliedAt: r.applied_at.toISOString(),
    appliedBy: r.applied_by,
  }));
}

function stateOf(applied: AppliedMigration[]): SchemaState {
  const done = new Map(applied.map((a) => [a.version, a]));
  const known = new Set(MIGRATIONS.map((m) => m.version));
  return {
    version: applied.reduce((v, a) => Math.max(v, a.version), 0),
    applied,
    pending: MIGRATIONS.filter((m) => !done.has(m.version)).map(({ version, name }) => ({ version, name })),
    unknown: applied.filter((a) => !known.has(a.version)).map((a) => a.version),
    changed: MIGRATIONS.filter((m) => done.has(m.version) && done.get(m.version)!.checksum !== checksumOf(m)).map((m) => m.version),
    latest: LATEST_VERSION,
  };
}

/** The schema's state, read without changing anything. */
export async function schemaState(sql: Sql): Promise<SchemaState> {
  return stateOf(await readApplied(sql));
}

function newerError(s: SchemaState): StoreError {
  return new StoreError(
    `The team store's schema is at version ${Math.max(...s.unknown)}, newer than this pdesk knows (${s.latest}).`,
    ExitCode.config,
    ['A newer pdesk migrated it: upgrade pdesk to use this store.'],
  );
}

/** Refuse a schema this pdesk cannot use (a newer one). */
export function checkUsable(s: SchemaState): void {
  if (s.unknown.length) throw newerError(s);
}

/**
 * Apply every pending migration, in order, in one transaction under the migration lock. Returns the state before
 * and the migrations applied (none when another process applied them first). `by` is recorded per migration.
 */
export async function migrate(sql: Sql, by: string): Promise<{ before: SchemaState; applied: Migration[] }> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    const before = stateOf(await readApplied(tx));
    checkUsable(before);
    if (before.pending.length === 0) return { before, applied: [] };
    // Creating the schema needs the database's CREATE privilege only when it does not exist yet (a DBA may create
    // it beforehand, owned by the role that migrates).
    await tx.unsafe(`do $$ begin
      if not exists (select 1 from pg_namespace where nspname = 'pdesk') then create schema pdesk; end if;
    end $$`);
    await tx.unsafe(`create table if not exists pdesk.schema_migrations (
      version integer primary key,
      name text not null,
      checksum text not null,
      applied_at timestamptz not null default now(),
      applied_by text not null
    )`);
    const applied: Migration[] = [];
    for (const m of MIGRATIONS) {
      if (!before.pending.some((p) => p.version === m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`insert into pdesk.schema_migrations (version, name, checksum, applied_by)
        values (${m.version}, ${m.name}, ${checksumOf(m)}, ${by})`;
      applied.push(m);
    }
    return { before, applied };
  }) as Promise<{ before: SchemaState; applied: Migration[] }>;
}
