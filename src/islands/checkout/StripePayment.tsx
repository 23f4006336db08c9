/**
 * Card payment with Stripe's Payment Element. Loaded (with Stripe.js) only when the shopper chooses
 * card: the checkout imports this module lazily. It asks the engine for a PaymentIntent sized from the
 * session cart (getStripePaymentIntent), mounts the Payment Element with its client secret, and hands
 * the checkout a `confirm` function: confirmPayment with redirect 'if_required'; the checkout then
 * places the order with transactionId = the intent id, and the engine verifies the intent itself.
 *
 * The parent remounts this component (key) when the cart total changes, so the intent always matches
 * the amount being ordered.
 *
 * A logged-in customer with cards saved at Stripe picks one of them or a new card; a new card can be kept
 * for next time ("Save this card"). Each choice is its own intent (the engine puts the saved card, or the
 * wish to keep the new one, on it), so changing the choice asks for the intent again; a saved card is
 * confirmed by Stripe.js with its id alone, no card form is shown for it.
 *
 * No consent is asked for Stripe.js (unlike reCAPTCHA, src/stores/consent.ts): it loads only here, while
 * card payment is the selected method, and the card payment the shopper is making cannot happen without
 * it, so it and its fraud-prevention cookies are strictly necessary (src/lib/privacy/cookies-and-processors.ts).
 */
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { PaymentIntent, StripeError } from '@stripe/stripe-js';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { request } from '../../graphql/client';
import type { Lookup } from '../../lib/i18n/lookup';
import { accountRequest } from '../../stores/account';
import {
  cardLabel,
  expiryLabel,
  initialChoice,
  isExpired,
  NEW_CARD,
  type SavedCard,
  savedCardsOf,
} from './saved-cards';

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
  /** A logged-in customer may pay with a saved card and save a new one. */
  loggedIn?: boolean;
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

/** What the checkout is told after Stripe.js confirmed (or refused) the payment. */
function outcome(error: StripeError | undefined, paymentIntent: PaymentIntent | undefined): CardConfirmResult {
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
}

export default function StripePayment({ t, onReady, publishableKey = envKey(), loggedIn = false }: StripePaymentProps) {
  const [setup, setSetup] = useState<Setup>({ state: 'loading' });
  // null while a logged-in customer's saved cards are asked for; a guest has none.
  const [cards, setCards] = useState<SavedCard[] | null>(loggedIn ? null : []);
  const [choice, setChoice] = useState<string>(NEW_CARD);
  const [save, setSave] = useState(false);
  const listId = useId();

  useEffect(() => {
    if (!loggedIn) return;
    let cancelled = false;
    accountRequest('getSavedPaymentMethods', {})
      .then((data) => {
        if (cancelled) return;
        const list = savedCardsOf(data.viewer?.savedPaymentMethods);
        setCards(list);
        setChoice(initialChoice(list));
      })
      // Saved cards out of reach: a new card still pays.
      .catch(() => !cancelled && setCards([]));
    return () => {
      cancelled = true;
    };
  }, [loggedIn]);

  const savedToken = choice === NEW_CARD ? null : choice;
  const saveForFuture = loggedIn && savedToken === null && save;

  // biome-ignore lint/correctness/useExhaustiveDependencies: one PaymentIntent per key and choice; `t` and `onReady` are new on every render of the checkout
  useEffect(() => {
    let cancelled = false;
    onReady(null);
    if (!publishableKey) {
      setSetup({ state: 'error', message: t('checkout.card.notConfigured') });
      return;
    }
    if (cards === null) return;
    setSetup({ state: 'loading' });
    (async () => {
      try {
        const [{ stripePaymentIntent: intent }, stripe] = await Promise.all([
          request('getStripePaymentIntent', {
            stripePaymentMethod: 'PAYMENT',
            saveForFuture,
            ...(savedToken ? { paymentMethodId: savedToken } : {}),
          }),
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
        if (savedToken) {
          const clientSecret = intent.clientSecret;
          // The saved card pays as it is: Stripe.js confirms the intent with the card's id.
          onReady(async (_billing, returnUrl) => {
            const { error, paymentIntent } = await stripe.confirmPayment({
              clientSecret,
              confirmParams: { payment_method: savedToken, return_url: returnUrl },
              redirect: 'if_required',
            });
            return outcome(error, paymentIntent);
          });
        }
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
  }, [publishableKey, cards, savedToken, saveForFuture]);

  let body: ReactNode;
  if (setup.state === 'loading') {
    body = (
      <p role="status" className="text-sm text-gray-700" data-card-state="loading">
        {t('checkout.card.loading')}
      </p>
    );
  } else if (setup.state === 'error') {
    body = (
      <p role="alert" className="text-sm text-red-700" data-card-state="error">
        {setup.message}
      </p>
    );
  } else if (savedToken) {
    body = (
      <p className="text-sm text-gray-700" data-card-state="ready" data-card-saved>
        {t('checkout.card.saved.paying')}
      </p>
    );
  } else {
    body = (
      <Elements stripe={setup.stripe} options={{ clientSecret: setup.clientSecret, appearance: { theme: 'stripe' } }}>
        <CardForm onReady={onReady} />
      </Elements>
    );
  }

  const usable = (cards ?? []).filter((card) => !isExpired(card));
  return (
    <div className="space-y-3" data-saved-cards={loggedIn ? usable.length : undefined}>
      {usable.length > 0 && (
        <fieldset className="space-y-2">
          <legend className="mb-1 font-medium text-gray-900">{t('checkout.card.saved.legend')}</legend>
          {usable.map((card) => (
            <label
              key={card.token}
              className="flex min-h-11 cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-gray-300 px-3 py-2 has-[:checked]:border-[rgb(var(--color-main))]"
            >
              <input
                type="radio"
                name={`${listId}-card`}
                value={card.token}
                checked={choice === card.token}
                onChange={() => setChoice(card.token)}
                className="size-4 accent-[rgb(var(--color-main))]"
              />
              <span className="font-medium text-gray-900" data-saved-card={card.last4}>
                {cardLabel(t, card)}
              </span>
              <span className="text-xs text-gray-600">{expiryLabel(t, card)}</span>
            </label>
          ))}
          <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-gray-300 px-3 py-2 has-[:checked]:border-[rgb(var(--color-main))]">
            <input
              type="radio"
              name={`${listId}-card`}
              value={NEW_CARD}
              checked={choice === NEW_CARD}
              onChange={() => setChoice(NEW_CARD)}
              className="size-4 accent-[rgb(var(--color-main))]"
            />
            <span className="font-medium text-gray-900">{t('checkout.card.saved.new')}</span>
          </label>
        </fieldset>
      )}
      {loggedIn && cards !== null && savedToken === null && (
        <label className="flex min-h-11 cursor-pointer items-center gap-3">
          <input
            type="checkbox"
            checked={save}
            onChange={(e) => setSave(e.target.checked)}
            className="size-4 accent-[rgb(var(--color-main))]"
            data-save-card
          />
          <span>{t('checkout.card.saved.save')}</span>
        </label>
      )}
      {body}
    </div>
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
      return outcome(error, paymentIntent);
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
