/**
 * Connections to the team store (the `postgres` driver, porsager's: pure JavaScript, no native build; README,
 * "Dependencies"), and its errors worded for operators: a database that cannot be reached exits 5 like any server,
 * one that refuses the login, does not exist or denies a privilege exits 3 (configuration), naming the URL with its
 * password hidden. This module is loaded only by what uses the team store (scripts/build.mjs keeps it and the
 * driver out of the one-shot bundle).
 */
import postgres from 'postgres';
import { ExitCode, PdeskError } from '../../errors.js';
import { redact } from '../../redact.js';
import { redactStoreUrl } from '../select.js';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

export interface ConnectOptions {
  /** Pool size (default 4); LISTEN takes a connection of its own. */
  max?: number;
  /** Seconds to wait for a connection (default 10). */
  connectTimeoutS?: number;
  /** Close connections idle this many seconds (default: keep them). */
  idleTimeoutS?: number;
  /** `application_name`, which pg_stat_activity shows (default `pdesk`). */
  applicationName?: string;
}

export function connect(url: string, o: ConnectOptions = {}): Sql {
  return postgres(url, {
    max: o.max ?? 4,
    connect_timeout: o.connectTimeoutS ?? 10,
    ...(o.idleTimeoutS !== undefined ? { idle_timeout: o.idleTimeoutS } : {}),
    // The driver prints server notices (`relation already exists, skipping`) with console.log by default.
    onnotice: () => undefined,
    // pdesk uses no array or custom types the driver would have to look up at every connection.
    fetch_types: false,
    connection: { application_name: o.applicationName ?? 'pdesk' },
  });
}

/** The team store failed; its message names the store's URL with the password hidden. */
export class StoreError extends PdeskError {}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/** SQLSTATE classes and codes that are the set-up's to fix: login, database, privileges. */
const CONFIG_STATES: Record<string, string> = {
  '28000': 'the server refused the login',
  '28P01': 'the password was refused',
  '3D000': 'the database does not exist',
  '42501': 'the database user lacks a privilege',
  '0A000': 'the server does not support this',
};

/** True when `e` says the database could not be reached (rather than refusing something). */
export function isUnreachable(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' && UNREACHABLE.has(code);
}

/** An error of the driver as a PdeskError naming the store (`url` is redacted here). */
export function storeError(e: unknown, url: string, doing = 'The team store'): PdeskError {
  if (e instanceof PdeskError) return e;
  const where = redactStoreUrl(url);
  const err = e as { code?: string; message?: string; detail?: string; hint?: string };
  const message = redact(err?.message ?? String(e));
  if (isUnreachable(e))
    return new StoreError(
      `${doing} at ${where} cannot be reached (${err.code}).`,
      ExitCode.server,
      [message, 'Check that the database server is running and that this machine can reach its host and port.'],
      { cause: e },
    ).hint({ kind: 'store-status' });
  const state = typeof err?.code === 'string' ? err.code : '';
  const details = [message, ...(err?.detail ? [redact(err.detail)] : []), ...(err?.hint ? [redact(err.hint)] : [])];
  if (CONFIG_STATES[state])
    return new StoreError(`${doing} at ${where}: ${CONFIG_STATES[state]} (${state}).`, ExitCode.config, details, { cause: e });
  return new StoreError(`${doing} at ${where} failed${state ? ` (${state})` : ''}.`, ExitCode.unexpected, details, { cause: e });
}
