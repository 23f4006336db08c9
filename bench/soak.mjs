// Soak: `npm run bench -- --soak 10m` — mixed shopper traffic for a while against the site and engine in
// one process (scripts/serve.mjs, as `npm start` runs them), then the error rate and whether resident
// memory stayed flat. Budgets: errors < 0.1 % of requests; memory at the end within 10 % of the
// figure after warm-up (a leak shows as steady growth; caches filling up belong to the warm-up).
//
// The mix follows a visit: most requests read prebuilt pages and the catalog, fewer add to a cart, few
// check out (cash on delivery, so nothing leaves the machine):
//   page view (home, product, support, guide, listing pages)  ~50 %   getProducts / getProduct  ~30 %
//   getCart ~8 %   addToCart ~9 %   Checkout ~3 %
// Each virtual shopper keeps its own woocommerce-session, as a browser does.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { operationDocument } from './api.mjs';
import { rssKB } from './build.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** '30s', '10m', '1h', '90' (seconds) → milliseconds; throws a clear error for anything else. */
export function parseDuration(text) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(text ?? '').trim());
  if (!m) throw new Error(`--soak takes a duration such as 30s, 10m or 1h, not "${text}"`);
  const ms = Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'];
  if (ms < 10_000) throw new Error(`--soak needs at least 10s to have a warm-up and a measurement (got "${text}")`);
  if (ms > 24 * 3_600_000) throw new Error(`--soak is limited to 24h (got "${text}")`);
  return ms;
}

const BILLING = {
  firstName: 'Soak',
  lastName: 'Shopper',
  address1: 'Hauptstr. 1',
  city: 'Berlin',
  postcode: '10115',
  country: 'DE',
  email: 'soak@example.com',
  phone: '+49 30 123456',
};
/** A request slower than this counts as an error (and cannot stall a shopper past the deadline). */
const REQUEST_TIMEOUT_MS = 30_000;
const PAGE_HEADERS = {
  accept: 'text/html,application/xhtml+xml',
  'accept-encoding': 'gzip, br',
  'accept-language': 'en-US,en;q=0.9',
};

/**
 * @param {{ durationMs: number, distDir?: string, port?: number, shoppers?: number, sampleEveryMs?: number,
 *   log?: (line: string) => void }} options
 */
export async function soak({
  durationMs,
  distDir = process.env.MESHFRONT_DIST_DIR ?? path.join(root, 'dist'),
  port = 4473,
  shoppers = 16,
  sampleEveryMs = 5000,
  log = console.log,
}) {
  if (!fs.existsSync(path.join(distDir, 'server', 'entry.mjs')))
    throw new Error(`no build in ${distDir}: run \`npm run build\` first (or set MESHFRONT_DIST_DIR)`);
  const dataDir = path.join(root, 'var', 'bench', 'soak-data');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const server = await startSite({ distDir, dataDir, port });
  try {
    const base = `http://127.0.0.1:${port}`;
    const shop = await discover(base, distDir);
    log(
      `soak: ${Math.round(durationMs / 1000)} s, ${shoppers} shoppers, ${shop.pages.length} pages, ${shop.cartable.length} cartable and ${shop.checkoutable.length} checkout products`,
    );

    const stats = new Stats();
    const samples = [];
    const started = Date.now();
    const deadline = started + durationMs;
    const sampler = setInterval(() => {
      samples.push({
        atS: Math.round((Date.now() - started) / 1000),
        rssMB: Math.round(rssKB(server.pid) / 1024),
        requests: stats.total,
      });
    }, sampleEveryMs);
    const progress = setInterval(
      () => {
        const last = samples.at(-1);
        log(
          `  ${Math.round((Date.now() - started) / 1000)} s: ${stats.total} requests, ${stats.errorCount} errors, ${last?.rssMB ?? '—'} MB resident`,
        );
      },
      Math.max(30_000, Math.min(60_000, durationMs / 10)),
    );
    try {
      await Promise.all(
        Array.from({ length: shoppers }, (_, i) => shopperLoop({ base, shop, stats, deadline, seed: i + 1 })),
      );
    } finally {
      clearInterval(sampler);
      clearInterval(progress);
    }
    samples.push({
      atS: Math.round((Date.now() - started) / 1000),
      rssMB: Math.round(rssKB(server.pid) / 1024),
      requests: stats.total,
    });
    if (server.exitCode !== null) stats.fail('server', `the server exited with code ${server.exitCode}`);
    return { ...stats.summary((Date.now() - started) / 1000), memory: memoryVerdict(samples, durationMs), samples };
  } finally {
    await server.stop();
  }
}

/**
 * Memory is flat when the mean of the last fifth of the samples is within 10 % of the mean of the first
 * fifth after warm-up (the first 20 % of the run, at least 10 s: caches, JIT and pools fill up there).
 */
export function memoryVerdict(samples, durationMs, tolerance = 0.1) {
  const warmupS = Math.max(10, (durationMs / 1000) * 0.2);
  const measured = samples.filter((s) => s.atS >= warmupS && s.rssMB > 0);
  if (measured.length < 2)
    return {
      ok: false,
      reason: 'too few memory samples after warm-up (run longer)',
      baselineMB: 0,
      finalMB: 0,
      growth: 0,
    };
  const fifth = Math.max(1, Math.floor(measured.length / 5));
  const mean = (list) => list.reduce((s, x) => s + x.rssMB, 0) / list.length;
  const baselineMB = mean(measured.slice(0, fifth));
  const finalMB = mean(measured.slice(-fifth));
  const growth = finalMB / baselineMB - 1;
  return {
    ok: growth <= tolerance,
    baselineMB: Math.round(baselineMB),
    finalMB: Math.round(finalMB),
    peakMB: Math.max(...measured.map((s) => s.rssMB)),
    growth,
    warmupS,
  };
}

class Stats {
  constructor() {
    this.byKind = new Map();
    this.errors = [];
  }
  record(kind, ms, ok, reason) {
    let k = this.byKind.get(kind);
    if (!k) {
      k = { count: 0, errors: 0, latencies: [] };
      this.byKind.set(kind, k);
    }
    k.count++;
    // Keep a bounded latency sample per kind (reservoir) so a 10-minute run does not grow the bench's own memory.
    if (k.latencies.length < 20_000) k.latencies.push(ms);
    else k.latencies[Math.floor(Math.random() * k.count) % 20_000] = ms;
    if (!ok) this.fail(kind, reason);
  }
  fail(kind, reason) {
    const k = this.byKind.get(kind);
    if (k) k.errors++;
    if (this.errors.length < 20) this.errors.push(`${kind}: ${reason}`);
    this.extraErrors = (this.extraErrors ?? 0) + (k ? 0 : 1);
  }
  get total() {
    let n = 0;
    for (const k of this.byKind.values()) n += k.count;
    return n;
  }
  get errorCount() {
    let n = this.extraErrors ?? 0;
    for (const k of this.byKind.values()) n += k.errors;
    return n;
  }
  summary(seconds) {
    const kinds = {};
    for (const [name, k] of this.byKind) {
      const sorted = [...k.latencies].sort((a, b) => a - b);
      const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
      kinds[name] = { count: k.count, errors: k.errors, p50: at(0.5), p99: at(0.99) };
    }
    const total = this.total;
    return {
      seconds,
      total,
      errors: this.errorCount,
      errorRate: total ? this.errorCount / total : 1,
      rps: total / seconds,
      kinds,
      firstErrors: this.errors,
    };
  }
}

/** What there is to visit and buy: prebuilt pages from the build, products from the engine. */
async function discover(base, distDir) {
  const client = path.join(distDir, 'client');
  const listDir = (dir) => (fs.existsSync(path.join(client, dir)) ? fs.readdirSync(path.join(client, dir)) : []);
  const products = listDir('product')
    .slice(0, 40)
    .map((slug) => `/product/${slug}/`);
  const support = listDir('support')
    .filter((c) => fs.existsSync(path.join(client, 'support', c, 'index.html')))
    .map((c) => `/support/${c}/`);
  const guides = listDir('guides')
    .slice(0, 10)
    .map((g) => `/guides/${g}/`);
  const listings = [
    '/products/',
    '/products/page/2/',
    ...listDir('product-category')
      .slice(0, 5)
      .map((c) => `/product-category/${c}/`),
  ];
  const pages = [
    { path: '/', weight: 4 },
    { path: '/de/', weight: 1 },
    ...products.map((p) => ({ path: p, weight: 1 })),
    ...support.map((p) => ({ path: p, weight: 0.5 })),
    ...guides.map((p) => ({ path: p, weight: 0.5 })),
    ...listings.map((p) => ({ path: p, weight: 1.5 })),
  ].filter((p) => fs.existsSync(path.join(client, p.path, 'index.html')));
  if (pages.length < 3) throw new Error(`too few prebuilt pages found in ${client}`);

  const list = await gql(base, operationDocument('getProducts'), { first: 100 });
  if (list.errors) throw new Error(`getProducts failed before the soak: ${list.errors[0]?.message}`);
  const nodes = list.data.products.nodes;
  const simpleInStock = nodes.filter((p) => p.type === 'SIMPLE' && p.stockStatus === 'IN_STOCK');
  // Carts take anything in stock; orders only take products without managed stock, so a long soak cannot
  // sell the shop out and turn later checkouts into (correct) out-of-stock refusals.
  const cartable = simpleInStock
    .filter((p) => p.stockQuantity === null || p.stockQuantity >= 5)
    .map((p) => p.databaseId);
  const checkoutable = simpleInStock.filter((p) => p.stockQuantity === null).map((p) => p.databaseId);
  if (!cartable.length || !checkoutable.length)
    throw new Error('the catalog has no in-stock simple products to cart and check out (unmanaged stock)');
  return { pages, slugs: nodes.map((p) => p.slug).filter(Boolean), cartable, checkoutable };
}

const DOCS = {};
const doc = (name) => (DOCS[name] ??= operationDocument(name));

async function gql(base, query, variables, session) {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(session ? { 'woocommerce-session': `Session ${session}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { errors: [{ message: `HTTP ${res.status}: ${text.slice(0, 80)}` }] };
  }
  if (!res.ok && !body.errors) body.errors = [{ message: `HTTP ${res.status}` }];
  return { ...body, status: res.status, session: res.headers.get('woocommerce-session') };
}

/** One virtual shopper: visits, reads the catalog, carts and sometimes checks out, until the deadline. */
async function shopperLoop({ base, shop, stats, deadline, seed }) {
  let state = (seed * 2654435761) >>> 0;
  const rand = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const pickPage = () => {
    const total = shop.pages.reduce((s, p) => s + p.weight, 0);
    let r = rand() * total;
    for (const p of shop.pages) {
      r -= p.weight;
      if (r <= 0) return p.path;
    }
    return shop.pages[0].path;
  };
  let session;
  let cartLines = 0;

  const timed = async (kind, fn) => {
    const t0 = performance.now();
    try {
      const reason = await fn();
      stats.record(kind, performance.now() - t0, !reason, reason);
    } catch (err) {
      stats.record(
        kind,
        performance.now() - t0,
        false,
        String(
          err?.name === 'TimeoutError'
            ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
            : (err?.cause?.code ?? err?.message ?? err),
        ),
      );
    }
  };
  const operation = (kind, name, variables) =>
    timed(kind, async () => {
      const r = await gql(base, doc(name), variables, session);
      if (r.session) session = r.session;
      if (r.errors?.length) return `${r.status} ${r.errors[0].message}`;
      return undefined;
    });

  while (Date.now() < deadline) {
    const roll = rand();
    if (roll < 0.5) {
      await timed('page', async () => {
        const res = await fetch(base + pickPage(), {
          headers: PAGE_HEADERS,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await res.arrayBuffer();
        return res.status === 200 ? undefined : `HTTP ${res.status}`;
      });
    } else if (roll < 0.65) {
      await operation('getProducts', 'getProducts', { first: 24 });
    } else if (roll < 0.8) {
      await operation('getProduct', 'getProduct', { slug: pick(shop.slugs) });
    } else if (roll < 0.88) {
      await operation('getCart', 'getCart', {});
    } else if (roll < 0.97 || cartLines === 0) {
      await operation('addToCart', 'addToCart', {
        productId: pick(cartLines >= 3 ? shop.checkoutable : shop.cartable),
        quantity: 1,
      });
      cartLines++;
    } else {
      // A checkout: a cart of one service product (unmanaged stock), paid cash on delivery, then a new
      // visitor (fresh session) — as after an order the shopper leaves.
      session = undefined;
      await operation('addToCart', 'addToCart', { productId: pick(shop.checkoutable), quantity: 1 });
      await operation('Checkout', 'Checkout', { paymentMethod: 'cod', billing: BILLING });
      session = undefined;
      cartLines = 0;
    }
    // A long cart is a different visitor's cart: start afresh now and then so carts stay a realistic size.
    if (cartLines > 6) {
      session = undefined;
      cartLines = 0;
    }
  }
}

/** scripts/serve.mjs in production mode on a fresh database seeded from the catalog. */
async function startSite({ distDir, dataDir, port }) {
  const child = spawn(process.execPath, ['scripts/serve.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      MESHFRONT_DIST_DIR: distDir,
      MESHFRONT_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SESSION_SECRET: 'bench-soak-secret-0123456789abcdef0123456789',
      MESHFRONT_LOG_ERRORS: '1',
      // Every soak shopper orders from 127.0.0.1 with one e-mail address.
      CHECKOUT_ORDERS_PER_IP_PER_HOUR: '100000',
      CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (d) => {
    log = (log + d).slice(-10_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
    });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site exited early:\n${log}`);
    try {
      const r = await gql(`http://127.0.0.1:${port}`, doc('getProducts'), { first: 1 });
      if (!r.errors)
        return {
          pid: child.pid,
          get exitCode() {
            return child.exitCode;
          },
          stop,
          log: () => log,
        };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`the site did not answer within 90 s:\n${log}`);
}
