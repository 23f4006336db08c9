/**
 * Card payments through Stripe PaymentIntents. Amounts are integer cents end to end: the engine sizes
 * the intent from the cart in cents and, at checkout, accepts an order as paid only when Stripe reports
 * that exact amount received in that exact currency, for an intent no other order used.
 *
 * Reuse of an intent is refused by the caller's record of used intent ids (`isAlreadyUsed`). That check
 * and the insert that records the id must be made atomic by the orders domain (a unique index on the
 * order's payment intent id), or two concurrent checkouts could both pass the check.
 */
import Stripe from 'stripe';
import { type ServiceBreaker, ServiceUnavailableError, serviceBreaker } from '../../service-breaker.ts';

export class StripePaymentError extends Error {
  override name = 'StripePaymentError';
  constructor(
    message: string,
    readonly details: { type?: string; code?: string; statusCode?: number; param?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}

function wrap(error: unknown, what: string): StripePaymentError {
  if (error instanceof StripePaymentError) return error;
  if (error instanceof ServiceUnavailableError)
    return new StripePaymentError(
      'Failed to connect to Stripe: card payments are not available at the moment. Please try again in a minute.',
      { type: 'StripeConnectionError', cause: error },
    );
  if (error instanceof Stripe.errors.StripeError) {
    const connection = error.type === 'StripeConnectionError';
    return new StripePaymentError(
      connection ? `Failed to connect to Stripe: ${error.message}` : `${what}: ${error.message}`,
      {
        type: error.type,
        code: error.code,
        statusCode: error.statusCode,
        param: (error as { param?: string }).param,
        cause: error,
      },
    );
  }
  return new StripePaymentError(`${what}: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}

export type PaymentIntentSummary = {
  id: string;
  clientSecret: string | null;
  amountCents: number;
  amountReceivedCents: number;
  /** Lower-case ISO code as Stripe returns it. */
  currency: string;
  status: Stripe.PaymentIntent.Status;
  metadata: Record<string, string>;
  latestChargeId: string | null;
  /**
   * Refunded so far on the latest charge, when the charge was expanded (null: not known). A refund leaves
   * the intent `succeeded` with its `amount_received`; only the charge shows the money went back.
   */
  amountRefundedCents: number | null;
};

export function summarizePaymentIntent(intent: Stripe.PaymentIntent): PaymentIntentSummary {
  return {
    id: intent.id,
    clientSecret: intent.client_secret,
    amountCents: intent.amount,
    amountReceivedCents: intent.amount_received,
    currency: intent.currency,
    status: intent.status,
    metadata: { ...(intent.metadata ?? {}) },
    latestChargeId:
      typeof intent.latest_charge === 'string' ? intent.latest_charge : (intent.latest_charge?.id ?? null),
    amountRefundedCents:
      intent.latest_charge && typeof intent.latest_charge === 'object' ? intent.latest_charge.amount_refunded : null,
  };
}

export type CheckoutVerificationFailure =
  | 'not_found'
  | 'not_succeeded'
  | 'amount_mismatch'
  | 'currency_mismatch'
  | 'metadata_mismatch'
  | 'already_used'
  | 'refunded'
  | 'stripe_unavailable';

export type CheckoutVerification =
  | { ok: true; intent: PaymentIntentSummary }
  | { ok: false; reason: CheckoutVerificationFailure; message: string; intent?: PaymentIntentSummary };

/**
 * The pure acceptance rule for a PaymentIntent at checkout: succeeded; amount and amount_received both
 * exactly the expected integer cents; the expected currency (case-insensitive, Stripe answers lower
 * case); every expected metadata entry present with the same value (binds the intent to a session or
 * cart); and not used before by another order.
 */
export function checkPaymentIntentForCheckout(input: {
  intent: PaymentIntentSummary;
  expectedAmountCents: number;
  expectedCurrency: string;
  expectedMetadata?: Record<string, string>;
  isAlreadyUsed: (paymentIntentId: string) => boolean;
}): CheckoutVerification {
  const { intent } = input;
  if (!Number.isSafeInteger(input.expectedAmountCents) || input.expectedAmountCents <= 0) {
    throw new RangeError(`expectedAmountCents must be a positive integer, got ${input.expectedAmountCents}`);
  }
  if (intent.status !== 'succeeded') {
    return {
      ok: false,
      reason: 'not_succeeded',
      message: `The card payment has not succeeded (status ${intent.status}).`,
      intent,
    };
  }
  if (intent.amountCents !== input.expectedAmountCents || intent.amountReceivedCents !== input.expectedAmountCents) {
    return {
      ok: false,
      reason: 'amount_mismatch',
      message: `The card payment was for ${intent.amountReceivedCents} cents, the order total is ${input.expectedAmountCents} cents.`,
      intent,
    };
  }
  if (intent.currency.toLowerCase() !== input.expectedCurrency.toLowerCase()) {
    return {
      ok: false,
      reason: 'currency_mismatch',
      message: `The card payment was in ${intent.currency.toUpperCase()}, the order is in ${input.expectedCurrency.toUpperCase()}.`,
      intent,
    };
  }
  for (const [key, value] of Object.entries(input.expectedMetadata ?? {})) {
    if (intent.metadata[key] !== value) {
      return { ok: false, reason: 'metadata_mismatch', message: 'The card payment belongs to another cart.', intent };
    }
  }
  // Refunded in part or whole (e.g. from Stripe's dashboard): the money is not all there any more.
  if (intent.amountRefundedCents !== null && intent.amountRefundedCents > 0) {
    return { ok: false, reason: 'refunded', message: 'This card payment was refunded. Please pay again.', intent };
  }
  if (input.isAlreadyUsed(intent.id)) {
    return {
      ok: false,
      reason: 'already_used',
      message: 'This card payment was already used for another order.',
      intent,
    };
  }
  return { ok: true, intent };
}

export type CreatePaymentIntentInput = {
  amountCents: number;
  /** Defaults to the configured STRIPE_CURRENCY. */
  currency?: string;
  /** The order this intent pays, when it exists already; stored as metadata.order_ref. */
  orderRef?: string;
  /** The session/cart it was sized from; stored as metadata.session_ref. */
  sessionRef?: string;
  /** Same key + same parameters → Stripe returns the same intent; derive it from session + cart hash. */
  idempotencyKey: string;
  metadata?: Record<string, string>;
  description?: string;
  receiptEmail?: string;
  /** The shop customer's Stripe customer (cus_…): the payment shows under it and a saved card joins it. */
  customer?: string;
  /** A card already saved with `customer` (pm_…): the intent is paid with it. */
  paymentMethod?: string;
  /** Keep the card the shopper enters for later payments (attached to `customer` when the payment succeeds). */
  setupFutureUsage?: 'off_session';
};

/** A card saved with a Stripe customer, as the storefront shows it. */
export type SavedCard = {
  id: string;
  /** The Stripe customer it is attached to (null: attached to none). */
  customer: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
};

function summarizeCard(pm: Stripe.PaymentMethod): SavedCard {
  return {
    id: pm.id,
    customer: typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null),
    brand: pm.card?.brand ?? 'unknown',
    last4: pm.card?.last4 ?? '',
    expMonth: pm.card?.exp_month ?? 0,
    expYear: pm.card?.exp_year ?? 0,
  };
}

/** A PaymentIntent as the reconciliation needs it: the summary plus when it was created and paid. */
export type ListedPaymentIntent = PaymentIntentSummary & {
  /** Unix seconds. */
  created: number;
  /** Unix seconds of the latest charge (when the customer paid); null without a charge. */
  chargedAt: number | null;
  /** Cents refunded so far on the latest charge. */
  amountRefundedCents: number;
};

export type RefundSummary = {
  id: string;
  amountCents: number;
  currency: string;
  status: string | null;
  paymentIntentId: string | null;
  chargeId: string | null;
};

/**
 * Stripe down or overloaded (what the breaker counts): no connection or a timeout after the SDK's
 * retries, a 5xx, or 429. A declined card, a bad request or a missing intent is Stripe answering.
 */
function isStripeOutage(error: unknown): boolean {
  if (!(error instanceof Stripe.errors.StripeError)) return false;
  return (
    error.type === 'StripeConnectionError' ||
    error.type === 'StripeAPIError' ||
    error.type === 'StripeRateLimitError' ||
    (error.statusCode ?? 0) >= 500
  );
}

/** The breaker of the engine's Stripe calls (service-breaker.ts). */
export function stripeBreaker(): ServiceBreaker {
  return serviceBreaker('Stripe', { isOutage: isStripeOutage });
}

export class StripePayments {
  readonly currency: string;
  private readonly breaker: ServiceBreaker | null;

  constructor(
    readonly stripe: Stripe,
    options: { currency: string; breaker?: ServiceBreaker },
  ) {
    this.currency = options.currency.toLowerCase();
    this.breaker = options.breaker ?? null;
  }

  /** One SDK call, through the breaker when there is one. */
  private call<T>(request: () => Promise<T>): Promise<T> {
    return this.breaker ? this.breaker.run(request) : request();
  }

  async createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntentSummary> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
      throw new StripePaymentError('Cart amount must be greater than 0');
    if (!input.idempotencyKey) throw new StripePaymentError('an idempotency key is required to create a PaymentIntent');
    const metadata: Record<string, string> = { ...(input.metadata ?? {}) };
    if (input.orderRef) metadata.order_ref = input.orderRef;
    if (input.sessionRef) metadata.session_ref = input.sessionRef;
    try {
      const intent = await this.call(() =>
        this.stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: (input.currency ?? this.currency).toLowerCase(),
            automatic_payment_methods: { enabled: true },
            metadata,
            ...(input.description ? { description: input.description } : {}),
            ...(input.receiptEmail ? { receipt_email: input.receiptEmail } : {}),
            ...(input.customer ? { customer: input.customer } : {}),
            ...(input.paymentMethod ? { payment_method: input.paymentMethod } : {}),
            ...(input.setupFutureUsage ? { setup_future_usage: input.setupFutureUsage } : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return summarizePaymentIntent(intent);
    } catch (e) {
      throw wrap(e, 'Failed to create Stripe intent');
    }
  }

  /** A new Stripe customer for a shop account; the key makes a retried creation answer the same customer. */
  async createCustomer(input: { metadata: Record<string, string>; idempotencyKey: string }): Promise<string> {
    try {
      const customer = await this.call(() =>
        this.stripe.customers.create({ metadata: input.metadata }, { idempotencyKey: input.idempotencyKey }),
      );
      return customer.id;
    } catch (e) {
      throw wrap(e, 'Failed to create Stripe customer');
    }
  }

  /**
   * The cards saved with a Stripe customer (Stripe's first page of 100: far more than anyone saves), and
   * which of them is the customer's default (`invoice_settings.default_payment_method`; null: none).
   */
  async listCards(customer: string): Promise<{ cards: SavedCard[]; defaultCard: string | null }> {
    try {
      const [page, owner] = await Promise.all([
        this.call(() => this.stripe.customers.listPaymentMethods(customer, { type: 'card', limit: 100 })),
        this.call(() => this.stripe.customers.retrieve(customer)),
      ]);
      const preferred = owner.deleted ? null : owner.invoice_settings?.default_payment_method;
      return {
        cards: page.data.map(summarizeCard),
        defaultCard: typeof preferred === 'string' ? preferred : (preferred?.id ?? null),
      };
    } catch (e) {
      throw wrap(e, 'Failed to list saved cards');
    }
  }

  /** One payment method as Stripe has it (to see whose it is). */
  async retrieveCard(paymentMethod: string): Promise<SavedCard> {
    try {
      return summarizeCard(await this.call(() => this.stripe.paymentMethods.retrieve(paymentMethod)));
    } catch (e) {
      throw wrap(e, 'Failed to retrieve saved card');
    }
  }

  /**
   * Deletes a Stripe customer for good, and with it the cards saved with it (erasing a shop account). A
   * customer Stripe no longer has counts as deleted.
   */
  async deleteCustomer(customer: string): Promise<void> {
    try {
      await this.call(() => this.stripe.customers.del(customer));
    } catch (e) {
      const err = wrap(e, 'Failed to delete Stripe customer');
      if (err.details.code === 'resource_missing') return;
      throw err;
    }
  }

  /** Detach a payment method from its customer: it can never be charged again. */
  async detachCard(paymentMethod: string): Promise<void> {
    try {
      await this.call(() => this.stripe.paymentMethods.detach(paymentMethod));
    } catch (e) {
      throw wrap(e, 'Failed to remove saved card');
    }
  }

  /** The intent as Stripe has it now; `withCharge` expands the latest charge (to see refunds). */
  async retrievePaymentIntent(
    paymentIntentId: string,
    options: { withCharge?: boolean } = {},
  ): Promise<PaymentIntentSummary> {
    try {
      return summarizePaymentIntent(
        await this.call(() =>
          this.stripe.paymentIntents.retrieve(paymentIntentId, options.withCharge ? { expand: ['latest_charge'] } : {}),
        ),
      );
    } catch (e) {
      throw wrap(e, 'Failed to retrieve Stripe intent');
    }
  }

  /**
   * Retrieve the intent from Stripe (never trust the browser's word) and apply checkPaymentIntentForCheckout.
   * `isAlreadyUsed` may be async (a database lookup).
   */
  async verifyPaymentIntentForCheckout(input: {
    paymentIntentId: string;
    expectedAmountCents: number;
    expectedCurrency?: string;
    expectedMetadata?: Record<string, string>;
    isAlreadyUsed?: (paymentIntentId: string) => boolean | Promise<boolean>;
  }): Promise<CheckoutVerification> {
    if (!/^pi_[A-Za-z0-9]+$/.test(input.paymentIntentId)) {
      return { ok: false, reason: 'not_found', message: 'No card payment was found for this checkout.' };
    }
    let intent: PaymentIntentSummary;
    try {
      intent = await this.retrievePaymentIntent(input.paymentIntentId, { withCharge: true });
    } catch (e) {
      const err = e as StripePaymentError;
      if (err.details?.code === 'resource_missing' || err.details?.statusCode === 404) {
        return { ok: false, reason: 'not_found', message: 'No card payment was found for this checkout.' };
      }
      return {
        ok: false,
        reason: 'stripe_unavailable',
        message: 'The card payment could not be checked with Stripe. Please try again.',
      };
    }
    const used = input.isAlreadyUsed ? await input.isAlreadyUsed(intent.id) : false;
    return checkPaymentIntentForCheckout({
      intent,
      expectedAmountCents: input.expectedAmountCents,
      expectedCurrency: input.expectedCurrency ?? this.currency,
      expectedMetadata: input.expectedMetadata,
      isAlreadyUsed: () => used,
    });
  }

  /**
   * Every PaymentIntent created at or after `createdSince` (unix seconds), newest first, through Stripe's
   * list API page by page (the SDK's auto-pagination follows `has_more` with `starting_after`). The latest
   * charge is expanded in the same request: its `created` is when the money was taken (an intent is often
   * created long before the customer pays), its `amount_refunded` what went back already.
   */
  async *listPaymentIntentsSince(createdSince: number, pageSize = 100): AsyncGenerator<ListedPaymentIntent> {
    if (!Number.isSafeInteger(createdSince) || createdSince < 0)
      throw new StripePaymentError('createdSince must be a unix time in seconds');
    // Background work (the reconciliation): while the breaker is open it waits for the next run.
    if (this.breaker?.isOpen) throw wrap(new ServiceUnavailableError('Stripe', 0), 'Failed to list Stripe intents');
    try {
      for await (const intent of this.stripe.paymentIntents.list({
        created: { gte: createdSince },
        limit: pageSize,
        expand: ['data.latest_charge'],
      })) {
        const charge = intent.latest_charge && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
        yield {
          ...summarizePaymentIntent(intent),
          created: intent.created,
          chargedAt: charge?.created ?? null,
          amountRefundedCents: charge?.amount_refunded ?? 0,
        };
      }
    } catch (e) {
      throw wrap(e, 'Failed to list Stripe intents');
    }
  }

  /** Refund all (amountCents omitted) or part of a succeeded PaymentIntent. */
  async refund(input: {
    paymentIntentId: string;
    amountCents?: number;
    idempotencyKey: string;
    reason?: 'duplicate' | 'fraudulent' | 'requested_by_customer';
    metadata?: Record<string, string>;
  }): Promise<RefundSummary> {
    if (input.amountCents !== undefined && (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)) {
      throw new StripePaymentError('a refund amount must be a positive integer of cents');
    }
    if (!input.idempotencyKey) throw new StripePaymentError('an idempotency key is required to refund');
    try {
      const refund = await this.call(() =>
        this.stripe.refunds.create(
          {
            payment_intent: input.paymentIntentId,
            ...(input.amountCents !== undefined ? { amount: input.amountCents } : {}),
            ...(input.reason ? { reason: input.reason } : {}),
            ...(input.metadata ? { metadata: input.metadata } : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return {
        id: refund.id,
        amountCents: refund.amount,
        currency: refund.currency,
        status: refund.status,
        paymentIntentId:
          typeof refund.payment_intent === 'string' ? refund.payment_intent : (refund.payment_intent?.id ?? null),
        chargeId: typeof refund.charge === 'string' ? refund.charge : (refund.charge?.id ?? null),
      };
    } catch (e) {
      throw wrap(e, 'Failed to refund Stripe payment');
    }
  }

  /** Cancel an intent that was never paid (its order was cancelled). */
  async cancelPaymentIntent(paymentIntentId: string, idempotencyKey: string): Promise<PaymentIntentSummary> {
    try {
      return summarizePaymentIntent(
        await this.call(() => this.stripe.paymentIntents.cancel(paymentIntentId, {}, { idempotencyKey })),
      );
    } catch (e) {
      throw wrap(e, 'Failed to cancel Stripe intent');
    }
  }
}
