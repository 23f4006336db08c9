// The catalog fast path (src/server/http/fast-path.ts) in front of Yoga, over real HTTP: stored answers
// are Yoga's own bytes, the woocommerce-session rules still hold per request, stock and price changes made
// by another process show within CATALOG_VERSION_CHECK_MS, and nothing but successful catalog reads is
// ever stored. Runs with trusted documents on, as in production.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markStockChanged } from '../../src/server/catalog/stock.ts';
import { catalogProducts } from '../../src/server/catalog/tables.ts';
import { loadConfig } from '../../src/server/config.ts';
import { bumpCounter } from '../../src/server/db/meta.ts';
import { createEngine, type Engine } from '../../src/server/engine/index.ts';
import { CatalogFastPath } from '../../src/server/http/fast-path.ts';
import { createMeshfrontYoga } from '../../src/server/http/yoga.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation } from './shop-helpers.ts';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const VERSION_CHECK_MS = 150;
const GET_PRODUCT = operation('getProduct');
const GET_PRODUCTS = operation('getProducts');
const ADD_TO_CART = operation('addToCart');

let t: TestEngine;
let fast: CatalogFastPath;
let server: Server;
let base: string;

beforeAll(async () => {
  t = await startTestEngine({
    env: { TRUSTED_DOCUMENTS_ONLY: 'true', CATALOG_VERSION_CHECK_MS: String(VERSION_CHECK_MS) },
  });
  fast = new CatalogFastPath(t.yoga, async () => t.engine);
  server = createServer(fast.nodeHandler());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
}, ENGINE_START_TIMEOUT_MS);

type Reply = { status: number; headers: Headers; text: string; body: { data?: any; errors?: { message: string }[] } };

async function post(
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const r = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, body: JSON.parse(text) };
}

const product = (slug: string, headers?: Record<string, string>) => post(GET_PRODUCT, { slug }, headers);

async function stockAndPrice(slug: string): Promise<{ stockQuantity: number | null; rawPrice: string }> {
  const r = await product(slug);
  expect(r.body.errors).toBeUndefined();
  return { stockQuantity: r.body.data.product.stockQuantity, rawPrice: r.body.data.product.rawPrice };
}

/**
 * A write as another engine process makes it, without touching this process's caches: a catalog change
 * bumps `catalog_version`; a stock change announces itself with markStockChanged (the counter, and the
 * changed product stamped with its value).
 */
async function writeFromAnotherProcess(
  statement: ReturnType<typeof sql>,
  counter: 'stock_version' | 'catalog_version',
  slug: string,
) {
  await t.engine.database.db.transaction(async (tx) => {
    await tx.execute(statement);
    if (counter === 'catalog_version') {
      await bumpCounter(tx, 'catalog_version');
      return;
    }
    const [product] = await tx
      .select({ id: catalogProducts.id })
      .from(catalogProducts)
      .where(eq(catalogProducts.slug, slug));
    await markStockChanged(tx, { productIds: [product!.id] });
  });
}

async function waitFor<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  limitMs: number,
): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - started > limitMs) return { value, ms: Date.now() - started };
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('catalog fast path', () => {
  it('answers a repeated catalog read from memory with the bytes Yoga produced', async () => {
    const first = await post(GET_PRODUCTS, { first: 5 });
    expect(first.status).toBe(200);
    expect(first.body.data.products.nodes.length).toBe(5);
    const hits = fast.stats.hits;
    const second = await post(GET_PRODUCTS, { first: 5 });
    expect(fast.stats.hits).toBe(hits + 1);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    const direct = await t.gql(GET_PRODUCTS, { first: 5 });
    expect(JSON.stringify(direct.body)).toBe(second.text);
  });

  it('gives every request without a session its own new guest token, also on a stored answer', async () => {
    await product('omni-antenna');
    const hits = fast.stats.hits;
    const [a, b] = [await product('omni-antenna'), await product('omni-antenna')];
    expect(fast.stats.hits).toBe(hits + 2);
    const tokens = [a.headers.get('woocommerce-session'), b.headers.get('woocommerce-session')];
    for (const token of tokens) {
      expect(token).toBeTruthy();
      expect(await t.engine.sessions.verify(token!)).toMatchObject({
        customerId: expect.stringMatching(/^t_[0-9a-f]{30}$/),
      });
    }
    expect(decodeJwt(tokens[0]!).data).not.toEqual(decodeJwt(tokens[1]!).data);
  });

  it('sends no token back for a valid session, and a new one for an expired or forged token', async () => {
    const token = (await product('omni-antenna')).headers.get('woocommerce-session')!;
    const hits = fast.stats.hits;
    expect(
      (await product('omni-antenna', { 'woocommerce-session': `Session ${token}` })).headers.get('woocommerce-session'),
    ).toBeNull();
    const now = Math.floor(Date.now() / 1000);
    const key = new TextEncoder().encode(SECRET);
    const expired = await new SignJWT({ data: { customer_id: 't_expired' } })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('http://meshfront.test')
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(key);
    const forged = await new SignJWT({ data: { customer_id: 't_forged' } })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('http://meshfront.test')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(48)));
    for (const bad of [expired, forged, `${token.slice(0, -2)}xx`, 'not-a-jwt']) {
      const r = await product('omni-antenna', { 'woocommerce-session': `Session ${bad}` });
      const fresh = r.headers.get('woocommerce-session');
      expect(fresh, bad).toBeTruthy();
      expect(decodeJwt(fresh!).data).not.toEqual({ customer_id: 't_expired' });
      expect(await t.engine.sessions.verify(fresh!)).toHaveProperty('customerId');
    }
    expect(fast.stats.hits).toBe(hits + 5);
  });

  it('keeps CORS per origin: each origin gets the headers Yoga gives that origin', async () => {
    for (const origin of ['http://shop.test', 'https://evil.example']) {
      await product('mesh-hoodie', { origin });
      const hits = fast.stats.hits;
      const stored = await product('mesh-hoodie', { origin });
      expect(fast.stats.hits).toBe(hits + 1);
      const direct = await t.gql(GET_PRODUCT, { slug: 'mesh-hoodie' }, { origin });
      for (const name of [
        'access-control-allow-origin',
        'access-control-allow-credentials',
        'access-control-expose-headers',
        'vary',
      ]) {
        expect(stored.headers.get(name), `${origin} ${name}`).toBe(direct.headers.get(name));
      }
    }
    expect(
      (await product('mesh-hoodie', { origin: 'https://evil.example' })).headers.get('access-control-allow-origin'),
    ).not.toBe('https://evil.example');
  });

  it('shows a stock change made by another process within CATALOG_VERSION_CHECK_MS', async () => {
    await writeFromAnotherProcess(
      sql`update catalog_products set manage_stock = true, stock_quantity = 40, backorders = 'no' where slug = 'omni-antenna'`,
      'stock_version',
      'omni-antenna',
    );
    expect(
      (
        await waitFor(
          () => stockAndPrice('omni-antenna'),
          (v) => v.stockQuantity === 40,
          5000,
        )
      ).value.stockQuantity,
    ).toBe(40);
    await stockAndPrice('omni-antenna');
    const hits = fast.stats.hits;
    expect((await stockAndPrice('omni-antenna')).stockQuantity).toBe(40);
    expect(fast.stats.hits).toBe(hits + 1);

    await writeFromAnotherProcess(
      sql`update catalog_products set stock_quantity = 37 where slug = 'omni-antenna'`,
      'stock_version',
      'omni-antenna',
    );
    const seen = await waitFor(
      () => stockAndPrice('omni-antenna'),
      (v) => v.stockQuantity === 37,
      5000,
    );
    expect(seen.value.stockQuantity).toBe(37);
    // The documented bound plus the time of a few requests on a busy machine.
    expect(seen.ms).toBeLessThan(VERSION_CHECK_MS + 1500);
  });

  it('shows a price change made by another process within CATALOG_VERSION_CHECK_MS', async () => {
    const before = await stockAndPrice('omni-antenna');
    await stockAndPrice('omni-antenna');
    await writeFromAnotherProcess(
      sql`update catalog_products set regular_price_cents = 12345, sale_price_cents = null where slug = 'omni-antenna'`,
      'catalog_version',
      'omni-antenna',
    );
    const seen = await waitFor(
      () => stockAndPrice('omni-antenna'),
      (v) => v.rawPrice !== before.rawPrice,
      5000,
    );
    expect(seen.value.rawPrice).toBe('123.45');
    expect(seen.ms).toBeLessThan(VERSION_CHECK_MS + 1500);
  });

  it('never stores refused documents or answers with errors', async () => {
    const entries = fast.stats.entries;
    for (let i = 0; i < 2; i++) {
      const untrusted = await post('query getProducts { products(first: 2) { nodes { id } } }', {});
      expect(untrusted.status).toBe(400);
      expect(untrusted.body.errors?.[0]?.message).toMatch(/^Invalid GraphQL Operation/);
      const badVariables = await post(GET_PRODUCT, { slug: { not: 'a string' } });
      expect(badVariables.body.errors?.length).toBeGreaterThan(0);
    }
    expect(fast.stats.entries).toBe(entries);
  });

  it('passes mutations through to Yoga every time (the cart grows, the session token is kept)', async () => {
    const cable = (await t.engine.catalog.snapshot()).productsBySlug.get('bravo-outdoor-gateway')!;
    expect(cable.type).toBe('simple');
    const first = await post(ADD_TO_CART, { productId: cable.id, quantity: 1 });
    expect(first.body.errors, JSON.stringify(first.body.errors)).toBeUndefined();
    const token = first.headers.get('woocommerce-session')!;
    const second = await post(
      ADD_TO_CART,
      { productId: cable.id, quantity: 1 },
      { 'woocommerce-session': `Session ${token}` },
    );
    expect(second.body.errors).toBeUndefined();
    expect(second.body.data.addToCart.cartItem.quantity).toBe(2);
  });

  it('takes the session from the cookie when there is no header: a stored answer sets a cookie only for a new session', async () => {
    const read = () => post(GET_PRODUCT, { slug: 'omni-antenna' });
    await read();
    const hits = fast.stats.hits;
    const fresh = await read();
    expect(fast.stats.hits).toBe(hits + 1);
    const token = fresh.headers.get('woocommerce-session')!;
    expect(fresh.headers.getSetCookie()).toEqual([
      `woocommerce-session=${token}; Path=/; Max-Age=172800; SameSite=Lax`,
    ]);
    const returning = await post(GET_PRODUCT, { slug: 'omni-antenna' }, { cookie: `woocommerce-session=${token}` });
    expect(fast.stats.hits).toBe(hits + 2);
    expect(returning.headers.get('woocommerce-session')).toBeNull();
    expect(returning.headers.getSetCookie()).toEqual([]);
    expect(returning.text).toBe(fresh.text);
  });

  it('answers the Astro route’s platform Requests the same way (stored bytes, per-request token)', async () => {
    const request = () =>
      new Request('http://meshfront.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: GET_PRODUCT, variables: { slug: 'mesh-os' } }),
      });
    const first = await fast.handleRequest(request());
    const firstText = await first.text();
    const hits = fast.stats.hits;
    const second = await fast.handleRequest(request());
    expect(second).toBeInstanceOf(Response);
    expect(await second.text()).toBe(firstText);
    expect(fast.stats.hits).toBe(hits + 1);
    expect(second.headers.get('woocommerce-session')).toBeTruthy();
    expect(JSON.parse(firstText).data.product.slug).toBe('mesh-os');
  });
});

describe('session tokens', () => {
  it('signs tokens jose accepts and accepts tokens jose signs', async () => {
    const s = t.engine.sessions;
    const mine = s.signNow('t_0123456789abcdef0123456789abcd');
    expect(await s.verify(mine)).toEqual({ customerId: 't_0123456789abcdef0123456789abcd' });
    const claims = decodeJwt(mine);
    expect(claims.exp! - claims.iat!).toBe(48 * 3600);
    const now = Math.floor(Date.now() / 1000);
    const joseMade = await new SignJWT({ data: { customer_id: 42 } })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('http://meshfront.test')
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(SECRET));
    expect(s.quickVerify(joseMade)).toBe('42');
  });

  it('leaves every doubtful token to jose, so refusals keep their WooGraphQL reasons', async () => {
    const s = t.engine.sessions;
    const key = new TextEncoder().encode(SECRET);
    const now = Math.floor(Date.now() / 1000);
    const notYet = await new SignJWT({ data: { customer_id: 't_a' } })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('http://meshfront.test')
      .setIssuedAt(now)
      .setNotBefore(now + 3600)
      .setExpirationTime(now + 7200)
      .sign(key);
    const otherHeader = await new SignJWT({ data: { customer_id: 't_a' } })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'elsewhere' })
      .setIssuer('http://meshfront.test')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(key);
    const noCustomer = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('http://meshfront.test')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(key);
    for (const token of [notYet, otherHeader, noCustomer]) expect(s.quickVerify(token), token).toBeNull();
    expect(await s.verify(notYet)).toHaveProperty('error');
    // jose accepts a kid it does not use; the quick check is stricter and leaves it to jose.
    expect(await s.verify(otherHeader)).toEqual({ customerId: 't_a' });
    expect(await s.verify(noCustomer)).toEqual({ error: 'invalid_token: Customer ID not found in the token' });
    expect(s.fromHeaderNow(`Session ${notYet}`)).toBeNull();
    expect(s.fromHeaderNow(null)).toMatchObject({ issue: true, tokenError: null });
  });
});

// PostgreSQL: a real second engine (own pool, own caches) sells stock; this process's fast path sees it.
describe.skipIf(!process.env.DATABASE_URL)('two engines on one PostgreSQL database', () => {
  let other: Engine;
  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: SECRET,
      SESSION_ISSUER: 'http://meshfront.test',
      MESHFRONT_SEED_ON_START: 'false',
      ORDER_SWEEP_INTERVAL_MS: '0',
      ...t.database.env,
    });
    other = await createEngine(config, { seed: false, log: () => {} });
  }, ENGINE_START_TIMEOUT_MS);
  afterAll(async () => {
    await other?.close();
  });

  it('an order placed through the other engine lowers the stock this fast path shows', async () => {
    const yoga = createMeshfrontYoga(async () => other, other.config);
    const call = async (query: string, variables: Record<string, unknown>, token?: string) => {
      const r = await yoga.fetch('http://other.test/graphql', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(token ? { 'woocommerce-session': `Session ${token}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await r.json()) as { data?: any; errors?: { message: string }[] };
      expect(body.errors).toBeUndefined();
      return { token: r.headers.get('woocommerce-session') ?? token, data: body.data };
    };
    const before = (await stockAndPrice('omni-antenna')).stockQuantity!;
    await stockAndPrice('omni-antenna');
    const id = (await other.catalog.snapshot()).productsBySlug.get('omni-antenna')!.id;
    const added = await call(ADD_TO_CART, { productId: id, quantity: 3 });
    const placed = await call(operation('Checkout'), { paymentMethod: 'cod', billing: BILLING }, added.token!);
    expect(placed.data.checkout.result).toBe('success');
    const seen = await waitFor(
      () => stockAndPrice('omni-antenna'),
      (v) => v.stockQuantity === before - 3,
      5000,
    );
    expect(seen.value.stockQuantity).toBe(before - 3);
    expect(seen.ms).toBeLessThan(VERSION_CHECK_MS + 1500);
  });
});
