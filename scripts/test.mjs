// `npm test`: every test. Unit and API tests (vitest) on the embedded database, the API tests again
// on PostgreSQL when TEST_DATABASE_URL is set (CI sets it), then a fresh build and the browser tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const failures = [];
// CI shows only the end of the output, so the vitest runs also write a JSON report and the failed
// tests are named again at the very end, after the long browser-test log.
const reportDir = path.join(root, 'var', 'test-results');
const failedTests = [];
const flakyTests = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) failures.push(label);
  return r.status === 0;
}

function vitest(label, reportName, args, env = {}) {
  const report = path.join(reportDir, `${reportName}.json`);
  fs.rmSync(report, { force: true });
  const ok = run(label, bin('vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], env);
  const found = readReport(label, report);
  if (!ok) failedTests.push(...found.failed);
  flakyTests.push(...found.flaky);
}

/**
 * From a vitest JSON report: lines naming each failed test (file, name, first lines of its error), and
 * each test that passed only on a retry (it passed but kept the message of its failed try).
 */
function readReport(label, report) {
  let data;
  try {
    data = JSON.parse(fs.readFileSync(report, 'utf8'));
  } catch {
    return { failed: [`${label}: no report was written (${path.relative(root, report)})`], flaky: [] };
  }
  const failed = [];
  const flaky = [];
  for (const file of data.testResults ?? []) {
    const rel = path.relative(root, file.name);
    const tests = file.assertionResults ?? [];
    if (file.status === 'failed' && !tests.some((t) => t.status === 'failed')) failed.push(`${label}: ${rel}: ${oneLine(file.message)}`);
    for (const t of tests) {
      const line = `${label}: ${rel} › ${t.fullName}: ${oneLine(t.failureMessages?.[0])}`;
      if (t.status === 'failed') failed.push(line);
      else if (t.status === 'passed' && t.failureMessages?.length) flaky.push(line);
    }
  }
  return { failed, flaky };
}

const oneLine = (text) => String(text ?? '').split('\n').slice(0, 3).join(' | ').slice(0, 600);

const only = process.argv[2];
if (!only || only === 'unit') vitest('unit and API tests (PGlite)', 'vitest-pglite', []);
if ((!only || only === 'pg') && process.env.TEST_DATABASE_URL) {
  vitest('API tests (PostgreSQL)', 'vitest-postgresql', ['tests/api'], { DATABASE_URL: process.env.TEST_DATABASE_URL });
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

if (flakyTests.length) console.error(`\nPassed only on a second try (flaky: look into these):\n${flakyTests.map((l) => `  ${l}`).join('\n')}`);
if (failures.length) {
  if (failedTests.length) console.error(`\nFailed tests:\n${failedTests.map((l) => `  ${l}`).join('\n')}`);
  console.error(`\nFailed: ${failures.join(', ')}`);
  process.exit(1);
}
console.log('\nAll test suites passed.');
