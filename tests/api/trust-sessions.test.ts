// A customer's woocommerce-session token is not a login: once the login ends (logout, password reset,
// an expired auth token) the token alone reads none of the customer's orders, e-mail or addresses, and a
// checkout made with it is a guest's order; the request is answered as a new guest session (a new guest
// token comes back), while the customer's own cart waits for their next login. Answers that depend on the
// caller are never cacheable by shared caches, over GET and POST, through Yoga and the catalog fast path,
// and the catalog response cache never hands one caller's answer to another.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import { CatalogFastPath } from '../../src/server/http/fast-path.ts';
import { startTestEngine, type GqlResponse, type TestEngine } from './harness.ts';
import { headersOf, newCustomer, op, register } from './accounts-helpers.ts';
import { BILLING, productId } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

const SHOP = 'http://shop.test';
let t: TestEngine;
let antenna: number;
let ipCounter = 0;
const ip = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  process.env.PUBLIC_SITE_URL = 'https://shop.meshfront.test';
  // Two origins, so CORS answers carry a Vary of their own (Origin) that the cache rules must keep.
  t = await startTestEngine({ env: { CORS_ORIGINS: `${SHOP},http://other-shop.test` } });
  antenna = await productId(t, 'omni-antenna');
});
afterAll(async () => {
  await t?.close();
});

const ORDER = /* GraphQL */ `query ($id: ID!) { order(id: $id, idType: DATABASE_ID) { databaseId orderKey billing { email phone address1 } } }`;
const CUSTOMER = /* GraphQL */ `query { customer { databaseId email billing { email firstName lastName address1 phone } } }`;
const CART = /* GraphQL */ `query { cart { contents { itemCount } } }`;
const UPDATE_CUSTOMER = op('UpdateCustomer');
const ADD = op('addToCart');
const CHECKOUT = op('Checkout');

/** A storefront: keeps its tokens and takes every session token the engine sends back, as src/graphql/client.ts does. */
class Browser {
  constructor(
    public authToken?: string,
    public sessionToken?: string,
    private readonly address = ip(),
  ) {}

  async gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse<T>> {
    const r = await t.gql<T>(
      query,
      variables,
      headersOf({ authToken: this.authToken, sessionToken: this.sessionToken }, this.address),
    );
    const issued = r.headers.get('woocommerce-session');
    if (issued) this.sessionToken = issued;
    return r;
  }

  async ok<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const r = await this.gql<T>(query, variables);
    if (r.body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(r.body.errors)}`);
    return r.body.data as T;
  }
}

/** The session id a token names (verified). */
async function sessionIdOf(token: string | null | undefined): Promise<string> {
  const r = await t.engine.sessions.verify(token ?? '');
  if (!('customerId' in r)) throw new Error(`not a valid session token: ${r.error}`);
  return r.customerId;
}

/**
 * A registered customer who saved their address, bought the antenna (an order with their name, address,
 * phone and e-mail) and left one more in the cart. Returns the logged-in browser and the order.
 */
async function customerWithOrder(prefix: string) {
  const c = await register(t, newCustomer(prefix), headersOf({}, ip()));
  const browser = new Browser(c.authToken, c.sessionToken);
  const billing = { ...BILLING, email: c.email };
  await browser.ok(UPDATE_CUSTOMER, { input: { billing, shipping: { ...billing, email: undefined } } });
  await browser.ok(ADD, { productId: antenna, quantity: 1 });
  const placed = await browser.ok(CHECKOUT, { paymentMethod: 'cod', billing });
  await browser.ok(ADD, { productId: antenna, quantity: 1 });
  expect(await sessionIdOf(browser.sessionToken)).toBe(String(c.userId));
  return { c, browser, orderId: placed.checkout.order.databaseId as number };
}

/**
 * What the customer's last session token alone (no Authorization) gets: not the order, not the
 * customer's e-mail or addresses, not their cart; a new guest token; and a checkout made with it is a
 * guest order, not booked to the customer.
 */
async function expectTokenAloneIsAGuest(sessionToken: string, userId: number, orderId: number, email: string) {
  const order = await t.gql(ORDER, { id: String(orderId) }, headersOf({ sessionToken }, ip()));
  expect(order.body.data.order).toBeNull();
  expect(JSON.stringify(order.body)).not.toContain(email);
  const fresh = order.headers.get('woocommerce-session');
  expect(fresh).toBeTruthy();
  expect(await sessionIdOf(fresh)).toMatch(/^t_[0-9a-f]{30}$/);

  const customer = await t.gql(CUSTOMER, {}, headersOf({ sessionToken }, ip()));
  expect(customer.body.errors).toBeUndefined();
  expect(customer.body.data.customer.databaseId).toBeNull();
  expect(customer.body.data.customer.email).toBeNull();
  for (const personal of [email, BILLING.address1, BILLING.phone, BILLING.lastName])
    expect(JSON.stringify(customer.body)).not.toContain(personal);
  expect(await sessionIdOf(customer.headers.get('woocommerce-session'))).toMatch(/^t_/);

  const cart = await t.gql(CART, {}, headersOf({ sessionToken }, ip()));
  expect(cart.body.data.cart.contents.itemCount).toBe(0);

  // A storefront still holding the token shops on: the order it places is a guest's.
  const stranger = new Browser(undefined, sessionToken);
  await stranger.ok(ADD, { productId: antenna, quantity: 1 });
  const placed = await stranger.ok(CHECKOUT, {
    paymentMethod: 'cod',
    billing: { ...BILLING, email: 'someone-else@example.test' },
  });
  const row = await t.engine.orders.get(placed.checkout.order.databaseId);
  expect(row!.customerId).not.toBe(String(userId));
  expect(row!.customerId).toMatch(/^t_/);
}

describe("a customer's session token without the login", () => {
  it('after logout: reads no order, e-mail, address or cart, books no order to the customer, and gets a new guest token', async () => {
    const { c, browser, orderId } = await customerWithOrder('logout');
    const lastToken = browser.sessionToken!;
    // Logged in, the same token does all of it.
    expect((await browser.ok(ORDER, { id: String(orderId) })).order.billing.email).toBe(c.email);

    const out = await browser.gql(op('Logout'), {});
    expect(out.body.data.logout.success).toBe(true);
    // The logout's answer already carries an empty guest session.
    expect(await sessionIdOf(out.headers.get('woocommerce-session'))).toMatch(/^t_/);

    await expectTokenAloneIsAGuest(lastToken, c.userId, orderId, c.email);
    // Mutations answer with a fresh token, but a guest's: the customer's token cannot be kept alive.
    const added = await t.gql(ADD, { productId: antenna, quantity: 1 }, headersOf({ sessionToken: lastToken }, ip()));
    expect(await sessionIdOf(added.headers.get('woocommerce-session'))).toMatch(/^t_/);

    // The customer's own cart is still there for their next login.
    const again = new Browser();
    const login = await again.ok(op('login'), { username: c.username, password: c.password });
    again.authToken = login.login.authToken;
    again.sessionToken = login.login.sessionToken;
    expect((await again.ok(CART)).cart.contents.itemCount).toBe(1);
    expect((await again.ok(ORDER, { id: String(orderId) })).order.databaseId).toBe(orderId);
  });

  it('after a password reset: the old session token (with or without the old auth token) is a guest', async () => {
    const { c, browser, orderId } = await customerWithOrder('reset');
    const lastToken = browser.sessionToken!;
    await t.gql(op('ResetPasswordEmail'), { username: c.email }, headersOf({}, ip()));
    const [mail] = await t.engine.accounts.mailer().readOutbox({ to: c.email });
    const link = new URL(mail!.links.find((l) => l.includes('/my-account/lost-password'))!);
    const reset = await t.gql(
      op('ResetPasswordKey'),
      { key: link.searchParams.get('key'), login: link.searchParams.get('login'), password: 'A-new-pass-123' },
      headersOf({}, ip()),
    );
    expect(reset.body.errors).toBeUndefined();

    await expectTokenAloneIsAGuest(lastToken, c.userId, orderId, c.email);
    // The auth token issued before the reset is refused, so it opens nothing either.
    const withOldLogin = await t.gql(
      ORDER,
      { id: String(orderId) },
      headersOf({ authToken: c.authToken, sessionToken: lastToken }, ip()),
    );
    expect(withOldLogin.body.data.order).toBeNull();
    expect(await sessionIdOf(withOldLogin.headers.get('woocommerce-session'))).toMatch(/^t_/);
  });

  it('with an expired auth token: served as a guest; after the refresh the customer has their cart and order again', async () => {
    const { c, browser, orderId } = await customerWithOrder('expired');
    const claims = await t.engine.accounts.auth.authenticate(`Bearer ${browser.authToken}`, '127.0.0.1');
    const settings = t.engine.accounts.settings;
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await signAccessToken(
      settings.keys.access,
      settings.issuer,
      { userId: c.userId, version: claims.viewer!.tokenVersion, sid: claims.sid! },
      300,
      past,
    );
    browser.authToken = expired.token;
    const order = await browser.gql(ORDER, { id: String(orderId) });
    expect(order.body.data.order).toBeNull();
    expect(await sessionIdOf(browser.sessionToken)).toMatch(/^t_/);

    // The storefront refreshes the auth token and goes on with the session token it now holds.
    const refreshed = await new Browser().ok(
      `mutation ($r: String!) { refreshToken(input: { refreshToken: $r }) { success authToken } }`,
      { r: c.refreshToken },
    );
    expect(refreshed.refreshToken.success).toBe(true);
    browser.authToken = refreshed.refreshToken.authToken;
    expect((await browser.ok(CART)).cart.contents.itemCount).toBe(1);
    expect((await browser.ok(ORDER, { id: String(orderId) })).order.databaseId).toBe(orderId);
    expect(await sessionIdOf(browser.sessionToken)).toBe(String(c.userId));
  });

  it('with the login: reads the order, the e-mail and the address, and books the checkout to the customer', async () => {
    const { c, browser, orderId } = await customerWithOrder('loggedin');
    const order = await browser.gql(ORDER, { id: String(orderId) });
    expect(order.body.data.order).toMatchObject({
      databaseId: orderId,
      billing: { email: c.email, address1: BILLING.address1 },
    });
    expect(order.headers.get('woocommerce-session')).toBeNull();
    const customer = await browser.ok(CUSTOMER);
    expect(customer.customer).toMatchObject({
      databaseId: c.userId,
      email: c.email,
      billing: { address1: BILLING.address1 },
    });
    const placed = await browser.ok(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, email: c.email } });
    expect((await t.engine.orders.get(placed.checkout.order.databaseId))!.customerId).toBe(String(c.userId));
  });
});

describe('cache headers', () => {
  const PERSONAL = 'private, no-store';
  const varyOf = (r: { headers: Headers }) =>
    (r.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());
  const expectPersonal = (r: { headers: Headers }) => {
    expect(r.headers.get('cache-control')).toBe(PERSONAL);
    expect(varyOf(r)).toEqual(expect.arrayContaining(['authorization', 'woocommerce-session']));
  };
  const get = (query: string, headers: Record<string, string> = {}) =>
    t.fetch({
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent(query)}`,
      headers: { accept: 'application/json', ...headers },
    });

  it('a personal query is private and varies by login and session, over GET and POST, keeping the Vary CORS sets', async () => {
    const { browser } = await customerWithOrder('cache');
    const guest = (await t.gql(`query { customer { sessionToken } }`)).body.data.customer.sessionToken as string;
    const callers: Record<string, string>[] = [
      {},
      headersOf({ sessionToken: guest }),
      headersOf({ authToken: browser.authToken, sessionToken: browser.sessionToken }),
    ];
    for (const headers of callers) {
      const viaGet = await get('{customer{email}}', { ...headers, origin: SHOP });
      expect(viaGet.status).toBe(200);
      expectPersonal(viaGet);
      expect(varyOf(viaGet)).toContain('origin');
      expectPersonal(await t.gql(`{ customer { email } }`, {}, headers));
      expectPersonal(await t.gql(ORDER, { id: '1' }, headers));
    }
    // Mutations and errors too.
    expectPersonal(await t.gql(ADD, { productId: antenna, quantity: 1 }, headersOf({ sessionToken: guest })));
    expectPersonal(await t.gql(`{ nonsense }`, {}, headersOf({ sessionToken: guest })));
  });

  it('a catalog read is the same for everybody: no caching rule of its own, unless it hands out a new session token', async () => {
    const guest = (await t.gql(`query { customer { sessionToken } }`)).body.data.customer.sessionToken as string;
    const PRODUCTS = `{ products(first: 2) { nodes { databaseId } } }`;
    const withSession = await get(PRODUCTS, headersOf({ sessionToken: guest }));
    expect(withSession.headers.get('woocommerce-session')).toBeNull();
    expect(withSession.headers.get('cache-control')).toBeNull();
    // Also by language: prices and texts are written in the one Accept-Language asks for.
    expect(varyOf(withSession)).toEqual(['origin', 'accept-language']);
    const withoutSession = await get(PRODUCTS);
    expect(withoutSession.headers.get('woocommerce-session')).toBeTruthy();
    expectPersonal(withoutSession);
    expectPersonal(await t.gql(PRODUCTS));
  });

  it('the catalog fast path: stored answers get the caching rule of each request, and a customer token without login becomes a guest', async () => {
    const fast = new CatalogFastPath(t.yoga, async () => t.engine);
    const { browser } = await customerWithOrder('fast');
    const guest = (await t.gql(`query { customer { sessionToken } }`)).body.data.customer.sessionToken as string;
    const post = (headers: Record<string, string>) =>
      fast.handleRequest(
        new Request('http://meshfront.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
          body: JSON.stringify({ query: op('getProducts'), variables: { first: 3 } }),
        }),
      );
    // Every request from the shop's origin (the stored answers are per origin).
    expectPersonal(await post({ origin: SHOP }));
    const hits = fast.stats.hits;
    const stored = await post({ ...headersOf({ sessionToken: guest }), origin: SHOP });
    expect(stored.headers.get('woocommerce-session')).toBeNull();
    expect(stored.headers.get('cache-control')).toBeNull();
    expect(varyOf(stored)).toEqual(['origin', 'accept-language']);
    const tokenless = await post({ origin: SHOP });
    expect(tokenless.headers.get('woocommerce-session')).toBeTruthy();
    expectPersonal(tokenless);
    expect(varyOf(tokenless)).toContain('origin');
    const customerToken = await post({ ...headersOf({ sessionToken: browser.sessionToken }), origin: SHOP });
    expect(await sessionIdOf(customerToken.headers.get('woocommerce-session'))).toMatch(/^t_/);
    expectPersonal(customerToken);
    expect(fast.stats.hits).toBe(hits + 3);
  });

  it("the catalog response cache never answers one customer's query with another's, even in a document that also holds a catalog query", async () => {
    const document = `query Catalog { products(first: 1) { nodes { databaseId } } } query Mine { customer { email } }`;
    const send = (operationName: string, headers: Record<string, string> = {}) =>
      t.fetch({
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify({ query: document, operationName }),
      });
    expect((await send('Catalog')).status).toBe(200);
    const a = await customerWithOrder('first');
    const b = await customerWithOrder('second');
    for (const { c, browser } of [a, b, a]) {
      const r = await send('Mine', headersOf({ authToken: browser.authToken, sessionToken: browser.sessionToken }));
      expect(((await r.json()) as { data: { customer: { email: string } } }).data.customer.email).toBe(c.email);
      expectPersonal(r);
    }
  });
});
