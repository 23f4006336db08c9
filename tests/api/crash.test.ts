// Crash safety: an engine process (tests/fixtures/crash-engine.ts) takes a checkout load — cash on delivery
// and card through the Stripe stand-in, with Stripe's webhooks delivered live — and is killed with SIGKILL
// while checkouts are in flight. A new process starts on the same data (PGlite directory, or PostgreSQL
// with DATABASE_URL). Shoppers whose request never reached the dead process send it again to the new one
// (the browser's request was refused); a request lost in flight is not repeated for cash on delivery, and
// for a card the customer presses "Place order" once more (the payment is taken, the page said "network
// error"). Some card shoppers close the browser right after paying: their Checkout never reaches any
// engine, so nothing of it is recorded. Stripe redelivers webhooks that failed. Afterwards:
// - every order is complete or absent (no order without its lines) and stock == initial − units ordered;
// - every PaymentIntent that succeeded at the stand-in is on exactly one paid order (or, if the goods were
//   gone by then, refunded in full) — card checkouts the dead process had started are completed by the
//   engine's recovery sweep (src/server/payments/stripe/recovery.ts) without the customer, and payments
//   whose Checkout never arrived are refunded in full by the reconciliation (reconcile.ts) once they are
//   older than its grace period (the stand-in's charge times are set back to get there);
// - a repeated card Checkout answers with the order already placed, never a second order.
//
// 48 shoppers; MESHFRONT_LONG_TESTS=1 runs 240 with two crashes.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markStockChanged } from '../../src/server/catalog/stock.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createEngine, type Engine } from '../../src/server/engine/index.ts';
import { consistencyProblems, stockLevels, type Query, type StockLevels } from '../fixtures/consistency.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';
import { startStripeServer, type StripeStandIn, FAST_RECOVERY_STRIPE_ENV } from '../fixtures/stripe-server.ts';
import { ENGINE_START_TIMEOUT_MS, FIXTURE_CATALOG } from './harness.ts';
import { BILLING, operation } from './shop-helpers.ts';

const LONG = process.env.MESHFRONT_LONG_TESTS === '1';
const SHOPPERS = LONG ? 240 : 48;
const CRASHES = LONG ? 2 : 1;
const CONCURRENCY = 12;
const PRODUCTS = ['omni-antenna', 'search-only-adapter'];
const STOCK = LONG ? 150 : 30;
const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

let db: TestDatabase;
let stripe: StripeStandIn;
let env: Record<string, string>;
let initial: StockLevels;
const productIds: Record<string, number> = {};

/** An engine in this process on the same data (only while no engine process runs, for PGlite). */
async function openEngine(extra: Record<string, string> = {}): Promise<{ engine: Engine; query: Query }> {
  const config = loadConfig({ ...env, ORDER_SWEEP_INTERVAL_MS: '0', STRIPE_SECRET_KEY: '', ...extra });
  const engine = await createEngine(config, { log: () => {} });
  const query: Query = async (text) => {
    const r = await engine.database.db.execute(sql.raw(text));
    return ((r as { rows?: Record<string, unknown>[] }).rows ?? (r as unknown as Record<string, unknown>[])) as Record<
      string,
      unknown
    >[];
  };
  return { engine, query };
}

// ---- the engine process -----------------------------------------------------------------------------

type EngineProcess = { child: ChildProcess; port: number; log: () => string; exited: Promise<number | null> };
let current: EngineProcess | null = null;
/** Resolves when an engine is listening; replaced while one restarts. */
let ready: Promise<EngineProcess>;
const allLogs: string[] = [];

function startEngine(): Promise<EngineProcess> {
  return new Promise((resolve, reject) => {
    // Node itself with tsx as a loader (not the tsx CLI, which runs the script in a second process that a
    // SIGKILL of the CLI would leave running): the signal must hit the engine.
    const loader = pathToFileURL(path.resolve(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
    const child = spawn(
      process.execPath,
      ['--import', loader, path.resolve(import.meta.dirname, '../fixtures/crash-engine.ts')],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    const index = allLogs.push('') - 1;
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        current = { child, port: Number(m[1]), log: () => err, exited };
        resolve(current);
      }
    });
    child.stderr!.on('data', (d) => {
      err += d;
      allLogs[index] = err;
    });
    child.on('exit', (code, signal) =>
      reject(new Error(`engine process exited (${code ?? signal}) before listening: ${err.slice(-2000)}`)),
    );
  });
}

async function crashAndRestart(): Promise<void> {
  const dead = current!;
  let restarted!: (p: EngineProcess) => void;
  ready = new Promise((r) => (restarted = r));
  current = null;
  dead.child.kill('SIGKILL');
  await dead.exited;
  // Really gone: nothing answers on its port any more.
  const stillThere = await fetch(`http://127.0.0.1:${dead.port}/graphql`, { method: 'POST', body: '{}' }).then(
    () => true,
    (err) => !isRefused(err),
  );
  if (stillThere) throw new Error('the killed engine still answers');
  restarted(await startEngine());
}

// ---- shoppers --------------------------------------------------------------------------------------

class LostInFlight extends Error {}

function isRefused(err: unknown): boolean {
  const e = err as { cause?: { code?: string }; code?: string };
  return e?.cause?.code === 'ECONNREFUSED' || e?.code === 'ECONNREFUSED';
}

/** POST to whichever engine runs; a refused connection (request never arrived) waits for the restart and goes again. */
async function post(path: string, body: string, headers: Record<string, string>): Promise<Response> {
  for (;;) {
    const engine = current ?? (await ready);
    try {
      return await fetch(`http://127.0.0.1:${engine.port}${path}`, { method: 'POST', headers, body });
    } catch (err) {
      if (isRefused(err)) {
        await ready;
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      throw new LostInFlight((err as Error).message);
    }
  }
}

type Outcome = {
  method: 'cod' | 'stripe';
  intentId?: string;
  result: 'ordered' | 'refused' | 'lost' | 'abandoned';
  orderId?: number;
  message?: string;
  token: string | null;
};

async function gql(token: string | null, name: string, variables: Record<string, unknown>) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token) headers['woocommerce-session'] = `Session ${token}`;
  const r = await post('/graphql', JSON.stringify({ query: operation(name), variables }), headers);
  const body = (await r.json()) as { data?: any; errors?: { message: string }[] };
  return { token: r.headers.get('woocommerce-session') ?? token, body };
}

/** Stripe's webhook delivery; failed deliveries are kept for Stripe's retry. */
const undelivered: Record<string, unknown>[] = [];
async function deliver(event: Record<string, unknown>) {
  const engine = current;
  if (!engine) return void undelivered.push(event);
  try {
    const r = await stripe.sendWebhook(`http://127.0.0.1:${engine.port}/api/stripe/webhook`, event);
    if (r.status >= 300) undelivered.push(event);
  } catch {
    undelivered.push(event);
  }
}

let checkoutsAnswered = 0;
/** Set by the load: called right after a card Checkout was sent (to crash while it is in flight). */
let onCardCheckoutSent: (() => void) | null = null;

async function shopper(i: number): Promise<Outcome> {
  const method: Outcome['method'] = i % 2 ? 'stripe' : 'cod';
  let token: string | null = null;
  let intentId: string | undefined;
  try {
    const add = await gql(token, 'addToCart', {
      productId: productIds[PRODUCTS[i % PRODUCTS.length]!],
      quantity: 1 + (i % 3 === 0 ? 1 : 0),
    });
    token = add.token;
    if (add.body.errors?.length) return { method, result: 'refused', message: add.body.errors[0]!.message, token };
    if (method === 'stripe') {
      const pi = (await gql(token, 'getStripePaymentIntent', { stripePaymentMethod: 'PAYMENT' })).body.data
        ?.stripePaymentIntent;
      if (!pi?.id) throw new Error(`no PaymentIntent: ${JSON.stringify(pi)}`);
      intentId = pi.id;
      // The customer pays in the browser; Stripe sends payment_intent.succeeded.
      const paid = stripe.confirm(pi.id, 'pm_card_visa');
      expect(paid.status).toBe('succeeded');
      const event = [...stripe.events]
        .reverse()
        .find(
          (e) => e.type === 'payment_intent.succeeded' && (e.data as { object: { id: string } }).object.id === pi.id,
        )!;
      void deliver(event);
      // This customer closes the browser now: paid, and no Checkout is ever sent.
      if (i % 12 === 5) return { method, intentId, result: 'abandoned', token };
    }
    const variables = {
      paymentMethod: method,
      billing: { ...BILLING, email: `crash${i}@example.com` },
      ...(intentId ? { transactionId: intentId } : {}),
    };
    const sent = gql(token, 'Checkout', variables);
    if (method === 'stripe') onCardCheckoutSent?.();
    const r = await sent;
    checkoutsAnswered++;
    if (r.body.errors?.length)
      return { method, intentId, result: 'refused', message: r.body.errors[0]!.message, token };
    return { method, intentId, result: 'ordered', orderId: r.body.data.checkout.order.databaseId, token };
  } catch (err) {
    if (err instanceof LostInFlight) return { method, intentId, result: 'lost', token };
    throw err;
  }
}

// ---- the test --------------------------------------------------------------------------------------

beforeAll(async () => {
  db = await createTestDatabase();
  stripe = await startStripeServer();
  env = {
    ...db.env,
    NODE_ENV: 'test',
    MESHFRONT_CATALOG_DIR: FIXTURE_CATALOG,
    SESSION_SECRET: SECRET,
    SESSION_ISSUER: 'http://meshfront.test',
    DATABASE_POOL_SIZE: '8',
    ...stripe.env,
    ...FAST_RECOVERY_STRIPE_ENV,
    ORDER_SWEEP_INTERVAL_MS: '250',
    MESHFRONT_LOG_ERRORS: '1',
  };
  // Seed and set the stock in this process first, then hand the data to the engine process.
  const { engine, query } = await openEngine({ MESHFRONT_SEED_ON_START: 'true' });
  const snap = await engine.catalog.snapshot();
  for (const slug of PRODUCTS) {
    productIds[slug] = snap.productsBySlug.get(slug)!.id;
    await engine.database.db.execute(
      sql`update catalog_products set manage_stock = true, stock_quantity = ${STOCK}, backorders = 'no' where slug = ${slug}`,
    );
  }
  await markStockChanged(engine.database.db, { productIds: Object.values(productIds) });
  initial = await stockLevels(query);
  await engine.close();
  ready = startEngine();
  await ready;
}, ENGINE_START_TIMEOUT_MS);

afterAll(async () => {
  if (current && current.child.exitCode === null) current.child.kill('SIGKILL');
  await stripe?.stop();
  await db?.drop();
});

describe(`SIGKILL during a checkout load (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it(
    'orders are complete or absent, stock matches, every paid PaymentIntent ends on a paid order',
    async () => {
      const outcomes: Outcome[] = [];
      let next = 0;
      let crashes = 0;
      const crashDone: Promise<void>[] = [];
      const crashAt = (n: number) => Math.floor((SHOPPERS * (n + 1)) / (CRASHES + 2));
      onCardCheckoutSent = () => {
        if (crashes < CRASHES && checkoutsAnswered >= crashAt(crashes) && current) {
          crashes++;
          // A few milliseconds: the Checkout has arrived and is being worked on.
          crashDone.push(new Promise((r) => setTimeout(r, 8)).then(crashAndRestart));
        }
      };
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < SHOPPERS) outcomes.push(await shopper(next++));
        }),
      );
      await Promise.all(crashDone);
      expect(crashes).toBe(CRASHES);

      // Stripe retries the deliveries that failed while the engine was down.
      for (const event of undelivered.splice(0)) await deliver(event);
      // The recovery sweep completes card checkouts the dead process had started (records older than 1 s).
      await new Promise((r) => setTimeout(r, 3000));
      const recovered = new Set(
        [...allLogs.join('\n').matchAll(/recovered the card checkout of (pi_\w+)/g)].map((m) => m[1]!),
      );

      // Customers who had paid and then saw a network error on the Checkout press "Place order" again (those
      // lost before paying simply leave).
      const lostCards = outcomes.filter((o) => o.result === 'lost' && o.method === 'stripe' && o.intentId);
      for (const o of lostCards) {
        const again = await gql(o.token, 'Checkout', {
          paymentMethod: 'stripe',
          billing: { ...BILLING, email: 'again@example.com' },
          transactionId: o.intentId,
        });
        expect(again.body.errors, JSON.stringify(again.body)).toBeUndefined();
        o.orderId = again.body.data.checkout.order.databaseId;
        o.result = 'ordered';
      }

      // The customers who closed the browser paid long enough ago (STRIPE_RECONCILE_AFTER_SECONDS is the
      // default 900): the running engine's reconciliation refunds them on its next sweeps.
      const abandoned = outcomes.filter((o) => o.result === 'abandoned').map((o) => o.intentId!);
      expect(abandoned.length).toBeGreaterThan(0);
      for (const id of abandoned)
        stripe.charges.get(String(stripe.intents.get(id)!.latest_charge))!.created =
          Math.floor(Date.now() / 1000) - 901;
      const refundedIn = (id: string) => [...stripe.refunds.values()].filter((r) => r.payment_intent === id);
      const until = Date.now() + 30_000;
      const settled = (id: string) =>
        refundedIn(id).length > 0 && allLogs.join('\n').includes(`refunded card payment ${id}`);
      while (Date.now() < until && !abandoned.every(settled)) await new Promise((r) => setTimeout(r, 100));
      for (const id of abandoned) {
        expect(
          refundedIn(id).map((r) => r.amount),
          `abandoned ${id}`,
        ).toEqual([stripe.intents.get(id)!.amount]);
        expect(allLogs.join('\n')).toContain(`refunded card payment ${id}`);
      }

      const engineProcess = current!;
      engineProcess.child.kill('SIGTERM');
      expect(await engineProcess.exited).toBe(0);

      const { engine, query } = await openEngine();
      try {
        expect(await consistencyProblems(query, initial)).toEqual([]);
        const orders = await query(`select id, status, payment_method, transaction_id from orders`);
        const byId = new Map(orders.map((o) => [Number(o.id), o]));
        // Every answered order exists; orders nobody heard about are complete (checked above) or absent.
        for (const o of outcomes.filter((x) => x.result === 'ordered'))
          expect(byId.has(o.orderId!), `order ${o.orderId}`).toBe(true);
        // Every PaymentIntent that took money: exactly one paid order, or refunded in full.
        const succeeded = [...stripe.intents.values()].filter((pi) => pi.status === 'succeeded');
        expect(succeeded.length).toBeGreaterThan(0);
        for (const pi of succeeded) {
          const paid = orders.filter((o) => o.transaction_id === pi.id);
          const refunded = [...stripe.refunds.values()]
            .filter((r) => r.payment_intent === pi.id)
            .reduce((n, r) => n + Number(r.amount), 0);
          if (refunded === Number(pi.amount)) {
            expect(
              paid.filter((o) => o.status !== 'refunded'),
              `${pi.id} refunded but on an order`,
            ).toEqual([]);
            continue;
          }
          expect(
            paid.map((o) => o.status),
            `PaymentIntent ${pi.id}`,
          ).toHaveLength(1);
          expect(['processing', 'completed', 'on-hold']).toContain(paid[0]!.status);
        }
        // The sweep completed recorded checkouts on its own: each recovered intent's order exists.
        for (const id of recovered)
          expect(
            orders.some((o) => o.transaction_id === id),
            id,
          ).toBe(true);
        // Payments whose Checkout never came are on no order (and were refunded, above).
        for (const id of abandoned)
          expect(
            orders.filter((o) => o.transaction_id === id),
            id,
          ).toEqual([]);
        // Cash orders lost in flight were not repeated: at most one order per shopper e-mail.
        const perEmail = await query(
          `select billing->>'email' as email, count(*)::int as n from orders group by 1 having count(*) > 1 and billing->>'email' <> 'again@example.com'`,
        );
        expect(perEmail).toEqual([]);
        const ordered = outcomes.filter((o) => o.result === 'ordered').length;
        console.log(
          `[crash] ${SHOPPERS} shoppers, ${crashes} crash(es): ${ordered} orders answered, ${outcomes.filter((o) => o.result === 'lost').length} requests lost in flight (${lostCards.length} card, ${recovered.size} recovered by the sweep), ${outcomes.filter((o) => o.result === 'refused').length} refused, ${abandoned.length} paid and left (refunded by the reconciliation), ${orders.length} orders stored`,
        );
      } finally {
        await engine.close();
      }
    },
    LONG ? 1_800_000 : 600_000,
  );
});
