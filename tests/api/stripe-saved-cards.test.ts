// Saved cards through Stripe customers, real `stripe` SDK against the local Stripe stand-in: a logged-in
// customer gets one Stripe customer (made on the first card payment, reused after), sees the cards saved
// with it, removes only their own, saves a new card (setup_future_usage) and pays with a saved one; a guest
// never gets a Stripe customer. Each test states what the shopper sees and what Stripe received.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeStandIn } from '../fixtures/stripe-server.ts';
import { headersOf, register } from './accounts-helpers.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, Shopper } from './shop-helpers.ts';

let t: TestEngine;
let stripe: StripeStandIn;
let antenna: number;
beforeAll(async () => {
  stripe = await startStripeServer();
  Object.assign(process.env, stripe.env);
  // Every test registers its own customers, all from the one test address.
  process.env.REGISTER_LIMIT_PER_IP = '100';
  t = await startTestEngine();
  antenna = await productId(t, 'omni-antenna');
}, 300_000);
afterAll(async () => {
  await t?.close();
  await stripe?.stop();
});

const ADD = operation('addToCart');
const INTENT = operation('getStripePaymentIntent');
const CHECKOUT = operation('Checkout');
const SAVED = operation('getSavedPaymentMethods');
const REMOVE = operation('removeSavedPaymentMethod');

/** A registered, logged-in customer's shopper (its session is the account's), with one antenna in the cart. */
async function customer(headers: Record<string, string> = {}) {
  const c = await register(t);
  const s = new Shopper(t, { ...headersOf({ authToken: c.authToken }), ...headers });
  s.token = c.sessionToken;
  await s.ok(ADD, { productId: antenna, quantity: 1 });
  return { c, s };
}
async function guest() {
  const s = new Shopper(t);
  await s.ok(ADD, { productId: antenna, quantity: 1 });
  return s;
}

const since = () => stripe.requests.length;
const requestsSince = (from: number, method: string, path: string | RegExp) =>
  stripe.requests
    .slice(from)
    .filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
const storedCustomerOf = async (userId: number) => {
  const r = await t.engine.database.db.execute(sql`select stripe_customer_id from customers where id = ${userId}`);
  return ((r as any).rows ?? r)[0].stripe_customer_id as string | null;
};

describe('the Stripe customer of an account', () => {
  it('is made once on the first card payment and reused by every later one', async () => {
    const { c, s } = await customer();
    expect((await s.ok(SAVED)).viewer).toMatchObject({ stripeCustomerId: null, savedPaymentMethods: [] });
    const from = since();
    const first = (await s.ok(INTENT)).stripePaymentIntent;
    expect(first.error).toBeNull();
    await s.ok(ADD, { productId: antenna, quantity: 1 });
    const second = (await s.ok(INTENT)).stripePaymentIntent;
    expect(second.error).toBeNull();
    expect(second.id).not.toBe(first.id);

    const created = requestsSince(from, 'POST', '/v1/customers');
    expect(created).toHaveLength(1);
    const cus = await storedCustomerOf(c.userId);
    expect(cus).toMatch(/^cus_/);
    expect(stripe.customers.get(cus!)?.metadata).toMatchObject({ meshfront_user: String(c.userId) });
    // Both intents Stripe received carry that customer.
    const intents = requestsSince(from, 'POST', '/v1/payment_intents');
    expect(intents.map((r) => r.params.customer)).toEqual([cus, cus]);
    expect(stripe.intents.get(second.id)?.customer).toBe(cus);
    // The shopper's own viewer shows it; the WooNuxt customerId argument with it is accepted.
    expect((await s.ok(SAVED)).viewer.stripeCustomerId).toBe(cus);
    expect((await s.ok(INTENT, { customerId: cus })).stripePaymentIntent.error).toBeNull();
    expect(requestsSince(from, 'POST', '/v1/customers')).toHaveLength(1);
  });

  it('is never made for a guest, whatever the guest asks for', async () => {
    const s = await guest();
    const from = since();
    const pi = (await s.ok(INTENT, { saveForFuture: true })).stripePaymentIntent;
    expect(pi.error).toBeNull();
    expect(requestsSince(from, 'POST', '/v1/customers')).toHaveLength(0);
    const [sent] = requestsSince(from, 'POST', '/v1/payment_intents');
    expect(sent!.params.customer).toBeUndefined();
    expect(sent!.params.setup_future_usage).toBeUndefined();
    expect(stripe.intents.get(pi.id)).toMatchObject({ customer: null, setup_future_usage: null });

    const other = await customer();
    await other.s.ok(INTENT);
    const cus = await storedCustomerOf(other.c.userId);
    const card = stripe.saveCard(cus!);
    const before = since();
    expect((await s.ok(INTENT, { paymentMethodId: card.id })).stripePaymentIntent).toMatchObject({
      id: null,
      clientSecret: null,
      error: 'Please log in to pay with a saved card.',
    });
    expect((await s.ok(INTENT, { customerId: cus })).stripePaymentIntent.error).toBe(
      'Please log in to pay with a saved card.',
    );
    expect(requestsSince(before, 'POST', '/v1/payment_intents')).toHaveLength(0);
    expect(requestsSince(before, 'POST', '/v1/customers')).toHaveLength(0);
    expect((await s.ok(SAVED)).viewer).toBeNull();
  });
});

describe('saved cards', () => {
  it('lists the cards Stripe has for the customer, with the default marked', async () => {
    const { c, s } = await customer();
    await s.ok(INTENT);
    const cus = (await storedCustomerOf(c.userId))!;
    const visa = stripe.saveCard(cus, { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 });
    const master = stripe.saveCard(cus, { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 });
    (stripe.customers.get(cus)!.invoice_settings as Record<string, unknown>).default_payment_method = visa.id;
    const from = since();
    const viewer = (await s.ok(SAVED)).viewer;
    expect(requestsSince(from, 'GET', `/v1/customers/${cus}/payment_methods`)[0]?.params).toMatchObject({
      type: 'card',
    });
    expect(viewer.stripeCustomerId).toBe(cus);
    const byToken = Object.fromEntries(viewer.savedPaymentMethods.map((m: any) => [m.token, m]));
    expect(Object.keys(byToken).sort()).toEqual([visa.id, master.id].sort());
    expect(byToken[master.id]).toMatchObject({
      customerId: cus,
      cardType: 'mastercard',
      last4: '4444',
      expiryMonth: '03',
      expiryYear: '2031',
      isDefault: false,
    });
    expect(byToken[visa.id]).toMatchObject({ cardType: 'visa', last4: '4242', expiryMonth: '12', isDefault: true });
    expect(Number.isInteger(byToken[visa.id].id)).toBe(true);
    expect(byToken[visa.id].id).not.toBe(byToken[master.id].id);
  });

  it("removes the customer's own card at Stripe, and refuses another customer's card without detaching it", async () => {
    const a = await customer({ 'accept-language': 'de-DE' });
    const b = await customer();
    await a.s.ok(INTENT);
    await b.s.ok(INTENT);
    const cusA = (await storedCustomerOf(a.c.userId))!;
    const cusB = (await storedCustomerOf(b.c.userId))!;
    expect(cusA).not.toBe(cusB);
    const mine = stripe.saveCard(cusA);
    const theirs = stripe.saveCard(cusB, { brand: 'mastercard', last4: '5555' });

    const from = since();
    expect(await a.s.fails(REMOVE, { token: theirs.id })).toBe(
      'Diese gespeicherte Karte wurde in deinem Konto nicht gefunden.',
    );
    expect(await a.s.fails(REMOVE, { token: 'pm_doesnotexist' })).toBe(
      'Diese gespeicherte Karte wurde in deinem Konto nicht gefunden.',
    );
    expect(await a.s.fails(REMOVE, { token: '../v1/customers' })).toBe(
      'Diese gespeicherte Karte wurde in deinem Konto nicht gefunden.',
    );
    expect(requestsSince(from, 'POST', /\/detach$/)).toHaveLength(0);
    expect(stripe.paymentMethods.get(theirs.id)?.customer).toBe(cusB);
    expect((await b.s.ok(SAVED)).viewer.savedPaymentMethods.map((m: any) => m.token)).toEqual([theirs.id]);

    const removed = (await a.s.ok(REMOVE, { token: mine.id })).removeSavedPaymentMethod;
    expect(removed).toEqual({ token: mine.id, savedPaymentMethods: [] });
    expect(requestsSince(from, 'POST', /\/detach$/).map((r) => r.path)).toEqual([
      `/v1/payment_methods/${mine.id}/detach`,
    ]);
    expect(stripe.paymentMethods.get(mine.id)?.customer).toBeNull();
    // Detached, it is nobody's card any more: a second removal is refused.
    expect(await a.s.fails(REMOVE, { token: mine.id })).toMatch(/nicht gefunden/);
  });

  it('says so in the shopper language when Stripe fails, and makes no intent without the customer', async () => {
    const { c, s } = await customer({ 'accept-language': 'de-DE' });
    await s.ok(INTENT);
    const cus = (await storedCustomerOf(c.userId))!;
    stripe.saveCard(cus);
    stripe.failNext(1, { method: 'GET', path: `/v1/customers/${cus}/payment_methods` });
    const r = await s.gql(SAVED);
    expect(r.body.errors?.[0]?.message).toBe(
      'Gespeicherte Karten sind gerade nicht verfügbar. Bitte versuche es in einer Minute noch einmal.',
    );
    expect(r.body.errors?.[0]?.extensions?.code).toBe('STRIPE_UNAVAILABLE');
    expect((await s.ok(SAVED)).viewer.savedPaymentMethods).toHaveLength(1);

    // A new account whose Stripe customer cannot be made: the intent is refused, none is made without it.
    const fresh = await customer({ 'accept-language': 'de-DE' });
    stripe.failNext(1, { method: 'POST', path: '/v1/customers' });
    const from = since();
    expect((await fresh.s.ok(INTENT)).stripePaymentIntent).toMatchObject({
      id: null,
      error: 'Gespeicherte Karten sind gerade nicht verfügbar. Bitte versuche es in einer Minute noch einmal.',
    });
    expect(requestsSince(from, 'POST', '/v1/payment_intents')).toHaveLength(0);
    expect(await storedCustomerOf(fresh.c.userId)).toBeNull();
    // The next try makes it.
    expect((await fresh.s.ok(INTENT)).stripePaymentIntent.error).toBeNull();
    expect(await storedCustomerOf(fresh.c.userId)).toMatch(/^cus_/);
  });

  it('needs a login to remove a card', async () => {
    const s = await guest();
    expect(await s.fails(REMOVE, { token: 'pm_123' })).toMatch(/logged in/);
  });
});

describe('paying with saved cards', () => {
  it('"save this card" asks Stripe to keep the card, and the paid card is listed afterwards', async () => {
    const { c, s } = await customer();
    const from = since();
    const pi = (await s.ok(INTENT, { saveForFuture: true })).stripePaymentIntent;
    expect(pi.error).toBeNull();
    const cus = (await storedCustomerOf(c.userId))!;
    const [sent] = requestsSince(from, 'POST', '/v1/payment_intents');
    expect(sent!.params).toMatchObject({ customer: cus, setup_future_usage: 'off_session' });
    expect(sent!.params.payment_method).toBeUndefined();
    // What Stripe.js does when the shopper pays with a new card; Stripe attaches it to the customer.
    stripe.confirm(pi.id, 'pm_card_mastercard');
    const order = (await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).checkout
      .order;
    expect(order).toMatchObject({ status: 'PROCESSING', transactionId: pi.id });
    const saved = (await s.ok(SAVED)).viewer.savedPaymentMethods;
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ cardType: 'mastercard', last4: '4444', customerId: cus });
    expect(saved[0].token).toBe(stripe.intents.get(pi.id)?.payment_method);
  });

  it('without "save this card" the card paid with is not kept', async () => {
    const { c, s } = await customer();
    const from = since();
    const pi = (await s.ok(INTENT, { saveForFuture: false })).stripePaymentIntent;
    const [sent] = requestsSince(from, 'POST', '/v1/payment_intents');
    expect(sent!.params.customer).toBe(await storedCustomerOf(c.userId));
    expect(sent!.params.setup_future_usage).toBeUndefined();
    stripe.confirm(pi.id, 'pm_card_visa');
    expect((await s.ok(SAVED)).viewer.savedPaymentMethods).toEqual([]);
  });

  it("pays with a saved card: Stripe gets that card and the customer, and the order is placed; another customer's card is refused", async () => {
    const { c, s } = await customer();
    const other = await customer({ 'accept-language': 'fr-FR' });
    await s.ok(INTENT);
    const cus = (await storedCustomerOf(c.userId))!;
    const card = stripe.saveCard(cus, { brand: 'visa', last4: '1881' });

    const from = since();
    const pi = (await s.ok(INTENT, { paymentMethodId: card.id })).stripePaymentIntent;
    expect(pi.error).toBeNull();
    const [sent] = requestsSince(from, 'POST', '/v1/payment_intents');
    expect(sent!.params).toMatchObject({ customer: cus, payment_method: card.id });
    expect(sent!.params.setup_future_usage).toBeUndefined();
    expect(requestsSince(from, 'GET', `/v1/payment_methods/${card.id}`)).toHaveLength(1);
    // Stripe.js confirms the intent with the saved card (the browser never sees the card number).
    expect(stripe.confirm(pi.id, card.id).status).toBe('succeeded');
    const order = (await s.ok(CHECKOUT, { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id })).checkout
      .order;
    expect(order).toMatchObject({ status: 'PROCESSING', transactionId: pi.id });
    expect(stripe.charges.get(String(stripe.intents.get(pi.id)?.latest_charge))?.payment_method).toBe(card.id);

    // The other customer names this card: refused in their language, no intent is made with it.
    const before = since();
    const refused = (await other.s.ok(INTENT, { paymentMethodId: card.id })).stripePaymentIntent;
    expect(refused).toMatchObject({
      id: null,
      clientSecret: null,
      error: 'Cette carte enregistrée est introuvable dans votre compte.',
    });
    const otherCus = await storedCustomerOf(other.c.userId);
    expect((await other.s.ok(INTENT, { customerId: cus })).stripePaymentIntent.error).toBe(
      'Cette carte enregistrée est introuvable dans votre compte.',
    );
    expect(
      requestsSince(before, 'POST', '/v1/payment_intents').filter(
        (r) => r.params.payment_method === card.id || r.params.customer === cus,
      ),
    ).toHaveLength(0);
    expect(otherCus).not.toBe(cus);
    expect(stripe.paymentMethods.get(card.id)?.customer).toBe(cus);
  });
});

describe('deleting the account', () => {
  it('deletes its Stripe customer with the saved cards; while Stripe cannot be reached the account stays', async () => {
    const { c, s } = await customer();
    expect((await s.ok(INTENT)).stripePaymentIntent.error).toBeNull();
    const cus = (await storedCustomerOf(c.userId))!;
    const card = stripe.saveCard(cus);
    const headers = { ...headersOf({ authToken: c.authToken }), 'accept-language': 'de-DE' };

    // Stripe down: nothing is deleted, here or there, and the customer is told to try again.
    stripe.failNext(1, { method: 'DELETE', path: `/v1/customers/${cus}` });
    const refused = await t.gql(operation('deleteAccount'), { password: c.password }, headers);
    expect(refused.body.errors?.[0]?.message).toMatch(/Zahlungsdienstleister.*nicht gelöscht/);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(await t.engine.accounts.customers.get(c.userId)).not.toBeNull();
    expect(stripe.customers.has(cus)).toBe(true);
    expect(stripe.paymentMethods.get(card.id)?.customer).toBe(cus);

    const from = since();
    const deleted = await t.gql(operation('deleteAccount'), { password: c.password }, headers);
    expect(deleted.body.errors).toBeUndefined();
    expect(deleted.body.data.deleteAccount.deleted).toBe(true);
    expect(requestsSince(from, 'DELETE', `/v1/customers/${cus}`)).toHaveLength(1);
    expect(stripe.customers.has(cus)).toBe(false);
    expect(stripe.paymentMethods.get(card.id)?.customer).toBeNull();
    expect(await t.engine.accounts.customers.get(c.userId)).toBeNull();
  });
});
