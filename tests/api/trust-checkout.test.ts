// What an anonymous client can make the shop do at checkout, and what the server keeps about it:
// - card checkouts are recorded for recovery only once Stripe has confirmed the payment is this shop's and
//   this session's; a record Stripe has no PaymentIntent for is dropped, and a recovery failing for a
//   passing reason is retried after growing waits a bounded number of times (payments/stripe/recovery.ts);
// - orders per client address and per billing e-mail are limited (only placed orders count);
// - quantities are capped per cart line and per cart, on every cart change and again at checkout;
// - an unexpected error is logged without the customer's data or the request's variables;
// - Stripe webhooks signed too far in the past or the future are refused;
// - a product that manages its stock and has none left says stockQuantity 0, not null.
// One engine with the Stripe stand-in, small limits and a fast recovery sweep (settings from the
// environment: each test file runs in its own process).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { markStockChanged } from '../../src/server/catalog/stock.ts';
import { createMeshfrontYoga } from '../../src/server/http/yoga.ts';
import { createStripeWebhookRoute } from '../../src/server/http/stripe-webhook.ts';
import { RECORDS_KEY } from '../../src/server/payments/stripe/recovery.ts';
import { parseStripeWebhook } from '../../src/server/payments/stripe/webhook.ts';
import { startStripeServer, type StripeStandIn, FAST_RECOVERY_STRIPE_ENV } from '../fixtures/stripe-server.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, setStock, Shopper, stockOf, variationId } from './shop-helpers.ts';

let t: TestEngine;
let stripe: StripeStandIn;
let ids: Record<string, number>;

beforeAll(async () => {
  stripe = await startStripeServer();
  Object.assign(process.env, stripe.env, {
    ...FAST_RECOVERY_STRIPE_ENV,
    STRIPE_RECOVERY_MAX_ATTEMPTS: '2',
    ORDER_SWEEP_INTERVAL_MS: '200',
    CHECKOUT_ORDERS_PER_IP_PER_HOUR: '3',
    CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: '2',
    CART_MAX_LINE_QUANTITY: '5',
    CART_MAX_QUANTITY: '8',
    // Client addresses come from X-Forwarded-For (one trusted proxy), so each test picks its own.
    TRUST_PROXY: '1',
  });
  t = await startTestEngine();
  ids = {};
  for (const slug of ['mesh-os', 'omni-antenna', 'search-only-adapter', 'n-type-cable'])
    ids[slug] = await productId(t, slug);
}, 300_000);
afterAll(async () => {
  await t?.close();
  await stripe?.stop();
});

const ADD = operation('addToCart');
const UPDATE = operation('UpDateCartQuantity');
const INTENT = operation('getStripePaymentIntent');
const CHECKOUT = operation('Checkout');
const customerIdOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).data.customer_id as string;
const rows = (r: unknown) => ((r as { rows?: unknown[] }).rows ?? r) as Record<string, any>[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let emails = 0;
/** The test billing address with an e-mail address no other checkout in this file uses. */
const billing = (email = `buyer${++emails}@example.com`) => ({ ...BILLING, email });

async function shopper(lines: [string, number][], headers: Record<string, string> = {}): Promise<Shopper> {
  const s = new Shopper(t, headers);
  for (const [slug, quantity] of lines) await s.ok(ADD, { productId: ids[slug], quantity });
  if (!s.token) await s.ok('query { cart { isEmpty } }');
  return s;
}

/** Requests the Stripe stand-in received about one PaymentIntent. */
const stripeCallsFor = (intentId: string) =>
  stripe.requests.filter((r) => r.path.startsWith(`/v1/payment_intents/${intentId}`)).length;
const recordsOf = async (customerId: string) =>
  (await t.engine.sessions.load(customerId))[RECORDS_KEY] as Record<string, any> | undefined;

/** Polls until `check` holds (the recovery sweep runs every 200 ms). */
async function eventually(check: () => Promise<boolean>, what: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for: ${what}`);
}

/** What a process that died mid-checkout leaves behind: a card checkout record old enough for the sweep. */
async function leaveRecord(customerId: string, intentId: string) {
  await t.engine.sessions.update(customerId, async (data) => ({
    data: {
      ...data,
      [RECORDS_KEY]: {
        [intentId]: {
          userId: null,
          input: { paymentMethod: 'stripe', transactionId: intentId, billing: billing() },
          at: new Date(Date.now() - 5000).toISOString(),
        },
      },
    },
    result: null,
  }));
}

describe('card checkouts and their recovery records', () => {
  it('a forged payment id with an empty cart is refused without asking Stripe, and nothing is left to sweep', async () => {
    const s = await shopper([]);
    expect(
      await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: billing(), transactionId: 'pi_forgedEmptyCart1' }),
    ).toBe('Sorry, no session found.');
    expect(await recordsOf(customerIdOf(s.token!))).toBeUndefined();
    // Several sweeps later Stripe has still not been asked about it.
    await sleep(2500);
    expect(stripeCallsFor('pi_forgedEmptyCart1')).toBe(0);
  });

  it("a forged payment id, or another session's payment, is refused after one look at Stripe and never recorded", async () => {
    const s = await shopper([['mesh-os', 1]]);
    expect(
      await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: billing(), transactionId: 'pi_forgedWithCart2' }),
    ).toBe('No card payment was found for this checkout.');
    const other = await shopper([['mesh-os', 1]]);
    const theirs = (await other.ok(INTENT)).stripePaymentIntent as { id: string };
    stripe.confirm(theirs.id, 'pm_card_visa');
    const before = stripeCallsFor(theirs.id);
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: billing(), transactionId: theirs.id })).toBe(
      'The card payment belongs to another cart.',
    );
    expect(await recordsOf(customerIdOf(s.token!))).toBeUndefined();
    await sleep(2500);
    expect(stripeCallsFor('pi_forgedWithCart2')).toBe(1);
    expect(stripeCallsFor(theirs.id)).toBe(before + 1);
  });

  it('a payment refused after Stripe confirmed it is recorded, so the sweep refunds it', async () => {
    await setStock(t, 'search-only-adapter', 1);
    const s = await shopper([['search-only-adapter', 1]]);
    const pi = (await s.ok(INTENT)).stripePaymentIntent as { id: string; amount: number };
    stripe.confirm(pi.id, 'pm_card_visa');
    const rival = await shopper([['search-only-adapter', 1]]);
    await rival.ok(CHECKOUT, { paymentMethod: 'cod', billing: billing() });
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: billing(), transactionId: pi.id })).toMatch(
      /is not in stock/,
    );
    await eventually(async () => [...stripe.refunds.values()].some((r) => r.payment_intent === pi.id), 'the refund');
    // The sweep marks its record after Stripe answered the refund: wait for that write too.
    await eventually(
      async () => (await recordsOf(customerIdOf(s.token!)))?.[pi.id]?.refunded === true,
      'the record marked refunded',
    );
  });

  it('a record Stripe answers "No such payment_intent" for is dropped, and Stripe is not asked again', async () => {
    const s = await shopper([['mesh-os', 1]]);
    const customerId = customerIdOf(s.token!);
    await leaveRecord(customerId, 'pi_deletedAtStripe3');
    await eventually(async () => !(await recordsOf(customerId))?.pi_deletedAtStripe3, 'the record dropped');
    const calls = stripeCallsFor('pi_deletedAtStripe3');
    expect(calls).toBeGreaterThan(0);
    expect(
      stripe.requests
        .filter((r) => r.path === '/v1/payment_intents/pi_deletedAtStripe3')
        .every((r) => r.status === 404),
    ).toBe(true);
    await sleep(2000);
    expect(stripeCallsFor('pi_deletedAtStripe3')).toBe(calls);
    expect(await t.engine.orders.getByTransaction('stripe', 'pi_deletedAtStripe3')).toBeNull();
  });

  it('a recovery Stripe keeps failing is retried after a growing wait, then given up after STRIPE_RECOVERY_MAX_ATTEMPTS', async () => {
    const s = await shopper([['mesh-os', 1]]);
    const customerId = customerIdOf(s.token!);
    const pi = (await s.ok(INTENT)).stripePaymentIntent as { id: string };
    stripe.confirm(pi.id, 'pm_card_visa');
    stripe.failNext(1_000_000, { method: 'GET', path: `/v1/payment_intents/${pi.id}` });
    try {
      await leaveRecord(customerId, pi.id);
      // The first attempt fails and sets the next one 2 × STRIPE_RECOVERY_AFTER_SECONDS later.
      await eventually(async () => (await recordsOf(customerId))?.[pi.id]?.attempts === 1, 'the first failed attempt');
      const first = (await recordsOf(customerId))![pi.id];
      expect(Date.parse(first.retryAt) - Date.now()).toBeGreaterThan(500);
      const callsAfterFirst = stripeCallsFor(pi.id);
      await sleep(400);
      expect(stripeCallsFor(pi.id)).toBe(callsAfterFirst);
      // The second (last) attempt fails too: the record is dropped, nothing refunded or ordered here.
      await eventually(async () => !(await recordsOf(customerId))?.[pi.id], 'the record given up');
      const calls = stripeCallsFor(pi.id);
      await sleep(2500);
      expect(stripeCallsFor(pi.id)).toBe(calls);
      expect(stripe.requests.some((r) => r.path === '/v1/refunds' && r.params.payment_intent === pi.id)).toBe(false);
      expect(await t.engine.orders.getByTransaction('stripe', pi.id)).toBeNull();
    } finally {
      stripe.failNext(0);
    }
  });
});

describe('order limits', () => {
  it('limits the orders one client address places per hour; refused attempts do not count; the message says when to come back', async () => {
    const from = { 'x-forwarded-for': '203.0.113.10' };
    // A checkout that fails (no billing address) is not an order.
    const failing = await shopper([['mesh-os', 1]], from);
    expect(await failing.fails(CHECKOUT, { paymentMethod: 'cod', billing: { email: 'x@example.com' } })).toMatch(
      /is a required field/,
    );
    for (let i = 0; i < 3; i++) {
      const s = await shopper([['mesh-os', 1]], from);
      expect((await s.ok(CHECKOUT, { paymentMethod: 'cod', billing: billing() })).checkout.result).toBe('success');
    }
    const fourth = await shopper([['omni-antenna', 1]], from);
    const stock = await stockOf(t, 'omni-antenna');
    const r = await fourth.gql(CHECKOUT, { paymentMethod: 'cod', billing: billing() });
    expect(r.body.errors?.[0]?.message).toMatch(
      /^Too many orders from your internet connection\. Please try again in \d+ minutes?\.$/,
    );
    expect(r.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(await stockOf(t, 'omni-antenna')).toBe(stock);
    expect((await fourth.ok('query { cart { isEmpty } }')).cart.isEmpty).toBe(false);
    // Another address is not affected.
    const elsewhere = await shopper([['mesh-os', 1]], { 'x-forwarded-for': '203.0.113.11' });
    expect((await elsewhere.ok(CHECKOUT, { paymentMethod: 'cod', billing: billing() })).checkout.result).toBe(
      'success',
    );
  });

  it('limits the orders per billing e-mail address, in any letter case, whatever the address', async () => {
    const mail = async (email: string, ip: string) =>
      (await shopper([['mesh-os', 1]], { 'x-forwarded-for': ip })).gql(CHECKOUT, {
        paymentMethod: 'cod',
        billing: billing(email),
      });
    expect((await mail('Grace.Hopper@Example.com', '198.51.100.21')).body.data?.checkout?.result).toBe('success');
    expect((await mail('grace.hopper@example.com', '198.51.100.22')).body.data?.checkout?.result).toBe('success');
    const third = await mail('GRACE.HOPPER@example.COM', '198.51.100.23');
    expect(third.body.errors?.[0]?.message).toMatch(
      /^Too many orders for this email address\. Please try again in \d+ minutes?\.$/,
    );
    expect(third.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    // Two confirmation mails went there, not three.
    await eventually(
      async () => (await t.engine.commerceMailer.readOutbox({ to: 'grace.hopper@example.com' })).length >= 2,
      'the two confirmations',
    );
    await sleep(300);
    expect(await t.engine.commerceMailer.readOutbox({ to: 'grace.hopper@example.com' })).toHaveLength(2);
  });

  it('concurrent orders from one address cannot slip past the limit together', async () => {
    const from = { 'x-forwarded-for': '192.0.2.44' };
    const shoppers = await Promise.all(Array.from({ length: 6 }, () => shopper([['mesh-os', 1]], from)));
    const results = await Promise.all(
      shoppers.map((s) => s.gql(CHECKOUT, { paymentMethod: 'cod', billing: billing() })),
    );
    expect(results.filter((r) => r.body.data?.checkout?.result === 'success')).toHaveLength(3);
    expect(
      results.filter((r) => /^Too many orders from your internet connection/.test(r.body.errors?.[0]?.message ?? '')),
    ).toHaveLength(3);
  });
});

describe('quantity caps', () => {
  it('addToCart refuses more than CART_MAX_LINE_QUANTITY of one item and more than CART_MAX_QUANTITY in all, naming the cap', async () => {
    await setStock(t, 'n-type-cable', 10);
    const s = await shopper([]);
    const tooMany = await s.gql(ADD, { productId: ids['mesh-os'], quantity: 6 });
    expect(tooMany.body.errors?.[0]?.message).toBe('You can buy at most 5 of &quot;Mesh OS Image&quot; in one order.');
    expect(tooMany.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    await s.ok(ADD, { productId: ids['mesh-os'], quantity: 3 });
    expect(await s.fails(ADD, { productId: ids['mesh-os'], quantity: 3 })).toBe(
      'You can buy at most 5 of &quot;Mesh OS Image&quot; in one order.',
    );
    await s.ok(ADD, { productId: ids['mesh-os'], quantity: 2 });
    await s.ok(ADD, { productId: ids['omni-antenna'], quantity: 3 });
    expect(await s.fails(ADD, { productId: ids['n-type-cable'], quantity: 1 })).toBe(
      'You can buy at most 8 items in one order.',
    );
    expect((await s.ok('query { cart { contents { itemCount } } }')).cart.contents.itemCount).toBe(8);
  });

  it('updateItemQuantities refuses 2147483647, negative and non-32-bit quantities and more than the stock with clear errors', async () => {
    const s = await shopper([['mesh-os', 1]]);
    const key = (await s.ok('query { cart { contents { nodes { key } } } }')).cart.contents.nodes[0].key;
    const huge = await s.gql(UPDATE, { key, quantity: 2147483647 });
    expect(huge.body.errors?.[0]?.message).toBe('You can buy at most 5 of &quot;Mesh OS Image&quot; in one order.');
    expect(huge.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const negative = await s.gql(UPDATE, { key, quantity: -1 });
    expect(negative.body.errors?.[0]).toMatchObject({
      message: 'Provided "items" invalid',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const notInt = await s.gql(UPDATE, { key, quantity: 2147483648 });
    expect(notInt.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/Int cannot represent non 32-bit signed integer value/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(notInt.status).toBe(400);
    await setStock(t, 'n-type-cable', 2);
    await s.ok(ADD, { productId: ids['n-type-cable'], quantity: 1 });
    const cableKey = (
      await s.ok('query { cart { contents { nodes { key product { node { slug } } } } } }')
    ).cart.contents.nodes.find((n: any) => n.product.node.slug === 'n-type-cable').key;
    expect(await s.fails(UPDATE, { key: cableKey, quantity: 3 })).toMatch(
      /^Sorry, we do not have enough "N-Type Low-Loss Cable" in stock to fulfill your order \(2 available\)/,
    );
    const cart = (await s.ok('query { cart { contents { nodes { quantity } } } }')).cart.contents.nodes.map(
      (n: any) => n.quantity,
    );
    expect(cart).toEqual([1, 1]);
    for (const r of [huge, negative, notInt]) expect(JSON.stringify(r.body)).not.toContain('Unexpected error.');
  });

  it('the checkout refuses a cart past the caps (filled before they were lowered), and places nothing', async () => {
    const s = await shopper([['mesh-os', 1]]);
    const customerId = customerIdOf(s.token!);
    await t.engine.sessions.update(customerId, async (data) => {
      const cart = structuredClone(data.cart) as { items: { quantity: number }[] };
      cart.items[0]!.quantity = 2147483647;
      return { data: { ...data, cart }, result: null };
    });
    const before = rows(await t.engine.database.db.execute(sql`select count(*)::int as n from orders`))[0]!.n;
    const r = await s.gql(CHECKOUT, { paymentMethod: 'cod', billing: billing() });
    expect(r.body.errors?.[0]).toMatchObject({
      message: 'You can buy at most 5 of &quot;Mesh OS Image&quot; in one order.',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(rows(await t.engine.database.db.execute(sql`select count(*)::int as n from orders`))[0]!.n).toBe(before);
  });
});

describe('logs', () => {
  it("an unexpected error is logged with request id, operation and path, without the customer's data or the variables", async () => {
    // The database refuses this one order: an error no check before it foresaw ("Unexpected error.").
    await t.engine.database.db.execute(
      sql.raw(
        `alter table orders add constraint test_refuse_this_order check ((billing ->> 'city') <> 'Geheimstadt') not valid`,
      ),
    );
    const logged: string[] = [];
    const capture = (...args: unknown[]) =>
      void logged.push(
        args.map((a) => (a instanceof Error ? `${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '),
      );
    const spies = (['error', 'warn', 'info', 'log', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(capture),
    );
    try {
      const secret = {
        ...BILLING,
        firstName: 'Wilhelmina',
        lastName: 'Zwiebelfisch',
        address1: 'Verborgener Weg 77',
        city: 'Geheimstadt',
        email: 'wilhelmina.zwiebelfisch@example.org',
        phone: '+49 30 9876543',
      };
      const s = await shopper([['mesh-os', 1]]);
      const r = await s.gql(CHECKOUT, {
        paymentMethod: 'cod',
        billing: secret,
        customerNote: 'leave it with the neighbour',
      });
      expect(r.body.errors?.[0]?.message).toBe('Unexpected error.');
      // Production logging: Yoga's own logger is on there too.
      const production = createMeshfrontYoga(async () => t.engine, { ...t.config, env: 'production' });
      const again = await shopper([['mesh-os', 1]]);
      const body = JSON.stringify({ query: CHECKOUT, variables: { paymentMethod: 'cod', billing: secret } });
      const response = await production.fetch('http://meshfront.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'woocommerce-session': `Session ${again.token}` },
        body,
      });
      expect((await response.json()).errors?.[0]?.message).toBe('Unexpected error.');
      const text = logged.join('\n');
      expect(logged.filter((l) => l.includes('unexpected error while handling'))).toHaveLength(2);
      expect(text).toMatch(/request [0-9a-f-]{36}, operation Checkout, path checkout\): /);
      expect(text).toMatch(/23514 \(constraint test_refuse_this_order/);
      expect(text).toMatch(/at .*checkout\/service\.ts:\d+:\d+/);
      for (const personal of [
        'Wilhelmina',
        'Zwiebelfisch',
        'Verborgener',
        'Geheimstadt',
        'wilhelmina.zwiebelfisch',
        'example.org',
        '9876543',
        'neighbour',
        'Failed query',
        'params:',
        'insert into',
      ]) {
        expect(text).not.toContain(personal);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
      await t.engine.database.db.execute(sql.raw('alter table orders drop constraint test_refuse_this_order'));
    }
  });
});

describe('Stripe webhook timestamps', () => {
  it('refuses deliveries signed more than the tolerance (300 s) in the past or in the future, with a 400', async () => {
    const webhook = createStripeWebhookRoute(async () => t.engine);
    const event = stripe.buildEvent('payment_intent.created', {
      id: 'pi_webhookClock',
      object: 'payment_intent',
      amount: 100,
      amount_received: 0,
      currency: 'eur',
      status: 'requires_payment_method',
      metadata: {},
    });
    const payload = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const post = (timestamp: number) =>
      webhook(
        new Request('http://shop.test/api/stripe/webhook', {
          method: 'POST',
          body: payload,
          headers: {
            'content-type': 'application/json',
            'stripe-signature': stripe.signPayload(payload, { timestamp }),
          },
        }),
      );
    for (const timestamp of [now + 600, now - 600]) {
      const r = await post(timestamp);
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ reason: 'timestamp_out_of_tolerance' });
    }
    expect(
      parseStripeWebhook(payload, stripe.signPayload(payload, { timestamp: now + 301 }), stripe.webhookSecret),
    ).toMatchObject({ ok: false, reason: 'timestamp_out_of_tolerance' });
    // Within the tolerance either way (clocks differ a little): accepted.
    expect(
      parseStripeWebhook(payload, stripe.signPayload(payload, { timestamp: now + 60 }), stripe.webhookSecret),
    ).toMatchObject({ ok: true });
    expect((await post(now - 60)).status).toBe(200);
  });
});

describe('stockQuantity', () => {
  it('is 0 for a product or variation that manages its stock and has none left, null where stock is not managed', async () => {
    await setStock(t, 'omni-antenna', 0);
    const sold = await t.data(
      `{ product(id: "omni-antenna", idType: SLUG) { ... on SimpleProduct { stockStatus stockQuantity manageStock } } }`,
    );
    expect(sold.product).toEqual({ stockStatus: 'OUT_OF_STOCK', stockQuantity: 0, manageStock: 'TRUE' });
    const unmanaged = await t.data(
      `{ product(id: "mesh-os", idType: SLUG) { ... on SimpleProduct { stockQuantity manageStock } } }`,
    );
    expect(unmanaged.product).toEqual({ stockQuantity: null, manageStock: 'FALSE' });
    const variation = await variationId(t, 'FX-ALPHA-AS');
    await t.engine.database.db.transaction(async (tx) => {
      await tx.execute(sql`update catalog_variations set stock_quantity = 0 where id = ${variation}`);
      await markStockChanged(tx, { variationIds: [variation] });
    });
    t.engine.catalog.invalidate();
    const r = await t.data(
      `{ product(id: "alpha-gateway", idType: SLUG) { ... on VariableProduct { variations { nodes { databaseId stockQuantity stockStatus } } } } }`,
    );
    expect(r.product.variations.nodes.find((v: any) => v.databaseId === variation)).toEqual({
      databaseId: variation,
      stockQuantity: 0,
      stockStatus: 'OUT_OF_STOCK',
    });
  });
});
