// "Create an account" at checkout: the account is a real customer account (it can log in, it owns the
// order, it keeps the checkout's addresses), the session passes to it, and a refused account or a refused
// order leaves neither behind (no order, no account, stock and cart as they were).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { headersOf, login, newCustomer, op, register } from './accounts-helpers.ts';
import { BILLING, operation, productId, setStock, Shopper, stockOf } from './shop-helpers.ts';

let t: TestEngine;
let antenna: number;
let gateway: number;
beforeAll(async () => {
  // Every test here registers from one address, more often than the default hourly limit allows (the
  // accounts' settings are read from the process environment; each test file runs in its own process).
  process.env.REGISTER_LIMIT_PER_IP = '100';
  t = await startTestEngine();
  antenna = await productId(t, 'omni-antenna');
  gateway = await productId(t, 'bravo-outdoor-gateway');
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const ADD = operation('addToCart');
const CHECKOUT = operation('Checkout');
const GET_ORDER = operation('getOrder');

async function shopperWith(product: number, quantity = 1): Promise<Shopper> {
  const s = new Shopper(t);
  await s.ok(ADD, { productId: product, quantity });
  return s;
}

async function ordersInDb(): Promise<number> {
  const r = (await t.engine.database.db.execute(sql`select count(*)::int as n from orders`)) as unknown as
    | { rows?: { n: number }[] }
    | { n: number }[];
  const rows = Array.isArray(r) ? r : (r.rows ?? []);
  return Number(rows[0]!.n);
}

describe('checkout with "create an account"', () => {
  it('creates the account, gives it the order and the session, keeps the addresses; the shopper can log in and sees the order', async () => {
    const c = newCustomer('buyer');
    const s = await shopperWith(antenna);
    const billing = { ...BILLING, email: c.email };
    const d = await s.ok(CHECKOUT, {
      paymentMethod: 'cod',
      billing,
      account: { username: c.username, password: c.password },
    });
    const order = d.checkout.order;
    expect(d.checkout.result).toBe('success');
    expect(order.status).toBe('PROCESSING');

    // A real account: the same credentials log in, and its profile holds the checkout's addresses.
    const account = await t.engine.accounts.customers.findByLogin(c.username);
    expect(account).toMatchObject({ username: c.username, email: c.email, firstName: 'Ada', lastName: 'Lovelace' });
    expect(account!.billing).toMatchObject({
      address1: 'Hauptstr. 1',
      city: 'Berlin',
      postcode: '10115',
      country: 'DE',
      email: c.email,
    });
    expect(account!.shipping).toMatchObject({ address1: 'Hauptstr. 1', country: 'DE' });
    const loggedIn = await login(t, c.username, c.password, { 'woocommerce-session': `Session ${s.token}` });
    expect(loggedIn.body.errors).toBeUndefined();
    const auth = loggedIn.body.data.login;
    expect(auth.user.username).toBe(c.username);

    // The order belongs to the account: in its order history, and readable without the key.
    const history = await t.gql(
      op('getOrders'),
      {},
      headersOf({ authToken: auth.authToken, sessionToken: auth.sessionToken }),
    );
    expect(history.body.data.customer.orders.nodes.map((o: { databaseId: number }) => o.databaseId)).toContain(
      order.databaseId,
    );
    const own = await t.gql(
      GET_ORDER,
      { id: String(order.databaseId) },
      headersOf({ authToken: auth.authToken, sessionToken: auth.sessionToken }),
    );
    expect(own.body.data.order?.databaseId).toBe(order.databaseId);
    // The session token the checkout returned is not a login: alone it reads the order only with its key.
    expect((await s.ok(GET_ORDER, { id: String(order.databaseId) })).order).toBeNull();
    expect((await s.ok(GET_ORDER, { id: order.orderKey, idType: 'ORDER_KEY' })).order?.databaseId).toBe(
      order.databaseId,
    );
  });

  it('refuses a taken username, a registered e-mail and weak passwords with clear messages, creating no order and no account', async () => {
    const taken = await register(t, newCustomer('owner'));
    const stockBefore = await stockOf(t, 'bravo-outdoor-gateway');
    const ordersBefore = await ordersInDb();
    const s = await shopperWith(gateway);
    const fresh = newCustomer('fresh');
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          billing: { ...BILLING, email: fresh.email },
          account: { username: taken.username, password: fresh.password },
        },
        'An account is already registered with that username. Please choose another.',
      ],
      [
        {
          billing: { ...BILLING, email: taken.email },
          account: { username: fresh.username, password: fresh.password },
        },
        'An account is already registered with your email address. Please log in.',
      ],
      [
        { billing: { ...BILLING, email: fresh.email }, account: { username: fresh.username, password: 'short' } },
        'Password must be at least 8 characters long.',
      ],
      [
        { billing: { ...BILLING, email: fresh.email }, account: { username: fresh.username, password: 'password123' } },
        'This password is too common. Please choose a less common password.',
      ],
      [
        {
          billing: { ...BILLING, email: fresh.email },
          account: { username: fresh.username, password: fresh.username },
        },
        'Password must not be your username or e-mail address.',
      ],
    ];
    for (const [input, message] of cases)
      expect(await s.fails(CHECKOUT, { paymentMethod: 'cod', ...input })).toBe(message);

    expect(await ordersInDb()).toBe(ordersBefore);
    expect(await stockOf(t, 'bravo-outdoor-gateway')).toBe(stockBefore);
    expect(await t.engine.accounts.customers.findByLogin(fresh.username)).toBeNull();
    expect(await t.engine.accounts.customers.findByEmail(fresh.email)).toBeNull();
    // The cart is still there: the shopper fixes the account details and places the order.
    const cart = await s.ok(operation('getCart'));
    expect(cart.cart.contents.itemCount).toBe(1);
    const ok = await s.ok(CHECKOUT, {
      paymentMethod: 'cod',
      billing: { ...BILLING, email: fresh.email },
      account: { username: fresh.username, password: fresh.password },
    });
    expect(ok.checkout.result).toBe('success');
    expect(await t.engine.accounts.customers.findByLogin(fresh.username)).not.toBeNull();
  });

  it('without a username (optional, as on registration) the account gets one made from the e-mail address', async () => {
    const c = newCustomer('nameless');
    const s = await shopperWith(antenna);
    const d = await s.ok(CHECKOUT, {
      paymentMethod: 'cod',
      billing: { ...BILLING, email: c.email },
      account: { username: '  ', password: c.password },
    });
    expect(d.checkout.result).toBe('success');
    const account = await t.engine.accounts.customers.findByEmail(c.email);
    expect(account?.username).toBe(c.email.split('@')[0]);
    // The shopper logs in with the e-mail address, the only name they know.
    const loggedIn = await login(t, c.email, c.password);
    expect(loggedIn.body.errors).toBeUndefined();
    expect(loggedIn.body.data.login.user.username).toBe(account?.username);
  });

  it('an order refused after the account was checked (out of stock) leaves no account behind', async () => {
    const c = newCustomer('late');
    const s = await shopperWith(antenna, 2);
    await setStock(t, 'omni-antenna', 1);
    const message = await s.fails(CHECKOUT, {
      paymentMethod: 'cod',
      billing: { ...BILLING, email: c.email },
      account: { username: c.username, password: c.password },
    });
    // Refused by the stock taken inside the order's transaction, after the account was inserted there.
    expect(message).toBe(
      'Sorry, we do not have enough "Omni Antenna 5 dBi" in stock to fulfill your order (1 available). We apologize for any inconvenience caused.',
    );
    expect(await t.engine.accounts.customers.findByLogin(c.username)).toBeNull();
    expect((await login(t, c.username, c.password)).body.errors?.[0]?.message).toBeTruthy();
    expect(await stockOf(t, 'omni-antenna')).toBe(1);
    await setStock(t, 'omni-antenna', 100);
  });

  it("a logged-in customer's checkout ignores `account` and the order is theirs", async () => {
    const me = await register(t, newCustomer('member'));
    const headers = headersOf(me);
    await t.gql(ADD, { productId: antenna, quantity: 1 }, headers);
    const other = newCustomer('ignored');
    const r = await t.gql(
      CHECKOUT,
      {
        paymentMethod: 'cod',
        billing: { ...BILLING, email: me.email },
        account: { username: other.username, password: other.password },
      },
      headers,
    );
    expect(r.body.errors).toBeUndefined();
    expect(await t.engine.accounts.customers.findByLogin(other.username)).toBeNull();
    const history = await t.gql(op('getOrders'), {}, headers);
    expect(history.body.data.customer.orders.nodes.map((o: { databaseId: number }) => o.databaseId)).toContain(
      r.body.data.checkout.order.databaseId,
    );
  });
});
