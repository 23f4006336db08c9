// Card payments: the real `stripe` SDK talking to the loopback stand-in (tests/fixtures/stripe-server.ts)
// through the same settings production uses (STRIPE_API_HOST/PORT/PROTOCOL), plus webhook verification.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeClient } from '../../src/server/payments/stripe/client.ts';
import {
  checkPaymentIntentForCheckout,
  StripePaymentError,
  StripePayments,
  type PaymentIntentSummary,
} from '../../src/server/payments/stripe/service.ts';
import { loadStripeSettings, StripeSettingsError } from '../../src/server/payments/stripe/settings.ts';
import {
  decideOrderActionForStripeEvent,
  decideWebhookDelivery,
  parseStripeWebhook,
  type StripeWebhookEvent,
} from '../../src/server/payments/stripe/webhook.ts';
import { parseStripeForm, startStripeServer, type StripeStandIn } from '../fixtures/stripe-server.ts';

let server: StripeStandIn;
let stripe: Stripe;
let payments: StripePayments;

beforeAll(async () => {
  server = await startStripeServer();
  const settings = loadStripeSettings({ NODE_ENV: 'test', ...server.env });
  stripe = createStripeClient(settings, { maxNetworkRetries: 0 });
  payments = new StripePayments(stripe, { currency: settings.currency });
});
afterAll(async () => {
  await server?.stop();
});

const key = () => `test-${Math.random().toString(36).slice(2)}`;

describe('settings', () => {
  it("defaults to Stripe's real API and eur, and is off without a secret key", () => {
    const s = loadStripeSettings({});
    expect(s).toMatchObject({ enabled: false, api: {}, currency: 'eur', secretKey: null });
  });

  it('reads host, port and protocol for a local server', () => {
    const s = loadStripeSettings({
      NODE_ENV: 'test',
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: '12111',
      STRIPE_API_PROTOCOL: 'http',
      STRIPE_CURRENCY: 'USD',
    });
    expect(s).toMatchObject({
      enabled: true,
      testMode: true,
      api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
      currency: 'usd',
    });
  });

  it('refuses malformed keys and an incomplete production setup', () => {
    expect(() => loadStripeSettings({ STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(StripeSettingsError);
    expect(() => loadStripeSettings({ STRIPE_API_PORT: 'eighty' })).toThrow(/STRIPE_API_PORT/);
    expect(() => loadStripeSettings({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_abc' })).toThrow(
      /STRIPE_WEBHOOK_SECRET[\s\S]*PUBLIC_STRIPE_PUBLISHABLE_KEY/,
    );
    expect(() =>
      loadStripeSettings({ STRIPE_SECRET_KEY: 'sk_live_abc', PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }),
    ).toThrow(/mixed/);
  });
});

describe('reconciliation settings', () => {
  it('waits 15 minutes after the charge, looks back a day, and can be switched off', () => {
    expect(loadStripeSettings({})).toMatchObject({ reconcileAfterSeconds: 900, reconcileLookbackHours: 24 });
    expect(
      loadStripeSettings({ STRIPE_RECONCILE_AFTER_SECONDS: '60', STRIPE_RECONCILE_LOOKBACK_HOURS: '0' }),
    ).toMatchObject({ reconcileAfterSeconds: 60, reconcileLookbackHours: 0 });
  });

  it('refuses a grace period the look-back window cannot reach, and bad numbers, naming the setting', () => {
    expect(() =>
      loadStripeSettings({ STRIPE_RECONCILE_AFTER_SECONDS: '7200', STRIPE_RECONCILE_LOOKBACK_HOURS: '2' }),
    ).toThrow(/STRIPE_RECONCILE_LOOKBACK_HOURS: must cover more than STRIPE_RECONCILE_AFTER_SECONDS/);
    expect(() => loadStripeSettings({ STRIPE_RECONCILE_AFTER_SECONDS: '0' })).toThrow(
      /STRIPE_RECONCILE_AFTER_SECONDS: must be at least 1 second/,
    );
    expect(() => loadStripeSettings({ STRIPE_RECONCILE_LOOKBACK_HOURS: 'a day' })).toThrow(
      /STRIPE_RECONCILE_LOOKBACK_HOURS/,
    );
    expect(() => loadStripeSettings({ STRIPE_RECONCILE_LOOKBACK_HOURS: '1000' })).toThrow(/at most 720 hours/);
  });
});

describe('listing PaymentIntents (stand-in and StripePayments.listPaymentIntentsSince)', () => {
  // A stand-in of its own: the other tests' intents must not be in these lists.
  let own: StripeStandIn;
  let client: Stripe;
  let created: PaymentIntentSummary[];
  beforeAll(async () => {
    own = await startStripeServer();
    client = createStripeClient(loadStripeSettings({ NODE_ENV: 'test', ...own.env }), { maxNetworkRetries: 0 });
    const p = new StripePayments(client, { currency: 'eur' });
    created = [];
    for (let i = 0; i < 7; i++)
      created.push(
        await p.createPaymentIntent({ amountCents: 1_000 + i, sessionRef: `s-${i}`, idempotencyKey: key() }),
      );
    // Two of them are from two hours ago.
    for (const pi of created.slice(0, 2)) own.intents.get(pi.id)!.created = Math.floor(Date.now() / 1000) - 7200;
  });
  afterAll(async () => {
    await own?.stop();
  });

  it("answers Stripe's list object, newest first, with has_more and starting_after / ending_before cursors", async () => {
    const first = await client.paymentIntents.list({ limit: 3 });
    expect(first).toMatchObject({ object: 'list', has_more: true, url: '/v1/payment_intents' });
    expect(first.data.map((pi) => pi.id)).toEqual(
      created
        .slice(-3)
        .reverse()
        .map((pi) => pi.id),
    );
    const second = await client.paymentIntents.list({ limit: 3, starting_after: first.data.at(-1)!.id });
    expect(second.data.map((pi) => pi.id)).toEqual(
      created
        .slice(1, 4)
        .reverse()
        .map((pi) => pi.id),
    );
    const last = await client.paymentIntents.list({ limit: 3, starting_after: second.data.at(-1)!.id });
    expect(last.data.map((pi) => pi.id)).toEqual([created[0]!.id]);
    expect(last.has_more).toBe(false);
    const back = await client.paymentIntents.list({ limit: 2, ending_before: second.data[0]!.id });
    expect(back.data.map((pi) => pi.id)).toEqual(
      created
        .slice(4, 6)
        .reverse()
        .map((pi) => pi.id),
    );
    const sent = own.requests.findLast((r) => r.method === 'GET' && r.path === '/v1/payment_intents')!;
    expect(sent.params).toMatchObject({ limit: '2', ending_before: second.data[0]!.id });
  });

  it("filters by created and pages through everything with the SDK's auto-pagination", async () => {
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    const ids: string[] = [];
    for await (const pi of client.paymentIntents.list({ created: { gte: hourAgo }, limit: 2 })) ids.push(pi.id);
    expect(ids).toEqual(
      created
        .slice(2)
        .reverse()
        .map((pi) => pi.id),
    );
    const pages = own.requests.filter(
      (r) =>
        r.method === 'GET' &&
        r.path === '/v1/payment_intents' &&
        (r.params.created as { gte?: string })?.gte === String(hourAgo),
    );
    expect(pages).toHaveLength(3);
    expect(pages[1]!.params.starting_after).toBe(ids[1]);
    const older = await client.paymentIntents.list({ created: { lt: hourAgo } });
    expect(older.data.map((pi) => pi.id)).toEqual([created[1]!.id, created[0]!.id]);
  });

  it('refuses what Stripe refuses: a limit over 100, an unknown cursor, an unknown expansion, both cursors', async () => {
    expect(await client.paymentIntents.list({ limit: 101 }).catch((e) => e)).toMatchObject({
      statusCode: 400,
      param: 'limit',
    });
    expect(await client.paymentIntents.list({ starting_after: 'pi_nosuchintent' }).catch((e) => e)).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'starting_after',
    });
    expect(await client.paymentIntents.list({ expand: ['data.customer'] }).catch((e) => e)).toMatchObject({
      statusCode: 400,
      param: 'expand',
    });
    expect(
      await client.paymentIntents
        .list({ starting_after: created[0]!.id, ending_before: created[1]!.id })
        .catch((e) => e),
    ).toMatchObject({ statusCode: 400 });
    const browser = new Stripe(own.publishableKey, {
      host: own.host,
      port: own.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    expect(await browser.paymentIntents.list().catch((e) => e)).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it('listPaymentIntentsSince gives when each intent was paid and what was refunded, from the expanded charge', async () => {
    const p = new StripePayments(client, { currency: 'eur' });
    const paid = created[6]!;
    own.confirm(paid.id, 'pm_card_visa');
    const charge = own.charges.get(String(own.intents.get(paid.id)!.latest_charge))!;
    charge.created = Math.floor(Date.now() / 1000) - 600; // paid ten minutes ago
    await p.refund({ paymentIntentId: paid.id, amountCents: 6, idempotencyKey: key() });
    const listed = [];
    for await (const pi of p.listPaymentIntentsSince(Math.floor(Date.now() / 1000) - 3600, 2)) listed.push(pi);
    expect(listed.map((pi) => pi.id)).toEqual(
      created
        .slice(2)
        .reverse()
        .map((pi) => pi.id),
    );
    expect(listed[0]).toMatchObject({
      id: paid.id,
      status: 'succeeded',
      amountReceivedCents: 1_006,
      chargedAt: charge.created,
      amountRefundedCents: 6,
      latestChargeId: charge.id,
      metadata: { session_ref: 's-6' },
    });
    expect(listed[1]).toMatchObject({ status: 'requires_payment_method', chargedAt: null, amountRefundedCents: 0 });
    expect(own.requests.findLast((r) => r.path === '/v1/payment_intents' && r.method === 'GET')!.params.expand).toEqual(
      ['data.latest_charge'],
    );
  });
});

describe('stand-in wire format', () => {
  it('decodes bracketed form keys into nested objects and lists', () => {
    expect(
      parseStripeForm(
        'amount=1000&metadata[order_ref]=A%2012&automatic_payment_methods[enabled]=true&payment_method_types[0]=card&payment_method_types[1]=sepa_debit',
      ),
    ).toEqual({
      amount: '1000',
      metadata: { order_ref: 'A 12' },
      automatic_payment_methods: { enabled: 'true' },
      payment_method_types: ['card', 'sepa_debit'],
    });
  });

  it('answers 401 like Stripe for a wrong secret key', async () => {
    const wrong = new Stripe('sk_test_wrongkey1234', {
      host: server.host,
      port: server.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const error = await wrong.paymentIntents.create({ amount: 1000, currency: 'eur' }).catch((e) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.statusCode).toBe(401);
    expect(error.message).toMatch(/^Invalid API Key provided: sk_test_/);
  });

  it('refuses unknown parameters and too small amounts with Stripe error codes', async () => {
    const unknown = await stripe.paymentIntents
      .create({ amount: 1000, currency: 'eur', colour: 'red' } as never)
      .catch((e) => e);
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'colour', statusCode: 400 });
    const small = await stripe.paymentIntents.create({ amount: 10, currency: 'eur' }).catch((e) => e);
    expect(small).toMatchObject({ code: 'amount_too_small', param: 'amount', type: 'StripeInvalidRequestError' });
  });
});

describe('PaymentIntents through the real SDK', () => {
  it('creates an intent with metadata and a client secret, and sends the request the way Stripe expects', async () => {
    const idempotencyKey = key();
    const intent = await payments.createPaymentIntent({
      amountCents: 34_900,
      orderRef: 'order-7',
      sessionRef: 'sess-1',
      idempotencyKey,
      metadata: { cart_hash: 'abc' },
    });
    expect(intent.id).toMatch(/^pi_/);
    expect(intent.clientSecret).toMatch(new RegExp(`^${intent.id}_secret_`));
    expect(intent).toMatchObject({
      amountCents: 34_900,
      amountReceivedCents: 0,
      currency: 'eur',
      status: 'requires_payment_method',
      metadata: { order_ref: 'order-7', session_ref: 'sess-1', cart_hash: 'abc' },
    });
    const sent = server.requests.findLast((r) => r.method === 'POST' && r.path === '/v1/payment_intents')!;
    expect(sent.authorization).toBe(`Bearer ${server.secretKey}`);
    expect(sent.idempotencyKey).toBe(idempotencyKey);
    expect(sent.stripeVersion).toBe(Stripe.API_VERSION);
    expect(sent.params).toMatchObject({
      amount: '34900',
      currency: 'eur',
      automatic_payment_methods: { enabled: 'true' },
      metadata: { order_ref: 'order-7' },
    });
  });

  it('returns the same intent for the same idempotency key and parameters', async () => {
    const idempotencyKey = key();
    const a = await payments.createPaymentIntent({ amountCents: 5_000, sessionRef: 's', idempotencyKey });
    const b = await payments.createPaymentIntent({ amountCents: 5_000, sessionRef: 's', idempotencyKey });
    expect(b.id).toBe(a.id);
    expect(b.clientSecret).toBe(a.clientSecret);
    expect(server.intents.size).toBeGreaterThan(0);
  });

  it('refuses the same idempotency key with different parameters (idempotency_error)', async () => {
    const idempotencyKey = key();
    await payments.createPaymentIntent({ amountCents: 5_000, idempotencyKey });
    const error = await payments.createPaymentIntent({ amountCents: 5_100, idempotencyKey }).catch((e) => e);
    expect(error).toBeInstanceOf(StripePaymentError);
    expect(error.details).toMatchObject({ type: 'StripeIdempotencyError', statusCode: 400 });
    expect(error.message).toMatch(/same parameters/);
  });

  it('retrieves, confirms with a test card and reports the amount received', async () => {
    const created = await payments.createPaymentIntent({ amountCents: 12_345, idempotencyKey: key() });
    const confirmed = await stripe.paymentIntents.confirm(created.id, { payment_method: 'pm_card_visa' });
    expect(confirmed.status).toBe('succeeded');
    expect(confirmed.amount_received).toBe(12_345);
    expect(confirmed.latest_charge).toMatch(/^ch_/);
    const again = await payments.retrievePaymentIntent(created.id);
    expect(again).toMatchObject({
      status: 'succeeded',
      amountReceivedCents: 12_345,
      latestChargeId: confirmed.latest_charge,
    });
    const charge = await stripe.charges.retrieve(String(confirmed.latest_charge));
    expect(charge).toMatchObject({
      object: 'charge',
      amount: 12_345,
      paid: true,
      status: 'succeeded',
      payment_intent: created.id,
    });
  });

  it('declines pm_card_chargeDeclined with a 402 card error and leaves the intent unpaid', async () => {
    const created = await payments.createPaymentIntent({ amountCents: 2_000, idempotencyKey: key() });
    const error = await stripe.paymentIntents
      .confirm(created.id, { payment_method: 'pm_card_chargeDeclined' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline' });
    const after = await stripe.paymentIntents.retrieve(created.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error).toMatchObject({ type: 'card_error', code: 'card_declined' });
    expect(after.amount_received).toBe(0);
  });

  it('answers 404 resource_missing for an unknown intent', async () => {
    const error = await stripe.paymentIntents.retrieve('pi_doesnotexist').catch((e) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' });
  });

  it("lets the browser (publishable key) confirm only with the intent's client secret", async () => {
    const created = await payments.createPaymentIntent({ amountCents: 2_500, idempotencyKey: key() });
    const browser = new Stripe(server.publishableKey, {
      host: server.host,
      port: server.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const wrong = await browser.paymentIntents
      .confirm(created.id, { payment_method: 'pm_card_visa', client_secret: `${created.id}_secret_wrong` } as never)
      .catch((e) => e);
    expect(wrong).toMatchObject({ statusCode: 400, param: 'client_secret' });
    const forbidden = await browser.paymentIntents.create({ amount: 1000, currency: 'eur' }).catch((e) => e);
    expect(forbidden).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const ok = await browser.paymentIntents.confirm(created.id, {
      payment_method: 'pm_card_visa',
      client_secret: created.clientSecret,
    } as never);
    expect(ok.status).toBe('succeeded');
  });

  it('reports a connection failure as "Failed to connect to Stripe" and verification as stripe_unavailable', async () => {
    const offline = new StripePayments(
      createStripeClient(
        { secretKey: server.secretKey, api: { host: '127.0.0.1', port: 1, protocol: 'http' } },
        { maxNetworkRetries: 0, timeoutMs: 2000 },
      ),
      { currency: 'eur' },
    );
    const error = await offline.createPaymentIntent({ amountCents: 1000, idempotencyKey: key() }).catch((e) => e);
    expect(error).toBeInstanceOf(StripePaymentError);
    expect(error.message).toMatch(/^Failed to connect to Stripe/);
    expect(
      await offline.verifyPaymentIntentForCheckout({ paymentIntentId: 'pi_123', expectedAmountCents: 1000 }),
    ).toMatchObject({ ok: false, reason: 'stripe_unavailable' });
  });

  it('cancels an unpaid intent and refuses to confirm it afterwards', async () => {
    const created = await payments.createPaymentIntent({ amountCents: 2_000, idempotencyKey: key() });
    const cancelled = await payments.cancelPaymentIntent(created.id, key());
    expect(cancelled.status).toBe('canceled');
    const error = await stripe.paymentIntents.confirm(created.id, { payment_method: 'pm_card_visa' }).catch((e) => e);
    expect(error).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
  });
});

describe('verifyPaymentIntentForCheckout', () => {
  let paid: PaymentIntentSummary;
  beforeAll(async () => {
    paid = await payments.createPaymentIntent({ amountCents: 34_900, sessionRef: 'sess-9', idempotencyKey: key() });
    server.confirm(paid.id, 'pm_card_visa');
  });

  it('accepts a succeeded intent for exactly the order amount and currency', async () => {
    const result = await payments.verifyPaymentIntentForCheckout({
      paymentIntentId: paid.id,
      expectedAmountCents: 34_900,
      expectedCurrency: 'EUR',
      expectedMetadata: { session_ref: 'sess-9' },
      isAlreadyUsed: async () => false,
    });
    expect(result).toMatchObject({ ok: true, intent: { id: paid.id, amountReceivedCents: 34_900 } });
  });

  it('refuses a different amount, even by one cent', async () => {
    const result = await payments.verifyPaymentIntentForCheckout({
      paymentIntentId: paid.id,
      expectedAmountCents: 34_901,
    });
    expect(result).toMatchObject({ ok: false, reason: 'amount_mismatch' });
  });

  it('refuses a different currency', async () => {
    const result = await payments.verifyPaymentIntentForCheckout({
      paymentIntentId: paid.id,
      expectedAmountCents: 34_900,
      expectedCurrency: 'usd',
    });
    expect(result).toMatchObject({ ok: false, reason: 'currency_mismatch' });
  });

  it('refuses an intent made for another session', async () => {
    const result = await payments.verifyPaymentIntentForCheckout({
      paymentIntentId: paid.id,
      expectedAmountCents: 34_900,
      expectedMetadata: { session_ref: 'someone-else' },
    });
    expect(result).toMatchObject({ ok: false, reason: 'metadata_mismatch' });
  });

  it('refuses an intent that has not succeeded', async () => {
    const unpaid = await payments.createPaymentIntent({ amountCents: 34_900, idempotencyKey: key() });
    expect(
      await payments.verifyPaymentIntentForCheckout({ paymentIntentId: unpaid.id, expectedAmountCents: 34_900 }),
    ).toMatchObject({ ok: false, reason: 'not_succeeded' });
    const declined = await payments.createPaymentIntent({ amountCents: 34_900, idempotencyKey: key() });
    server.confirm(declined.id, 'pm_card_chargeDeclined');
    expect(
      await payments.verifyPaymentIntentForCheckout({ paymentIntentId: declined.id, expectedAmountCents: 34_900 }),
    ).toMatchObject({ ok: false, reason: 'not_succeeded' });
  });

  it('refuses an intent that an earlier order used', async () => {
    const used = new Set<string>();
    const first = await payments.verifyPaymentIntentForCheckout({
      paymentIntentId: paid.id,
      expectedAmountCents: 34_900,
      isAlreadyUsed: (id) => used.has(id),
    });
    expect(first.ok).toBe(true);
    used.add(paid.id);
    const second = await payments.verifyPaymentIntentForCheckout({
      paymentIntentId: paid.id,
      expectedAmountCents: 34_900,
      isAlreadyUsed: (id) => used.has(id),
    });
    expect(second).toMatchObject({ ok: false, reason: 'already_used' });
  });

  it('answers not_found for unknown or malformed ids and stripe_unavailable when Stripe fails', async () => {
    expect(
      await payments.verifyPaymentIntentForCheckout({ paymentIntentId: 'pi_unknown123', expectedAmountCents: 100 }),
    ).toMatchObject({ ok: false, reason: 'not_found' });
    expect(
      await payments.verifyPaymentIntentForCheckout({ paymentIntentId: '../v1/refunds', expectedAmountCents: 100 }),
    ).toMatchObject({ ok: false, reason: 'not_found' });
    server.failNext(1);
    expect(
      await payments.verifyPaymentIntentForCheckout({ paymentIntentId: paid.id, expectedAmountCents: 34_900 }),
    ).toMatchObject({ ok: false, reason: 'stripe_unavailable' });
  });

  it('checks amount_received, not only amount, in the pure rule', () => {
    const base: PaymentIntentSummary = {
      id: 'pi_x',
      clientSecret: null,
      amountCents: 1000,
      amountReceivedCents: 1000,
      currency: 'eur',
      status: 'succeeded',
      metadata: {},
      latestChargeId: 'ch_x',
      amountRefundedCents: 0,
    };
    const check = (intent: PaymentIntentSummary) =>
      checkPaymentIntentForCheckout({
        intent,
        expectedAmountCents: 1000,
        expectedCurrency: 'eur',
        isAlreadyUsed: () => false,
      });
    expect(check(base).ok).toBe(true);
    expect(check({ ...base, amountReceivedCents: 999 })).toMatchObject({ ok: false, reason: 'amount_mismatch' });
    expect(check({ ...base, status: 'processing' })).toMatchObject({ ok: false, reason: 'not_succeeded' });
    expect(check({ ...base, amountRefundedCents: 1 })).toMatchObject({ ok: false, reason: 'refunded' });
    expect(check({ ...base, amountRefundedCents: null }).ok).toBe(true);
    expect(() =>
      checkPaymentIntentForCheckout({
        intent: base,
        expectedAmountCents: 10.5,
        expectedCurrency: 'eur',
        isAlreadyUsed: () => false,
      }),
    ).toThrow(RangeError);
  });
});

describe('refunds', () => {
  it('refunds part, then the rest, and refuses more than what remains', async () => {
    const intent = await payments.createPaymentIntent({ amountCents: 10_000, idempotencyKey: key() });
    server.confirm(intent.id, 'pm_card_visa');
    const partial = await payments.refund({ paymentIntentId: intent.id, amountCents: 2_500, idempotencyKey: key() });
    expect(partial).toMatchObject({
      amountCents: 2_500,
      currency: 'eur',
      status: 'succeeded',
      paymentIntentId: intent.id,
    });
    expect(partial.id).toMatch(/^re_/);
    expect((await stripe.refunds.retrieve(partial.id)).amount).toBe(2_500);

    const tooMuch = await payments
      .refund({ paymentIntentId: intent.id, amountCents: 7_501, idempotencyKey: key() })
      .catch((e) => e);
    expect(tooMuch).toBeInstanceOf(StripePaymentError);
    expect(tooMuch.details).toMatchObject({ code: 'amount_too_large', statusCode: 400 });

    const rest = await payments.refund({ paymentIntentId: intent.id, idempotencyKey: key() });
    expect(rest.amountCents).toBe(7_500);
    const charge = await stripe.charges.retrieve(rest.chargeId!);
    expect(charge).toMatchObject({ amount_refunded: 10_000, refunded: true });

    const again = await payments.refund({ paymentIntentId: intent.id, idempotencyKey: key() }).catch((e) => e);
    expect(again.details).toMatchObject({ code: 'charge_already_refunded' });
  });

  it('replays a refund with the same idempotency key instead of refunding twice', async () => {
    const intent = await payments.createPaymentIntent({ amountCents: 4_000, idempotencyKey: key() });
    server.confirm(intent.id, 'pm_card_visa');
    const idempotencyKey = key();
    const a = await payments.refund({ paymentIntentId: intent.id, amountCents: 1_000, idempotencyKey });
    const b = await payments.refund({ paymentIntentId: intent.id, amountCents: 1_000, idempotencyKey });
    expect(b.id).toBe(a.id);
    expect(server.charges.get(String(server.intents.get(intent.id)!.latest_charge))!.amount_refunded).toBe(1_000);
  });

  it('refuses to refund an intent that was never paid', async () => {
    const intent = await payments.createPaymentIntent({ amountCents: 4_000, idempotencyKey: key() });
    const error = await payments.refund({ paymentIntentId: intent.id, idempotencyKey: key() }).catch((e) => e);
    expect(error.details).toMatchObject({ code: 'charge_not_refundable', statusCode: 400 });
  });
});

describe('webhooks', () => {
  let receiver: http.Server;
  let receiverUrl: string;
  const received: { status: number; result: ReturnType<typeof parseStripeWebhook> }[] = [];

  beforeAll(async () => {
    // A minimal route as the engine will have it: raw body in, signature checked, 400 on failure.
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const result = parseStripeWebhook(
          Buffer.concat(chunks),
          req.headers['stripe-signature'] as string | undefined,
          server.webhookSecret,
        );
        const status = result.ok ? 200 : 400;
        received.push({ status, result });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result.ok ? { received: true } : { error: result.reason }));
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/stripe/webhook`;
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
  });

  async function succeededEvent() {
    const intent = await payments.createPaymentIntent({ amountCents: 7_700, sessionRef: 'wh', idempotencyKey: key() });
    server.confirm(intent.id, 'pm_card_visa');
    const event = server.events.findLast(
      (e) => e.type === 'payment_intent.succeeded' && (e.data as { object: { id: string } }).object.id === intent.id,
    )!;
    return { intent, event };
  }

  it('accepts a correctly signed payment_intent.succeeded delivered over HTTP and types it', async () => {
    const { intent, event } = await succeededEvent();
    const response = await server.sendWebhook(receiverUrl, event);
    expect(response.status).toBe(200);
    const last = received.at(-1)!.result;
    expect(last.ok).toBe(true);
    if (!last.ok) return;
    expect(last.event).toMatchObject({
      id: event.id,
      type: 'payment_intent.succeeded',
      paymentIntent: { id: intent.id, amountReceivedCents: 7_700, currency: 'eur', metadata: { session_ref: 'wh' } },
    });
  });

  it('refuses a tampered body (the signature covers the raw bytes)', async () => {
    const { event } = await succeededEvent();
    const payload = JSON.stringify(event, null, 2);
    const tampered = payload.replace('"amount_received": 7700', '"amount_received": 1');
    expect(tampered).not.toBe(payload);
    const response = await server.sendWebhook(receiverUrl, event, { body: tampered });
    expect(response.status).toBe(400);
    expect(received.at(-1)!.result).toMatchObject({ ok: false, reason: 'invalid_signature' });
    // Re-serialising the same JSON differently also breaks it: the route must not parse before verifying.
    const reserialised = await server.sendWebhook(receiverUrl, event, { body: JSON.stringify(event) });
    expect(reserialised.status).toBe(400);
  });

  it('refuses a signature made with another secret', async () => {
    const { event } = await succeededEvent();
    const response = await server.sendWebhook(receiverUrl, event, { secret: 'whsec_someoneelse' });
    expect(response.status).toBe(400);
    expect(received.at(-1)!.result).toMatchObject({ ok: false, reason: 'invalid_signature' });
  });

  it('refuses a delivery older than the tolerance (replayed capture)', async () => {
    const { event } = await succeededEvent();
    const response = await server.sendWebhook(receiverUrl, event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(response.status).toBe(400);
    expect(received.at(-1)!.result).toMatchObject({ ok: false, reason: 'timestamp_out_of_tolerance' });
    // Inside the tolerance it passes.
    expect(
      (await server.sendWebhook(receiverUrl, event, { timestamp: Math.floor(Date.now() / 1000) - 200 })).status,
    ).toBe(200);
  });

  it('refuses a missing header and a parsed (non-raw) body', () => {
    expect(parseStripeWebhook('{}', undefined, server.webhookSecret)).toMatchObject({
      ok: false,
      reason: 'missing_signature',
    });
    expect(parseStripeWebhook({ id: 'evt' } as never, 't=1,v1=abc', server.webhookSecret)).toMatchObject({
      ok: false,
      reason: 'malformed_payload',
    });
  });

  it('types payment_failed and charge.refunded, and marks other types as ignored', async () => {
    const declined = await payments.createPaymentIntent({ amountCents: 3_000, idempotencyKey: key() });
    server.confirm(declined.id, 'pm_card_chargeDeclined');
    const failed = server.events.findLast((e) => e.type === 'payment_intent.payment_failed')!;
    const payload = JSON.stringify(failed);
    const parsedFailed = parseStripeWebhook(payload, server.signPayload(payload), server.webhookSecret);
    expect(parsedFailed).toMatchObject({
      ok: true,
      event: {
        type: 'payment_intent.payment_failed',
        paymentIntent: { id: declined.id },
        failure: { code: 'card_declined', declineCode: 'generic_decline' },
      },
    });

    const paid = await payments.createPaymentIntent({ amountCents: 3_000, idempotencyKey: key() });
    server.confirm(paid.id, 'pm_card_visa');
    await payments.refund({ paymentIntentId: paid.id, amountCents: 1_000, idempotencyKey: key() });
    const refunded = server.events.findLast((e) => e.type === 'charge.refunded')!;
    const p2 = JSON.stringify(refunded);
    expect(parseStripeWebhook(p2, server.signPayload(p2), server.webhookSecret)).toMatchObject({
      ok: true,
      event: {
        type: 'charge.refunded',
        charge: { paymentIntentId: paid.id, amountCents: 3_000, amountRefundedCents: 1_000, refunded: false },
      },
    });

    const created = server.events.findLast((e) => e.type === 'payment_intent.created')!;
    const p3 = JSON.stringify(created);
    expect(parseStripeWebhook(p3, server.signPayload(p3), server.webhookSecret)).toMatchObject({
      ok: true,
      event: { type: 'ignored', originalType: 'payment_intent.created' },
    });
  });

  it('can deliver every event it generates to a webhook URL, signed', async () => {
    const pushing = await startStripeServer({ webhookUrl: receiverUrl, webhookSecret: server.webhookSecret });
    try {
      const client = new StripePayments(
        createStripeClient({
          secretKey: pushing.secretKey,
          api: { host: pushing.host, port: pushing.port, protocol: 'http' },
        }),
        { currency: 'eur' },
      );
      const intent = await client.createPaymentIntent({ amountCents: 990, idempotencyKey: key() });
      pushing.confirm(intent.id, 'pm_card_visa');
      await expect
        .poll(() => pushing.deliveries.map((d) => `${JSON.parse(d.payload).type}:${d.status}`).sort(), {
          timeout: 2000,
        })
        .toEqual(['charge.succeeded:200', 'payment_intent.created:200', 'payment_intent.succeeded:200']);
    } finally {
      await pushing.stop();
    }
  });

  it('de-duplicates by event id', () => {
    const processed = new Set(['evt_1']);
    expect(decideWebhookDelivery('evt_1', (id) => processed.has(id))).toBe('duplicate');
    expect(decideWebhookDelivery('evt_2', (id) => processed.has(id))).toBe('process');
  });

  it('moves orders only forward and only for the exact amount', () => {
    const pi = {
      id: 'pi_1',
      amountCents: 1000,
      amountReceivedCents: 1000,
      currency: 'eur',
      status: 'succeeded',
      metadata: {},
    };
    const succeeded: StripeWebhookEvent = {
      id: 'evt',
      created: 0,
      livemode: false,
      type: 'payment_intent.succeeded',
      paymentIntent: pi,
    };
    expect(
      decideOrderActionForStripeEvent(succeeded, { status: 'pending', totalCents: 1000, currency: 'eur' }),
    ).toEqual({ action: 'mark_paid', transactionId: 'pi_1' });
    expect(
      decideOrderActionForStripeEvent(succeeded, { status: 'processing', totalCents: 1000, currency: 'eur' }).action,
    ).toBe('ignore');
    expect(
      decideOrderActionForStripeEvent(succeeded, { status: 'pending', totalCents: 1001, currency: 'eur' }).action,
    ).toBe('ignore');
    const failed: StripeWebhookEvent = {
      id: 'evt',
      created: 0,
      livemode: false,
      type: 'payment_intent.payment_failed',
      paymentIntent: { ...pi, status: 'requires_payment_method' },
      failure: { code: 'card_declined', declineCode: null, message: 'Your card was declined.' },
    };
    expect(decideOrderActionForStripeEvent(failed, { status: 'pending', totalCents: 1000, currency: 'eur' })).toEqual({
      action: 'mark_failed',
      message: 'Your card was declined.',
    });
    expect(
      decideOrderActionForStripeEvent(failed, { status: 'processing', totalCents: 1000, currency: 'eur' }).action,
    ).toBe('ignore');
    const refund = (refunded: number): StripeWebhookEvent => ({
      id: 'evt',
      created: 0,
      livemode: false,
      type: 'charge.refunded',
      charge: {
        id: 'ch',
        paymentIntentId: 'pi_1',
        amountCents: 1000,
        amountRefundedCents: refunded,
        currency: 'eur',
        refunded: refunded === 1000,
      },
    });
    expect(
      decideOrderActionForStripeEvent(refund(1000), { status: 'processing', totalCents: 1000, currency: 'eur' }),
    ).toEqual({ action: 'mark_refunded' });
    expect(
      decideOrderActionForStripeEvent(refund(300), { status: 'processing', totalCents: 1000, currency: 'eur' }),
    ).toEqual({ action: 'record_partial_refund', refundedCents: 300 });
  });
});
