// The card checkout recovery (src/server/payments/stripe/recovery.ts) step by step, in one engine with the
// Stripe stand-in and a fast sweep: a Checkout recorded by a process that then died is completed by the
// sweep into a paid order; a Checkout repeated after the order was placed answers with that order; a
// payment whose order was refused (sold out meanwhile) is refunded in full by the sweep and cannot pay
// a later Checkout. tests/api/crash.test.ts kills real processes; this pins down each rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS_KEY, REFUNDED_MESSAGE } from '../../src/server/payments/stripe/recovery.ts';
import { startStripeServer, type StripeStandIn, FAST_RECOVERY_STRIPE_ENV } from '../fixtures/stripe-server.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, setStock, Shopper, stockOf } from './shop-helpers.ts';

let t: TestEngine;
let stripe: StripeStandIn;
let adapter: number;

beforeAll(async () => {
  stripe = await startStripeServer();
  // The commerce settings come from the environment (each test file runs in its own process).
  Object.assign(process.env, stripe.env, {
    ...FAST_RECOVERY_STRIPE_ENV,
    ORDER_SWEEP_INTERVAL_MS: '200',
  });
  t = await startTestEngine();
  adapter = await productId(t, 'search-only-adapter');
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

async function paidShopper(quantity = 1) {
  const s = new Shopper(t);
  await s.ok(ADD, { productId: adapter, quantity });
  const pi = (await s.ok(INTENT)).stripePaymentIntent;
  expect(stripe.confirm(pi.id, 'pm_card_visa').status).toBe('succeeded');
  return { s, pi: pi as { id: string; amount: number } };
}

/** Polls until `check` holds (the sweep runs every 200 ms once a record is a second old). */
async function eventually(check: () => Promise<boolean>, what: string, ms = 15_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

describe('card checkout recovery', () => {
  it('a Checkout recorded by a process that died becomes a paid order without the customer', async () => {
    await setStock(t, 'search-only-adapter', 10);
    const { s, pi } = await paidShopper();
    // What the dying process left: the record, written before the checkout's own transaction.
    const customerId = customerIdOf(s.token!);
    await t.engine.sessions.update(customerId, async (data) => ({
      data: {
        ...data,
        [RECORDS_KEY]: {
          [pi.id]: {
            userId: null,
            input: { paymentMethod: 'stripe', transactionId: pi.id, billing: BILLING },
            at: new Date(Date.now() - 5000).toISOString(),
          },
        },
      },
      result: null,
    }));
    await eventually(async () => !!(await t.engine.orders.getByTransaction('stripe', pi.id)), 'the recovered order');
    const order = (await t.engine.orders.getByTransaction('stripe', pi.id))!;
    expect(order.status).toBe('processing');
    expect(order.totalCents).toBe(pi.amount);
    expect(await stockOf(t, 'search-only-adapter')).toBe(9);
    await eventually(async () => !(RECORDS_KEY in (await t.engine.sessions.load(customerId))), 'the record cleared');
    // The customer comes back and presses "Place order" again: the same order, not a second one.
    const again = await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id });
    expect(again.checkout.order.databaseId).toBe(order.id);
    expect(await stockOf(t, 'search-only-adapter')).toBe(9);
  });

  it('a repeated Checkout answers with the order it placed; a new cart with the same payment is refused', async () => {
    await setStock(t, 'search-only-adapter', 10);
    const { s, pi } = await paidShopper();
    const first = (await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).checkout
      .order;
    const second = (await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).checkout
      .order;
    expect(second.databaseId).toBe(first.databaseId);
    await s.ok(ADD, { productId: adapter, quantity: 1 });
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
      'This card payment was already used for another order.',
    );
    // Someone else holding the payment id gets neither the order nor a new one.
    const other = new Shopper(t);
    await other.ok(ADD, { productId: adapter, quantity: 1 });
    expect(await other.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
      'This card payment was already used for another order.',
    );
  });

  it('a payment whose order was refused is refunded in full by the sweep, and cannot pay later', async () => {
    await setStock(t, 'search-only-adapter', 1);
    const { s, pi } = await paidShopper();
    // The last unit goes to someone else while this customer pays.
    const rival = new Shopper(t);
    await rival.ok(ADD, { productId: adapter, quantity: 1 });
    await rival.ok(CHECKOUT, { paymentMethod: 'cod', billing: BILLING });
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toMatch(
      /is not in stock/,
    );
    await eventually(async () => [...stripe.refunds.values()].some((r) => r.payment_intent === pi.id), 'the refund');
    const refunds = [...stripe.refunds.values()].filter((r) => r.payment_intent === pi.id);
    expect(refunds.map((r) => r.amount)).toEqual([pi.amount]);
    expect(await t.engine.orders.getByTransaction('stripe', pi.id)).toBeNull();
    // Stock is back, but the refunded payment does not pay for it.
    await setStock(t, 'search-only-adapter', 5);
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
      REFUNDED_MESSAGE,
    );
    expect(await t.engine.orders.getByTransaction('stripe', pi.id)).toBeNull();
  });
});
