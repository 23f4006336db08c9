// Card payments that never reached a Checkout (src/server/payments/stripe/reconcile.ts), in one engine with
// the Stripe stand-in: the customer pays at Stripe and the Checkout never arrives (browser closed, engine
// down). The reconciliation lists the PaymentIntents at Stripe and refunds such a payment in full once it
// is older than STRIPE_RECONCILE_AFTER_SECONDS (counted from the charge), never one that became an order
// or whose Checkout is recorded (recovery.ts finishes those), never another installation's; it refunds
// once however often and wherever it runs, and a later Checkout with that payment is refused.
// Time is moved at the stand-in: a charge's `created` is set back to when the customer "paid".
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { createEngine, type Engine } from '../../src/server/engine/index.ts';
import { createStripeWebhookRoute } from '../../src/server/http/stripe-webhook.ts';
import { claimReconcileRun, REFUND_LEASE_MS } from '../../src/server/payments/stripe/reconcile.ts';
import { RECORDS_KEY, REFUNDED_MESSAGE } from '../../src/server/payments/stripe/recovery.ts';
import { startStripeServer, type StripeStandIn } from '../fixtures/stripe-server.ts';
import { FIXTURE_CATALOG, startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, setStock, Shopper, stockOf } from './shop-helpers.ts';

const GRACE = 300;
const SITE = 'http://meshfront.test';
let t: TestEngine;
let stripe: StripeStandIn;
let adapter: number;

beforeAll(async () => {
  stripe = await startStripeServer();
  // The commerce settings come from the environment (each test file runs in its own process). No
  // background sweeps: each test runs the reconciliation itself.
  Object.assign(process.env, stripe.env, {
    STRIPE_RECONCILE_AFTER_SECONDS: String(GRACE),
    ORDER_SWEEP_INTERVAL_MS: '0',
  });
  t = await startTestEngine();
  adapter = await productId(t, 'search-only-adapter');
  await setStock(t, 'search-only-adapter', 100);
}, 300_000);
afterAll(async () => {
  await t?.close();
  await stripe?.stop();
});

const ADD = operation('addToCart');
const INTENT = operation('getStripePaymentIntent');
const CHECKOUT = operation('Checkout');
const customerIdOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).data.customer_id as string;
const reconcile = () => t.engine.reconcileCardPayments!();

/** A customer with the adapter in the cart who paid at Stripe (Stripe.js in the browser). */
async function paidShopper() {
  const s = new Shopper(t);
  await s.ok(ADD, { productId: adapter, quantity: 1 });
  const pi = (await s.ok(INTENT)).stripePaymentIntent as { id: string; amount: number };
  expect(stripe.confirm(pi.id, 'pm_card_visa').status).toBe('succeeded');
  return { s, pi, customerId: customerIdOf(s.token!) };
}

/** The customer paid `seconds` ago (Stripe's charge time). */
function paidAgo(intentId: string, seconds: number) {
  const charge = stripe.charges.get(String(stripe.intents.get(intentId)!.latest_charge))!;
  charge.created = Math.floor(Date.now() / 1000) - seconds;
}

const refundsOf = (intentId: string) => [...stripe.refunds.values()].filter((r) => r.payment_intent === intentId);
const refundRequestsOf = (intentId: string) =>
  stripe.requests.filter(
    (r) => r.method === 'POST' && r.path === '/v1/refunds' && r.params.payment_intent === intentId,
  );
const recordOf = async (customerId: string, intentId: string) =>
  ((await t.engine.sessions.load(customerId))[RECORDS_KEY] as Record<string, any> | undefined)?.[intentId];

describe('card payments that never reached a Checkout', () => {
  it('each PaymentIntent names its session and this shop in its metadata', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: adapter, quantity: 1 });
    const pi = (await s.ok(INTENT)).stripePaymentIntent;
    expect(stripe.intents.get(pi.id)!.metadata).toEqual({ session_ref: customerIdOf(s.token!), meshfront_site: SITE });
  });

  it('is refunded in full after the grace period, not before; the webhook alone does nothing; a later Checkout is refused', async () => {
    const before = await stockOf(t, 'search-only-adapter');
    const { s, pi, customerId } = await paidShopper();
    // Stripe tells the engine right away; the Checkout may still come, so nothing happens.
    const event = [...stripe.events]
      .reverse()
      .find(
        (e) => e.type === 'payment_intent.succeeded' && (e.data as { object: { id: string } }).object.id === pi.id,
      )!;
    const webhook = createStripeWebhookRoute(async () => t.engine);
    const payload = JSON.stringify(event);
    const answer = await webhook(
      new Request('http://shop.test/api/stripe/webhook', {
        method: 'POST',
        body: payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': stripe.signPayload(payload) },
      }),
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ received: true, action: 'no-order' });

    // Paid just now, and one second before the grace period ends: left alone.
    let report = await reconcile();
    expect(report.waiting).toContain(pi.id);
    paidAgo(pi.id, GRACE - 1);
    report = await reconcile();
    expect(report.waiting).toContain(pi.id);
    expect(refundsOf(pi.id)).toEqual([]);
    expect(await recordOf(customerId, pi.id)).toBeUndefined();

    // The grace period is over: the whole amount goes back, once, with an idempotency key.
    paidAgo(pi.id, GRACE + 1);
    report = await reconcile();
    expect(report.refunded).toEqual([pi.id]);
    expect(refundsOf(pi.id).map((r) => r.amount)).toEqual([pi.amount]);
    expect(refundRequestsOf(pi.id).map((r) => r.idempotencyKey)).toEqual([`meshfront-orphan-refund-${pi.id}`]);
    expect(await recordOf(customerId, pi.id)).toMatchObject({ refunded: true, orphan: true });
    expect((await recordOf(customerId, pi.id)).refundPending).toBeUndefined();

    // The customer comes back to the open checkout page and presses "Place order".
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
      REFUNDED_MESSAGE,
    );
    expect(await t.engine.orders.getByTransaction('stripe', pi.id)).toBeNull();
    expect(await stockOf(t, 'search-only-adapter')).toBe(before);
    // The cart is still there to pay again.
    expect((await s.ok('query { cart { contents { itemCount } } }')).cart.contents.itemCount).toBe(1);
  });

  it('leaves a payment that became an order alone', async () => {
    const { s, pi } = await paidShopper();
    const order = (await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).checkout
      .order;
    paidAgo(pi.id, GRACE * 10);
    const report = await reconcile();
    expect(report.listed).toBeGreaterThan(0);
    expect([...report.refunded, ...report.waiting, ...report.leftToRecovery, ...report.failed]).not.toContain(pi.id);
    expect(refundRequestsOf(pi.id)).toEqual([]);
    expect((await t.engine.orders.getByTransaction('stripe', pi.id))!).toMatchObject({
      id: order.databaseId,
      status: 'processing',
    });
  });

  it('leaves a payment whose Checkout is recorded to the recovery, which can still place the order', async () => {
    const { s, pi, customerId } = await paidShopper();
    // What a process that died inside the Checkout left (recovery.ts writes it before the order's transaction).
    const record = {
      userId: null,
      input: { paymentMethod: 'stripe', transactionId: pi.id, billing: BILLING },
      at: new Date().toISOString(),
    };
    await t.engine.sessions.update(customerId, async (data) => ({
      data: { ...data, [RECORDS_KEY]: { [pi.id]: record } },
      result: null,
    }));
    paidAgo(pi.id, GRACE * 10);
    const report = await reconcile();
    expect(report.leftToRecovery).toContain(pi.id);
    expect(refundRequestsOf(pi.id)).toEqual([]);
    expect(await recordOf(customerId, pi.id)).toEqual(record);
    const order = (await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).checkout
      .order;
    expect(order).toMatchObject({ status: 'PROCESSING', transactionId: pi.id });
  });

  it("never touches another shop's payments on the same Stripe account, nor intents without the marker", async () => {
    const { customerId } = await paidShopper(); // a real session of this shop, to make the foreign intent look close
    const sdk = new Stripe(stripe.secretKey, {
      host: stripe.host,
      port: stripe.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const foreign = await sdk.paymentIntents.create({
      amount: 4_200,
      currency: 'eur',
      metadata: { session_ref: customerId, meshfront_site: 'https://staging.meshfront.test' },
    });
    const unmarked = await sdk.paymentIntents.create({
      amount: 4_300,
      currency: 'eur',
      metadata: { session_ref: customerId },
    });
    for (const id of [foreign.id, unmarked.id]) {
      stripe.confirm(id, 'pm_card_visa');
      paidAgo(id, GRACE * 10);
    }
    await reconcile();
    expect(refundRequestsOf(foreign.id)).toEqual([]);
    expect(refundRequestsOf(unmarked.id)).toEqual([]);
    expect(await recordOf(customerId, foreign.id)).toBeUndefined();
  });

  it(`refunds once when runs overlap (${process.env.DATABASE_URL ? 'two engines on one PostgreSQL database' : 'two runs in one PGlite engine'}) and when run again`, async () => {
    const paid = [await paidShopper(), await paidShopper(), await paidShopper()];
    for (const { pi } of paid) paidAgo(pi.id, GRACE + 5);
    let other: Engine | null = null;
    if (process.env.DATABASE_URL) {
      // A second engine process's view: its own pool and locks, the same database.
      const config = loadConfig({
        NODE_ENV: 'test',
        MESHFRONT_CATALOG_DIR: FIXTURE_CATALOG,
        SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
        SESSION_ISSUER: SITE,
        ...t.database.env,
      });
      other = await createEngine(config, { seed: false, log: () => {} });
    }
    try {
      const second = other ? other.reconcileCardPayments! : reconcile;
      const reports = await Promise.all([reconcile(), second(), reconcile()]);
      const again = await reconcile();
      for (const { pi, s } of paid) {
        expect(
          refundsOf(pi.id).map((r) => r.amount),
          pi.id,
        ).toEqual([pi.amount]);
        expect(refundRequestsOf(pi.id), pi.id).toHaveLength(1);
        expect(reports.flatMap((r) => r.refunded).filter((id) => id === pi.id)).toHaveLength(1);
        expect(again.refunded).not.toContain(pi.id);
        expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
          REFUNDED_MESSAGE,
        );
      }
    } finally {
      await other?.close();
    }
  });

  it('a Checkout racing the reconciliation gets the order or the refund, never both and never neither', async () => {
    const racers = await Promise.all(Array.from({ length: 10 }, () => paidShopper()));
    for (const { pi } of racers) paidAgo(pi.id, GRACE + 5);
    // The Checkouts arrive spread over the time the reconciliation takes to reach their payments.
    const running = reconcile();
    const results = await Promise.all(
      racers.map(({ s, pi }, i) =>
        new Promise((r) => setTimeout(r, i * 12)).then(() =>
          s.gql(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id }),
        ),
      ),
    );
    await running;
    const outcomes = new Set<string>();
    for (const [i, { pi }] of racers.entries()) {
      const answer = results[i]!.body;
      const order = await t.engine.orders.getByTransaction('stripe', pi.id);
      const refunded = refundsOf(pi.id).reduce((n, r) => n + Number(r.amount), 0);
      if (order) {
        expect(answer.data?.checkout.order.databaseId, pi.id).toBe(order.id);
        expect(refunded, pi.id).toBe(0);
      } else {
        expect(answer.errors?.[0]?.message, pi.id).toBe(REFUNDED_MESSAGE);
        expect(refunded, pi.id).toBe(pi.amount);
      }
      outcomes.add(order ? 'order' : 'refund');
    }
    console.log(`[reconcile race] outcomes: ${[...outcomes].join(', ')}`);
  });

  it('a refund Stripe did not take is retried by a later run, and the payment is refused meanwhile', async () => {
    const { s, pi, customerId } = await paidShopper();
    paidAgo(pi.id, GRACE + 5);
    stripe.failNext(1, { method: 'POST', path: '/v1/refunds' });
    const first = await reconcile();
    expect(first.failed).toEqual([pi.id]);
    expect(refundsOf(pi.id)).toEqual([]);
    expect(await recordOf(customerId, pi.id)).toMatchObject({ refunded: true, refundPending: true });
    // The money is on its way back: the payment no longer pays an order.
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
      REFUNDED_MESSAGE,
    );
    // Within the lease the mark is taken to be another run's refund in flight.
    expect((await reconcile()).refunded).not.toContain(pi.id);
    expect(refundRequestsOf(pi.id)).toHaveLength(1);
    await t.engine.sessions.update(customerId, async (data) => {
      const records = data[RECORDS_KEY] as Record<string, any>;
      records[pi.id].at = new Date(Date.now() - REFUND_LEASE_MS - 1000).toISOString();
      return { data: { ...data, [RECORDS_KEY]: records }, result: null };
    });
    expect((await reconcile()).refunded).toEqual([pi.id]);
    expect(refundsOf(pi.id).map((r) => r.amount)).toEqual([pi.amount]);
    expect((await recordOf(customerId, pi.id)).refundPending).toBeUndefined();
  });

  it('a payment refunded by hand at Stripe is only recorded, so it cannot pay an order either', async () => {
    const { s, pi, customerId } = await paidShopper();
    const sdk = new Stripe(stripe.secretKey, {
      host: stripe.host,
      port: stripe.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    await sdk.refunds.create({ payment_intent: pi.id });
    paidAgo(pi.id, GRACE + 5);
    const report = await reconcile();
    expect(report.recorded).toEqual([pi.id]);
    expect(refundRequestsOf(pi.id)).toHaveLength(1); // the one made by hand
    expect(await recordOf(customerId, pi.id)).toMatchObject({ refunded: true, orphan: true });
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
      REFUNDED_MESSAGE,
    );
  });

  it('the scheduled runs of all processes share one claim per half sweep interval', async () => {
    const db = t.engine.database.db;
    expect(await claimReconcileRun(db, 60_000)).toBe(true);
    expect(await claimReconcileRun(db, 60_000)).toBe(false);
    await new Promise((r) => setTimeout(r, 30));
    expect(await claimReconcileRun(db, 10)).toBe(true);
  });
});
