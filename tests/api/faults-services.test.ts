// Outside services that are slow or down: the Stripe and Chainweb stand-ins behind a proxy that stalls
// them, refuses connections or cuts the connection after the service did the work
// (tests/fixtures/fault-proxy.ts). What the shopper sees must be a clear answer within a bounded time —
// never a request hanging on Stripe's 20 s timeout retried twice — and nothing may be lost:
// - Stripe stalled: asking for a PaymentIntent answers within the time limit and its one retry
//   (STRIPE_TIMEOUT_MS, STRIPE_MAX_NETWORK_RETRIES) with "Failed to connect to Stripe"; after
//   SERVICE_BREAKER_FAILURES such calls the breaker answers at once, and Stripe is asked again after the
//   cooldown;
// - Stripe killed mid-request (the intent was made, the answer lost): the SDK's retry with the same
//   idempotency key returns that intent — one intent, not two;
// - a paid card checkout while Stripe is stalled: refused as retryable ("could not be checked with
//   Stripe"), no order; the same checkout once Stripe answers places exactly one order;
// - the Chainweb node stalled or gone: the KDA watcher keeps running, the order waits; back, the watcher
//   sees the payment and the order is paid;
// - the mail server stalled or gone: the order is placed at once, each delivery attempt ends within
//   SMTP_TIMEOUT_MS, the confirmation waits in the outbox and goes out, once, when the server is back.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailQueue } from '../../src/server/mail/tables.ts';
import { startSmtpServer, type SmtpServer } from '../fixtures/smtp-server.ts';
import { startChainwebServer, type ChainwebStandIn } from '../fixtures/chainweb-server.ts';
import { startFaultProxy, type FaultProxy } from '../fixtures/fault-proxy.ts';
import { startStripeServer, type StripeStandIn } from '../fixtures/stripe-server.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, Shopper } from './shop-helpers.ts';

const TIMEOUT_MS = 800;
const COOLDOWN_MS = 1_500;
const SMTP_TIMEOUT_MS = 800;
const ADD = operation('addToCart');
const INTENT = operation('getStripePaymentIntent');
const CHECKOUT = operation('Checkout');
const ORDER_STATE = 'query($id: ID!) { order(id: $id, idType: DATABASE_ID) { status receivedConfirmed } }';

let t: TestEngine;
let stripe: StripeStandIn;
let chain: ChainwebStandIn;
let stripeProxy: FaultProxy;
let chainProxy: FaultProxy;
let smtp: SmtpServer;
let smtpProxy: FaultProxy;
let antenna = 0;

beforeAll(async () => {
  stripe = await startStripeServer();
  chain = await startChainwebServer();
  stripeProxy = await startFaultProxy({ host: '127.0.0.1', port: stripe.port });
  chainProxy = await startFaultProxy({ host: '127.0.0.1', port: chain.port });
  smtp = await startSmtpServer();
  smtpProxy = await startFaultProxy({ host: '127.0.0.1', port: smtp.port });
  // Engine settings come from the environment (each test file runs in its own process).
  Object.assign(process.env, stripe.env, {
    STRIPE_API_PORT: String(stripeProxy.port),
    STRIPE_TIMEOUT_MS: String(TIMEOUT_MS),
    STRIPE_MAX_NETWORK_RETRIES: '1',
    SERVICE_BREAKER_FAILURES: '3',
    SERVICE_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
    CHAINWEB_URL: `http://127.0.0.1:${chainProxy.port}`,
    KADENA_NETWORK_ID: chain.networkId,
    KADENA_CHAIN_ID: chain.chainId,
    KADENA_CONFIRMATIONS: '1',
    KADENA_MERCHANT_SEED: '5eed'.repeat(16),
    KDA_EUR_RATE: '0.50',
    KADENA_POLL_INTERVAL_MS: '200',
    KADENA_TIMEOUT_MS: '300',
    SMTP_URL: `smtp://127.0.0.1:${smtpProxy.port}`,
    SMTP_TIMEOUT_MS: String(SMTP_TIMEOUT_MS),
    MAIL_RETRY_BASE_MS: '200',
    MAIL_POLL_INTERVAL_MS: '200',
    // No card sweeps: the shopper's calls are the only ones the proxy sees.
    ORDER_SWEEP_INTERVAL_MS: '0',
  });
  t = await startTestEngine();
  antenna = await productId(t, 'omni-antenna');
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
  await stripeProxy?.close();
  await chainProxy?.close();
  await smtpProxy?.close();
  await smtp?.stop();
  await stripe?.stop();
  await chain?.stop();
});

async function cart(): Promise<Shopper> {
  const s = new Shopper(t);
  await s.ok(ADD, { productId: antenna, quantity: 1 });
  return s;
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

describe('Stripe slow or down', () => {
  it('stalled: a bounded wait and a clear answer; then the breaker answers at once; after the cooldown Stripe is asked again', async () => {
    const s = await cart();
    stripeProxy.set('stall');
    try {
      // Each call: the time limit, one retry after a short backoff, the time limit again.
      for (let i = 0; i < 3; i++) {
        const { value, ms } = await timed(s.ok(INTENT));
        expect(value.stripePaymentIntent).toMatchObject({
          id: null,
          error: expect.stringMatching(/^Failed to connect to Stripe/),
        });
        expect(ms).toBeLessThan(2 * TIMEOUT_MS + 2_500);
      }
      // The breaker is open: no more waiting for Stripe.
      const connectionsBefore = stripeProxy.connections;
      const { value, ms } = await timed(s.ok(INTENT));
      expect(value.stripePaymentIntent.error).toMatch(/not available at the moment/);
      expect(ms).toBeLessThan(300);
      expect(stripeProxy.connections).toBe(connectionsBefore);
    } finally {
      stripeProxy.set('pass');
    }
    await new Promise((r) => setTimeout(r, COOLDOWN_MS + 100));
    const answer = (await s.ok(INTENT)).stripePaymentIntent;
    expect(answer.error).toBeNull();
    expect(answer.id).toMatch(/^pi_/);
  });

  it('killed mid-request after making the intent: the retry with the same idempotency key returns it, no second intent', async () => {
    const s = await cart();
    const before = stripe.intents.size;
    const connectionsBefore = stripeProxy.connections;
    stripeProxy.set('cut');
    // The engine's kept-alive connections were cut: let it notice before the request goes out.
    await new Promise((r) => setTimeout(r, 100));
    // The first try reaches Stripe, which makes the intent; its answer is lost. The SDK's retry goes out on
    // a new connection, which the proxy lets through.
    const answer = (await s.ok(INTENT)).stripePaymentIntent;
    expect(stripeProxy.cuts).toBe(1);
    expect(answer.error).toBeNull();
    // The one intent made is the one the shopper got (Stripe answered the retry from its idempotency record).
    expect(stripe.intents.size).toBe(before + 1);
    expect(stripe.intents.has(answer.id)).toBe(true);
    expect(stripeProxy.connections - connectionsBefore).toBeGreaterThanOrEqual(2);
  });

  it('a paid card checkout while Stripe is stalled: retryable refusal, no order; once Stripe answers, one order', async () => {
    const s = await cart();
    const pi = (await s.ok(INTENT)).stripePaymentIntent;
    expect(stripe.confirm(pi.id, 'pm_card_visa')).toMatchObject({ status: 'succeeded' });
    const variables = { paymentMethod: 'stripe', billing: BILLING, transactionId: pi.id, isPaid: true };
    stripeProxy.set('stall');
    try {
      const { value, ms } = await timed(s.gql(CHECKOUT, variables));
      expect(value.body.errors?.[0]?.message).toBe(
        'The card payment could not be checked with Stripe. Please try again.',
      );
      expect(ms).toBeLessThan(2 * TIMEOUT_MS + 2_500);
      const orders = await t.engine.orders.getByTransaction('stripe', pi.id);
      expect(orders).toBeNull();
    } finally {
      stripeProxy.set('pass');
    }
    await new Promise((r) => setTimeout(r, COOLDOWN_MS + 100));
    const placed = await s.ok(CHECKOUT, variables);
    expect(placed.checkout.order).toMatchObject({ status: 'PROCESSING', transactionId: pi.id });
    // The same checkout once more: the order already placed, not a second one.
    const again = await s.gql(CHECKOUT, variables);
    expect(again.body.data?.checkout?.order?.databaseId).toBe(placed.checkout.order.databaseId);
    const order = await t.engine.orders.getByTransaction('stripe', pi.id);
    expect(order?.id).toBe(placed.checkout.order.databaseId);
  });
});

describe('Chainweb node slow or down', () => {
  it('the watcher goes on while the node stalls or refuses; back, the payment is seen and the order paid', async () => {
    const s = await cart();
    const order = (await s.ok(CHECKOUT, { paymentMethod: 'kda', billing: BILLING })).checkout.order;
    const account = (
      await s.ok('query($id: ID!) { order(id: $id, idType: DATABASE_ID) { paymentAddress cryptoAmount } }', {
        id: String(order.databaseId),
      })
    ).order;
    chain.transfer(account.paymentAddress, account.cryptoAmount);
    chain.mineBlocks(3);
    for (const mode of ['stall', 'refuse'] as const) {
      chainProxy.set(mode);
      // Several watcher ticks against a node that does not answer: the order waits, the engine serves.
      await new Promise((r) => setTimeout(r, 1_200));
      expect((await s.ok(ORDER_STATE, { id: String(order.databaseId) })).order.status).toBe('PENDING');
    }
    chainProxy.set('pass');
    const until = Date.now() + 15_000;
    for (;;) {
      const state = (await s.ok(ORDER_STATE, { id: String(order.databaseId) })).order;
      if (state.status === 'PROCESSING') break;
      if (Date.now() > until) throw new Error(`the watcher did not resume: ${JSON.stringify(state)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 30_000);
});

describe('mail server slow or down', () => {
  const mailTo = async (email: string) =>
    t.engine.database.db
      .select({ status: mailQueue.status, attempts: mailQueue.attempts, lastError: mailQueue.lastError })
      .from(mailQueue)
      .where(sql`${mailQueue.recipients} @> ${JSON.stringify([email])}::jsonb`);
  const delivered = (email: string) => smtp.messages.filter((m) => m.envelope.to.includes(email));

  it.each(['stall', 'refuse'] as const)(
    '%s: the order is placed at once, its confirmation waits (each attempt cut off at SMTP_TIMEOUT_MS) in the outbox and goes out once when the server is back',
    async (mode) => {
      smtpProxy.set(mode);
      const email = `smtp-${mode}@example.test`;
      const s = await cart();
      const { value, ms } = await timed(s.ok(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, email } }));
      expect(value.checkout.order.databaseId).toBeGreaterThan(0);
      // The shopper does not wait for the mail server.
      expect(ms).toBeLessThan(SMTP_TIMEOUT_MS * 3 + 2_000);
      // The sender tries, fails against the silent server within its limit, and keeps the mail queued.
      const tried = Date.now() + 10_000;
      while (((await mailTo(email))[0]?.attempts ?? 0) < 2) {
        if (Date.now() > tried) throw new Error(`no failed attempts: ${JSON.stringify(await mailTo(email))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const [queued] = await mailTo(email);
      expect(queued).toMatchObject({ status: 'queued' });
      expect(queued!.lastError).toBeTruthy();
      // The error kept for the operator names no address.
      expect(queued!.lastError ?? '').not.toContain(email);
      expect(delivered(email)).toEqual([]);

      smtpProxy.set('pass');
      const until = Date.now() + 15_000;
      while ((await mailTo(email))[0]?.status !== 'sent') {
        if (Date.now() > until)
          throw new Error(`the confirmation was not sent: ${JSON.stringify(await mailTo(email))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(delivered(email)).toHaveLength(1);
      expect(delivered(email)[0]!.subject).toContain(String(value.checkout.order.databaseId));
    },
    30_000,
  );
});
