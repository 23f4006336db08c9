import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/content/**/*.test.ts'],
    // API tests start real engines on real databases; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // On CI a failed test gets one more try, as the browser tests do; one that passes only on the second
    // try is listed at the end of `npm test` (scripts/test.mjs) as flaky, so it is seen and looked into.
    retry: process.env.CI ? 1 : 0,
  },
});
