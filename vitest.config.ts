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
    ...(count ? { setupFiles: ['test/helpers/count-assertions.ts'], globalSetup: ['test/helpers/count-assertions-global.ts'] } : {}),
  },
});
