/**
 * Payment glue between the session cart, orders and the payment modules (src/server/payments/…):
 * `stripePaymentIntent` sizes a Stripe PaymentIntent from the session cart in exact cents; the engine
 * passes the card gateway's intent creator when the card settings are usable.
 */
import type { CartService, Who } from '../cart/service.ts';

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
}) => Promise<{ id: string; clientSecret: string | null; amountCents: number; currency: string }>;

export class PaymentsService {
  constructor(
    private readonly cart: CartService,
    /** Card payments (payments/stripe/gateway.ts); null when the card gateway is off. */
    private readonly createStripeIntent: StripeIntentCreator | null = null,
  ) {}

  /** The spec's getStripePaymentIntent. Failures are answers with `error`, not GraphQL errors (woonuxt-settings). */
  async stripePaymentIntent(who: Who, method: 'PAYMENT' | 'SETUP'): Promise<PaymentIntentAnswer> {
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
    if (method === 'SETUP') return answer({ error: 'Saving cards for later is not offered by this shop.' });
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
    const { createHash } = await import('node:crypto');
    const idempotencyKey = `meshfront-pi-v2-${createHash('sha256').update(`${who.customerId}|${fingerprint}`).digest('hex').slice(0, 40)}`;
    try {
      const pi = await this.createStripeIntent({
        amountCents: view.totalCents,
        sessionRef: who.customerId,
        idempotencyKey,
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
