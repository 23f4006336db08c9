// Starts a commerce engine process (`npm run api`) on a loopback port against a given database,
// seeding it first, and stops it afterwards.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import crypto from 'node:crypto';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
/**
 * A fixed session secret for the engine and the shop commands: PostgreSQL mode requires one in
 * production, the default mode of the shop commands too (seeding refuses to start without it).
 */
const SESSION_SECRET = 'bench-only-secret-0123456789abcdef0123456789';

export function seedCatalog(env, syntheticCount) {
  const args = ['src/server/cli.ts', 'seed', '--reset'];
  if (syntheticCount) args.push('--synthetic', String(syntheticCount));
  const r = spawnSync(tsx, args, { cwd: root, env: { ...process.env, SESSION_SECRET, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`seeding failed:\n${r.stdout}\n${r.stderr}`);
}

/** Sets bench stock on the seeded database (bench/stock-setup.ts); returns { race, load } products. */
export function prepareStock(env, raceStock) {
  const r = spawnSync(tsx, ['bench/stock-setup.ts', String(raceStock)], {
    cwd: root,
    env: { ...process.env, SESSION_SECRET, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`stock setup failed:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** The race product's stock and order-line count straight from the database (engine stopped). */
export function checkStock(env, productId) {
  const r = spawnSync(tsx, ['bench/stock-setup.ts', 'check', String(productId)], {
    cwd: root,
    env: { ...process.env, SESSION_SECRET, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`stock check failed:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/**
 * A fresh PostgreSQL database for one bench run on the server of `adminUrl`, dropped by `drop()`: the
 * bench's orders and sessions never land in a database someone uses.
 */
export async function createBenchDatabase(adminUrl) {
  const { default: pg } = await import('pg');
  const name = `meshfront_bench_${crypto.randomBytes(5).toString('hex')}`;
  const run = async (statement) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/**
 * The engine as `npm run api` starts it — node's flags and the script from package.json's `api` script —
 * but without npm in between, so the child's pid is the engine itself (its memory is what the
 * resident-memory rows read, and SIGTERM reaches its graceful shutdown directly).
 */
const API_ARGS = (() => {
  const script = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.api;
  const [command, ...args] = script.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`package.json's api script must start with node, got: ${script}`);
  return args;
})();

export async function startEngine({ port, env }) {
  const child = spawn(process.execPath, API_ARGS, {
    cwd: root,
    // Production settings, as a shop runs (trusted documents on); a fixed secret because PostgreSQL mode
    // requires one. Mail goes to files under the bench's data dir. Every bench shopper orders from
    // 127.0.0.1, most with one e-mail address: the order limits are raised to measure the checkout itself.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      SESSION_SECRET,
      CHECKOUT_ORDERS_PER_IP_PER_HOUR: '100000',
      CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: '100000',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}/graphql`;
  // Generous: starting bundles the engine and opens the database, slow on a busy 2-core machine.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`engine exited early:\n${log}`);
    try {
      // A storefront document, so the probe passes trusted-documents mode.
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query getAllowedCountries {\n  allowedCountries\n}' }),
      });
      if (res.ok)
        return {
          url,
          stop: () =>
            new Promise((r) => {
              child.once('exit', r);
              child.kill('SIGTERM');
            }),
          rssKB: () => readRss(child.pid),
          cpuTicks: () => readCpuTicks(child.pid),
        };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`engine did not start within 180 s:\n${log}`);
}

/** CPU time the process has used so far, in clock ticks (user + system, /proc/<pid>/stat). */
export function readCpuTicks(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

export function readRss(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}
