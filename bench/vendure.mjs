// Vendure under the API bench's loads, for ratios from one sitting: `npm run bench -- --only vendure`
// (Vendure alone) or `npm run bench -- --only api --vendure` (Meshfront's API rows, then Vendure's, with
// the ratio in each Vendure row's note). Never part of the default run: it installs Vendure from npm
// into a folder outside the repository and seeds a catalog of its own first.
//
// What runs: @vendure/core (VENDURE_VERSION) as a single server process — no worker, no plugins (no admin
// UI, asset server, e-mail or search index), bearer-token sessions — on sql.js (SQLite in WebAssembly,
// held in memory while serving) or, with BENCH_DATABASE_URL, on a database of its own on that PostgreSQL
// server. Seeded through Vendure's own `populate()` with 1,000 products shaped like Meshfront's synthetic
// catalog (five categories as a facet, a fifth of the products with 3–4 variants), then loaded like the
// Meshfront rows: the product list (24), a product by slug, 1,000 slugs in turn, addItemToOrder for 500
// shoppers on 50 connections, and the server's resident memory idle and after the load.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, percentiles } from './api.mjs';
import { BURST_MEASURE, pooledBursts } from './api-rows.mjs';
import { createBenchDatabase, readCpuTicks, readRss } from './engine-process.mjs';

/** The Vendure release measured; VENDURE_VERSION picks another 3.x (`npm view @vendure/core version`). */
const VENDURE_VERSION = (() => {
  const value = process.env.VENDURE_VERSION ?? '3.7.3';
  if (!/^3\.\d+\.\d+$/.test(value)) throw new Error(`VENDURE_VERSION must be a 3.x.y release, got: ${value}`);
  return value;
})();
/** What the install adds beside Vendure: the sql.js and PostgreSQL drivers TypeORM loads. */
const DRIVERS = { 'sql.js': '1.13.0', pg: '8.16.3' };
const PRODUCTS = 1000;
const SHOPPERS = 500;
const IDLE_SETTLE_MS = 12_000;
const AFTER_LOAD_SETTLE_MS = 12_000;

/** Vendure's server (and, with `populate`, its seeding), written into the install folder and run there. */
const SERVER = `'use strict';
const { bootstrap, DefaultLogger, LogLevel, TransactionalConnection, dummyPaymentHandler } = require('@vendure/core');
const { populate } = require('@vendure/core/cli');

const mode = process.argv[2];
const env = process.env;
const database = env.VENDURE_DB_URL
  ? { type: 'postgres', url: env.VENDURE_DB_URL }
  : { type: 'sqljs', location: env.VENDURE_DB_FILE, autoSave: false };
const config = {
  apiOptions: {
    hostname: '127.0.0.1',
    port: Number(env.VENDURE_PORT),
    adminApiPath: 'admin-api',
    shopApiPath: 'shop-api',
    adminApiPlayground: false,
    shopApiPlayground: false,
  },
  authOptions: {
    tokenMethod: 'bearer',
    superadminCredentials: { identifier: 'superadmin', password: env.VENDURE_ADMIN_PASSWORD },
  },
  dbConnectionOptions: { ...database, synchronize: mode === 'populate', logging: false },
  paymentOptions: { paymentMethodHandlers: [dummyPaymentHandler] },
  logger: new DefaultLogger({ level: LogLevel.Warn }),
  plugins: [],
};

async function main() {
  if (mode === 'populate') {
    const initialData = {
      defaultLanguage: 'en',
      defaultZone: 'Europe',
      countries: [{ name: 'Germany', code: 'DE', zone: 'Europe' }],
      taxRates: [{ name: 'Standard Tax', percentage: 19 }],
      shippingMethods: [{ name: 'Standard Shipping', price: 500 }],
      paymentMethods: [
        {
          name: 'Standard Payment',
          handler: { code: dummyPaymentHandler.code, arguments: [{ name: 'automaticSettle', value: 'false' }] },
        },
      ],
      collections: [],
    };
    const app = await populate(() => bootstrap(config), initialData, env.VENDURE_PRODUCTS_CSV);
    // sql.js keeps the database in memory: write it out once, for the serving process to load.
    if (!env.VENDURE_DB_URL)
      await app.get(TransactionalConnection).rawConnection.sqljsManager.saveDatabase(env.VENDURE_DB_FILE);
    await app.close();
    process.exit(0);
  }
  await bootstrap(config);
}
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
`;

/** Installs Vendure into a folder of its own under the system's temporary folder (kept for the next run). */
function install() {
  const dir = path.join(os.tmpdir(), `meshfront-bench-vendure-${VENDURE_VERSION}`);
  const installed = path.join(dir, 'node_modules', '@vendure', 'core', 'package.json');
  const wanted = { '@vendure/core': VENDURE_VERSION, ...DRIVERS };
  const manifest = path.join(dir, 'package.json');
  const current = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')).dependencies : null;
  if (!fs.existsSync(installed) || JSON.stringify(current) !== JSON.stringify(wanted)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(manifest, JSON.stringify({ private: true, dependencies: wanted }, null, 2));
    console.log(`installing @vendure/core ${VENDURE_VERSION} into ${dir} …`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`npm install of Vendure failed:\n${r.stdout}\n${r.stderr}`);
  }
  fs.writeFileSync(path.join(dir, 'server.cjs'), SERVER);
  return dir;
}

/** A CSV field, quoted when it has to be. */
const csv = (value) => (/[",\n]/.test(String(value)) ? `"${String(value).replaceAll('"', '""')}"` : String(value));

/**
 * 1,000 products in Vendure's import format, shaped like Meshfront's synthetic catalog: names from the
 * same five categories (a facet), prices 5–505, a fifth with variants (frequency band or size), stock
 * high enough that the cart load never runs out.
 */
function productsCsv() {
  const categories = ['Gateways', 'Antennas', 'Accessories', 'Software', 'Swag'];
  const variantsOf = {
    Gateways: ['frequency band', ['EU868', 'US915', 'AS923']],
    Swag: ['size', ['S', 'M', 'L', 'XL']],
  };
  const header = [
    'name',
    'slug',
    'description',
    'assets',
    'facets',
    'optionGroups',
    'optionValues',
    'sku',
    'price',
    'taxCategory',
    'stockOnHand',
    'trackInventory',
    'variantAssets',
    'variantFacets',
  ];
  const lines = [header.join(',')];
  for (let i = 0; i < PRODUCTS; i++) {
    const category = categories[i % categories.length];
    const name = `Bench ${category} ${String(i + 1).padStart(4, '0')}`;
    const slug = name.toLowerCase().replaceAll(' ', '-');
    const price = (5 + ((i * 37) % 500) + 0.99).toFixed(2);
    const description = `<p>${name}: synthetic benchmark product in ${category}, for decentralised LoRa networks.</p>`;
    const variants = variantsOf[category] && i % 2 === 0 ? variantsOf[category] : null;
    const sku = `BENCH-${String(i + 1).padStart(4, '0')}`;
    const first = [
      name,
      slug,
      description,
      '',
      `category:${category}`,
      variants ? variants[0] : '',
      variants ? variants[1][0] : '',
      variants ? `${sku}-${variants[1][0]}` : sku,
      price,
      'Standard Tax',
      1_000_000,
      'true',
      '',
      '',
    ];
    lines.push(first.map(csv).join(','));
    for (const value of variants ? variants[1].slice(1) : []) {
      lines.push(
        ['', '', '', '', '', '', value, `${sku}-${value}`, price, 'Standard Tax', 1_000_000, 'true', '', '']
          .map(csv)
          .join(','),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const LIST = `query products($take: Int, $skip: Int) {
  products(options: { take: $take, skip: $skip }) {
    totalItems
    items { ...ListItem }
  }
}
fragment ListItem on Product {
  id name slug description createdAt
  featuredAsset { id preview width height }
  facetValues { id name code facet { id code name } }
  variants { id sku name price priceWithTax currencyCode stockLevel }
}`;
const PRODUCT = `query product($slug: String!) {
  product(slug: $slug) {
    id name slug description createdAt
    featuredAsset { id preview width height }
    assets { id preview width height }
    facetValues { id name code facet { id code name } }
    optionGroups { id code name options { id code name } }
    variants { id sku name price priceWithTax currencyCode stockLevel options { id code name groupId } }
  }
}`;
const ADD = `mutation addItemToOrder($productVariantId: ID!, $quantity: Int!) {
  addItemToOrder(productVariantId: $productVariantId, quantity: $quantity) {
    __typename
    ... on Order {
      id code state totalQuantity subTotal subTotalWithTax shipping totalWithTax currencyCode
      lines { id quantity unitPriceWithTax linePriceWithTax productVariant { id sku name } }
    }
    ... on ErrorResult { errorCode message }
  }
}`;

async function shop(url, query, variables, token) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  if (body.errors?.length) throw new Error(body.errors[0].message);
  return { data: body.data, token: res.headers.get('vendure-auth-token') ?? token };
}

function startServer(dir, env, port, mode = 'serve') {
  const child = spawn(process.execPath, ['server.cjs', mode], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', ...env, VENDURE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, exited, log: () => log };
}

/** The first line of a log that names an error (Vendure warns about its settings first), else its last line. */
function firstError(log) {
  const lines = log.split('\n').filter((l) => l.trim());
  const at = lines.findIndex((l) => /error/i.test(l));
  return at < 0 ? (lines.at(-1) ?? '') : lines.slice(at, at + 3).join(' | ');
}

/** Seeds through Vendure's populate() (schema, zones, tax, shipping, payment, the CSV's products). */
async function seed(dir, env, port) {
  const csvFile = path.join(env.VENDURE_RUN_DIR, 'products.csv');
  fs.writeFileSync(csvFile, productsCsv());
  const started = Date.now();
  const server = startServer(dir, { ...env, VENDURE_PRODUCTS_CSV: csvFile }, port, 'populate');
  const code = await server.exited;
  if (code !== 0) throw new Error(`Vendure's populate failed (exit ${code}): ${firstError(server.log())}`);
  return Math.round((Date.now() - started) / 1000);
}

async function serve(dir, env, port) {
  const server = startServer(dir, env, port);
  const url = `http://127.0.0.1:${port}/shop-api`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`Vendure exited early: ${firstError(server.log())}`);
    try {
      await shop(url, LIST, { take: 1 });
      return {
        url,
        rssKB: () => readRss(server.child.pid),
        cpuTicks: () => readCpuTicks(server.child.pid),
        stop: () => {
          server.child.kill('SIGTERM');
          return server.exited;
        },
      };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  server.child.kill('SIGKILL');
  throw new Error(`Vendure did not start within 180 s: ${firstError(server.log())}`);
}

/** Waits (at most 3 minutes) until the server used less than 5 % of a CPU over 2 s. */
async function untilQuiet(server) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const before = server.cpuTicks();
    await new Promise((r) => setTimeout(r, 2000));
    if ((server.cpuTicks() - before) / 100 / 2 < 0.05) return;
  }
}

/**
 * One autocannon load where each request is built by `build(i)` (`{ body, token }`) and an answer is
 * right when `right(text)` says so; wrong answers count as errors.
 */
async function shopLoad(url, { build, right, connections, duration }) {
  let next = 0;
  let wrong = 0;
  const requests = [
    {
      method: 'POST',
      setupRequest: (request) => {
        const built = build(next++);
        return {
          ...request,
          headers: { ...request.headers, ...(built.token ? { authorization: `Bearer ${built.token}` } : {}) },
          body: built.body,
        };
      },
      onResponse: (status, text) => {
        if (status === 200 && !right(text ?? '')) wrong++;
      },
    },
  ];
  const r = await load({ url, requests, connections, duration });
  return { ...r, errors: r.errors + wrong };
}

/** "×2.5 API PGlite's" when the same sitting measured the Meshfront row. */
function ratio(rows, area, measure, value) {
  const ours = rows.find((r) => r.area === area && r.measure === measure);
  const base = Number(ours?.value);
  if (!ours || !Number.isFinite(base) || base <= 0 || !Number.isFinite(Number(value))) return '';
  return `; ×${(Number(value) / base).toFixed(1)} ${area}'s ${base}`;
}

/**
 * Vendure's rows on one database. `label` names it ('sql.js' or 'PostgreSQL'), `compareArea` the
 * Meshfront area whose rows, if this sitting measured them, give the ratios.
 */
async function vendureRows(row, rows, { dir, label, compareArea, dbEnv, port, duration }) {
  const area = `Vendure ${label}`;
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-bench-vendure-run-'));
  const env = {
    ...dbEnv,
    VENDURE_RUN_DIR: runDir,
    VENDURE_DB_FILE: path.join(runDir, 'vendure.sqlite'),
    VENDURE_ADMIN_PASSWORD: `bench-${process.pid}-${Date.now()}`,
  };
  try {
    const seconds = await seed(dir, env, port);
    const server = await serve(dir, env, port);
    try {
      await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
      const idle = Math.round(server.rssKB() / 1024);
      const memoryIdle = 'engine resident memory idle';
      row(
        area,
        memoryIdle,
        idle,
        'MB',
        '—',
        true,
        `seeded in ${seconds} s${ratio(rows, compareArea, memoryIdle, idle)}`,
      );
      let peakKB = 0;
      const sampler = setInterval(() => (peakKB = Math.max(peakKB, server.rssKB())), 250);

      // Vendure hands out at most 100 list items per request.
      const items = [];
      while (items.length < PRODUCTS) {
        const page = await shop(server.url, LIST, { take: 100, skip: items.length });
        if (!page.data.products.items.length) break;
        items.push(...page.data.products.items);
      }
      const slugs = items.map((p) => p.slug);
      if (slugs.length !== PRODUCTS) throw new Error(`Vendure lists ${slugs.length} products, expected ${PRODUCTS}`);
      const variantIds = items.map((p) => p.variants[0].id);
      const isList = (t) => t.includes('"items":[{') && !t.includes('"errors"');
      const isProduct = (t) => t.includes('"product":{') && !t.includes('"errors"');
      const listBody = JSON.stringify({ query: LIST, variables: { take: 24 } });
      const productBody = JSON.stringify({ query: PRODUCT, variables: { slug: slugs[5] } });
      const slugBodies = slugs.map((slug) => JSON.stringify({ query: PRODUCT, variables: { slug } }));
      const measured = async (measure, options) => {
        // autocannon stops at the end of its time with requests still in flight; a slow server is
        // left to finish them, so no load is measured behind the backlog of the one before.
        await shopLoad(server.url, { ...options, connections: 10, duration: 2 });
        await untilQuiet(server);
        const r = await shopLoad(server.url, { ...options, connections: 50, duration });
        await untilQuiet(server);
        row(
          area,
          measure,
          r.total > 0 ? r.p99 : '—',
          'ms',
          '—',
          r.errors === 0 && r.total > 0,
          r.total > 0
            ? `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, ${r.errors} errors${ratio(rows, compareArea, measure, r.p99)}`
            : `no answer came back within the load's ${duration} s, ${r.errors} errors`,
        );
      };
      await measured('getProducts (24) p99', { build: () => ({ body: listBody }), right: isList });
      await measured('getProduct p99', { build: () => ({ body: productBody }), right: isProduct });
      await measured('getProduct p99 (1,000 slugs, cold)', {
        build: (i) => ({ body: slugBodies[i % slugBodies.length] }),
        right: isProduct,
      });

      // The burst of new connections, as the engine's row: list and product by slug, alternating.
      const b = await pooledBursts(server.url, [
        { body: { query: LIST, variables: { take: 24 } } },
        { body: { query: PRODUCT, variables: { slug: slugs[5] } } },
      ]);
      await untilQuiet(server);
      const burst = percentiles(b.latencies);
      const kinds = [...new Set(b.errors)].slice(0, 2).join('; ');
      row(
        area,
        BURST_MEASURE,
        b.latencies.length ? burst.p99 : '—',
        'ms',
        '—',
        b.errors.length === 0,
        `p50 ${b.latencies.length ? burst.p50 : '—'} ms, max ${b.latencies.length ? Math.round(Math.max(...b.latencies)) : '—'} ms, ${b.errors.length} errors${kinds ? ` (${kinds})` : ''}; generator CPU ${Math.round(b.cpuMs)} of ${Math.round(b.wallMs)} ms${ratio(rows, compareArea, BURST_MEASURE, burst.p99)}`,
      );

      // 500 shoppers, each with a session and an order of one line, sharing 50 connections: each request
      // takes the next shopper and the next product, as the Meshfront cart row does.
      const tokens = [];
      for (let i = 0; i < SHOPPERS; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            shop(server.url, ADD, { productVariantId: variantIds[(i + j) % variantIds.length], quantity: 1 }),
          ),
        );
        for (const r of batch) {
          if (r.data.addItemToOrder.__typename !== 'Order' || !r.token)
            throw new Error(`addItemToOrder: ${r.data.addItemToOrder.message ?? 'no session token'}`);
          tokens.push(r.token);
        }
      }
      const addBodies = [...variantIds]
        .reverse()
        .map((id) => JSON.stringify({ query: ADD, variables: { productVariantId: id, quantity: 1 } }));
      const isOrder = (t) => t.includes('"__typename":"Order"') && !t.includes('"errors"');
      await measured('addToCart p99 (500 carts, 50 connections)', {
        build: (i) => ({ body: addBodies[i % addBodies.length], token: tokens[i % tokens.length] }),
        right: isOrder,
      });
      clearInterval(sampler);

      const loadEnded = Date.now();
      await untilQuiet(server);
      const quietAfter = Math.round((Date.now() - loadEnded) / 1000);
      await new Promise((r) => setTimeout(r, AFTER_LOAD_SETTLE_MS));
      const loaded = Math.round(server.rssKB() / 1024);
      const memoryLoaded = 'engine resident memory after load';
      row(
        area,
        memoryLoaded,
        loaded,
        'MB',
        '—',
        true,
        `peak during the load ${Math.round(peakKB / 1024)} MB; busy ${quietAfter} s more after it${ratio(rows, compareArea, memoryLoaded, loaded)}`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/**
 * Vendure's rows: on sql.js, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set.
 * `rows` are the rows measured so far in this sitting (for the ratios); `port` is Vendure's port.
 */
export async function benchVendure(row, rows, { duration, port }) {
  const dir = install();
  await vendureRows(row, rows, { dir, label: 'sql.js', compareArea: 'API PGlite', dbEnv: {}, port, duration });
  const pg = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!pg) {
    row('Vendure PostgreSQL', 'all', '—', '', '', true, 'skipped: set BENCH_DATABASE_URL=postgres://…');
    return;
  }
  const db = await createBenchDatabase(pg);
  try {
    await vendureRows(row, rows, {
      dir,
      label: 'PostgreSQL',
      compareArea: 'API PostgreSQL',
      dbEnv: { VENDURE_DB_URL: db.url },
      port,
      duration,
    });
  } finally {
    await db.drop();
  }
}
