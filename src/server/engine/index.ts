/**
 * The commerce engine's one composition root: configuration, database (migrated, seeded on first start),
 * every service built in dependency order with its collaborators passed to its constructor, the payment
 * gateways whose settings are usable, the background jobs (card checkout recovery and reconciliation,
 * hold-stock sweeper, KDA watcher, mail sender) and the schema. `createEngine` builds an independent engine (tests make
 * one per file); `getEngine` is the process-wide one, for the HTTP and Astro entry glue only.
 */
import type { GraphQLSchema } from 'graphql';
import type { AccountServices, Services } from '../context.ts';
import { EmailChangeService } from '../auth/email-change.ts';
import { OAuthService } from '../auth/oauth.ts';
import { AuthService } from '../auth/service.ts';
import { readAuthSettings } from '../auth/settings.ts';
import { CartService } from '../cart/service.ts';
import { SeedMissingError } from '../catalog/seed-loader.ts';
import { CatalogService } from '../catalog/service.ts';
import { checkoutAccountHook } from '../checkout/accounts.ts';
import { CardRecoveringCheckout } from '../checkout/card-recovery.ts';
import { OrderConfirmations } from '../checkout/confirmation.ts';
import { PaymentsService } from '../checkout/payments.ts';
import { CheckoutService, type Checkout } from '../checkout/service.ts';
import { StripeWebhookHandler } from '../checkout/stripe-webhook.ts';
import { getConfig, type ServerConfig } from '../config.ts';
import { contactMailSettled, createContactHandlerDeps, type ContactHandlerDeps } from '../contact/index.ts';
import { CouponService } from '../coupons/service.ts';
import { CustomerService } from '../customers/service.ts';
import { openDatabase, type DatabaseHandle, type OpenOptions } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';
import { DownloadService } from '../downloads/service.ts';
import { readDownloadSettings } from '../downloads/settings.ts';
import { createMailer, MailQueue, readMailSettings, type Mailer } from '../mail/index.ts';
import { createNewsletterHandlerDeps, type NewsletterHandlerDeps } from '../newsletter/index.ts';
import { OrderService } from '../orders/service.ts';
import { queueInvoiceMail } from '../invoices/mail.ts';
import { InvoiceService } from '../invoices/service.ts';
import { readInvoiceSettings } from '../invoices/settings.ts';
import { KadenaCheckout } from '../payments/kadena/checkout.ts';
import { loadKadenaSettings } from '../payments/kadena/settings.ts';
import type { KadenaPaymentWatcher } from '../payments/kadena/watcher.ts';
import { StripeGateway } from '../payments/stripe/gateway.ts';
import { createCardReconciliation, type ReconcileReport } from '../payments/stripe/reconcile.ts';
import { loadStripeSettings } from '../payments/stripe/settings.ts';
import { rateLimiterFor, readClientAddressSettings } from '../rate-limit/index.ts';
import { ReviewService } from '../reviews/service.ts';
import { readReviewSettings } from '../reviews/settings.ts';
import { buildSchema } from '../schema/index.ts';
import { SessionService } from '../session/service.ts';
import { loadCommerceSettings, type CommerceSettings } from '../shop/settings.ts';
import { readVatSettings } from '../tax/settings.ts';
import { VatIdChecker } from '../tax/vat-check.ts';
import { WishlistService } from '../wishlist/service.ts';
import { loadStorefrontSettings, type Storefront } from '../storefront/settings.ts';
import { startCardSweep, startHoldStockSweeper, startMailSender, startRetentionSweep, type Stop } from './jobs.ts';
import { RetentionSweep } from '../retention/sweep.ts';
import { exportPersonalData } from '../privacy/export.ts';
import { CustomerEraser } from '../privacy/erase.ts';
import { AccountDeletionConfirmation } from '../auth/account-deletion.ts';
import { readRetentionSettings } from '../retention/settings.ts';

export type Engine = Services & {
  commerceSettings: CommerceSettings;
  /** The outbox/SMTP mailer of this engine: the transport the mail queue sends through. */
  commerceMailer: Mailer;
  /** The mail queue: every mail is queued in its change's transaction and sent from there (mail/queue.ts). */
  mail: MailQueue;
  stripeWebhooks: StripeWebhookHandler;
  /** The KDA payment watcher of this process (null when the KDA gateway is off). */
  kdaWatcher: KadenaPaymentWatcher | null;
  /**
   * One run of the card payment reconciliation (payments/stripe/reconcile.ts) now, without the shared
   * claim the scheduled runs take; null when the card gateway is off.
   */
  reconcileCardPayments: (() => Promise<ReconcileReport>) | null;
  accounts: AccountServices;
  /** The retention sweep (also run on demand by `npm run shop`). */
  retention: RetentionSweep;
  /** The contact form's and the ALTCHA challenge's collaborators, built on first use (their settings are read then). */
  contact: () => ContactHandlerDeps;
  /** The newsletter routes' collaborators, built on first use. */
  newsletter: () => NewsletterHandlerDeps;
  database: DatabaseHandle;
  schema: GraphQLSchema;
  close(): Promise<void>;
};

export type EngineOptions = {
  /** Seed an empty database from config.catalogDir (default config.seedOnStart). */
  seed?: boolean;
  log?: (message: string) => void;
  /** The embedded database's lock: who this process is, or the lock the caller holds already (db/connection.ts). */
  open?: OpenOptions;
};

/** Builds on first call and keeps the result; a build that throws is tried again on the next call. */
function onFirstUse<T>(build: () => T): () => T {
  let built: { value: T } | null = null;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

export async function createEngine(config: ServerConfig = getConfig(), options: EngineOptions = {}): Promise<Engine> {
  const log = options.log ?? ((m: string) => console.log(`[meshfront] ${m}`));
  const env = process.env;
  const seed = options.seed ?? config.seedOnStart;
  const database = await openDatabase(config.database, options.open);
  const db = database.db;
  // Run in reverse order on close.
  const stops: Stop[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
    stops.length = 0;
  };
  try {
    const { applied } = await migrate(database);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);

    // Catalog and sessions.
    const catalog = new CatalogService(db, { versionCheckMs: config.catalogVersionCheckMs });
    const sessions = new SessionService(db, {
      secret: config.sessionSecret,
      issuer: config.sessionIssuer,
      ttlSeconds: config.sessionTtlSeconds,
      cookie: config.sessionCookie ? { maxAgeSeconds: config.sessionTtlSeconds } : null,
    });
    if (seed && (await catalog.isEmpty())) {
      try {
        const r = await catalog.seedFromDirectory(config.catalogDir);
        log(
          `seeded the empty database from ${config.catalogDir}: ${r.products} products, ${r.variations} variations, ${r.categories} categories, ${r.reviews} reviews`,
        );
      } catch (err) {
        // A missing catalog must not keep the engine from starting (the content may come later); a broken one is reported in full.
        if (err instanceof SeedMissingError) log(`not seeding: ${err.message}`);
        else if ((err as Error).message.includes('not empty')) log('another process seeded the catalog first');
        else throw err;
      }
    }

    // Buying: coupons, orders (the cart comes with the accounts, whose saved addresses it starts from).
    const settings = loadCommerceSettings(env);
    const coupons = new CouponService(db);
    const orders = new OrderService(db, catalog, coupons);
    if (seed && (await coupons.isEmpty())) {
      try {
        const n = await coupons.seedFromDirectory(config.catalogDir);
        if (n) log(`seeded ${n} coupons from ${config.catalogDir}`);
      } catch (err) {
        log(`not seeding coupons: ${(err as Error).message.split('\n')[0]}`);
      }
    }

    // Card payments (Stripe) when STRIPE_SECRET_KEY is set.
    const stripeSettings = loadStripeSettings(env);
    const stripe = stripeSettings.enabled
      ? new StripeGateway(stripeSettings, {
          site: config.sessionIssuer,
          currency: settings.currency,
          isIntentUsed: async (id) => Boolean(await orders.getByTransaction('stripe', id)),
        })
      : null;
    const stripeWebhooks = new StripeWebhookHandler(
      db,
      catalog,
      orders,
      stripeSettings.enabled ? stripeSettings.webhookSecret : null,
    );

    // Mail: queued in the transaction of the change that causes it, sent by the mail sender below. The
    // outbox follows the engine's data directory unless MAIL_OUTBOX_DIR says otherwise.
    const mailSettings = readMailSettings({ ...env, MESHFRONT_DATA_DIR: config.dataDir });
    const commerceMailer = createMailer(mailSettings, { log });
    stops.push(() => commerceMailer.close());
    const mail = new MailQueue(db, commerceMailer, mailSettings.queue, log);
    // Contact messages keep whether support got their mail; known before the contact form is first used.
    mail.onSettled('contact-message', contactMailSettled);
    // Invoices and credit notes: issued in the transaction of the status change that calls for them; the
    // confirmation mail carries the invoice, made into a PDF when the mail is sent.
    const invoices = new InvoiceService(
      db,
      orders,
      readInvoiceSettings(env, mailSettings.from.address, settings.baseCountry),
      config.sessionSecret,
      mailSettings.from.name || 'Meshfront',
    );
    const invoiceBrand = { shopName: invoices.brand, shopUrl: config.sessionIssuer };
    orders.onStatusChange(async (tx, order) => {
      const issued = await invoices.onOrderStatus(tx, order);
      // Paid after its confirmation went out: the invoice comes in a mail of its own.
      if (issued) await queueInvoiceMail(mail, tx, order, issued, invoiceBrand);
    });
    mail.resolveAttachmentsWith(async (ref) => {
      const row = await invoices.get(ref.id);
      if (!row) throw new Error(`invoice ${ref.id} does not exist`);
      return { filename: invoices.fileName(row), content: await invoices.pdf(row), contentType: 'application/pdf' };
    });
    const confirmations = new OrderConfirmations(
      mail,
      orders,
      config.sessionIssuer,
      settings.taxDisplayCart,
      async (tx, order) => {
        const invoice = await invoices.invoiceOf(order.id, tx);
        return invoice ? [{ kind: 'invoice', id: invoice.id }] : [];
      },
    );

    // KDA payments when a rate is configured: each order gets its own account; a watcher per process
    // polls the node and moves orders (conditional updates, so several processes agree).
    const kadenaSettings = loadKadenaSettings({ ...env, MESHFRONT_DATA_DIR: config.dataDir }, { warn: log });
    const kda = kadenaSettings.enabled
      ? new KadenaCheckout(
          kadenaSettings,
          {
            listOpenCryptoOrders: async () =>
              (await orders.listOpenCrypto('KDA')).map((o) => ({
                orderId: o.id,
                account: o.paymentAddress,
                amountKda: o.cryptoAmount,
                windowEndsAt: o.paymentExpiresAt,
              })),
            onProgress: async (orderId, progress, state) => {
              const id = Number(orderId);
              const snap = await catalog.snapshot();
              await db.transaction(async (tx) => {
                await orders.recordCryptoProgress(
                  tx,
                  id,
                  progress.receivedUnconfirmedKda,
                  progress.receivedConfirmedKda,
                );
                if (state === 'paid')
                  await orders.paymentComplete(
                    tx,
                    snap,
                    id,
                    null,
                    `KDA payment of ${progress.receivedConfirmedKda} KDA confirmed on chain ${kadenaSettings.chainId}.`,
                  );
                else if (state === 'expired')
                  await orders.cancel(tx, id, 'Unpaid order cancelled - the KDA payment window ended.');
              });
              if (state !== 'pending') catalog.invalidate();
            },
          },
          log,
        )
      : null;

    // Accounts: customers, auth and the domains beside them (reviews and downloads read orders).
    const accounts = createAccounts({
      database,
      config,
      catalog,
      sessions,
      orders,
      env,
      mail,
      shopName: mailSettings.from.name || 'Meshfront',
      stripeCustomers: stripe?.stripe ?? null,
      log,
    });
    // Business customers' VAT IDs: checked with VIES (VIES_URL) by the cart and the checkout.
    const vatIds = new VatIdChecker(readVatSettings(env), { log, limiter: rateLimiterFor(database.db) });
    const cart = new CartService(
      sessions,
      catalog,
      coupons,
      settings,
      async (userId) => {
        const customer = await accounts.customers.get(userId);
        return customer && { billing: customer.billing, shipping: customer.shipping };
      },
      vatIds,
    );

    // Checkout: every collaborator it has; with the card gateway on, the crash-safe checkout around it.
    const placing = new CheckoutService(sessions, catalog, coupons, orders, settings, config.allowedCountries, {
      limiter: rateLimiterFor(db),
      vatIds,
      stripe,
      kda,
      // "Create an account" at checkout goes through the accounts domain.
      accounts: checkoutAccountHook(accounts),
      withOrder: [confirmations.withOrder],
      afterOrder: [confirmations.afterOrder],
    });
    const recovering = stripe
      ? new CardRecoveringCheckout(placing, { db, sessions, orders, gateway: stripe, log })
      : null;
    const checkout: Checkout = recovering ?? placing;
    const payments = new PaymentsService(
      cart,
      stripe ? (input) => stripe.createIntent(input) : null,
      stripe
        ? {
            stored: async (userId) => (await accounts.customers.get(userId))?.stripeCustomerId ?? null,
            record: (userId, id) => accounts.customers.recordStripeCustomer(userId, id),
            create: (userId) => stripe.createCustomer(userId),
            list: (id) => stripe.stripe.listCards(id),
            retrieve: (id) => stripe.stripe.retrieveCard(id),
            detach: (id) => stripe.stripe.detachCard(id),
          }
        : null,
    );
    // Payments no Checkout ever claimed (the browser closed after paying, the engine was down): refunded.
    const reconcileCardPayments = stripe
      ? createCardReconciliation({
          site: config.sessionIssuer,
          list: (since) => stripe.stripe.listPaymentIntentsSince(since),
          sessions,
          hasOrder: async (id, tx) => (await orders.getByTransaction('stripe', id, tx)) !== null,
          refund: (id) => stripe.refundOrphan(id),
          afterSeconds: stripeSettings.reconcileAfterSeconds,
          lookbackHours: stripeSettings.reconcileLookbackHours,
          log,
        })
      : null;

    // What headless storefronts read about the shop; of the card gateway only what a browser may know.
    const storefront: Storefront = {
      ...loadStorefrontSettings(env),
      stripe: {
        enabled: stripeSettings.enabled,
        testMode: stripeSettings.testMode,
        publishableKey: stripeSettings.publishableKey,
      },
    };

    const schema = buildSchema(await catalog.attributeTaxonomies());

    // Background jobs, last: nothing above can fail after one started.
    if (recovering && reconcileCardPayments && settings.sweepIntervalMs > 0) {
      stops.push(
        startCardSweep({
          db,
          intervalMs: settings.sweepIntervalMs,
          recover: recovering.sweep,
          reconcile: reconcileCardPayments,
          reconcileLookbackHours: stripeSettings.reconcileLookbackHours,
          log,
        }),
      );
    }
    if (kda) {
      kda.start();
      stops.push(() => kda.stop());
    }
    // The hold-stock sweeper: every process runs it; each order is cancelled by exactly one of them.
    if (settings.sweepIntervalMs > 0 && settings.holdStockMinutes > 0)
      stops.push(startHoldStockSweeper({ orders, intervalMs: settings.sweepIntervalMs, log }));
    // The mail sender: every process runs it; each mail is sent by one of them at a time.
    stops.push(startMailSender({ queue: mail, intervalMs: mailSettings.queue.pollIntervalMs }));
    // Retention: what the shop no longer needs is deleted, by one process per interval.
    const retentionSettings = readRetentionSettings(env);
    const retention = new RetentionSweep({
      db,
      settings: retentionSettings,
      sessions,
      auth: accounts.auth,
      limiter: accounts.limiter,
      mail,
    });
    if (retentionSettings.intervalMs > 0)
      stops.push(startRetentionSweep({ sweep: retention, intervalMs: retentionSettings.intervalMs, log }));

    return {
      config,
      database,
      catalog,
      sessions,
      cart,
      coupons,
      orders,
      checkout,
      payments,
      commerceSettings: settings,
      commerceMailer,
      mail,
      invoices,
      storefront,
      stripeWebhooks,
      kdaWatcher: kda?.watcher ?? null,
      reconcileCardPayments,
      accounts,
      retention,
      contact: onFirstUse(() => createContactHandlerDeps({ db, sessionSecret: config.sessionSecret, mail })),
      newsletter: onFirstUse(() => createNewsletterHandlerDeps({ db, mail })),
      schema,
      close: async () => {
        await stop();
        await database.close();
      },
    };
  } catch (err) {
    await stop().catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }
}

/** The account domains of an engine (the Yoga plugin in auth/plugin.ts puts them on the GraphQL context). */
function createAccounts(input: {
  database: DatabaseHandle;
  config: ServerConfig;
  catalog: CatalogService;
  sessions: SessionService;
  orders: OrderService;
  env: Record<string, string | undefined>;
  mail: MailQueue;
  /** The shop's name as its mails sign (a customer's data export names it). */
  shopName: string;
  /** Stripe's customers, when card payments are on (erasing an account deletes its customer there). */
  stripeCustomers: { deleteCustomer(id: string): Promise<void> } | null;
  log: (message: string) => void;
}): AccountServices {
  const { database, config, catalog, sessions, orders, env, mail } = input;
  const settings = readAuthSettings(config, env);
  const limiter = rateLimiterFor(database.db);
  const customers = new CustomerService(database.db, config.allowedCountries);
  const auth = new AuthService(database.db, customers, sessions, limiter, settings, mail);
  const emailChange = new EmailChangeService(database.db, customers, auth, limiter, settings, mail);
  const reviews = new ReviewService(database.db, catalog, orders, limiter, readReviewSettings(env));
  const downloads = new DownloadService(
    catalog,
    orders,
    readDownloadSettings(config, env),
    settings.keys.download,
    settings.siteUrl,
  );
  const oauth = new OAuthService(database.db, settings, customers, auth, mail);
  const wishlist = new WishlistService(database.db, catalog);
  return {
    settings,
    clientAddress: readClientAddressSettings(env),
    limiter,
    customers,
    auth,
    emailChange,
    mailer: () => mail.mailer,
    reviews,
    downloads,
    oauth,
    wishlist,
    personalData: (customer) =>
      exportPersonalData({ db: database.db, orders, wishlist, catalog, shopName: input.shopName }, customer),
    deletion: new AccountDeletionConfirmation(database.db, auth, settings, mail),
    eraser: new CustomerEraser({
      db: database.db,
      customers,
      sessions,
      mail,
      catalog,
      stripeCustomers: input.stripeCustomers,
      log: input.log,
    }),
  };
}

// Kept on globalThis, not in a module variable: after a publish, scripts/serve.mjs loads the new build's
// server bundle beside the old one in the same process, each with its own copy of this module, and both
// must use one engine (one PGlite handle, one set of background timers).
const SHARED_ENGINE = Symbol.for('meshfront.sharedEngine');
const holder = globalThis as unknown as Record<typeof SHARED_ENGINE, Promise<Engine> | null | undefined>;

/** The process-wide engine, created on first use from the environment. */
export function getEngine(): Promise<Engine> {
  holder[SHARED_ENGINE] ??= createEngine().catch((err) => {
    holder[SHARED_ENGINE] = null;
    throw err;
  });
  return holder[SHARED_ENGINE];
}

/** Closes the process-wide engine if it was started (graceful shutdown; no-op otherwise). */
export async function closeSharedEngine(): Promise<void> {
  const current = holder[SHARED_ENGINE];
  holder[SHARED_ENGINE] = null;
  if (current) await (await current.catch(() => null))?.close();
}
// scripts/serve.mjs runs the engine inside Astro's server bundle, a module graph it cannot import from:
// it finds the closer here on shutdown.
(globalThis as Record<symbol, unknown>)[Symbol.for('meshfront.closeEngine')] = closeSharedEngine;
