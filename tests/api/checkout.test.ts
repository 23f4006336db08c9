// Checkout with cash on delivery, order statuses, validation, order access by owner or key only,
// stock taken atomically (a failed checkout leaves stock and coupons untouched), the hold-stock sweeper,
// the confirmation e-mail, and the race: 200 concurrent checkouts for 20 units.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutService } from '../../src/server/checkout/service.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { addCoupons, BILLING, operation, productId, setStock, Shopper, stockOf, variationId } from './shop-helpers.ts';

let t: TestEngine;
let ids: Record<string, number>;
beforeAll(async () => {
  t = await startTestEngine();
  ids = {};
  for (const slug of [
    'bravo-outdoor-gateway',
    'omni-antenna',
    'mesh-os',
    'alpha-gateway',
    'search-only-adapter',
    'hidden-spare-part',
    'catalog-only-sticker',
  ])
    ids[slug] = await productId(t, slug);
  ids.alphaAs = await variationId(t, 'FX-ALPHA-AS');
  await addCoupons(t, [
    { code: 'limited', discountType: 'fixed_cart', amount: '2', usageLimit: 5 },
    { code: 'allfree', discountType: 'percent', amount: '100' },
  ]);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const ADD = operation('addToCart');
const APPLY = operation('applyCoupon');
const CHECKOUT = operation('Checkout');
const GET_ORDER = operation('getOrder');

const rows = (r: unknown) => ((r as { rows?: unknown[] }).rows ?? r) as Record<string, any>[];
const couponUses = async (code: string) =>
  Number(
    rows(await t.engine.database.db.execute(sql`select usage_count from coupons where code = ${code}`))[0]!.usage_count,
  );

async function shopper(lines: [string | number, number][]): Promise<Shopper> {
  const s = new Shopper(t);
  for (const [p, quantity] of lines) await s.ok(ADD, { productId: typeof p === 'number' ? p : ids[p], quantity });
  return s;
}

describe('cash on delivery', () => {
  it('places the order: processing, stock taken, cart emptied, totals as in the cart, confirmation e-mail sent', async () => {
    const s = await shopper([['bravo-outdoor-gateway', 2]]);
    const cartBefore = (await s.ok(operation('getCart'))).cart;
    const before = await stockOf(t, 'bravo-outdoor-gateway');
    const d = await s.ok(CHECKOUT, {
      paymentMethod: 'cod',
      billing: BILLING,
      customerNote: 'Ring twice',
      metaData: [{ key: 'source', value: 'test' }],
    });
    const o = d.checkout.order;
    expect(d.checkout.result).toBe('success');
    expect(d.checkout.redirect).toBe(`/checkout/order-received/${o.databaseId}/?key=${o.orderKey}`);
    expect(o).toMatchObject({
      status: 'PROCESSING',
      paymentMethod: 'cod',
      paymentMethodTitle: 'Cash on delivery',
      needsPayment: false,
      needsProcessing: true,
      customerNote: 'Ring twice',
      currency: 'EUR',
      datePaid: null,
    });
    expect(o.orderKey).toMatch(/^wc_order_[A-Za-z0-9]{20}$/);
    expect(o.orderNumber).toBe(String(o.databaseId));
    expect(o.rawTotal).toBe(cartBefore.rawTotal);
    expect(o.total).toBe('€898.00'); // 2 × 449.00 including 143.38 VAT (898 × 19/119 = 143.378), free shipping
    expect(o.totalTax).toBe('€143.38');
    expect(o.pricesIncludeTax).toBe(true);
    expect(o.billing).toMatchObject({ firstName: 'Ada', email: 'ada@example.com', country: 'DE' });
    expect(o.shipping).toMatchObject({ firstName: 'Ada', address1: 'Hauptstr. 1', country: 'DE' });
    expect(o.lineItems.nodes).toEqual([
      expect.objectContaining({
        quantity: 2,
        subtotal: '€754.62',
        total: '€754.62',
        totalTax: '€143.38',
        product: { node: expect.objectContaining({ databaseId: ids['bravo-outdoor-gateway'] }) },
      }),
    ]);
    expect(await stockOf(t, 'bravo-outdoor-gateway')).toBe(before! - 2);
    const after = await s.ok('query { cart { isEmpty appliedCoupons { code } } }');
    expect(after.cart.isEmpty).toBe(true);
    let mail: any[] = [];
    for (let i = 0; i < 50 && !mail.length; i++) {
      mail = await t.engine.commerceMailer.readOutbox({ to: 'ada@example.com', subject: String(o.databaseId) });
      if (!mail.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail.length).toBe(1);
    expect(mail[0].text).toContain(`/checkout/order-received/${o.databaseId}/?key=${o.orderKey}`);
  });

  it('goes on hold when the order has downloadable items', async () => {
    const s = await shopper([['mesh-os', 1]]);
    const o = (await s.ok(CHECKOUT, { paymentMethod: 'cod', billing: BILLING })).checkout.order;
    expect(o.status).toBe('ON_HOLD');
    expect(o.hasDownloadableItem).toBe(true);
    expect(o.isDownloadPermitted).toBe(false);
    expect(o.downloadableItems.nodes).toEqual([]);
  });

  it('never trusts isPaid: a forged paid COD order is not paid or completed', async () => {
    const s = await shopper([['mesh-os', 1]]);
    const o = (
      await s.ok(CHECKOUT, { paymentMethod: 'cod', billing: BILLING, isPaid: true, transactionId: 'forged-123' })
    ).checkout.order;
    expect(o.status).toBe('ON_HOLD');
    expect(o.datePaid).toBeNull();
    expect(o.transactionId).toBeNull();
    expect(o.downloadableItems.nodes).toEqual([]);
    const s2 = await shopper([['omni-antenna', 1]]);
    const r = await s2.gql(CHECKOUT, {
      paymentMethod: 'stripe',
      billing: BILLING,
      isPaid: true,
      transactionId: 'pi_forged',
    });
    expect(r.body.errors?.[0]?.message).toBe('Invalid payment method.');
  });

  it('a free order is paid at once: completed when every line is virtual and downloadable, with download permissions', async () => {
    const s = await shopper([['mesh-os', 2]]);
    await s.ok(APPLY, { code: 'allfree' });
    const o = (await s.ok(CHECKOUT, { paymentMethod: 'cod', billing: BILLING })).checkout.order;
    expect(o).toMatchObject({
      status: 'COMPLETED',
      rawTotal: '0',
      needsPayment: false,
      needsProcessing: false,
      isDownloadPermitted: true,
    });
    expect(o.datePaid).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(o.downloadableItems.nodes).toHaveLength(1);
    const dl = o.downloadableItems.nodes[0];
    expect(dl).toMatchObject({ name: 'Mesh OS 1.0', downloadsRemaining: 10, product: { slug: 'mesh-os' } });
    const expires = new Date(dl.accessExpires).getTime();
    expect(Math.abs(expires - (Date.now() + 365 * 86_400_000))).toBeLessThan(2 * 86_400_000);
  });
});

describe('validation', () => {
  it('reports every missing or invalid billing field at once', async () => {
    const s = await shopper([['omni-antenna', 1]]);
    const r = await s.gql(CHECKOUT, {
      paymentMethod: 'cod',
      billing: { firstName: 'Ada', email: 'not-an-email', country: 'DE' },
    });
    expect(r.body.errors?.[0]?.message).toBe(
      'Billing Last name is a required field. Billing Street address is a required field. Billing Town / City is a required field. Billing Postcode / ZIP is a required field. Billing Email address is not a valid email address.',
    );
    expect((await s.ok('query { cart { isEmpty } }')).cart.isEmpty).toBe(false);
  });

  it("refuses a country the shop does not sell to and a state that is not one of the country's", async () => {
    const s = await shopper([['omni-antenna', 1]]);
    expect(
      (await s.gql(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, country: 'KP' } })).body.errors?.[0]
        ?.message,
    ).toBe("'KP' is not a valid country code.");
    expect(
      (await s.gql(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, country: 'US', state: 'XX' } })).body
        .errors?.[0]?.message,
    ).toMatch(/^Billing State is not valid\. Please enter one of the following: Alabama, Alaska/);
    expect(
      (await s.gql(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, country: 'US', state: '' } })).body
        .errors?.[0]?.message,
    ).toBe('Billing State is a required field.');
    const ok = await s.gql(CHECKOUT, {
      paymentMethod: 'cod',
      billing: { ...BILLING, country: 'US', state: 'California', postcode: '94103' },
    });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.checkout.order.billing.state).toBe('CA');
    expect(ok.body.data.checkout.order.totalTax).toBe('€0.00');
  });

  it('validates the shipping address when shipping elsewhere', async () => {
    const s = await shopper([['omni-antenna', 1]]);
    const r = await s.gql(CHECKOUT, {
      paymentMethod: 'cod',
      billing: BILLING,
      shipToDifferentAddress: true,
      shipping: { firstName: 'Bob', country: 'FR' },
    });
    expect(r.body.errors?.[0]?.message).toBe(
      'Shipping Last name is a required field. Shipping Street address is a required field. Shipping Town / City is a required field. Shipping Postcode / ZIP is a required field.',
    );
    const ok = await s.ok(CHECKOUT, {
      paymentMethod: 'cod',
      billing: BILLING,
      shipToDifferentAddress: true,
      shipping: {
        firstName: 'Bob',
        lastName: 'B',
        address1: '1 rue X',
        city: 'Paris',
        postcode: '75001',
        country: 'FR',
      },
    });
    expect(ok.checkout.order.shipping).toMatchObject({ firstName: 'Bob', country: 'FR' });
    expect(ok.checkout.order.shippingTotal).toBe('€9.90'); // EU flat rate: tax and shipping follow the shipping address
    // 49.90 / 1.19 × 1.20 = 50.32 including 8.39 VAT; 9.90 × 20% = 1.98.
    expect(ok.checkout.order.totalTax).toBe('€10.37');
    expect(ok.checkout.order.total).toBe('€62.20');
  });

  it('refuses an unknown payment method, an empty cart and a shipping method not offered', async () => {
    const s = await shopper([['omni-antenna', 1]]);
    expect((await s.gql(CHECKOUT, { paymentMethod: 'bacs', billing: BILLING })).body.errors?.[0]?.message).toBe(
      'Invalid payment method.',
    );
    expect(
      (await s.gql(CHECKOUT, { paymentMethod: 'cod', billing: BILLING, shippingMethod: ['flat_rate:6'] })).body
        .errors?.[0]?.message,
    ).toBe(
      'No shipping method has been selected. Please double check your address, or contact us if you need any help.',
    );
    const empty = new Shopper(t);
    expect((await empty.gql(CHECKOUT, { paymentMethod: 'cod', billing: BILLING })).body.errors?.[0]?.message).toBe(
      'Sorry, no session found.',
    );
  });

  it('does not require the billing address for an all-virtual cart when the shop hides it', async () => {
    const s = await shopper([['mesh-os', 1]]);
    const hidden = new CheckoutService(
      t.engine.sessions,
      t.engine.catalog,
      t.engine.coupons,
      t.engine.orders,
      { ...t.engine.commerceSettings, hideBillingForVirtual: true },
      t.config.allowedCountries,
    );
    const customerId = (await t.engine.sessions.verify(s.token!)) as { customerId: string };
    const r = await hidden.checkout(
      { customerId: customerId.customerId },
      { paymentMethod: 'cod', billing: { firstName: 'Ada', lastName: 'L', email: 'ada@example.com' } },
    );
    expect(r.order.status).toBe('on-hold');
    const s2 = await shopper([['omni-antenna', 1]]);
    const c2 = (await t.engine.sessions.verify(s2.token!)) as { customerId: string };
    await expect(
      hidden.checkout(
        { customerId: c2.customerId },
        { paymentMethod: 'cod', billing: { firstName: 'Ada', lastName: 'L', email: 'ada@example.com' } },
      ),
    ).rejects.toThrow(/Billing Street address is a required field/);
  });
});

describe('atomic stock and coupons', () => {
  it('a failed checkout leaves stock and coupon uses untouched', async () => {
    const a = await shopper([
      ['bravo-outdoor-gateway', 1],
      [ids.alphaAs, 2],
    ]);
    await a.ok(APPLY, { code: 'limited' });
    const other = await shopper([[ids.alphaAs, 1]]);
    await other.ok(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, email: 'other@example.com' } });
    const bravo = await stockOf(t, 'bravo-outdoor-gateway');
    const uses = await couponUses('limited');
    const r = await a.gql(CHECKOUT, { paymentMethod: 'cod', billing: BILLING });
    expect(r.body.errors?.[0]?.message).toBe(
      'Sorry, we do not have enough "Alpha Indoor Gateway - AS923" in stock to fulfill your order (1 available). We apologize for any inconvenience caused.',
    );
    expect(await stockOf(t, 'bravo-outdoor-gateway')).toBe(bravo);
    expect(await couponUses('limited')).toBe(uses);
    expect((await a.ok('query { cart { contents { itemCount } appliedCoupons { code } } }')).cart).toEqual({
      contents: { itemCount: 3 },
      appliedCoupons: [{ code: 'limited' }],
    });
  });

  it('the hold-stock sweeper cancels unpaid pending orders once, restoring stock and coupon uses', async () => {
    const s = await shopper([['hidden-spare-part', 3]]);
    await s.ok(APPLY, { code: 'limited' });
    const o = (await s.ok(CHECKOUT, { paymentMethod: 'cod', billing: BILLING })).checkout.order;
    expect(await stockOf(t, 'hidden-spare-part')).toBe(97);
    const uses = await couponUses('limited');
    // Arrange an unpaid order past its hold time (gateways that leave orders pending: card 3-D Secure, KDA).
    await t.engine.database.db.execute(
      sql`update orders set status = 'pending', hold_expires_at = now() - interval '1 minute' where id = ${o.databaseId}`,
    );
    const [x, y] = await Promise.all([t.engine.orders.cancelExpiredUnpaid(), t.engine.orders.cancelExpiredUnpaid()]);
    expect([...x, ...y]).toEqual([o.databaseId]);
    expect(await stockOf(t, 'hidden-spare-part')).toBe(100);
    expect(await couponUses('limited')).toBe(uses - 1);
    const order = (await s.ok(GET_ORDER, { id: String(o.databaseId) })).order;
    expect(order.status).toBe('CANCELLED');
    expect(await t.engine.orders.cancelExpiredUnpaid()).toEqual([]);
  });
});

describe('order access', () => {
  it('answers the owner, or anyone holding the order key; nobody else', async () => {
    const owner = await shopper([['omni-antenna', 1]]);
    const o = (await owner.ok(CHECKOUT, { paymentMethod: 'cod', billing: BILLING })).checkout.order;
    expect((await owner.ok(GET_ORDER, { id: String(o.databaseId) })).order.orderKey).toBe(o.orderKey);
    expect((await owner.ok(GET_ORDER, { id: o.id, idType: 'ID' })).order.databaseId).toBe(o.databaseId);
    const stranger = new Shopper(t);
    expect((await stranger.ok(GET_ORDER, { id: String(o.databaseId) })).order).toBeNull();
    expect((await stranger.ok(GET_ORDER, { id: o.id, idType: 'ID' })).order).toBeNull();
    expect((await stranger.ok(GET_ORDER, { id: o.orderKey, idType: 'ORDER_KEY' })).order.databaseId).toBe(o.databaseId);
    expect((await stranger.ok(GET_ORDER, { id: 'wc_order_guess', idType: 'ORDER_KEY' })).order).toBeNull();
    const byIdAndKey =
      'query($id: ID!, $key: String) { order(id: $id, idType: DATABASE_ID, orderKey: $key) { databaseId } }';
    expect((await stranger.ok(byIdAndKey, { id: String(o.databaseId), key: o.orderKey })).order.databaseId).toBe(
      o.databaseId,
    );
    expect(
      (await stranger.ok(byIdAndKey, { id: String(o.databaseId), key: 'wc_order_wrongwrongwrongwrong' })).order,
    ).toBeNull();
  });
});

describe('order lookup', () => {
  it('finds an order by number and billing e-mail (any case); a wrong number or e-mail gives the same null', async () => {
    const buyer = await shopper([['omni-antenna', 1]]);
    const o = (
      await buyer.ok(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, email: 'Lookup.Me@example.com' } })
    ).checkout.order;
    const stranger = new Shopper(t);
    const LOOKUP = operation('lookupOrder');
    const found = (await stranger.ok(LOOKUP, { orderNumber: o.orderNumber, email: 'lookup.me@EXAMPLE.com' }))
      .lookupOrder;
    expect(found).toEqual({ orderId: o.databaseId, orderKey: o.orderKey });
    const wrongEmail = (await stranger.ok(LOOKUP, { orderNumber: o.orderNumber, email: 'someone@example.com' }))
      .lookupOrder;
    const wrongNumber = (
      await stranger.ok(LOOKUP, { orderNumber: String(Number(o.orderNumber) + 1000), email: 'lookup.me@example.com' })
    ).lookupOrder;
    const garbage = (await stranger.ok(LOOKUP, { orderNumber: '1 or 1=1', email: 'lookup.me@example.com' }))
      .lookupOrder;
    expect(wrongEmail).toEqual({ orderId: null, orderKey: null });
    expect(wrongNumber).toEqual(wrongEmail);
    expect(garbage).toEqual(wrongEmail);
  });
});

describe('race', () => {
  it('200 concurrent checkouts (separate sessions) for 20 units: exactly 20 orders, stock 0, every other one refused as out of stock', async () => {
    await setStock(t, 'search-only-adapter', 20);
    const shoppers: Shopper[] = [];
    for (let i = 0; i < 200; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => shopper([['search-only-adapter', 1]])));
      shoppers.push(...batch);
    }
    const results = await Promise.all(
      shoppers.map((s, i) =>
        s.gql(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, email: `racer${i}@example.com` } }),
      ),
    );
    const ok = results.filter((r) => !r.body.errors?.length);
    const failed = results.filter((r) => r.body.errors?.length);
    expect(ok).toHaveLength(20);
    expect(new Set(failed.map((r) => r.body.errors![0]!.message))).toEqual(
      new Set([
        'Sorry, "Search-only Adapter" is not in stock. Please edit your cart and try again. We apologize for any inconvenience caused.',
      ]),
    );
    expect(await stockOf(t, 'search-only-adapter')).toBe(0);
    const count = rows(
      await t.engine.database.db.execute(
        sql`select count(*)::int as n from order_items where product_id = ${ids['search-only-adapter']}`,
      ),
    )[0]!.n;
    expect(count).toBe(20);
  }, 600_000);
});
