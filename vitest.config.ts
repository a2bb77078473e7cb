import { defineConfig } from 'vitest/config';

// PDESK_COUNT_ASSERTIONS=1 counts assertion calls per test and prints the total (test/helpers/count-assertions.ts).
const count = process.env.PDESK_COUNT_ASSERTIONS === '1';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    // pdesk processes the tests start compile without the V8 code cache (src/cli/boot.ts), so no test depends on
    // or writes into the user's cache folder; the tests about the cache turn it on with a folder of their own.
    env: { PDESK_CODE_CACHE: '0' },
    ...(count ? { setupFiles: ['test/helpers/count-assertions.ts'], globalSetup: ['test/helpers/count-assertions-global.ts'] } : {}),
  },
});
