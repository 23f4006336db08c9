// Orders through the admin API: lists filtered by status, date and customer; the order view; status moves
// (processing → completed with a tracking note and the customer's e-mail, on hold, back to processing,
// cancelled with stock and coupon uses restored); refunds — recorded for cash orders, through Stripe (the
// local stand-in) for card orders, full or partial, and never twice for one idempotency key.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStripeServer, type StripeStandIn } from '../fixtures/stripe-server.ts';
import { placePaidOrder, sleep, startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { BILLING, operation, productId, Shopper, stockOf } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: AdminTestEngine;
let stripe: StripeStandIn;
let bravo: number;
let cable: number;
beforeAll(async () => {
  stripe = await startStripeServer();
  Object.assign(process.env, stripe.env);
  t = await startAdminEngine();
  bravo = await productId(t, 'bravo-outdoor-gateway');
  cable = await productId(t, 'n-type-cable');
  // Enough stock for every order these tests place (through the admin API itself).
  await t.ok('adminSetStock', { id: bravo, input: { manageStock: true, stockQuantity: 100 } });
  await t.ok('adminSetStock', { id: cable, input: { manageStock: true, stockQuantity: 100 } });
});
afterAll(async () => {
  await t?.close();
  await stripe?.stop();
});

async function outbox(to: string, subject: string) {
  for (let i = 0; i < 50; i++) {
    const mail = await t.engine.commerceMailer.readOutbox({ to, subject });
    if (mail.length) return mail;
    await sleep(100);
  }
  return [];
}

/** A real card checkout: cart, PaymentIntent, the stand-in confirms it, Checkout pays the order. */
async function cardOrder(slug: string, quantity: number) {
  const s = new Shopper(t);
  await s.ok(operation('addToCart'), { productId: await productId(t, slug), quantity });
  const pi = (await s.ok(operation('getStripePaymentIntent'))).stripePaymentIntent;
  stripe.confirm(pi.id, 'pm_card_visa');
  const o = (
    await s.ok(operation('Checkout'), {
      paymentMethod: 'stripe',
      billing: { ...BILLING, email: 'card.buyer@example.test' },
      transactionId: pi.id,
    })
  ).checkout.order;
  expect(o.status).toBe('PROCESSING');
  return { id: o.databaseId as number, intent: pi.id as string, totalCents: pi.amount as number };
}

describe('listing and viewing orders', () => {
  it('filters by status, date and customer, newest first, with a total', async () => {
    const old = await placePaidOrder(t, {
      lines: [[cable, 1, 1500]],
      email: 'old.customer@example.test',
      date: new Date('2024-03-10T12:00:00Z'),
    });
    const pending = await placePaidOrder(t, {
      lines: [[cable, 1, 1500]],
      email: 'pending.payer@example.test',
      status: 'pending',
    });
    const mine = await placePaidOrder(t, {
      lines: [[cable, 2, 1500]],
      customerId: String(t.customerId),
      email: 'Registered.Buyer@example.test',
    });
    const processing = (await t.ok('adminOrders', { status: ['PROCESSING'] })).adminOrders;
    expect(processing.nodes.map((o: any) => o.id)).toEqual(expect.arrayContaining([old.id, mine.id]));
    expect(processing.nodes.map((o: any) => o.id)).not.toContain(pending.id);
    expect(processing.total).toBe(processing.nodes.length);
    const march = (await t.ok('adminOrders', { dateFrom: '2024-03-10', dateTo: '2024-03-10' })).adminOrders;
    expect(march.nodes.map((o: any) => o.id)).toEqual([old.id]);
    expect(
      (await t.ok('adminOrders', { customer: 'registered.buyer' })).adminOrders.nodes.map((o: any) => o.id),
    ).toEqual([mine.id]);
    expect((await t.ok('adminOrders', { customer: String(t.customerId) })).adminOrders.nodes[0]).toMatchObject({
      id: mine.id,
      customerUserId: t.customerId,
      customerName: 'Grace Hopper',
      totalCents: 3000,
    });
    expect((await t.ok('adminOrders', { customer: '%' })).adminOrders.total).toBe(0);
    const all = (await t.ok('adminOrders', { first: 100 })).adminOrders.nodes;
    const dates = all.map((o: any) => o.dateCreated);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect((await t.fails('adminOrders', { dateFrom: 'last week' })).message).toBe(
      'dateFrom must be a date (YYYY-MM-DD) or an ISO date-time.',
    );
  });

  it('shows an order with its lines, addresses, notes and what is left to refund', async () => {
    const o = await placePaidOrder(t, {
      lines: [
        [bravo, 1, 34900],
        [cable, 2, 1500],
      ],
    });
    const v = (await t.ok('adminOrder', { id: o.id })).adminOrder;
    expect(v).toMatchObject({
      id: o.id,
      number: String(o.id),
      status: 'PROCESSING',
      totalCents: 37900,
      refundedCents: 0,
      refundableCents: 37900,
      paymentMethod: 'cod',
      customerUserId: null,
      billing: { city: 'Lisbon', country: 'PT' },
    });
    expect(v.items.map((i: any) => [i.name, i.quantity, i.totalCents])).toEqual([
      [(await t.engine.catalog.snapshot()).productsById.get(bravo)!.name, 1, 34900],
      ['N-Type Low-Loss Cable', 2, 3000],
    ]);
    expect(v.notes.map((n: any) => n.note)).toContain('Paid in a test.');
    expect((await t.ok('adminOrder', { id: 999_999 })).adminOrder).toBeNull();
  });
});

describe('status moves', () => {
  it('completes a processing order with a tracking note and e-mails the customer', async () => {
    const o = await placePaidOrder(t, { lines: [[bravo, 1, 34900]], email: 'complete.me@example.test' });
    const r = (
      await t.ok('adminUpdateOrderStatus', {
        input: {
          orderId: o.id,
          status: 'COMPLETED',
          trackingNumber: 'DHL 00340434161234567890',
          trackingCarrier: 'DHL',
          trackingUrl: 'https://www.dhl.com/track?id=00340434161234567890',
          note: 'Packed with a spare antenna.',
        },
      })
    ).adminUpdateOrderStatus;
    expect(r.customerNotified).toBe(true);
    expect(r.order.status).toBe('COMPLETED');
    expect(r.order.dateCompleted).toBeTruthy();
    expect(r.order.notes.at(-1).note).toMatch(
      /^Order status changed from processing to completed by user:\d+\. Tracking number: DHL 00340434161234567890 \(DHL\) https:\/\/www\.dhl\.com\/track\?id=00340434161234567890\. Packed with a spare antenna\.$/,
    );
    const mail = await outbox('complete.me@example.test', `#${o.id} is complete`);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain('Tracking number: DHL 00340434161234567890 (DHL)');
    expect(mail[0]!.text).toContain(`/checkout/order-received/${o.id}/?key=${o.orderKey}`);
    expect(mail[0]!.html).toContain('Track your parcel');
    // Completing twice is refused with the order's status; no second e-mail.
    const again = await t.fails('adminUpdateOrderStatus', { input: { orderId: o.id, status: 'COMPLETED' } });
    expect(again).toEqual({
      message: `Order ${o.id} is completed; it cannot be moved to completed from there (allowed from processing, on-hold).`,
      code: 'CONFLICT',
    });
    expect(await outbox('complete.me@example.test', `#${o.id} is complete`)).toHaveLength(1);
  });

  it('puts an order on hold and back to processing; tracking only belongs to completion', async () => {
    const o = await placePaidOrder(t, { lines: [[cable, 1, 1500]] });
    expect(
      (
        await t.ok('adminUpdateOrderStatus', {
          input: { orderId: o.id, status: 'ON_HOLD', note: 'Waiting for the customer to confirm the address.' },
        })
      ).adminUpdateOrderStatus.order.status,
    ).toBe('ON_HOLD');
    expect(
      (await t.ok('adminUpdateOrderStatus', { input: { orderId: o.id, status: 'PROCESSING' } })).adminUpdateOrderStatus
        .order.status,
    ).toBe('PROCESSING');
    expect(
      (await t.fails('adminUpdateOrderStatus', { input: { orderId: o.id, status: 'ON_HOLD', trackingNumber: 'X1' } }))
        .message,
    ).toBe('Tracking details belong to completing an order.');
    expect(
      (
        await t.fails('adminUpdateOrderStatus', {
          input: { orderId: o.id, status: 'COMPLETED', trackingUrl: 'javascript:alert(1)' },
        })
      ).message,
    ).toBe('The tracking link must be a full http(s) URL.');
    const noted = (await t.ok('adminAddOrderNote', { orderId: o.id, note: 'Customer called.' })).adminAddOrderNote;
    expect(noted.notes.at(-1).note).toMatch(/^Customer called\. \(user:\d+\)$/);
  });

  it('cancels an order and gives its stock back', async () => {
    const before = await stockOf(t, 'bravo-outdoor-gateway');
    const o = await placePaidOrder(t, { lines: [[bravo, 2, 34900]] });
    expect(await stockOf(t, 'bravo-outdoor-gateway')).toBe(before! - 2);
    const shopBefore = (
      await t.data(
        'query ($id: ID!) { product(id: $id, idType: DATABASE_ID) { ... on InventoriedProduct { stockQuantity } } }',
        { id: String(bravo) },
      )
    ).product.stockQuantity;
    const r = (
      await t.ok('adminUpdateOrderStatus', {
        input: { orderId: o.id, status: 'CANCELLED', note: 'Customer changed their mind.' },
      })
    ).adminUpdateOrderStatus;
    expect(r.order.status).toBe('CANCELLED');
    expect(r.order.notes.at(-1).note).toMatch(/Customer changed their mind\. Stock returned\./);
    expect(await stockOf(t, 'bravo-outdoor-gateway')).toBe(before);
    // The storefront sees the stock back at once.
    const shopAfter = (
      await t.data(
        'query ($id: ID!) { product(id: $id, idType: DATABASE_ID) { ... on InventoriedProduct { stockQuantity } } }',
        { id: String(bravo) },
      )
    ).product.stockQuantity;
    expect(shopAfter).toBe(shopBefore + 2);
    expect((await t.fails('adminUpdateOrderStatus', { input: { orderId: o.id, status: 'CANCELLED' } })).code).toBe(
      'CONFLICT',
    );
    expect(await stockOf(t, 'bravo-outdoor-gateway')).toBe(before);
  });
});

describe('refunds', () => {
  it('records refunds of a cash order: partial, then the rest; the order becomes refunded', async () => {
    const o = await placePaidOrder(t, { lines: [[cable, 2, 1500]] });
    const part = (
      await t.ok('adminRefundOrder', {
        input: { orderId: o.id, amountCents: 1000, reason: 'One cable was bent.', idempotencyKey: `cash-${o.id}-1` },
      })
    ).adminRefundOrder;
    expect(part).toMatchObject({
      replayed: false,
      refund: { amountCents: 1000, method: 'manual', status: 'succeeded', reason: 'One cable was bent.' },
      order: { status: 'PROCESSING', refundedCents: 1000, refundableCents: 2000 },
    });
    expect(
      (
        await t.fails('adminRefundOrder', {
          input: { orderId: o.id, amountCents: 2500, idempotencyKey: `cash-${o.id}-2` },
        })
      ).message,
    ).toBe(`At most €20.00 of order ${o.id} is left to refund.`);
    const rest = (await t.ok('adminRefundOrder', { input: { orderId: o.id, idempotencyKey: `cash-${o.id}-3` } }))
      .adminRefundOrder;
    expect(rest).toMatchObject({
      refund: { amountCents: 2000 },
      order: { status: 'REFUNDED', refundedCents: 3000, refundableCents: 0 },
    });
    expect(rest.order.refunds.map((r: any) => r.amountCents)).toEqual([1000, 2000]);
    expect(
      (await t.fails('adminRefundOrder', { input: { orderId: o.id, idempotencyKey: `cash-${o.id}-4` } })).message,
    ).toBe(`Order ${o.id} has been refunded in full already.`);
  });

  it('refuses unpaid orders, bad amounts and keys', async () => {
    const pending = await placePaidOrder(t, { lines: [[cable, 1, 1500]], status: 'pending' });
    expect(
      await t.fails('adminRefundOrder', { input: { orderId: pending.id, idempotencyKey: 'pending-order-1' } }),
    ).toEqual({ message: `Only paid orders can be refunded; order ${pending.id} is pending.`, code: 'CONFLICT' });
    const paid = await placePaidOrder(t, { lines: [[cable, 1, 1500]] });
    expect(
      (
        await t.fails('adminRefundOrder', {
          input: { orderId: paid.id, amountCents: 0, idempotencyKey: 'zero-amount-1' },
        })
      ).message,
    ).toBe('The refund amount must be a positive whole number of cents.');
    expect(
      (await t.fails('adminRefundOrder', { input: { orderId: paid.id, idempotencyKey: 'short' } })).message,
    ).toMatch(/^The idempotency key must be 8–100/);
    await t.ok('adminRefundOrder', {
      input: { orderId: paid.id, amountCents: 100, idempotencyKey: 'used-for-paid-1' },
    });
    expect(
      (await t.fails('adminRefundOrder', { input: { orderId: pending.id, idempotencyKey: 'used-for-paid-1' } })).code,
    ).toBe('CONFLICT');
  });

  it('refunds a card order through Stripe, partially then fully; repeating a key refunds nothing more', async () => {
    const card = await cardOrder('omni-antenna', 2);
    const refundsAtStripe = () => [...stripe.refunds.values()].filter((r) => r.payment_intent === card.intent);
    const key = `card-${card.id}-part`;
    const first = (
      await t.ok('adminRefundOrder', {
        input: { orderId: card.id, amountCents: 2500, reason: 'Late delivery', idempotencyKey: key },
      })
    ).adminRefundOrder;
    expect(first).toMatchObject({
      replayed: false,
      refund: { method: 'stripe', status: 'succeeded', amountCents: 2500 },
      order: { status: 'PROCESSING', refundedCents: 2500 },
    });
    expect(first.refund.stripeRefundId).toMatch(/^re_/);
    expect(refundsAtStripe().map((r) => r.amount)).toEqual([2500]);
    const sent = stripe.requests.filter((r) => r.path === '/v1/refunds' && r.method === 'POST').at(-1)!;
    expect(sent.idempotencyKey).toBe(`meshfront-refund-${key}`);
    expect(sent.params).toMatchObject({ payment_intent: card.intent, amount: '2500' });

    // The operator clicks again (or the request is retried): the same refund comes back, Stripe is not asked again.
    const requestsBefore = stripe.requests.length;
    const again = (
      await t.ok('adminRefundOrder', {
        input: { orderId: card.id, amountCents: 2500, reason: 'Late delivery', idempotencyKey: key },
      })
    ).adminRefundOrder;
    expect(again).toMatchObject({
      replayed: true,
      refund: { id: first.refund.id, stripeRefundId: first.refund.stripeRefundId },
    });
    expect(stripe.requests.length).toBe(requestsBefore);
    expect(refundsAtStripe()).toHaveLength(1);

    const rest = (
      await t.ok('adminRefundOrder', { input: { orderId: card.id, idempotencyKey: `card-${card.id}-rest` } })
    ).adminRefundOrder;
    expect(rest).toMatchObject({
      refund: { amountCents: card.totalCents - 2500, status: 'succeeded' },
      order: { status: 'REFUNDED', refundedCents: card.totalCents, refundableCents: 0 },
    });
    expect(refundsAtStripe().map((r) => r.amount)).toEqual([2500, card.totalCents - 2500]);
    expect(stripe.charges.get(String(stripe.intents.get(card.intent)!.latest_charge))!.refunded).toBe(true);
  });

  it('a refund Stripe refuses is reported, recorded as failed, and may be retried with its key', async () => {
    const card = await cardOrder('omni-antenna', 1);
    stripe.failNext(1); // a 500 with stripe-should-retry: false — the SDK does not retry it
    const failed = await t.fails('adminRefundOrder', {
      input: { orderId: card.id, idempotencyKey: `card-${card.id}-retry` },
    });
    expect(failed.code).toBe('PAYMENT_FAILED');
    expect(failed.message).toMatch(/^Stripe did not refund the payment: /);
    const view = (await t.ok('adminOrder', { id: card.id })).adminOrder;
    expect(view).toMatchObject({
      status: 'PROCESSING',
      refundedCents: 0,
      refundableCents: card.totalCents,
      refunds: [{ status: 'failed' }],
    });
    const retried = (
      await t.ok('adminRefundOrder', { input: { orderId: card.id, idempotencyKey: `card-${card.id}-retry` } })
    ).adminRefundOrder;
    expect(retried).toMatchObject({
      replayed: false,
      refund: { status: 'succeeded', amountCents: card.totalCents, error: null },
      order: { status: 'REFUNDED' },
    });
    expect(retried.order.refunds).toHaveLength(1);
  });
});
