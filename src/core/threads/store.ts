/**
 * Opening a profile's thread store (the interface: types.ts; the file engine: file-store.ts).
 */
import { join } from 'node:path';
import { FileThreadStore } from './file-store.js';
import type { ThreadStore, ThreadStoreOptions } from './types.js';

export type { HealthCheck, ThreadStore, ThreadStoreOptions } from './types.js';

/** The first file of a profile's thread store (where every store began: `<dir>/threads/<profile>.ndjson`). */
export function threadStorePath(dir: string, profile: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(profile)) throw new Error(`Invalid profile name for a thread store: ${JSON.stringify(profile)}`);
  return join(dir, 'threads', `${profile}.ndjson`);
}

/** The thread store of a profile in a config folder. */
export function openThreadStore(dir: string, profile: string, o: ThreadStoreOptions = {}): ThreadStore {
  return new FileThreadStore(threadStorePath(dir, profile), profile, o);
}
