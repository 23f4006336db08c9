// Database faults on PostgreSQL: two engine processes (`npm run api`, src/server/http/standalone.ts) take a
// checkout load on a PostgreSQL server of the test's own (tests/fixtures/postgres-server.ts — never the
// shared one), and that server is restarted with `pg_ctl restart -m fast` mid-load, as an operator or a
// managed database's maintenance does. Then it is stopped for a while and started again.
//
// What must hold: no engine process exits; a request caught by the restart is answered with the retryable
// DATABASE_UNAVAILABLE error (HTTP 503), never "Unexpected error." and never a hang; checkouts succeed again
// on every process within 5 s of the database accepting connections; every acknowledged order is in the
// database with its lines, and stock moved by exactly what the orders hold. While the database is down,
// /health still answers 200 and /ready 503; /ready is 200 again once it is back.
//
// The test runs once, in the embedded-database pass (it brings its own server), and is skipped when
// PostgreSQL's server binaries are not installed (CI installs them). 8 shoppers and one restart;
// MESHFRONT_LONG_TESTS=1 runs 32 shoppers and three restarts.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { createEngine } from '../../src/server/engine/index.ts';
import { consistencyProblems, stockLevels, type Query, type StockLevels } from '../fixtures/consistency.ts';
import { postgresBinDir, startPostgresServer, type PostgresServer } from '../fixtures/postgres-server.ts';
import { FIXTURE_CATALOG, TEST_ENGINE_SECRETS } from '../fixtures/test-engine-settings.ts';
import { BILLING, operation } from './shop-helpers.ts';

const LONG = process.env.MESHFRONT_LONG_TESTS === '1';
const SHOPPERS = LONG ? 32 : 8;
const RESTARTS = LONG ? 3 : 1;
/** How soon after the database accepts connections again every process must take orders again. */
const RECOVERY_MS = 5_000;

const bin = postgresBinDir();
const skipReason = process.env.DATABASE_URL
  ? 'runs once, in the embedded-database pass (it starts its own PostgreSQL server)'
  : !bin
    ? 'PostgreSQL server binaries (initdb, pg_ctl) are not installed'
    : null;

let server: PostgresServer;
let env: Record<string, string>;
let initial: StockLevels;
let admin: pg.Pool;
let dataDir = '';
const engines: EngineProcess[] = [];
let productId = 0;

type EngineProcess = { child: ChildProcess; port: number; log: () => string; exitCode: () => number | string | null };

/** `npm run api` as a child process (node with tsx as loader, so the child is the engine itself). */
function startApi(): Promise<EngineProcess> {
  return new Promise((resolve, reject) => {
    const loader = pathToFileURL(path.resolve(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
    const child = spawn(
      process.execPath,
      ['--import', loader, path.resolve(import.meta.dirname, '../../src/server/http/standalone.ts')],
      { env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let exit: number | string | null = null;
    child.on('exit', (code, signal) => {
      exit = code ?? signal;
      reject(new Error(`engine process exited (${exit}) before listening: ${out.slice(-2000)}`));
    });
    const take = (d: Buffer) => {
      out += d;
      const m = /GraphQL API on http:\/\/[^:]+:(\d+)\/graphql/.exec(out);
      if (m) resolve({ child, port: Number(m[1]), log: () => out, exitCode: () => exit });
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
  });
}

const query: Query = async (text) => (await admin.query(text)).rows;

beforeAll(async () => {
  if (skipReason) return;
  server = await startPostgresServer({ bin: bin! });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-faults-'));
  env = {
    NODE_ENV: 'test',
    ...TEST_ENGINE_SECRETS,
    DATABASE_URL: server.url,
    DATABASE_POOL_SIZE: '6',
    MESHFRONT_CATALOG_DIR: FIXTURE_CATALOG,
    MESHFRONT_SEED_ON_START: 'false',
    ORDER_SWEEP_INTERVAL_MS: '0',
    MESHFRONT_DATA_DIR: dataDir,
  };
  // Migrated and seeded once, by an engine in this process that is closed again.
  const seeding = await createEngine(loadConfig({ ...env, MESHFRONT_SEED_ON_START: 'true' }), { log: () => {} });
  await seeding.close();
  admin = new pg.Pool({ connectionString: server.url, max: 2 });
  admin.on('error', () => {});
  productId = (await admin.query(`select id from catalog_products where slug = 'omni-antenna'`)).rows[0].id;
  await admin.query(`update catalog_products set manage_stock = true, stock_quantity = 100000 where id = $1`, [
    productId,
  ]);
  initial = await stockLevels(query);
  engines.push(...(await Promise.all([startApi(), startApi()])));
}, 180_000);

afterAll(async () => {
  for (const e of engines) e.child.kill('SIGTERM');
  await admin?.end().catch(() => {});
  await server?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

type Answer = {
  status: number;
  token: string | null;
  body: { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] };
};

async function post(
  port: number,
  name: string,
  variables: Record<string, unknown>,
  token: string | null,
): Promise<Answer> {
  const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { 'woocommerce-session': `Session ${token}` } : {}),
    },
    body: JSON.stringify({ query: operation(name), variables }),
    signal: AbortSignal.timeout(20_000),
  });
  return {
    status: r.status,
    token: r.headers.get('woocommerce-session') ?? token,
    body: (await r.json()) as Answer['body'],
  };
}

type Tally = {
  acknowledged: number[];
  /** Every refusal: its HTTP status, code and message. */
  refusals: { status: number; code: unknown; message: string; step: string }[];
  /** When each process last placed an order (ms since epoch), per port. */
  lastOrderAt: Map<number, number>;
};

/** A request that got no answer (the connection broke): counted as a refusal with status 0. */
const lost = (err: Error): Answer => ({
  status: 0,
  token: null,
  body: { errors: [{ message: `no answer: ${err.message} ${(err.cause as Error)?.message ?? ''}`, extensions: {} }] },
});

/** One shopper: fills a cart on one process and checks out on the other, again and again until `stop`. */
async function shopper(i: number, tally: Tally, stop: { now: boolean }): Promise<void> {
  let n = 0;
  while (!stop.now) {
    n++;
    const addPort = engines[(i + n) % 2]!.port;
    const checkoutPort = engines[(i + n + 1) % 2]!.port;
    const add = await post(addPort, 'addToCart', { productId, quantity: 1 }, null).catch(lost);
    if (add.body.errors?.length) {
      const e = add.body.errors[0]!;
      tally.refusals.push({ status: add.status, code: e.extensions?.code, message: e.message, step: 'addToCart' });
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const done = await post(
      checkoutPort,
      'Checkout',
      { paymentMethod: 'cod', billing: { ...BILLING, email: `faults${i}@example.com` } },
      add.token,
    ).catch(lost);
    if (done.body.errors?.length) {
      const e = done.body.errors[0]!;
      tally.refusals.push({ status: done.status, code: e.extensions?.code, message: e.message, step: 'Checkout' });
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    tally.acknowledged.push(Number(done.body.data.checkout.order.databaseId));
    tally.lastOrderAt.set(checkoutPort, Date.now());
  }
}

describe.skipIf(!!skipReason)(
  `PostgreSQL restarted under a checkout load${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    it('no engine process exits, no acknowledged order is lost, checkouts succeed again within 5 s', async () => {
      const tally: Tally = { acknowledged: [], refusals: [], lastOrderAt: new Map() };
      const stop = { now: false };
      const load = Promise.all(Array.from({ length: SHOPPERS }, (_, i) => shopper(i, tally, stop)));
      try {
        for (let r = 0; r < RESTARTS; r++) {
          await new Promise((res) => setTimeout(res, 1_500));
          const before = tally.acknowledged.length;
          await server.restart();
          const backAt = Date.now();
          // Every process takes an order again, soon.
          for (;;) {
            const dead = engines.find((e) => e.exitCode() !== null);
            if (dead) throw new Error(`an engine process exited (${dead.exitCode()}): ${dead.log().slice(-3000)}`);
            const recovered = engines.every((e) => (tally.lastOrderAt.get(e.port) ?? 0) > backAt);
            if (recovered) break;
            if (Date.now() - backAt > RECOVERY_MS)
              throw new Error(
                `a process took no order within ${RECOVERY_MS} ms of the database being back; refusals: ${JSON.stringify(tally.refusals.slice(-5))}`,
              );
            await new Promise((res) => setTimeout(res, 50));
          }
          expect(tally.acknowledged.length).toBeGreaterThan(before);
        }
        await new Promise((res) => setTimeout(res, 500));
      } finally {
        stop.now = true;
        await load;
      }
      for (const e of engines) expect(e.exitCode(), e.log().slice(-3000)).toBeNull();
      // Refused requests said what happened, in the retryable way.
      for (const refusal of tally.refusals) {
        expect(refusal).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      }
      // Every acknowledged order is there, whole; stock moved by what the orders hold.
      const ids = new Set(tally.acknowledged);
      expect(ids.size).toBe(tally.acknowledged.length);
      const found = await admin.query(`select id from orders where id = any($1::int[])`, [[...ids]]);
      expect(found.rowCount).toBe(ids.size);
      expect(await consistencyProblems(query, initial)).toEqual([]);
    }, 120_000);

    it('database stopped: /health 200, /ready 503, checkouts refused at once; started again: ready and ordering within 5 s', async () => {
      const probe = async (port: number, path: string) => {
        const r = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(10_000) });
        return {
          status: r.status,
          cache: r.headers.get('cache-control'),
          body: (await r.json()) as Record<string, unknown>,
        };
      };
      for (const e of engines) {
        expect(await probe(e.port, '/health')).toEqual({ status: 200, cache: 'no-store', body: { status: 'ok' } });
        expect(await probe(e.port, '/ready')).toMatchObject({
          status: 200,
          body: { status: 'ready', migrations: 'current' },
        });
      }
      const cart = await post(engines[0]!.port, 'addToCart', { productId, quantity: 1 }, null);
      const orders = Number((await admin.query('select count(*)::int as n from orders')).rows[0].n);
      await server.stop();
      try {
        for (const e of engines) {
          expect(await probe(e.port, '/health')).toMatchObject({ status: 200 });
          const started = Date.now();
          expect(await probe(e.port, '/ready')).toMatchObject({
            status: 503,
            cache: 'no-store',
            body: { status: 'not ready', database: 'unavailable' },
          });
          expect(Date.now() - started).toBeLessThan(5_000);
        }
        const started = Date.now();
        const refused = await post(
          engines[1]!.port,
          'Checkout',
          { paymentMethod: 'cod', billing: { ...BILLING, email: 'outage@example.com' } },
          cart.token,
        );
        expect(Date.now() - started).toBeLessThan(8_000);
        expect(refused.status).toBe(503);
        expect(refused.body.errors?.[0]).toMatchObject({
          message: expect.stringContaining('cannot reach its database'),
          extensions: { code: 'DATABASE_UNAVAILABLE' },
        });
      } finally {
        await server.start();
      }
      const backAt = Date.now();
      for (const e of engines) {
        for (;;) {
          const ready = await probe(e.port, '/ready');
          if (ready.status === 200) break;
          if (Date.now() - backAt > RECOVERY_MS)
            throw new Error(`not ready ${RECOVERY_MS} ms after the start: ${JSON.stringify(ready)}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      // The refused checkout placed nothing; sent again, it places the order.
      expect(Number((await admin.query('select count(*)::int as n from orders')).rows[0].n)).toBe(orders);
      const placed = await post(
        engines[1]!.port,
        'Checkout',
        { paymentMethod: 'cod', billing: { ...BILLING, email: 'outage@example.com' } },
        cart.token,
      );
      expect(placed.body.errors).toBeUndefined();
      expect(Date.now() - backAt).toBeLessThan(RECOVERY_MS);
      for (const e of engines) expect(e.exitCode(), e.log().slice(-3000)).toBeNull();
    }, 60_000);
  },
);
