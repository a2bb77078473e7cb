/**
 * undici's Pool module on its own (transport-pool.ts loads it instead of undici's index). undici publishes no
 * `exports` map, so the path resolves; its types are the index's. The version is pinned in package-lock.json, and
 * the transport tests run through this module.
 */
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}
