/**
 * Payment glue between the session cart, orders and the payment modules (src/server/payments/…):
 * `stripePaymentIntent` sizes a Stripe PaymentIntent from the session cart in exact cents; the engine
 * passes the card gateway's intent creator when the card settings are usable.
 */
import { createHash } from 'node:crypto';
import type { CartService, Who } from '../cart/service.ts';
import { ShopperError } from '../i18n/shopper-error.ts';
import { renderText, text } from '../i18n/text.ts';
import type { LocaleCode } from '../../lib/i18n/locales.ts';

export type PaymentIntentAnswer = {
  id: string | null;
  amount: number | null;
  currency: string | null;
  clientSecret: string | null;
  error: string | null;
  stripePaymentMethod: string;
};

export type StripeIntentCreator = (input: {
  amountCents: number;
  sessionRef: string;
  idempotencyKey: string;
  customer?: string;
  paymentMethod?: string;
  setupFutureUsage?: 'off_session';
}) => Promise<{ id: string; clientSecret: string | null; amountCents: number; currency: string }>;

/** A card saved with the customer's Stripe customer. */
export type SavedCardView = {
  id: string;
  customer: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** The customer's default card at Stripe. */
  isDefault?: boolean;
};

/**
 * Saved cards: the customer's Stripe customer, kept on the account (customers domain) and made at Stripe
 * (payments/stripe/gateway.ts) the first time the customer pays by card.
 */
export type CardCustomers = {
  stored(userId: number): Promise<string | null>;
  record(userId: number, stripeCustomerId: string): Promise<string | null>;
  create(userId: number): Promise<string>;
  list(stripeCustomerId: string): Promise<{ cards: SavedCardView[]; defaultCard: string | null }>;
  retrieve(paymentMethodId: string): Promise<SavedCardView>;
  detach(paymentMethodId: string): Promise<void>;
};

/** What a payment method id from the browser must look like before Stripe is asked about it. */
const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]{1,200}$/;

/** The account number of a logged-in shopper (null: a guest). */
const userIdOf = (who: Who): number | null => (who.userId && /^\d+$/.test(who.userId) ? Number(who.userId) : null);

/** Stripe said there is no such payment method: for the shopper, the same as another customer's card. */
const isMissing = (e: unknown) => {
  const details = (e as { details?: { code?: string; statusCode?: number } }).details;
  return details?.code === 'resource_missing' || details?.statusCode === 404;
};

export class PaymentsService {
  constructor(
    private readonly cart: CartService,
    /** Card payments (payments/stripe/gateway.ts); null when the card gateway is off. */
    private readonly createStripeIntent: StripeIntentCreator | null = null,
    /** Saved cards of logged-in customers; null when the card gateway is off. */
    private readonly cards: CardCustomers | null = null,
  ) {}

  /** The account's Stripe customer as recorded; never made here (reading the account costs Stripe nothing). */
  async stripeCustomerId(userId: number): Promise<string | null> {
    return this.cards ? this.cards.stored(userId) : null;
  }

  /** The account's Stripe customer, made at Stripe and recorded the first time it is needed. */
  private async ensureStripeCustomer(cards: CardCustomers, userId: number): Promise<string> {
    const stored = await cards.stored(userId);
    if (stored) return stored;
    const created = await cards.create(userId);
    return (await cards.record(userId, created)) ?? created;
  }

  /** The cards saved with the account's Stripe customer; none before the customer has one. */
  async savedCards(userId: number): Promise<SavedCardView[]> {
    if (!this.cards) return [];
    const customer = await this.cards.stored(userId);
    if (!customer) return [];
    try {
      const { cards, defaultCard } = await this.cards.list(customer);
      return cards.map((card) => ({ ...card, isDefault: card.id === defaultCard }));
    } catch {
      throw new ShopperError(text('savedCards.unavailable'), 'STRIPE_UNAVAILABLE');
    }
  }

  /**
   * A saved card of this account, as Stripe has it; refuses (as a ShopperError) a card that is not
   * attached to the account's own Stripe customer: another customer's card, a detached or unknown one.
   */
  private async ownCard(cards: CardCustomers, userId: number, paymentMethodId: string): Promise<SavedCardView> {
    const notYours = () => new ShopperError(text('savedCards.notYours'), 'SAVED_CARD_NOT_FOUND');
    if (!PAYMENT_METHOD_ID.test(paymentMethodId)) throw notYours();
    const customer = await cards.stored(userId);
    if (!customer) throw notYours();
    let card: SavedCardView;
    try {
      card = await cards.retrieve(paymentMethodId);
    } catch (e) {
      if (isMissing(e)) throw notYours();
      throw new ShopperError(text('savedCards.unavailable'), 'STRIPE_UNAVAILABLE');
    }
    if (card.customer !== customer) throw notYours();
    return card;
  }

  /** Detaches one of the account's saved cards at Stripe; another customer's card is refused untouched. */
  async removeSavedCard(userId: number, paymentMethodId: string): Promise<void> {
    if (!this.cards) throw new ShopperError(text('savedCards.notYours'), 'SAVED_CARD_NOT_FOUND');
    await this.ownCard(this.cards, userId, paymentMethodId);
    try {
      await this.cards.detach(paymentMethodId);
    } catch {
      throw new ShopperError(text('savedCards.unavailable'), 'STRIPE_UNAVAILABLE');
    }
  }

  /**
   * The spec's getStripePaymentIntent. Failures are answers with `error`, not GraphQL errors (woonuxt-settings).
   * A logged-in customer's intent carries the account's Stripe customer; `saveForFuture` keeps the card the
   * shopper enters, `paymentMethodId` pays with a card saved before (the account's own only).
   */
  async stripePaymentIntent(
    who: Who,
    method: 'PAYMENT' | 'SETUP',
    options: {
      locale: LocaleCode;
      saveForFuture?: boolean;
      paymentMethodId?: string | null;
      customerId?: string | null;
    } = { locale: 'en_US' },
  ): Promise<PaymentIntentAnswer> {
    const answer = (e: Partial<PaymentIntentAnswer>): PaymentIntentAnswer => ({
      id: null,
      amount: null,
      currency: null,
      clientSecret: null,
      error: null,
      stripePaymentMethod: method,
      ...e,
    });
    if (!this.createStripeIntent) return answer({ error: 'Stripe is not enabled or configured properly' });
    // A card is saved with a payment (PAYMENT with saveForFuture), never on its own: no SetupIntents.
    if (method === 'SETUP')
      return answer({ error: 'A card is saved with a payment: ask for PAYMENT with saveForFuture.' });
    const view = await this.cart.view(who);
    if (!view.lines.length) return answer({ error: 'WooCommerce cart is not available' });
    if (view.totalCents <= 0) return answer({ error: 'Cart amount must be greater than 0' });
    // Same session + same cart contents and total → same key → Stripe returns the same intent. `v2`: the
    // intents now carry the installation marker (payments/stripe/reconcile.ts), and Stripe refuses a key
    // reused with other parameters, so keys from before that change must not be reused.
    const fingerprint = JSON.stringify([
      view.lines.map((l) => [l.key, l.quantity]),
      view.coupons.map((c) => c.coupon.code),
      view.chosenShippingMethods,
      view.totalCents,
    ]);
    // A logged-in customer pays under the account's Stripe customer; a guest never gets one.
    const userId = userIdOf(who);
    let customer: string | undefined;
    let paymentMethod: string | undefined;
    let setupFutureUsage: 'off_session' | undefined;
    if (options.paymentMethodId && (userId === null || !this.cards))
      return answer({ error: renderText(text('savedCards.loginRequired'), options.locale) });
    if (userId !== null && this.cards) {
      try {
        customer = await this.ensureStripeCustomer(this.cards, userId);
        // A storefront passes the id it read from the viewer; any other customer's id is refused.
        if (options.customerId && options.customerId !== customer)
          return answer({ error: renderText(text('savedCards.notYours'), options.locale) });
        if (options.paymentMethodId)
          paymentMethod = (await this.ownCard(this.cards, userId, options.paymentMethodId)).id;
        else if (options.saveForFuture) setupFutureUsage = 'off_session';
      } catch (err) {
        if (err instanceof ShopperError && err.text) return answer({ error: renderText(err.text, options.locale) });
        return answer({ error: renderText(text('savedCards.unavailable'), options.locale) });
      }
    } else if (options.customerId)
      return answer({ error: renderText(text('savedCards.loginRequired'), options.locale) });
    // The customer, the card and the wish to save it change what Stripe is asked: part of the key.
    const keyed = customer
      ? `${fingerprint}|${JSON.stringify([customer, paymentMethod ?? '', setupFutureUsage ?? ''])}`
      : fingerprint;
    const idempotencyKey = `meshfront-pi-v2-${createHash('sha256').update(`${who.customerId}|${keyed}`).digest('hex').slice(0, 40)}`;
    try {
      const pi = await this.createStripeIntent({
        amountCents: view.totalCents,
        sessionRef: who.customerId,
        idempotencyKey,
        customer,
        paymentMethod,
        setupFutureUsage,
      });
      return answer({
        id: pi.id,
        amount: pi.amountCents,
        currency: pi.currency.toUpperCase(),
        clientSecret: pi.clientSecret,
      });
    } catch (err) {
      return answer({ error: (err as Error).message || 'Failed to create Stripe intent' });
    }
  }
}
