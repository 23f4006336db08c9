// Card payments through the real `stripe` SDK against the local Stripe stand-in: the PaymentIntent sized
// from the session cart in exact cents (idempotent), checkout accepting only a succeeded intent for that
// amount, currency and session that no other order used, and the webhook route (signature on the raw
// body, replayed events ignored, orders updated idempotently).
import Stripe from 'stripe';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeWebhookRoute } from '../../src/server/http/stripe-webhook.ts';
import { startStripeServer, type StripeStandIn } from '../fixtures/stripe-server.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, Shopper, stockOf } from './shop-helpers.ts';

let t: TestEngine;
let stripe: StripeStandIn;
let ids: Record<string, number>;
let webhook: (r: Request) => Promise<Response>;
beforeAll(async () => {
  stripe = await startStripeServer();
  // Engine settings come from the environment (each test file runs in its own process).
  Object.assign(process.env, stripe.env);
  t = await startTestEngine();
  webhook = createStripeWebhookRoute(async () => t.engine);
  ids = {};
  for (const slug of ['bravo-outdoor-gateway', 'omni-antenna', 'mesh-os']) ids[slug] = await productId(t, slug);
}, 300_000);
afterAll(async () => {
  await t?.close();
  await stripe?.stop();
});

const ADD = operation('addToCart');
const INTENT = operation('getStripePaymentIntent');
const CHECKOUT = operation('Checkout');
const GATEWAYS = 'query { paymentGateways { nodes { id title description } } }';

async function shopper(lines: [string, number][]): Promise<Shopper> {
  const s = new Shopper(t);
  for (const [slug, quantity] of lines) await s.ok(ADD, { productId: ids[slug], quantity });
  return s;
}
const centsOf = (raw: string) => Math.round(Number(raw) * 100); // test-side conversion of a 2-decimal string
async function paidIntent(s: Shopper, card = 'pm_card_visa') {
  const pi = (await s.ok(INTENT)).stripePaymentIntent;
  stripe.confirm(pi.id, card);
  return pi;
}
const postWebhook = (body: string, signature: string | null) =>
  webhook(
    new Request('http://shop.test/api/stripe/webhook', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    }),
  );

describe('gateways and the PaymentIntent', () => {
  it('lists the card gateway next to cash on delivery', async () => {
    const ids = (await t.data(GATEWAYS)).paymentGateways.nodes.map((g: any) => g.id);
    expect(ids).toEqual(['stripe', 'cod']);
  });

  it('sizes the intent from the session cart in exact cents, with an idempotency key (same cart → same intent)', async () => {
    const s = await shopper([['omni-antenna', 3]]);
    const cart = (await s.ok('query { cart { total(format: RAW) } }')).cart;
    const a = (await s.ok(INTENT)).stripePaymentIntent;
    // 3 × €49.90 including VAT, free shipping: 149.70.
    expect(a).toMatchObject({ amount: 14970, currency: 'EUR', error: null, stripePaymentMethod: 'PAYMENT' });
    expect(a.amount).toBe(centsOf(cart.total));
    expect(a.clientSecret).toMatch(/^pi_.*_secret_/);
    const b = (await s.ok(INTENT)).stripePaymentIntent;
    expect(b.id).toBe(a.id);
    const create = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(create.at(-1)!.idempotencyKey).toMatch(/^meshfront-pi-/);
    expect(create.at(-1)!.params).toMatchObject({ amount: '14970', currency: 'eur' });
    await s.ok(ADD, { productId: ids['omni-antenna'] });
    const c = (await s.ok(INTENT)).stripePaymentIntent;
    expect(c.id).not.toBe(a.id);
    expect(c.amount).toBe(19960); // 4 × 49.90
  });

  it('answers errors in `error`, not as GraphQL errors', async () => {
    const s = new Shopper(t);
    expect((await s.ok(INTENT)).stripePaymentIntent).toMatchObject({
      id: null,
      error: 'WooCommerce cart is not available',
    });
  });
});

describe('checkout with a card', () => {
  it('a succeeded intent for the order total pays the order: processing, transaction id, date paid', async () => {
    const s = await shopper([['bravo-outdoor-gateway', 1]]);
    const pi = await paidIntent(s);
    const before = await stockOf(t, 'bravo-outdoor-gateway');
    const o = (await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id, isPaid: true }))
      .checkout.order;
    expect(o).toMatchObject({
      status: 'PROCESSING',
      transactionId: pi.id,
      paymentMethod: 'stripe',
      needsPayment: false,
    });
    expect(o.datePaid).toBeTruthy();
    expect(centsOf(o.rawTotal)).toBe(pi.amount);
    expect(await stockOf(t, 'bravo-outdoor-gateway')).toBe(before! - 1);
  });

  it('virtual + downloadable paid by card is completed with download permissions', async () => {
    const s = await shopper([['mesh-os', 1]]);
    const pi = await paidIntent(s);
    const o = (await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).checkout
      .order;
    expect(o.status).toBe('COMPLETED');
    expect(o.downloadableItems.nodes).toHaveLength(1);
    expect(o.downloadableItems.nodes[0].downloadsRemaining).toBe(5);
  });

  it('refuses an intent that has not succeeded, a declined card, a forged id, and leaves stock untouched', async () => {
    const s = await shopper([['omni-antenna', 1]]);
    const before = await stockOf(t, 'omni-antenna');
    const pi = (await s.ok(INTENT)).stripePaymentIntent;
    expect(
      await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id, isPaid: true }),
    ).toBe('The card payment has not succeeded (status requires_payment_method).');
    stripe.confirm(pi.id, 'pm_card_chargeDeclined');
    expect(
      await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id, isPaid: true }),
    ).toMatch(/has not succeeded/);
    expect(
      await s.fails(CHECKOUT, {
        paymentMethod: 'stripe',
        billing: BILLING,
        transactionId: 'pi_doesnotexist',
        isPaid: true,
      }),
    ).toBe('No card payment was found for this checkout.');
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, isPaid: true })).toBe(
      'The card payment is missing. Please pay with your card first.',
    );
    expect(await stockOf(t, 'omni-antenna')).toBe(before);
    expect((await s.ok('query { cart { isEmpty } }')).cart.isEmpty).toBe(false);
  });

  it("refuses an intent for another amount (cart changed after paying) and another session's intent", async () => {
    const s = await shopper([['omni-antenna', 1]]);
    const pi = await paidIntent(s);
    await s.ok(ADD, { productId: ids['omni-antenna'] });
    const total = centsOf((await s.ok('query { cart { total(format: RAW) } }')).cart.total);
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
      `The card payment was for ${pi.amount} cents, the order total is ${total} cents.`,
    );
    const other = await shopper([['omni-antenna', 1]]);
    expect(await other.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
      'The card payment belongs to another cart.',
    );
  });

  it("refuses a payment refunded before the checkout (e.g. from Stripe's dashboard), in part or whole, and keeps the cart", async () => {
    const s = await shopper([['omni-antenna', 1]]);
    const pi = await paidIntent(s);
    const before = await stockOf(t, 'omni-antenna');
    const sdk = new Stripe(stripe.secretKey, { host: stripe.host, port: stripe.port, protocol: 'http' });
    await sdk.refunds.create({ payment_intent: pi.id, amount: 100 });
    expect(
      await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id, isPaid: true }),
    ).toBe('This card payment was refunded. Please pay again.');
    expect(await stockOf(t, 'omni-antenna')).toBe(before);
    expect((await s.ok('query { cart { isEmpty } }')).cart.isEmpty).toBe(false);
  });

  it('an intent pays one order only', async () => {
    const s = await shopper([['omni-antenna', 1]]);
    const pi = await paidIntent(s);
    await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id });
    await s.ok(ADD, { productId: ids['omni-antenna'] });
    expect(await s.fails(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).toBe(
      'This card payment was already used for another order.',
    );
    // and the database refuses it even when the early check is raced past
    const n = await t.engine.database.db.execute(
      sql`select count(*)::int as n from orders where transaction_id = ${pi.id}`,
    );
    expect(((n as any).rows ?? n)[0].n).toBe(1);
  });
});

describe('webhook', () => {
  it('verifies the signature on the raw body', async () => {
    const event = stripe.buildEvent('payment_intent.succeeded', {
      id: 'pi_x',
      object: 'payment_intent',
      amount: 100,
      amount_received: 100,
      currency: 'eur',
      status: 'succeeded',
      metadata: {},
    });
    const payload = JSON.stringify(event);
    expect((await postWebhook(payload, null)).status).toBe(400);
    expect((await postWebhook(payload, stripe.signPayload(payload, { secret: 'whsec_wrong' }))).status).toBe(400);
    const tampered = payload.replace('"amount":100', '"amount":1');
    expect((await postWebhook(tampered, stripe.signPayload(payload))).status).toBe(400);
    const ok = await postWebhook(payload, stripe.signPayload(payload));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ received: true, duplicate: false, action: 'no-order' });
  });

  it('refunds an order once; a replayed event is acknowledged and ignored', async () => {
    const s = await shopper([['omni-antenna', 1]]);
    const pi = await paidIntent(s);
    const o = (await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).checkout
      .order;
    // payment_intent.succeeded for an order that is already paid changes nothing
    const succeeded = stripe.events
      .filter((e: any) => e.type === 'payment_intent.succeeded' && e.data.object.id === pi.id)
      .at(-1)!;
    const sp = JSON.stringify(succeeded);
    expect(await (await postWebhook(sp, stripe.signPayload(sp))).json()).toMatchObject({
      action: 'ignore',
      orderId: o.databaseId,
    });
    // refund through the real SDK: the stand-in emits charge.refunded
    const sdk = new Stripe(stripe.secretKey, { host: stripe.host, port: stripe.port, protocol: 'http' });
    await sdk.refunds.create({ payment_intent: pi.id });
    const refunded = stripe.events.filter((e: any) => e.type === 'charge.refunded').at(-1)!;
    const payload = JSON.stringify(refunded);
    const first = await postWebhook(payload, stripe.signPayload(payload));
    expect(await first.json()).toMatchObject({ duplicate: false, action: 'mark_refunded', orderId: o.databaseId });
    const order = async () => (await s.ok(operation('getOrder'), { id: String(o.databaseId) })).order;
    expect((await order()).status).toBe('REFUNDED');
    const again = await postWebhook(payload, stripe.signPayload(payload));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true });
    expect((await order()).status).toBe('REFUNDED');
    expect(await t.engine.stripeWebhooks.processed(refunded.id as string)).toBe(true);
  });
});
