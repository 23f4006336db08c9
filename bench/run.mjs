// `npm run bench`: measures what shoppers and operators feel and prints one table against the
// shop's performance budgets (the `budget` column). Exits non-zero when a measured figure breaks its budget.
//
//   npm run bench                  everything that can run here
//   npm run bench -- --only api    API only;  --only site  page weight only;  --only build  build time
//   npm run bench -- --quick       shorter loads (3 s) for a smoke run
//   npm run bench -- --only lighthouse | static | build    one site measure (site = page weight, Lighthouse, static)
//   npm run bench -- --soak 10m    only the soak: mixed traffic for that long (30s, 10m, 1h)
//   npm run bench -- --only vendure             Vendure under the same API loads (installs it from npm)
//   npm run bench -- --only api --vendure       the API rows, then Vendure's with the ratios
import path from 'node:path';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { checkStock, createBenchDatabase, prepareStock, seedCatalog, startEngine } from './engine-process.mjs';
import { operationDocument, graphql, load, post, runFlows } from './api.mjs';
import { burstRow, coldProductRow } from './api-rows.mjs';
import { benchVendure } from './vendure.mjs';
import { measurePageWeights } from './page-weight.mjs';
import { benchLighthouse, benchStaticServer, benchBuilds, benchSoak } from './site-sections.mjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
// A soak run measures only the soak.
const only = args.includes('--soak') ? 'soak' : args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const duration = args.includes('--quick') ? 3 : 10;
const soakFor = args.includes('--soak') ? args[args.indexOf('--soak') + 1] : undefined;
const rows = [];

function row(area, measure, value, unit, budget, ok, note = '') {
  rows.push({ area, measure, value, unit, budget, ok, note });
}

/** The engine's port; BENCH_API_PORT moves it (two benches on one machine). */
const API_PORT = (() => {
  const value = process.env.BENCH_API_PORT ?? '4510';
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1024 || port > 65535)
    throw new Error(`BENCH_API_PORT must be a port number from 1024 to 65535, got: ${value}`);
  return port;
})();
const BILLING = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address1: 'Hauptstr. 1',
  city: 'Berlin',
  postcode: '10115',
  country: 'DE',
  email: 'bench@example.com',
  phone: '+49 30 123456',
};
/**
 * The engine's resident memory budgets (1,000 products): a shop on a 1 GB server must fit the engine, the
 * site and the operating system.
 */
const MEMORY_IDLE_MB = 150;
const MEMORY_LOADED_MB = 250;
/** Two of the engine's quiet checks after its start (it gives back what starting grew into). */
const IDLE_SETTLE_MS = 12_000;
/** Two of the engine's quiet checks (MEMORY_RELEASE_CHECK_MS, 5 s) and a little. */
const AFTER_LOAD_SETTLE_MS = 12_000;

/** Waits (at most 3 minutes) until the engine used less than 5 % of a CPU over 2 s. */
async function untilQuiet(engine) {
  const deadline = Date.now() + 180_000;
  const ticksPerSecond = 100;
  while (Date.now() < deadline) {
    const before = engine.cpuTicks();
    await new Promise((r) => setTimeout(r, 2000));
    if ((engine.cpuTicks() - before) / ticksPerSecond / 2 < 0.05) return;
  }
}
/** Overselling check: 200 concurrent checkouts against this much stock must sell exactly this much. */
const RACE_STOCK = 20;
const RACE_CHECKOUTS = 200;

const ms = (r) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms`;

/**
 * The API rows on one database: catalog reads, cart and checkout at 50 connections on the 1,000-product
 * catalog, and the 200-checkouts-against-20-units race. `env` names the database; its data dir is removed
 * before and after.
 */
async function benchApi(label, env) {
  const area = `API ${label}`;
  const dataDir = env.MESHFRONT_DATA_DIR;
  fs.rmSync(dataDir, { recursive: true, force: true });
  try {
    seedCatalog(env, 1000);
    const stock = prepareStock(env, RACE_STOCK);
    const engine = await startEngine({ port: API_PORT, env });
    let race;
    try {
      // Idle: started, answered its first request, then left alone (start-up work settles, and the engine
      // gives back what starting grew into: src/lib/http/memory-release.ts).
      await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
      const idle = Math.round(engine.rssKB() / 1024);
      row(area, 'engine resident memory idle', idle, 'MB', `≤ ${MEMORY_IDLE_MB}`, idle <= MEMORY_IDLE_MB);
      let peakKB = 0;
      const sampler = setInterval(() => (peakKB = Math.max(peakKB, engine.rssKB())), 250);
      await catalogRows(area, engine, 1000, true);
      await cartRows(area, engine, stock);
      await checkoutRows(area, engine, stock);
      race = await raceCheckouts(engine, stock);
      clearInterval(sampler);
      // What stays once the load is over: the engine first finishes what the load left it (the orders'
      // mails and invoices), then, quiet, gives back what the load made it grow into
      // (src/lib/http/memory-release.ts). The peak during the load is in the note.
      const loadEnded = Date.now();
      await untilQuiet(engine);
      const quietAfter = Math.round((Date.now() - loadEnded) / 1000);
      await new Promise((r) => setTimeout(r, AFTER_LOAD_SETTLE_MS));
      const loaded = Math.round(engine.rssKB() / 1024);
      row(
        area,
        'engine resident memory after load',
        loaded,
        'MB',
        `≤ ${MEMORY_LOADED_MB}`,
        loaded <= MEMORY_LOADED_MB,
        `peak during the load ${Math.round(peakKB / 1024)} MB; the engine was busy ${quietAfter} s more after it, read ${AFTER_LOAD_SETTLE_MS / 1000} s after that`,
      );
      // After the memory reading, so that reading stays the one of the loads above: the cache-cold row
      // fills the answer caches with the whole catalog in six languages.
      await burstRow(row, area, engine);
      await coldProductRow(row, area, engine, duration);
    } finally {
      await engine.stop();
    }
    // Stock and order lines as stored, read once the engine has stopped (a PGlite file has one user).
    const stored = checkStock(env, stock.race.id);
    const ok =
      race.orders === RACE_STOCK &&
      stored.stock === 0 &&
      stored.orders === RACE_STOCK &&
      race.other === 0 &&
      race.outOfStock === RACE_CHECKOUTS - RACE_STOCK;
    row(
      area,
      `${RACE_CHECKOUTS} checkouts vs ${RACE_STOCK} in stock`,
      `${race.orders} orders`,
      '',
      `= ${RACE_STOCK}, stock 0`,
      ok,
      `stored: stock ${stored.stock}, ${stored.orders} order lines; ${race.outOfStock} out-of-stock refusals, ${race.other} other errors${race.firstOther ? ` (${race.firstOther})` : ''}, all answered in ${race.slowest} ms`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** getProducts (24) and, on the main catalog, getProduct — cache-hot reads as shoppers browse. */
async function catalogRows(area, engine, products, withProduct) {
  const getProducts = operationDocument('getProducts');
  const getProduct = operationDocument('getProduct');
  const list = await graphql(engine.url, getProducts, { first: 24 });
  const slug = list.data.products.nodes[5].slug;
  // Warm-up so caches and JIT are in the state a running shop is in.
  await load({ url: engine.url, body: { query: getProducts, variables: { first: 24 } }, connections: 10, duration: 2 });
  const size = products === 1000 ? '' : `, ${products.toLocaleString('en')} products`;
  const budgeted = products === 1000;
  const lp = await load({
    url: engine.url,
    body: { query: getProducts, variables: { first: 24 } },
    connections: 50,
    duration,
  });
  row(
    area,
    `getProducts (24) p99${size}`,
    lp.p99,
    'ms',
    budgeted ? '≤ 25' : '—',
    (budgeted ? lp.p99 <= 25 : true) && lp.errors === 0,
    `${ms(lp)}, ${lp.errors} errors`,
  );
  if (!withProduct) return;
  await load({ url: engine.url, body: { query: getProduct, variables: { slug } }, connections: 10, duration: 2 });
  const gp = await load({
    url: engine.url,
    body: { query: getProduct, variables: { slug } },
    connections: 50,
    duration,
  });
  row(area, 'getProduct p99', gp.p99, 'ms', '≤ 25', gp.p99 <= 25 && gp.errors === 0, `${ms(gp)}, ${gp.errors} errors`);
}

/** Shoppers whose carts the cart rows load: enough that none adds more than a shopper would buy. */
const CART_SHOPPERS = 500;

/**
 * addToCart and getCart on 50 connections shared by 500 shoppers: each request takes the next shopper's
 * session and the next of the load products, so every add succeeds (a cart line stays far below the
 * per-order limit) and the carts stay the size of real ones (a few lines).
 */
async function cartRows(area, engine, stock) {
  const addToCart = operationDocument('addToCart');
  const getCart = operationDocument('getCart');
  const sessions = [];
  for (let i = 0; i < CART_SHOPPERS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        post(engine.url, addToCart, { productId: stock.load[(i + j) % stock.load.length].id, quantity: 1 }, null),
      ),
    );
    for (const r of batch) {
      if (r.body.errors?.length) throw new Error(`addToCart: ${r.body.errors[0].message}`);
      sessions.push(r.token);
    }
  }
  // Products in a different order than the sessions, so one shopper's adds spread over several products.
  const variablesList = stock.load.map((p) => ({ productId: p.id, quantity: 1 })).reverse();
  const body = { query: addToCart };
  await load({ url: engine.url, body, sessions, rotate: true, variablesList, connections: 10, duration: 2 });
  const add = await load({ url: engine.url, body, sessions, rotate: true, variablesList, connections: 50, duration });
  row(
    area,
    'addToCart p99 (500 carts, 50 connections)',
    add.p99,
    'ms',
    '≤ 40',
    add.p99 <= 40 && add.errors === 0,
    `${ms(add)}, ${add.errors} errors`,
  );
  const cart = await load({
    url: engine.url,
    body: { query: getCart },
    sessions,
    rotate: true,
    connections: 50,
    duration,
  });
  row(area, 'getCart p99 (500 carts)', cart.p99, 'ms', '—', cart.errors === 0, `${ms(cart)}, ${cart.errors} errors`);
}

/** The buying flow at 50 concurrent shoppers: a new session adds a product, then checks out (cash on delivery). */
async function checkoutRows(area, engine, stock) {
  const addToCart = operationDocument('addToCart');
  const checkout = operationDocument('Checkout');
  const flow = async (i) => {
    const added = await post(
      engine.url,
      addToCart,
      { productId: stock.load[i % stock.load.length].id, quantity: 1 },
      null,
    );
    if (added.body.errors?.length) throw new Error(`addToCart: ${added.body.errors[0].message}`);
    const placed = await post(engine.url, checkout, { paymentMethod: 'cod', billing: BILLING }, added.token);
    if (placed.body.errors?.length || placed.body.data?.checkout?.result !== 'success')
      throw new Error(`Checkout: ${placed.body.errors?.[0]?.message ?? placed.body.data?.checkout?.result}`);
    return { Checkout: placed.ms };
  };
  await runFlows({ concurrency: 10, duration: 2, flow });
  const r = await runFlows({ concurrency: 50, duration, flow });
  const c = r.results.Checkout ?? { rps: 0, total: 0, p50: NaN, p99: NaN };
  row(
    area,
    'Checkout p99 (50 shoppers, COD)',
    c.p99,
    'ms',
    '—',
    r.errors === 0 && c.total > 0,
    `${c.rps.toFixed(0)} orders/s, p50 ${c.p50} ms, ${r.errors} errors${r.firstError ? ` (${r.firstError})` : ''}`,
  );
}

/** 200 shoppers with the last 20 units in their carts check out at once; the row is written once the stored stock is read. */
async function raceCheckouts(engine, stock) {
  const addToCart = operationDocument('addToCart');
  const checkout = operationDocument('Checkout');
  const tokens = [];
  for (let i = 0; i < RACE_CHECKOUTS; i += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, RACE_CHECKOUTS - i) }, () =>
        post(engine.url, addToCart, { productId: stock.race.id, quantity: 1 }, null),
      ),
    );
    for (const r of batch) {
      if (r.body.errors?.length) throw new Error(`addToCart: ${r.body.errors[0].message}`);
      tokens.push(r.token);
    }
  }
  const results = await Promise.all(
    tokens.map((token, i) =>
      post(
        engine.url,
        checkout,
        { paymentMethod: 'cod', billing: { ...BILLING, email: `race${i}@example.com` } },
        token,
      ),
    ),
  );
  const orders = results.filter((r) => !r.body.errors?.length && r.body.data?.checkout?.result === 'success').length;
  const messages = results.filter((r) => r.body.errors?.length).map((r) => r.body.errors[0].message);
  const outOfStock = messages.filter(
    (m) =>
      m ===
      `Sorry, "${stock.race.name}" is not in stock. Please edit your cart and try again. We apologize for any inconvenience caused.`,
  ).length;
  return {
    orders,
    outOfStock,
    other: messages.length - outOfStock,
    firstOther: messages.find((m) => !m.includes('is not in stock')),
    slowest: Math.round(Math.max(...results.map((r) => r.ms))),
  };
}

/** getProducts (24) as the catalog grows: 100 and 10,000 products (1,000 is the main row). PGlite. */
async function benchScaling() {
  for (const products of [100, 10_000]) {
    const env = { MESHFRONT_DATA_DIR: path.join(root, 'var', 'bench', `pglite-${products}`) };
    fs.rmSync(env.MESHFRONT_DATA_DIR, { recursive: true, force: true });
    try {
      seedCatalog(env, products);
      const engine = await startEngine({ port: API_PORT, env });
      try {
        await catalogRows('API PGlite', engine, products, false);
      } finally {
        await engine.stop();
      }
    } finally {
      fs.rmSync(env.MESHFRONT_DATA_DIR, { recursive: true, force: true });
    }
  }
}

async function benchSite() {
  if (!fs.existsSync(path.join(root, 'dist', 'server', 'entry.mjs'))) {
    row('site', 'page weight', '—', '', '', false, 'no build: run `npm run build` first');
    return;
  }
  const port = 4511;
  const server = spawn(process.execPath, ['scripts/serve.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 120; i++) {
      try {
        if ((await fetch(`${base}/`)).ok) break;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const candidates = [
      { name: 'home', path: '/', budget: 90 },
      { name: 'home (de)', path: '/de/', budget: 90 },
      { name: 'listing', path: '/products/', budget: 90 },
      { name: 'product', path: firstProductPath(), budget: 90 },
      { name: 'support article', path: '/support/getting-started/what-is-meshfront/', budget: 35 },
      { name: 'guide', path: '/guides/meshfront-gateway-indoor/', budget: 35 },
      { name: 'policy', path: '/policies/privacy-policy/', budget: 35 },
    ].filter((c) => c.path);
    const results = await measurePageWeights(base, candidates);
    for (const r of results) {
      const c = candidates.find((x) => x.path === r.path);
      if (r.status !== 200) {
        row('site', `${r.name} JS (gzip)`, '—', '', `≤ ${c.budget} KB`, false, `${r.path} answered ${r.status}`);
        continue;
      }
      row(
        'site',
        `${r.name} JS (gzip)`,
        r.jsKB.toFixed(1),
        'KB',
        `≤ ${c.budget} KB`,
        r.jsKB <= c.budget,
        `CSS ${r.cssKB.toFixed(1)} KB`,
      );
    }
  } finally {
    server.kill('SIGTERM');
  }
}

function firstProductPath() {
  const dir = path.join(root, 'dist', 'client', 'product');
  if (!fs.existsSync(dir)) return undefined;
  const first = fs.readdirSync(dir).sort()[0];
  return first ? `/product/${first}/` : undefined;
}

/** One section's failure is reported as a row and does not stop the others. */
async function section(name, fn) {
  try {
    await fn();
  } catch (err) {
    row(
      name,
      'run',
      '—',
      '',
      '',
      false,
      String(err?.message ?? err)
        .split('\n')
        .filter(Boolean)
        .slice(0, 2)
        .join(' | '),
    );
  }
}

if (only === 'soak') await section('soak', () => benchSoak(row, soakFor));
if (!only || only === 'api') {
  await section('API PGlite', () =>
    benchApi('PGlite', { MESHFRONT_DATA_DIR: path.join(root, 'var', 'bench', 'pglite') }),
  );
  await section('API PGlite', benchScaling);
  const pg = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pg) {
    await section('API PostgreSQL', async () => {
      // A database of its own on that server, dropped afterwards (orders and sessions included).
      const db = await createBenchDatabase(pg);
      try {
        await benchApi('PostgreSQL', {
          DATABASE_URL: db.url,
          MESHFRONT_DATA_DIR: path.join(root, 'var', 'bench', 'pg'),
        });
      } finally {
        await db.drop();
      }
    });
  } else row('API PostgreSQL', 'all', '—', '', '', true, 'skipped: set BENCH_DATABASE_URL=postgres://…');
}
// Vendure only when asked for: it installs Vendure from npm and seeds a catalog of its own (bench/vendure.mjs).
if (only === 'vendure' || args.includes('--vendure'))
  await section('Vendure', () => benchVendure(row, rows, { duration, port: API_PORT + 5 }));
if (!only || only === 'site') await section('site', benchSite);
if (!only || only === 'site' || only === 'lighthouse') await section('lighthouse', () => benchLighthouse(row));
if (!only || only === 'site' || only === 'static')
  await section('static pages', () => benchStaticServer(row, { duration }));
if (!only || only === 'build')
  await section('build', () => benchBuilds(row, { synthetic: args.includes('--quick') ? 0 : 5000 }));

const widths = [18, 36, 10, 12, 6];
const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join(' ');
console.log(`\n${line(['area', 'measure', 'value', 'budget', 'ok'])} note`);
console.log('-'.repeat(110));
for (const r of rows)
  console.log(`${line([r.area, r.measure, `${r.value} ${r.unit}`.trim(), r.budget, r.ok ? 'yes' : 'NO'])} ${r.note}`);
const broken = rows.filter((r) => !r.ok);
if (broken.length) {
  console.log(`\n${broken.length} budget(s) broken or not measurable.`);
  process.exit(1);
}
