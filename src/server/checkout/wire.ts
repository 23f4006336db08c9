/**
 * Builds the buying domains (coupons, cart, orders, checkout, payments) for an engine, seeds the
 * coupons on first start, wires the payment gateways whose settings are usable and starts the
 * background jobs (hold-stock sweeper, KDA watcher). Called once per engine by engine.ts.
 */
import { CartService } from '../cart/service.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { ServerConfig } from '../config.ts';
import { CouponService } from '../coupons/service.ts';
import type { DatabaseHandle } from '../db/connection.ts';
import { OrderService } from '../orders/service.ts';
import type { SessionService } from '../session/service.ts';
import { PaymentsService } from './payments.ts';
import { CheckoutError, CheckoutService } from './service.ts';
import { loadCommerceSettings, type CommerceSettings } from './settings.ts';
import { createMailer } from '../mail/mailer.ts';
import { readMailSettings } from '../mail/settings.ts';
import { orderConfirmation } from '../mail/templates.ts';
import type { OrderRow } from '../orders/service.ts';
import { createStripeClient } from '../payments/stripe/client.ts';
import { checkPaymentIntentForCheckout, StripePayments, type PaymentIntentSummary, type StripePaymentError } from '../payments/stripe/service.ts';
import { loadStripeSettings } from '../payments/stripe/settings.ts';
import { StripeWebhookHandler } from './stripe-webhook.ts';
import { withCardCheckoutRecovery } from '../payments/stripe/recovery.ts';
import { claimReconcileRun, createCardReconciliation, SESSION_METADATA_KEY, SITE_METADATA_KEY, type ReconcileReport } from '../payments/stripe/reconcile.ts';
import { StockError } from '../catalog/stock.ts';
import { CartError } from '../cart/service.ts';
import { CouponError } from '../coupons/discounts.ts';
import { rateLimiterFor } from '../rate-limit/index.ts';
import { errorSummary } from '../error-summary.ts';
import { readCart } from '../cart/model.ts';
import { createKadenaGateway } from '../payments/kadena/gateway.ts';
import { loadKadenaSettings } from '../payments/kadena/settings.ts';
import { DEFAULT_CONFIRMATION_GRACE_MS, type KadenaPaymentWatcher } from '../payments/kadena/watcher.ts';

export type CommerceServices = {
  cart: CartService;
  coupons: CouponService;
  orders: OrderService;
  checkout: CheckoutService;
  payments: PaymentsService;
  commerceSettings: CommerceSettings;
  /** The outbox/SMTP mailer of this engine (order confirmations). */
  commerceMailer: ReturnType<typeof createMailer>;
  stripeWebhooks: StripeWebhookHandler;
  /** The KDA payment watcher of this process (null when the KDA gateway is off). */
  kdaWatcher: KadenaPaymentWatcher | null;
  /**
   * One run of the card payment reconciliation (payments/stripe/reconcile.ts) now, without the shared
   * claim the scheduled runs take; null when the card gateway is off.
   */
  reconcileCardPayments: (() => Promise<ReconcileReport>) | null;
};

export type Commerce = { services: CommerceServices; stop(): Promise<void> };

/** Stripe's answer "No such payment_intent" (resource_missing, 404). */
const isNoSuchIntent = (e: unknown) => {
  const details = (e as StripePaymentError).details;
  return details?.code === 'resource_missing' || details?.statusCode === 404;
};

export async function createCommerce(input: {
  database: DatabaseHandle;
  config: ServerConfig;
  catalog: CatalogService;
  sessions: SessionService;
  seed: boolean;
  log: (message: string) => void;
  env?: Record<string, string | undefined>;
}): Promise<Commerce> {
  const { database, config, catalog, sessions, log } = input;
  const env = input.env ?? process.env;
  const settings = loadCommerceSettings(env);
  const coupons = new CouponService(database.db);
  const cart = new CartService(sessions, catalog, coupons, settings);
  const orders = new OrderService(database.db, catalog, coupons);
  const checkout = new CheckoutService(sessions, catalog, coupons, orders, settings, config.allowedCountries);
  checkout.limiter = rateLimiterFor(database.db);
  const payments = new PaymentsService(cart);
  if (input.seed && (await coupons.isEmpty())) {
    try {
      const n = await coupons.seedFromDirectory(config.catalogDir);
      if (n) log(`seeded ${n} coupons from ${config.catalogDir}`);
    } catch (err) {
      log(`not seeding coupons: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const stops: (() => Promise<void> | void)[] = [];

  // Card payments (Stripe) when STRIPE_SECRET_KEY is set.
  const stripeSettings = loadStripeSettings(env);
  let reconcileCardPayments: CommerceServices['reconcileCardPayments'] = null;
  const stripeWebhooks = new StripeWebhookHandler(database.db, catalog, orders, stripeSettings.enabled ? stripeSettings.webhookSecret : null);
  if (stripeSettings.enabled) {
    const stripe = new StripePayments(createStripeClient(stripeSettings), { currency: stripeSettings.currency });
    // The marker says "this installation's": only such intents are ever refunded by the reconciliation.
    const site = config.sessionIssuer;
    payments.createStripeIntent = async ({ amountCents, sessionRef, idempotencyKey }) => {
      const pi = await stripe.createPaymentIntent({ amountCents, sessionRef, idempotencyKey, currency: settings.currency, metadata: { [SITE_METADATA_KEY]: site } });
      return { id: pi.id, clientSecret: pi.clientSecret, amountCents: pi.amountCents, currency: pi.currency };
    };
    checkout.stripe = {
      async retrieve(id) {
        if (!/^pi_[A-Za-z0-9_]+$/.test(id)) return { ok: false, message: 'No card payment was found for this checkout.' };
        if (await orders.getByTransaction('stripe', id)) return { ok: false, message: 'This card payment was already used for another order.' };
        try {
          // With the charge: a payment refunded meanwhile (Stripe's dashboard) must not pay an order.
          return { ok: true, intent: await stripe.retrievePaymentIntent(id, { withCharge: true }) };
        } catch (e) {
          if (isNoSuchIntent(e)) return { ok: false, message: 'No card payment was found for this checkout.' };
          return { ok: false, message: 'The card payment could not be checked with Stripe. Please try again.', retryable: true };
        }
      },
      check(intent, expected) {
        const r = checkPaymentIntentForCheckout({
          intent: intent as PaymentIntentSummary,
          expectedAmountCents: expected.amountCents,
          expectedCurrency: expected.currency,
          expectedMetadata: { session_ref: expected.sessionRef },
          isAlreadyUsed: () => false, // the unique index on (payment_method, transaction_id) decides, atomically
        });
        return r.ok ? null : r.message;
      },
    };
    // Crash safety: a card checkout interrupted by a dying process is completed (or refunded) later.
    const recovery = withCardCheckoutRecovery(checkout.checkout.bind(checkout), {
      db: database.db,
      sessions,
      orderForIntent: (id) => orders.getByTransaction('stripe', id),
      cartIsEmpty: async (customerId) => readCart(await sessions.load(customerId)).items.length === 0,
      answerFor: (order) => ({ order, accountUserId: null, redirect: `/checkout/order-received/${order.id}/?key=${order.orderKey}` }),
      refusal: (message) => new CheckoutError(message),
      refund: async (id) => void (await stripe.refund({ paymentIntentId: id, idempotencyKey: `meshfront-recovery-refund-${id}`, reason: 'requested_by_customer' })),
      paymentState: async (id) => {
        try {
          return (await stripe.retrievePaymentIntent(id)).status === 'succeeded' ? 'succeeded' : 'unpaid';
        } catch (e) {
          if (isNoSuchIntent(e)) return 'missing';
          throw e;
        }
      },
      // Recorded only when this is worth completing or refunding later: this installation's intent, made
      // for this session's cart, in the shop's currency, with the money taken or on its way.
      isOwnPayment: (intent, customerId) => {
        const pi = intent as PaymentIntentSummary;
        return (
          pi.metadata[SITE_METADATA_KEY] === site &&
          pi.metadata[SESSION_METADATA_KEY] === customerId &&
          Number.isSafeInteger(pi.amountCents) &&
          pi.amountCents > 0 &&
          pi.currency.toLowerCase() === settings.currency.toLowerCase() &&
          (pi.status === 'succeeded' || pi.status === 'processing')
        );
      },
      isRefusal: (err) => (err instanceof CheckoutError && !err.retryable) || err instanceof StockError || err instanceof CouponError || err instanceof CartError,
      afterSeconds: stripeSettings.recoveryAfterSeconds,
      maxAttempts: stripeSettings.recoveryMaxAttempts,
      log,
    });
    checkout.checkout = recovery.checkout;
    // Payments no Checkout ever claimed (the browser closed after paying, the engine was down): refunded.
    reconcileCardPayments = createCardReconciliation({
      site,
      list: (since) => stripe.listPaymentIntentsSince(since),
      sessions,
      hasOrder: async (id, tx) => (await orders.getByTransaction('stripe', id, tx)) !== null,
      refund: async (id) => void (await stripe.refund({ paymentIntentId: id, idempotencyKey: `meshfront-orphan-refund-${id}`, reason: 'requested_by_customer', metadata: { reason: 'no Checkout reached the shop' } })),
      afterSeconds: stripeSettings.reconcileAfterSeconds,
      lookbackHours: stripeSettings.reconcileLookbackHours,
      log,
    });
    const reconcile = reconcileCardPayments;
    if (settings.sweepIntervalMs > 0) {
      let sweeping = false;
      const sweep = () => {
        if (sweeping) return;
        sweeping = true;
        recovery
          .sweep()
          .catch((err) => log(`card checkout recovery failed: ${errorSummary(err)}`))
          // After the recovery: a recorded Checkout is finished there, never refunded here. Every process
          // ticks, one of them (per half interval) asks Stripe.
          .then(async () => {
            if (stripeSettings.reconcileLookbackHours > 0 && (await claimReconcileRun(database.db, settings.sweepIntervalMs / 2))) await reconcile();
          })
          .catch((err) => log(`card payment reconciliation failed: ${errorSummary(err)}`))
          .finally(() => (sweeping = false));
      };
      const timer = setInterval(sweep, settings.sweepIntervalMs);
      timer.unref();
      stops.push(() => clearInterval(timer));
      setImmediate(sweep);
    }
  }

  // Order confirmation e-mail, after the order committed; a mail failure never undoes an order.
  const mailer = createMailer(readMailSettings({ ...env, MESHFRONT_DATA_DIR: config.dataDir }), { log });
  stops.push(() => mailer.close());
  const sendConfirmation = async (order: OrderRow) => {
    if (!order.billing.email) return;
    const items = await orders.items(order.id);
    const site = config.sessionIssuer.replace(/\/+$/, '');
    const content = orderConfirmation({
      orderNumber: String(order.id),
      orderDate: order.dateCreated,
      customerName: order.billing.firstName || null,
      currency: order.currency,
      lineItems: items.map((i) => ({ name: i.name, quantity: i.quantity, totalCents: i.totalCents })),
      subtotalCents: order.subtotalCents,
      discountCents: order.discountCents,
      shippingCents: order.shippingLines.length ? order.shippingCents : undefined,
      shippingMethod: order.shippingLines[0]?.label ?? null,
      taxCents: order.totalTaxCents,
      totalCents: order.totalCents,
      paymentMethodTitle: order.paymentMethodTitle,
      paymentInstructions:
        order.paymentMethod === 'cod'
          ? 'Payment to be made upon delivery.'
          : order.paymentCurrency && order.status === 'pending'
            ? `Please send ${order.cryptoAmount} ${order.paymentCurrency} to ${order.paymentAddress} before ${order.paymentExpiresAt?.toISOString()}.`
            : null,
      billingAddress: order.billing,
      shippingAddress: order.shipping.address1 ? order.shipping : null,
      customerNote: order.customerNote || null,
      orderUrl: `${site}/checkout/order-received/${order.id}/?key=${order.orderKey}`,
    });
    await mailer.sendMail({ to: order.billing.email, ...content });
  };
  const pendingMail = new Set<Promise<void>>();
  checkout.afterOrder.push((order) => {
    const p: Promise<void> = sendConfirmation(order)
      .catch((err) => log(`order confirmation for order ${order.id} not sent: ${errorSummary(err)}`))
      .finally(() => pendingMail.delete(p));
    pendingMail.add(p);
  });
  stops.push(async () => {
    await Promise.allSettled([...pendingMail]);
  });

  // KDA payments when a rate is configured: each order gets its own account; a watcher per process
  // polls the node and moves orders (conditional updates, so several processes agree).
  const kadenaSettings = loadKadenaSettings({ ...env, MESHFRONT_DATA_DIR: config.dataDir }, { warn: log });
  let kdaWatcher: KadenaPaymentWatcher | null = null;
  if (kadenaSettings.enabled) {
    const gateway = createKadenaGateway(kadenaSettings);
    checkout.kda = {
      quote(orderId, totalCents) {
        const q = gateway.quote(orderId, totalCents);
        return { account: q.account, amountKda: q.amountKda, rate: q.eurPerKda, windowMinutes: kadenaSettings.paymentWindowMinutes, graceMinutes: Math.ceil(DEFAULT_CONFIRMATION_GRACE_MS / 60_000) };
      },
    };
    kdaWatcher = gateway.createWatcher({
      listOpenCryptoOrders: async () =>
        (await orders.listOpenCrypto('KDA')).map((o) => ({ orderId: o.id, account: o.paymentAddress, amountKda: o.cryptoAmount, windowEndsAt: o.paymentExpiresAt })),
      onProgress: async (orderId, progress, state) => {
        const id = Number(orderId);
        const snap = await catalog.snapshot();
        await database.db.transaction(async (tx) => {
          await orders.recordCryptoProgress(tx, id, progress.receivedUnconfirmedKda, progress.receivedConfirmedKda);
          if (state === 'paid') await orders.paymentComplete(tx, snap, id, null, `KDA payment of ${progress.receivedConfirmedKda} KDA confirmed on chain ${kadenaSettings.chainId}.`);
          else if (state === 'expired') await orders.cancel(tx, id, 'Unpaid order cancelled - the KDA payment window ended.');
        });
        if (state !== 'pending') catalog.invalidate();
      },
      log: (level, message) => log(`kadena watcher (${level}): ${message}`),
    });
    kdaWatcher.start();
    const w = kdaWatcher;
    stops.push(() => w.stop());
  }

  // The hold-stock sweeper: every process runs it; each order is cancelled by exactly one of them.
  if (settings.sweepIntervalMs > 0 && settings.holdStockMinutes > 0) {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      orders
        .cancelExpiredUnpaid()
        .then((ids) => ids.length && log(`cancelled unpaid orders after the hold time: ${ids.join(', ')}`))
        .catch((err) => log(`hold-stock sweeper failed: ${errorSummary(err)}`))
        .finally(() => (running = false));
    }, settings.sweepIntervalMs);
    timer.unref();
    stops.push(() => clearInterval(timer));
  }

  return {
    services: { cart, coupons, orders, checkout, payments, commerceSettings: settings, commerceMailer: mailer, stripeWebhooks, kdaWatcher, reconcileCardPayments },
    async stop() {
      for (const s of stops.reverse()) await s();
    },
  };
}
