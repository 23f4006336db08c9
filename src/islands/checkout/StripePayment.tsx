/**
 * Card payment with Stripe's Payment Element. Loaded (with Stripe.js) only when the shopper chooses
 * card: the checkout imports this module lazily. It asks the engine for a PaymentIntent sized from the
 * session cart (getStripePaymentIntent), mounts the Payment Element with its client secret, and hands
 * the checkout a `confirm` function: confirmPayment with redirect 'if_required'; the checkout then
 * places the order with transactionId = the intent id, and the engine verifies the intent itself.
 *
 * The parent remounts this component (key) when the cart total changes, so the intent always matches
 * the amount being ordered.
 */
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useState } from 'react';
import { request } from '../../graphql/client';
import type { Lookup } from '../../lib/i18n/lookup';

export type CardConfirmResult = { ok: true; intentId: string } | { ok: false; message: string };
export type CardConfirm = (
  billing: { name: string; email: string; phone?: string },
  returnUrl: string,
) => Promise<CardConfirmResult>;

export interface StripePaymentProps {
  t: Lookup;
  /** Receives the confirm function once the Payment Element is ready (null while it is not). */
  onReady: (confirm: CardConfirm | null) => void;
  publishableKey?: string;
}

let stripePromise: Promise<Stripe | null> | null = null;
function stripeFor(key: string): Promise<Stripe | null> {
  stripePromise ??= loadStripe(key).catch((error) => {
    stripePromise = null;
    throw error;
  });
  return stripePromise;
}

function envKey(): string | undefined {
  return (import.meta as { env?: Record<string, string | undefined> }).env?.PUBLIC_STRIPE_PUBLISHABLE_KEY || undefined;
}

type Setup =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; clientSecret: string; stripe: Stripe };

export default function StripePayment({ t, onReady, publishableKey = envKey() }: StripePaymentProps) {
  const [setup, setSetup] = useState<Setup>({ state: 'loading' });

  // biome-ignore lint/correctness/useExhaustiveDependencies: one PaymentIntent per key; `t` and `onReady` are new on every render of the checkout
  useEffect(() => {
    let cancelled = false;
    onReady(null);
    if (!publishableKey) {
      setSetup({ state: 'error', message: t('checkout.card.notConfigured') });
      return;
    }
    (async () => {
      try {
        const [{ stripePaymentIntent: intent }, stripe] = await Promise.all([
          request('getStripePaymentIntent', { stripePaymentMethod: 'PAYMENT' }),
          stripeFor(publishableKey),
        ]);
        if (cancelled) return;
        if (!intent || intent.error || !intent.clientSecret) {
          setSetup({ state: 'error', message: intent?.error || t('checkout.card.intentFailed') });
          return;
        }
        if (!stripe) {
          setSetup({ state: 'error', message: t('checkout.card.loadFailed') });
          return;
        }
        setSetup({ state: 'ready', clientSecret: intent.clientSecret, stripe });
      } catch (error) {
        if (cancelled) return;
        const message =
          error instanceof Error && error.name === 'GraphQLRequestError'
            ? error.message
            : t('checkout.card.loadFailed');
        setSetup({ state: 'error', message });
      }
    })();
    return () => {
      cancelled = true;
      onReady(null);
    };
  }, [publishableKey]);

  if (setup.state === 'loading') {
    return (
      <p role="status" className="text-sm text-gray-700" data-card-state="loading">
        {t('checkout.card.loading')}
      </p>
    );
  }
  if (setup.state === 'error') {
    return (
      <p role="alert" className="text-sm text-red-700" data-card-state="error">
        {setup.message}
      </p>
    );
  }
  return (
    <Elements stripe={setup.stripe} options={{ clientSecret: setup.clientSecret, appearance: { theme: 'stripe' } }}>
      <CardForm onReady={onReady} />
    </Elements>
  );
}

function CardForm({ onReady }: { onReady: StripePaymentProps['onReady'] }) {
  const stripe = useStripe();
  const elements = useElements();

  useEffect(() => {
    if (!stripe || !elements) return;
    const confirm: CardConfirm = async (billing, returnUrl) => {
      const submitted = await elements.submit();
      if (submitted.error) return { ok: false, message: submitted.error.message ?? '' };
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        redirect: 'if_required',
        confirmParams: {
          return_url: returnUrl,
          payment_method_data: {
            billing_details: {
              name: billing.name,
              email: billing.email,
              ...(billing.phone ? { phone: billing.phone } : {}),
            },
          },
        },
      });
      if (error) return { ok: false, message: error.message ?? '' };
      if (!paymentIntent) return { ok: false, message: '' };
      if (
        paymentIntent.status === 'succeeded' ||
        paymentIntent.status === 'processing' ||
        paymentIntent.status === 'requires_capture'
      ) {
        return { ok: true, intentId: paymentIntent.id };
      }
      return { ok: false, message: paymentIntent.last_payment_error?.message ?? '' };
    };
    onReady(confirm);
    return () => onReady(null);
  }, [stripe, elements, onReady]);

  return (
    <div data-card-state="ready">
      <PaymentElement options={{ layout: 'tabs', fields: { billingDetails: { name: 'never', email: 'never' } } }} />
    </div>
  );
}
