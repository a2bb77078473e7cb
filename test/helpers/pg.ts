/**
 * The throw-away PostgreSQL cluster of a test file (pg-cluster.ts starts and removes it):
 *
 *   const pg = clusterForFile();            // in a test file: started before its tests, removed after them
 *   describe.skipIf(!pgInstalled)(…, () => { … pg().url … await pg().createDatabase() … });
 *
 * Where PostgreSQL is not installed, `pgInstalled` is false, the reason is printed once, and the tests that need it
 * are skipped; under CI (`CI` set) that is a failure instead, since .ci/run installs it.
 */
import { afterAll, beforeAll } from 'vitest';
import { type PgCluster, pgInstalled, pgMissingReason, startCluster, warnMissing } from './pg-cluster.js';

export { findPgBin, type PgCluster, pgInstalled, pgMissingReason, startCluster } from './pg-cluster.js';

/**
 * One cluster for the calling test file: started in its beforeAll (when PostgreSQL is installed), stopped and removed
 * in its afterAll. Returns a getter (the cluster exists only once the hooks ran).
 */
export function clusterForFile(): () => PgCluster {
  warnMissing();
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    if (pgInstalled) cluster = await startCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => {
    if (!cluster) throw new Error(pgMissingReason ?? 'the PostgreSQL cluster is not started yet (use it inside a test or hook)');
    return cluster;
  };
}
