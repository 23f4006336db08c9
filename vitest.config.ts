import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/content/**/*.test.ts'],
    // API tests start real engines on real databases; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The embedded databases test files start from, made once per run (see the file).
    globalSetup: ['tests/fixtures/template-databases.ts'],
    // The API tests place many orders from one client and with one e-mail address (the race alone 200);
    // the order limits have their own test (tests/api/trust-checkout.test.ts), which sets them itself.
    // Engines the tests start in other processes inherit these.
    env: { CHECKOUT_ORDERS_PER_IP_PER_HOUR: '100000', CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: '100000' },
    // On CI a failed test gets one more try, as the browser tests do; one that passes only on the second
    // try is listed at the end of `npm test` (scripts/test.mjs) as flaky, so it is seen and looked into.
    retry: process.env.CI ? 1 : 0,
  },
});
