/**
 * The card gateway of one engine: Stripe behind the calls the checkout and payments domains make
 * (an intent for the session's cart, the checkout's retrieve-and-check) and the ones the card recovery
 * and reconciliation need. The engine builds it only when STRIPE_SECRET_KEY is set. It talks to Stripe
 * only: what it needs to know of orders comes in as a function.
 */
import { createHash } from 'node:crypto';
import { createStripeClient } from './client.ts';
import { SESSION_METADATA_KEY, SITE_METADATA_KEY } from './reconcile.ts';
import type { PaymentState } from './recovery.ts';
import {
  checkPaymentIntentForCheckout,
  StripePayments,
  stripeBreaker,
  type PaymentIntentSummary,
  type StripePaymentError,
} from './service.ts';
import type { StripeSettings } from './settings.ts';

/** Stripe's answer "No such payment_intent" (resource_missing, 404). */
const isNoSuchIntent = (e: unknown) => {
  const details = (e as StripePaymentError).details;
  return details?.code === 'resource_missing' || details?.statusCode === 404;
};

export type StripeGatewayOptions = {
  /** This installation's marker (SESSION_ISSUER): only intents carrying it are ever refunded by the reconciliation. */
  site: string;
  /** The shop's currency (SHOP_CURRENCY): intents are made and accepted in it. */
  currency: string;
  /** Whether an order already carries this PaymentIntent (the orders domain answers). */
  isIntentUsed(paymentIntentId: string): Promise<boolean>;
};

export class StripeGateway {
  readonly stripe: StripePayments;

  constructor(
    readonly settings: StripeSettings,
    private readonly options: StripeGatewayOptions,
  ) {
    // Stripe down: after a few failed calls the breaker answers at once, so a shopper is told quickly.
    this.stripe = new StripePayments(createStripeClient(settings), {
      currency: settings.currency,
      breaker: stripeBreaker(),
    });
  }

  /** A PaymentIntent for the session's cart, marked as this installation's. */
  async createIntent(input: {
    amountCents: number;
    sessionRef: string;
    idempotencyKey: string;
    customer?: string;
    paymentMethod?: string;
    setupFutureUsage?: 'off_session';
  }): Promise<{ id: string; clientSecret: string | null; amountCents: number; currency: string }> {
    const { amountCents, sessionRef, idempotencyKey, customer, paymentMethod, setupFutureUsage } = input;
    const pi = await this.stripe.createPaymentIntent({
      amountCents,
      sessionRef,
      idempotencyKey,
      currency: this.options.currency,
      metadata: { [SITE_METADATA_KEY]: this.options.site },
      customer,
      paymentMethod,
      setupFutureUsage,
    });
    return { id: pi.id, clientSecret: pi.clientSecret, amountCents: pi.amountCents, currency: pi.currency };
  }

  /**
   * A Stripe customer for a shop account, marked with this installation and the account's number. The key
   * is the account's: a retry, or two first payments at once, get the same customer back from Stripe.
   */
  async createCustomer(userId: number): Promise<string> {
    const key = createHash('sha256').update(`${this.options.site}|${userId}`).digest('hex').slice(0, 40);
    return this.stripe.createCustomer({
      metadata: { [SITE_METADATA_KEY]: this.options.site, meshfront_user: String(userId) },
      idempotencyKey: `meshfront-customer-v1-${key}`,
    });
  }

  /**
   * The checkout asks Stripe (outside any transaction). A refusal message when there is no usable intent;
   * `retryable` when Stripe could not be asked (the intent may well be fine).
   */
  async retrieve(
    id: string,
  ): Promise<{ ok: true; intent: unknown } | { ok: false; message: string; retryable?: boolean }> {
    if (!/^pi_[A-Za-z0-9_]+$/.test(id)) return { ok: false, message: 'No card payment was found for this checkout.' };
    if (await this.options.isIntentUsed(id))
      return { ok: false, message: 'This card payment was already used for another order.' };
    try {
      // With the charge: a payment refunded meanwhile (Stripe's dashboard) must not pay an order.
      return { ok: true, intent: await this.stripe.retrievePaymentIntent(id, { withCharge: true }) };
    } catch (e) {
      if (isNoSuchIntent(e)) return { ok: false, message: 'No card payment was found for this checkout.' };
      return {
        ok: false,
        message: 'The card payment could not be checked with Stripe. Please try again.',
        retryable: true,
      };
    }
  }

  /** The acceptance rule (succeeded, exact amount and currency, bound to this session): null = accepted. */
  check(intent: unknown, expected: { amountCents: number; currency: string; sessionRef: string }): string | null {
    const r = checkPaymentIntentForCheckout({
      intent: intent as PaymentIntentSummary,
      expectedAmountCents: expected.amountCents,
      expectedCurrency: expected.currency,
      expectedMetadata: { session_ref: expected.sessionRef },
      isAlreadyUsed: () => false, // the unique index on (payment_method, transaction_id) decides, atomically
    });
    return r.ok ? null : r.message;
  }

  /** Stripe's word on a recorded payment; throws when Stripe cannot be asked. */
  async paymentState(id: string): Promise<PaymentState> {
    try {
      return (await this.stripe.retrievePaymentIntent(id)).status === 'succeeded' ? 'succeeded' : 'unpaid';
    } catch (e) {
      if (isNoSuchIntent(e)) return 'missing';
      throw e;
    }
  }

  /**
   * Whether a card checkout's intent is worth completing or refunding later: this installation's intent,
   * made for this session's cart, in the shop's currency, with the money taken or on its way.
   */
  isOwnPayment(intent: unknown, customerId: string): boolean {
    const pi = intent as PaymentIntentSummary;
    return (
      pi.metadata[SITE_METADATA_KEY] === this.options.site &&
      pi.metadata[SESSION_METADATA_KEY] === customerId &&
      Number.isSafeInteger(pi.amountCents) &&
      pi.amountCents > 0 &&
      pi.currency.toLowerCase() === this.options.currency.toLowerCase() &&
      (pi.status === 'succeeded' || pi.status === 'processing')
    );
  }

  /** Full refund of a card checkout the recovery could not complete (idempotent). */
  async refundUnplaced(id: string): Promise<void> {
    await this.stripe.refund({
      paymentIntentId: id,
      idempotencyKey: `meshfront-recovery-refund-${id}`,
      reason: 'requested_by_customer',
    });
  }

  /** Full refund of a payment no Checkout ever claimed (idempotent). */
  async refundOrphan(id: string): Promise<void> {
    await this.stripe.refund({
      paymentIntentId: id,
      idempotencyKey: `meshfront-orphan-refund-${id}`,
      reason: 'requested_by_customer',
      metadata: { reason: 'no Checkout reached the shop' },
    });
  }
}
