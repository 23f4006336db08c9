// `npm test`: the type check (astro check), the code rules (dependency-cruiser, knip), then every test.
// Unit and API tests (vitest) on the embedded database, the API tests again on PostgreSQL when
// TEST_DATABASE_URL is set (CI sets it), then a fresh build and the browser tests.
import { spawn, spawnSync } from 'node:child_process';
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
const typeErrors = [];
const ruleErrors = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) failures.push(label);
  return r.status === 0;
}

function vitest(label, reportName, args, env = {}) {
  const report = path.join(reportDir, `${reportName}.json`);
  fs.rmSync(report, { force: true });
  const ok = run(
    label,
    bin('vitest'),
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    env,
  );
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
    if (file.status === 'failed' && !tests.some((t) => t.status === 'failed'))
      failed.push(`${label}: ${rel}: ${oneLine(file.message)}`);
    for (const t of tests) {
      const line = `${label}: ${rel} › ${t.fullName}: ${oneLine(t.failureMessages?.[0])}`;
      if (t.status === 'failed') failed.push(line);
      else if (t.status === 'passed' && t.failureMessages?.length) flaky.push(line);
    }
  }
  return { failed, flaky };
}

/**
 * `astro check`: the .astro files and every TypeScript file tsconfig.json includes (src, tests …), with
 * TypeScript's strict settings. Its errors are named again at the end; hints are left out.
 */
function typeCheck() {
  const label = 'type check (astro check)';
  console.log(`\n=== ${label}`);
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'check', '--minimumSeverity', 'warning'],
    {
      cwd: root,
      env: process.env,
      stdio: ['inherit', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  if (r.status === 0) return;
  failures.push(label);
  // "src/x.ts:12:5 - error ts(2322): Type …": one line per error, colours taken out.
  const lines = `${r.stdout}\n${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const errors = lines.filter((l) => /^\S+:\d+:\d+ - error /.test(l)).map((l) => `${label}: ${l.slice(0, 600)}`);
  typeErrors.push(
    ...(errors.length
      ? errors
      : [
          `${label}: failed (exit ${r.status ?? r.signal ?? r.error?.message}) without naming an error: see its output above`,
        ]),
  );
}

/**
 * The rules the code keeps, each a few seconds: the rooms of README.md's "Architecture"
 * (scripts/dependency-rules.mjs: dependency-cruiser with .dependency-cruiser.cjs, and the .astro files'
 * imports), no unused files, exports or dependencies (knip, knip.json), and GraphQL documents that match
 * the engine's schemas with src/graphql/generated/ made from them (scripts/graphql/codegen.ts). What each
 * finds is named again at the end.
 */
function codeRules() {
  const checks = [
    ['dependency rules (dependency-cruiser)', ['scripts/dependency-rules.mjs']],
    ['unused code (knip)', ['node_modules/knip/bin/knip.js', '--no-progress']],
    // Every GraphQL document valid against the engine's schema, and src/graphql/generated/ up to date.
    [
      'GraphQL documents and generated types',
      ['node_modules/tsx/dist/cli.mjs', 'scripts/graphql/codegen.ts', '--check'],
    ],
    [
      'lint and format (Biome)',
      ['node_modules/@biomejs/biome/bin/biome', 'ci', '--colors=off', '--error-on-warnings', '.'],
    ],
  ];
  for (const [label, args] of checks) {
    console.log(`\n=== ${label}`);
    const started = performance.now();
    const r = spawnSync(process.execPath, args, {
      cwd: root,
      env: process.env,
      stdio: ['inherit', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    if (r.status === 0) continue;
    failures.push(label);
    const lines = `${r.stdout}\n${r.stderr}`
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    ruleErrors.push(
      ...(lines.length
        ? lines.slice(0, 60).map((l) => `${label}: ${l.slice(0, 600)}`)
        : [`${label}: failed (exit ${r.status ?? r.signal ?? r.error?.message}) without output`]),
    );
    if (lines.length > 60) ruleErrors.push(`${label}: … ${lines.length - 60} more lines above`);
  }
}

const oneLine = (text) =>
  String(text ?? '')
    .split('\n')
    .slice(0, 3)
    .join(' | ')
    .slice(0, 600);

const only = process.argv[2];
if (!only || only === 'types') typeCheck();
if (!only || only === 'rules') codeRules();
if (!only || only === 'unit') vitest('unit and API tests (PGlite)', 'vitest-pglite', []);

// The browser tests run against a build made from a fresh, seeded embedded database.
const e2eDataDir = path.join(root, 'var', 'e2e');
// The card test needs a publishable key in the build (the engine's key points at the local Stripe
// stand-in started by tests/e2e/global-setup.ts; Stripe's own script stays offline).
// PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: the checkout test buys the OS image with names and e-mail only.
const e2eEnv = {
  MESHFRONT_DATA_DIR: e2eDataDir,
  PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_e2estandin0000000000',
  PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: 'true',
};
const runsPostgres = (!only || only === 'pg') && !!process.env.TEST_DATABASE_URL;
const runsBrowser = !only || only === 'e2e';

/**
 * The build for the browser tests, started in the background: the PostgreSQL suite mostly waits on its
 * server, so the build uses the cores it leaves idle. Its output is kept in a file and printed after the
 * suite, so the two logs do not interleave.
 */
function startBuild() {
  fs.rmSync(e2eDataDir, { recursive: true, force: true });
  fs.mkdirSync(reportDir, { recursive: true });
  const logFile = path.join(reportDir, 'build.log');
  const out = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...e2eEnv },
  });
  const started = performance.now();
  const done = new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
  return async () => {
    const code = await done;
    fs.closeSync(out);
    console.log(`\n=== build`);
    process.stdout.write(fs.readFileSync(logFile, 'utf8'));
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s, beside the PostgreSQL suite)`);
    if (code !== 0) failures.push('build');
    return code === 0;
  };
}

const buildFinished = runsBrowser && runsPostgres ? startBuild() : null;
if (runsPostgres) {
  vitest('API tests (PostgreSQL)', 'vitest-postgresql', ['tests/api'], { DATABASE_URL: process.env.TEST_DATABASE_URL });
} else if (!only) {
  console.log('\n=== API tests (PostgreSQL): skipped, TEST_DATABASE_URL is not set');
}
if (runsBrowser) {
  let built;
  if (buildFinished) built = await buildFinished();
  else {
    fs.rmSync(e2eDataDir, { recursive: true, force: true });
    built = run('build', process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], e2eEnv);
  }
  if (built) run('browser tests (Playwright, Chromium)', bin('playwright'), ['test'], e2eEnv);
}

if (flakyTests.length)
  console.error(
    `\nPassed only on a second try (flaky: look into these):\n${flakyTests.map((l) => `  ${l}`).join('\n')}`,
  );
if (failures.length) {
  if (typeErrors.length) console.error(`\nType errors:\n${typeErrors.map((l) => `  ${l}`).join('\n')}`);
  if (ruleErrors.length) console.error(`\nCode rules broken:\n${ruleErrors.map((l) => `  ${l}`).join('\n')}`);
  if (failedTests.length) console.error(`\nFailed tests:\n${failedTests.map((l) => `  ${l}`).join('\n')}`);
  console.error(`\nFailed: ${failures.join(', ')}`);
  process.exit(1);
}
console.log('\nAll test suites passed.');
