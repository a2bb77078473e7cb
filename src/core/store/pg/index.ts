/**
 * The team store on PostgreSQL (docs/decisions.md §17): the store itself (store.ts), its schema (migrations.ts,
 * migrate.ts), change events (notify.ts), and what `pdesk store status` and `pdesk store migrate` report.
 *
 *   const store = openPgStore(url, { operator });   // connects and migrates on first use
 *   await store.recordReceived(profile, record);     // { outcome: 'stored' | 'duplicate' | 'closed' }
 *   const sub = await store.subscribe(profile, (e) => …);
 *   await store.close();
 */
import { redact } from '../../redact.js';
import { redactStoreUrl } from '../select.js';
import { type ConnectOptions, connect, storeError } from './connect.js';
import { type SchemaState, migrate, schemaState } from './migrate.js';
import { LATEST_VERSION, type Migration } from './migrations.js';

export { openPgStore, PgDeskStore } from './store.js';
export { PRESENCE_HEARTBEAT_MS, PRESENCE_TTL_MS, REPLY_HOLD_MS } from '../timing.js';
export { LATEST_VERSION, MIGRATIONS } from './migrations.js';
export { StoreError } from './connect.js';

export interface PgStatus {
  engine: 'postgres';
  /** The URL, password hidden. */
  url: string;
  /** Where the URL came from (PDESK_STORE_URL, or the variable the settings name). */
  source: string;
  reachable: boolean;
  /** The server's version (`server_version`). */
  server?: string;
  /** The schema version applied (0: none yet). */
  schemaVersion?: number;
  latestVersion: number;
  pending?: Array<{ version: number; name: string }>;
  /** Versions applied by a newer pdesk. */
  newer?: number[];
  /** Applied migrations whose text differs from this pdesk's. */
  changed?: number[];
  /** Why it is not reachable or not readable (password hidden). */
  error?: string;
}

const SHORT: ConnectOptions = { max: 1, connectTimeoutS: 10 };

/** What `pdesk store status` reports; never throws for a store that cannot be reached (`reachable: false`). */
export async function pgStatus(url: string, source: string): Promise<{ status: PgStatus; error?: unknown }> {
  const base = { engine: 'postgres' as const, url: redactStoreUrl(url), source, latestVersion: LATEST_VERSION };
  const sql = connect(url, SHORT);
  try {
    const [{ server_version }] = await sql<[{ server_version: string }]>`show server_version`;
    const s = await schemaState(sql);
    return {
      status: {
        ...base,
        reachable: true,
        server: server_version,
        schemaVersion: s.version,
        pending: s.pending,
        ...(s.unknown.length ? { newer: s.unknown } : {}),
        ...(s.changed.length ? { changed: s.changed } : {}),
      },
    };
  } catch (e) {
    const err = storeError(e, url);
    return { status: { ...base, reachable: false, error: redact(err.message) }, error: err };
  } finally {
    await sql.end({ timeout: 5 }).catch(() => undefined);
  }
}

/** Apply pending migrations (`dryRun`: only read what is pending). */
export async function pgMigrate(
  url: string,
  by: string,
  o: { dryRun?: boolean } = {},
): Promise<{ before: SchemaState; applied: Array<Pick<Migration, 'version' | 'name'>> }> {
  const sql = connect(url, SHORT);
  try {
    if (o.dryRun) {
      const before = await schemaState(sql);
      return { before, applied: [] };
    }
    const { before, applied } = await migrate(sql, by);
    return { before, applied: applied.map(({ version, name }) => ({ version, name })) };
  } catch (e) {
    throw storeError(e, url);
  } finally {
    await sql.end({ timeout: 5 }).catch(() => undefined);
  }
}
