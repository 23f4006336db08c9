// Access across customers, filling in what the accounts-* and checkout tests leave open: customer A's
// order (by database id, global id, order key, id + someone else's key), cart and address stay A's against
// customer B and against guests — also when B replays A's session token; a guest's order stays the guest
// session's; and forged tokens (alg "none", a refresh token or a session token as the bearer, a tampered
// woocommerce-session, refused as INVALID_SESSION) give no one else's data.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { headersOf, newCustomer, op, register } from './accounts-helpers.ts';
import { BILLING, Shopper, operation, productId } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestEngine;
let ipCounter = 0;
const ip = () => `100.65.0.${++ipCounter}`;
let antenna: number;

beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  t = await startTestEngine();
  antenna = await productId(t, 'omni-antenna');
});
afterAll(async () => {
  await t?.close();
});

const ORDER_BY =
  'query ($id: ID!, $idType: OrderIdTypeEnum, $key: String) { order(id: $id, idType: $idType, orderKey: $key) { databaseId orderKey billing { email address1 } } }';
const ORDERS = 'query { customer { orders(first: 100) { nodes { databaseId } } } }';
const CART_ITEMS = 'query { cart { contents { nodes { quantity product { node { databaseId } } } } } }';
const VIEWER = 'query { viewer { databaseId } }';

/** A customer (or guest, when `account` is false) who bought one antenna with cash on delivery. */
async function buyer(account: boolean) {
  const c = account ? await register(t, newCustomer('acc'), headersOf({}, ip())) : null;
  const headers = (token: string | null) => ({
    ...(c ? headersOf({ authToken: c.authToken }) : {}),
    ...(token ? { 'woocommerce-session': `Session ${token}` } : {}),
  });
  let token: string | null = c?.sessionToken ?? null;
  const call = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await t.gql(query, variables, headers(token));
    token = r.headers.get('woocommerce-session') ?? token;
    if (r.body.errors?.length) throw new Error(JSON.stringify(r.body.errors));
    return r.body.data;
  };
  await call(operation('addToCart'), { productId: antenna, quantity: 1 });
  const email = c?.email ?? `guest${ipCounter}@example.com`;
  const order = (
    await call(operation('Checkout'), {
      paymentMethod: 'cod',
      billing: { ...BILLING, email, address1: `Secret Lane ${ipCounter}` },
    })
  ).checkout.order;
  return {
    customer: c,
    order: order as { id: string; databaseId: number; orderKey: string; orderNumber: string },
    sessionToken: () => token,
    call,
  };
}

describe('orders', () => {
  it('another customer and a guest cannot read an order by database id, global id, a guessed key or their own key', async () => {
    const a = await buyer(true);
    const b = await buyer(true);
    const asB = headersOf({ authToken: b.customer!.authToken, sessionToken: b.sessionToken()! });
    const asGuest = {};
    for (const headers of [asB, asGuest]) {
      const tries = [
        { id: String(a.order.databaseId), idType: 'DATABASE_ID' },
        { id: a.order.id, idType: 'ID' },
        { id: `wc_order_${'x'.repeat(13)}`, idType: 'ORDER_KEY' },
        { id: a.order.orderNumber, idType: 'DATABASE_ID' },
        // B's own, valid key does not open A's order.
        { id: String(a.order.databaseId), idType: 'DATABASE_ID', key: b.order.orderKey },
        { id: b.order.orderKey.toUpperCase(), idType: 'ORDER_KEY' },
      ];
      for (const v of tries) {
        const r = await t.gql(ORDER_BY, v, headers);
        expect(r.status).toBe(200);
        expect(r.body.data?.order ?? null, JSON.stringify(v)).toBeNull();
      }
    }
    const bOrders = (await t.gql(ORDERS, {}, asB)).body.data.customer.orders.nodes.map(
      (n: { databaseId: number }) => n.databaseId,
    );
    expect(bOrders).toEqual([b.order.databaseId]);
    // The owner still reads it; the order key alone is the order-received link's capability.
    expect(
      (await t.gql(ORDER_BY, { id: String(a.order.databaseId) }, headersOf({ authToken: a.customer!.authToken }))).body
        .data.order.databaseId,
    ).toBe(a.order.databaseId);
    expect(
      (await t.gql(ORDER_BY, { id: a.order.orderKey, idType: 'ORDER_KEY' }, asGuest)).body.data.order.databaseId,
    ).toBe(a.order.databaseId);
  });

  it('a guest’s order is the guest session’s: other guests and logged-in customers get null', async () => {
    const g = await buyer(false);
    const mine = await t.gql(
      ORDER_BY,
      { id: String(g.order.databaseId) },
      { 'woocommerce-session': `Session ${g.sessionToken()}` },
    );
    expect(mine.body.data.order.databaseId).toBe(g.order.databaseId);
    const other = await buyer(true);
    for (const headers of [{}, headersOf({ authToken: other.customer!.authToken })]) {
      expect((await t.gql(ORDER_BY, { id: String(g.order.databaseId) }, headers)).body.data.order).toBeNull();
    }
    // The lookup needs number and e-mail together.
    const lookup = await t.gql(operation('lookupOrder'), {
      orderNumber: g.order.orderNumber,
      email: other.customer!.email,
    });
    expect(lookup.body.data.lookupOrder).toEqual({ orderId: null, orderKey: null });
  });

  it('B presenting A’s session token gets neither A’s cart nor A’s orders', async () => {
    const a = await register(t, newCustomer('sa'), headersOf({}, ip()));
    const b = await register(t, newCustomer('sb'), headersOf({}, ip()));
    await t.gql(
      operation('addToCart'),
      { productId: antenna, quantity: 2 },
      headersOf({ authToken: a.authToken, sessionToken: a.sessionToken }),
    );
    const replay = await t.gql(CART_ITEMS, {}, headersOf({ authToken: b.authToken, sessionToken: a.sessionToken }));
    expect(replay.body.data?.cart?.contents?.nodes ?? []).toEqual([]);
    // A's own view is unchanged.
    const own = await t.gql(CART_ITEMS, {}, headersOf({ authToken: a.authToken, sessionToken: a.sessionToken }));
    expect(own.body.data.cart.contents.nodes).toEqual([{ quantity: 2, product: { node: { databaseId: antenna } } }]);
  });
});

describe('addresses', () => {
  it('a guest cannot edit a customer by id; B cannot by any id form; A’s address stays', async () => {
    const a = await register(t, newCustomer('ada'), headersOf({}, ip()));
    const b = await register(t, newCustomer('adb'), headersOf({}, ip()));
    await t.gql(
      op('UpdateCustomer'),
      { input: { billing: { address1: 'Original 1', city: 'Berlin', postcode: '10115', country: 'DE' } } },
      headersOf({ authToken: a.authToken }),
    );
    const ids = [
      Buffer.from(`user:${a.userId}`).toString('base64'),
      Buffer.from(`customer:${a.userId}`).toString('base64'),
      String(a.userId),
    ];
    for (const id of ids) {
      for (const headers of [{}, headersOf({ authToken: b.authToken })]) {
        const r = await t.gql(
          op('UpdateCustomer'),
          { input: { id, billing: { address1: 'Mallory Road 6' } } },
          headers,
        );
        expect(r.status).toBe(200);
        expect(r.body.errors?.length, JSON.stringify(r.body)).toBeGreaterThan(0);
      }
    }
    const view = await t.gql('query { customer { billing { address1 } } }', {}, headersOf({ authToken: a.authToken }));
    expect(view.body.data.customer.billing.address1).toBe('Original 1');
  });
});

describe('reviews', () => {
  it('a second review on the same product never changes the first one', async () => {
    const a = await register(t, newCustomer('ra'), headersOf({}, ip()));
    const b = await register(t, newCustomer('rb'), headersOf({}, ip()));
    const write = (who: typeof a, content: string, email = who.email) =>
      t.gql(
        op('WriteReview'),
        { commentOn: antenna, rating: 5, content, author: who.firstName, authorEmail: email },
        headersOf({ authToken: who.authToken }, ip()),
      );
    const first = await write(a, 'Works well on my roof.');
    expect(first.body.errors).toBeUndefined();
    // B writing with A's e-mail, and A writing again, do not rewrite A's review.
    await write(b, 'Terrible (edited by someone else).', a.email);
    await write(a, 'Changed my mind.');
    const reviews = await t.gql(
      'query ($id: ID!) { product(id: $id, idType: DATABASE_ID) { reviews(first: 100) { nodes { content } } } }',
      { id: String(antenna) },
    );
    const contents = reviews.body.data.product.reviews.nodes.map((n: { content: string }) => n.content);
    // Every review is its own comment: A's first text is still there exactly once, B's is not in its place.
    expect(contents.filter((c: string) => c.includes('Works well on my roof.'))).toHaveLength(1);
  });
});

describe('forged tokens', () => {
  it('alg "none", a refresh token or a session token as the bearer, and a tampered session token show no one', async () => {
    const a = await register(t, newCustomer('fa'), headersOf({}, ip()));
    const [, payload] = a.authToken.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const bearer of [none, a.refreshToken, a.sessionToken]) {
      const r = await t.gql(VIEWER, {}, { authorization: `Bearer ${bearer}` });
      expect(r.status).toBe(200);
      expect(r.body.data?.viewer ?? null).toBeNull();
      const orders = await t.gql(ORDERS, {}, { authorization: `Bearer ${bearer}` });
      expect(orders.body.data?.customer?.orders?.nodes ?? []).toEqual([]);
    }
    // A session token signed with another key is refused, not taken as A's session.
    await t.gql(
      operation('addToCart'),
      { productId: antenna, quantity: 1 },
      headersOf({ sessionToken: a.sessionToken, authToken: a.authToken }),
    );
    const forged = await new SignJWT(JSON.parse(Buffer.from(a.sessionToken.split('.')[1]!, 'base64url').toString()))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not-the-shop-secret-but-long-enough-0123456789'));
    const r = await t.gql(CART_ITEMS, {}, { 'woocommerce-session': `Session ${forged}` });
    expect(r.body.data.cart).toBeNull();
    expect(r.body.errors?.[0]).toMatchObject({
      message: 'invalid_token: Signature verification failed',
      extensions: { code: 'INVALID_SESSION' },
    });
    // Header tricks: a missing scheme, a second token, garbage.
    for (const authorization of [
      a.authToken,
      `Bearer ${a.authToken}x`,
      `Bearer ${a.authToken} ${a.authToken}`,
      'Bearer',
      'Basic YTpi',
    ]) {
      const v = await t.gql(VIEWER, {}, { authorization });
      expect(v.status, authorization).toBeLessThan(500);
      expect(v.body.data?.viewer ?? null, authorization).toBeNull();
    }
  });
});

describe('shoppers', () => {
  it('a fresh shopper sees an empty cart, not the previous one', async () => {
    const s = new Shopper(t);
    await s.ok(operation('addToCart'), { productId: antenna, quantity: 1 });
    const other = new Shopper(t);
    expect((await other.ok(CART_ITEMS)).cart.contents.nodes).toEqual([]);
  });
});
