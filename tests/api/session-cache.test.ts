// The session cache (PGlite: an authoritative in-process copy of `sessions`; PostgreSQL: none) must never
// show anything else than the table: refused checkouts and rolled-back transactions leave the cart as it
// was, concurrent cart mutations of one session lose nothing, the login hand-over moves the cart, expired
// sessions read as empty, and evicted sessions are read back from the table. Runs on both databases.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionCache } from '../../src/server/session/cache.ts';
import { SessionService } from '../../src/server/session/service.ts';
import { headersOf, login, newCustomer, register } from './accounts-helpers.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, CART, operation, productId, setStock, Shopper } from './shop-helpers.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const ADD = operation('addToCart');
const CHECKOUT = operation('Checkout');
const CUSTOMER = `query { customer { billing { firstName email country } } }`;
const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/** The session row as the table holds it ({} when none or expired), read around the cache. */
async function tableRow(customerId: string): Promise<Record<string, unknown>> {
  const r = await t.engine.database.db.execute(
    sql`select data from sessions where customer_id = ${customerId} and expires_at > now()`,
  );
  const rows = ((r as unknown as { rows?: { data: Record<string, unknown> }[] }).rows ??
    (r as unknown as { data: Record<string, unknown> }[])) as { data: Record<string, unknown> }[];
  return rows[0]?.data ?? {};
}

async function customerIdOf(s: Shopper): Promise<string> {
  const v = await t.engine.sessions.verify(s.token!);
  if (!('customerId' in v)) throw new Error(v.error);
  return v.customerId;
}

it('is on for PGlite only: another process may write the PostgreSQL table', () => {
  if (t.database.kind === 'pglite') expect(t.engine.sessions.cache).toBeInstanceOf(SessionCache);
  else expect(t.engine.sessions.cache).toBeNull();
});

describe('failed writes', () => {
  it('a checkout refused for stock leaves the cart and the session customer exactly as before', async () => {
    await setStock(t, 'omni-antenna', 5);
    const s = new Shopper(t);
    await s.ok(ADD, { productId: await productId(t, 'omni-antenna'), quantity: 3 });
    const id = await customerIdOf(s);
    const cartBefore = (await s.ok(CART)).cart;
    const customerBefore = (await s.ok(CUSTOMER)).customer;
    const rowBefore = await tableRow(id);
    // Someone else bought most of the stock meanwhile: the order cannot be placed.
    await setStock(t, 'omni-antenna', 1);
    const message = await s.fails(CHECKOUT, { paymentMethod: 'cod', billing: BILLING });
    expect(message).toMatch(/not in stock|not enough stock|in stock/i);
    expect((await s.ok(CART)).cart).toEqual(cartBefore);
    expect(cartBefore.contents.nodes[0].quantity).toBe(3);
    // The checkout's address (written in the rolled-back transaction) is not the session's.
    expect((await s.ok(CUSTOMER)).customer).toEqual(customerBefore);
    expect(customerBefore.billing.email).not.toBe(BILLING.email);
    expect(await tableRow(id)).toEqual(rowBefore);
    expect(await t.engine.sessions.load(id)).toEqual(rowBefore);
  });

  it('a transaction that wrote or deleted sessions and then failed changes neither the table nor what loads return', async () => {
    const s = t.engine.sessions;
    const a = s.newGuestId();
    const b = s.newGuestId();
    await s.save(a, { cart: { items: [], coupons: ['kept'] } });
    await s.save(b, { note: 'b stays' });
    await expect(
      s.update(a, async (data, tx) => {
        await s.save(a, { ...data, cart: { items: [], coupons: ['lost'] } }, tx);
        await s.destroy(b, tx);
        throw new Error('refused after writing');
      }),
    ).rejects.toThrow('refused after writing');
    expect(await s.load(a)).toEqual({ cart: { items: [], coupons: ['kept'] } });
    expect(await s.load(b)).toEqual({ note: 'b stays' });
    expect(await tableRow(a)).toEqual({ cart: { items: [], coupons: ['kept'] } });
    expect(await tableRow(b)).toEqual({ note: 'b stays' });
  });

  it('a loaded session is the caller’s own copy: changing it changes nothing stored', async () => {
    const s = t.engine.sessions;
    const id = s.newGuestId();
    await s.save(id, { cart: { items: [{ key: 'k', quantity: 1 }] } });
    const loaded = await s.load(id);
    (loaded.cart as { items: { quantity: number }[] }).items[0]!.quantity = 99;
    expect(await s.load(id)).toEqual({ cart: { items: [{ key: 'k', quantity: 1 }] } });
  });
});

describe('concurrency', () => {
  it('20 addToCart in parallel on one session end with the exact quantity, in the cart and in the table', async () => {
    await setStock(t, 'n-type-cable', 1000);
    const pid = await productId(t, 'n-type-cable');
    const s = new Shopper(t);
    await s.ok(ADD, { productId: pid, quantity: 1 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.gql(ADD, { productId: pid, quantity: 1 }, { 'woocommerce-session': `Session ${s.token}` }),
      ),
    );
    for (const r of results) expect(r.body.errors).toBeUndefined();
    // Every answer saw a different cart: the mutations ran one after another.
    expect(new Set(results.map((r) => r.body.data.addToCart.cartItem.quantity)).size).toBe(20);
    const cart = (await s.ok(CART)).cart;
    expect(cart.contents.nodes).toHaveLength(1);
    expect(cart.contents.nodes[0].quantity).toBe(21);
    const row = await tableRow(await customerIdOf(s));
    expect((row.cart as { items: { quantity: number }[] }).items[0]!.quantity).toBe(21);
  });
});

describe('login hand-over', () => {
  const CART_OF = /* GraphQL */ `query { cart { contents { itemCount } } customer { databaseId } }`;

  it('moves the guest cart to the customer, empties the guest session, and restores it on a later login', async () => {
    const c = await register(t, newCustomer('cache'));
    const pid = await productId(t, 'mesh-os');
    const guest = new Shopper(t);
    await guest.ok(ADD, { productId: pid, quantity: 2 });
    const guestId = await customerIdOf(guest);
    expect(await tableRow(guestId)).toHaveProperty('cart');

    const r = await login(t, c.username, c.password, headersOf({ sessionToken: guest.token! }));
    expect(r.body.errors).toBeUndefined();
    const p = r.body.data.login;
    const mine = await t.gql(CART_OF, {}, headersOf({ authToken: p.authToken, sessionToken: p.sessionToken }));
    expect(mine.body.data.cart.contents.itemCount).toBe(2);
    expect(mine.body.data.customer.databaseId).toBe(c.userId);
    // The guest session is gone, in what the engine answers and in the table.
    expect(
      (await t.gql(CART_OF, {}, headersOf({ sessionToken: guest.token! }))).body.data.cart.contents.itemCount,
    ).toBe(0);
    expect(await tableRow(guestId)).toEqual({});
    expect(await t.engine.sessions.load(guestId)).toEqual({});
    expect(await t.engine.sessions.load(String(c.userId))).toEqual(await tableRow(String(c.userId)));

    // Logged out, a new (empty) guest session logs in again: the stored cart comes back.
    const fresh = new Shopper(t);
    await fresh.ok(`query { customer { sessionToken } }`);
    const again = (await login(t, c.username, c.password, headersOf({ sessionToken: fresh.token! }))).body.data.login;
    const back = await t.gql(CART_OF, {}, headersOf({ authToken: again.authToken, sessionToken: again.sessionToken }));
    expect(back.body.data.cart.contents.itemCount).toBe(2);
  });
});

describe('expiry', () => {
  it('an expired session reads as empty, from the cache as from the table', async () => {
    // Another service on the same database with a 1-second session lifetime stands in for a session left idle.
    const short = new SessionService(t.engine.database.db, {
      secret: SECRET,
      issuer: 'http://meshfront.test',
      ttlSeconds: 1,
    });
    const id = t.engine.sessions.newGuestId();
    await short.save(id, { cart: { items: [], coupons: [], chosenShipping: ['flat_rate:1'] } });
    expect(await t.engine.sessions.load(id)).toEqual({
      cart: { items: [], coupons: [], chosenShipping: ['flat_rate:1'] },
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await t.engine.sessions.load(id)).toEqual({});
    expect(await tableRow(id)).toEqual({});
    const token = await t.engine.sessions.sign(id);
    const r = await t.gql(CART, {}, { 'woocommerce-session': `Session ${token}` });
    expect(r.body.data.cart.isEmpty).toBe(true);
  });
});

describe('bounds', () => {
  it('keeps at most its entry cap, and an evicted session is read back from the table', async () => {
    const cache = new SessionCache({ maxEntries: 3, maxBytes: 1_000_000 });
    const s = new SessionService(t.engine.database.db, {
      secret: SECRET,
      issuer: 'http://meshfront.test',
      ttlSeconds: 3600,
      cache,
    });
    const ids = Array.from({ length: 5 }, () => s.newGuestId());
    for (const [i, id] of ids.entries()) await s.save(id, { n: i });
    expect(cache.size).toBe(3);
    // The two oldest were dropped (least recently used); the table still has them.
    expect(cache.get(ids[0]!)).toBeUndefined();
    expect(cache.get(ids[1]!)).toBeUndefined();
    expect(await s.load(ids[0]!)).toEqual({ n: 0 });
    // Read back, it is cached again (and another one made room).
    expect(cache.get(ids[0]!)).toEqual({ n: 0 });
    expect(cache.size).toBe(3);
    for (const [i, id] of ids.entries()) expect(await s.load(id)).toEqual({ n: i });
  });

  it('keeps its byte budget: large sessions push out older ones', async () => {
    const cache = new SessionCache({ maxEntries: 100, maxBytes: 5_000 });
    const s = new SessionService(t.engine.database.db, {
      secret: SECRET,
      issuer: 'http://meshfront.test',
      ttlSeconds: 3600,
      cache,
    });
    const ids = Array.from({ length: 6 }, () => s.newGuestId());
    for (const id of ids) await s.save(id, { blob: 'x'.repeat(1500) });
    expect(cache.byteSize).toBeLessThanOrEqual(5_000);
    expect(cache.size).toBeLessThan(6);
    for (const id of ids) expect(await s.load(id)).toEqual({ blob: 'x'.repeat(1500) });
  });
});
