// `npm test`: every test. Unit and API tests (vitest) on the embedded database, the API tests again
// on PostgreSQL when TEST_DATABASE_URL is set (CI sets it), then a fresh build and the browser tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const failures = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) failures.push(label);
  return r.status === 0;
}

const only = process.argv[2];
if (!only || only === 'unit') run('unit and API tests (PGlite)', bin('vitest'), ['run']);
if ((!only || only === 'pg') && process.env.TEST_DATABASE_URL) {
  run('API tests (PostgreSQL)', bin('vitest'), ['run', 'tests/api'], { DATABASE_URL: process.env.TEST_DATABASE_URL });
} else if (!only) {
  console.log('\n=== API tests (PostgreSQL): skipped, TEST_DATABASE_URL is not set');
}
if (!only || only === 'e2e') {
  // The browser tests run against a build made from a fresh, seeded embedded database.
  const dataDir = path.join(root, 'var', 'e2e');
  fs.rmSync(dataDir, { recursive: true, force: true });
  // The card test needs a publishable key in the build (the engine's key points at the local Stripe
  // stand-in started by tests/e2e/global-setup.ts; Stripe's own script stays offline).
  // PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: the checkout test buys the OS image with names and e-mail only.
  const env = { MESHFRONT_DATA_DIR: dataDir, PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_e2estandin0000000000', PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: 'true' };
  if (run('build', process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], env)) {
    run('browser tests (Playwright, Chromium)', bin('playwright'), ['test'], env);
  }
}

if (failures.length) {
  console.error(`\nFailed: ${failures.join(', ')}`);
  process.exit(1);
}
console.log('\nAll test suites passed.');
