/**
 * "Saved cards" on the account's details tab: the cards the customer kept with Stripe when paying
 * ("Save this card for next time" at checkout), each with a Remove button that detaches it at Stripe
 * (removeSavedPaymentMethod; the engine refuses a card that is not the customer's own). Shown only when
 * the shop takes cards.
 */
import { useEffect, useState } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import { accountRequest } from '../../stores/account';
import { brandName, cardLabel, expiryLabel, type SavedCard, savedCardsOf } from '../checkout/saved-cards';
import { BUTTON_SECONDARY, FormNotice, Section, type Notice } from './ui';

function cardsEnabled(): boolean {
  return Boolean((import.meta as { env?: Record<string, string | undefined> }).env?.PUBLIC_STRIPE_PUBLISHABLE_KEY);
}

/** The engine's refusal as it says it (already in the shopper's language), else our own text. */
const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.name === 'GraphQLRequestError' && error.message ? error.message : fallback;

export default function SavedCardsSection({ t, enabled = cardsEnabled() }: { t: Lookup; enabled?: boolean }) {
  const [cards, setCards] = useState<SavedCard[] | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    accountRequest('getSavedPaymentMethods', {})
      .then((data) => !cancelled && setCards(savedCardsOf(data.viewer?.savedPaymentMethods)))
      .catch((error) => {
        if (cancelled) return;
        setCards([]);
        setNotice({ tone: 'error', text: messageOf(error, t('account.savedCards.loadFailed')) });
      });
    return () => {
      cancelled = true;
    };
  }, [enabled, t]);

  if (!enabled) return null;

  async function remove(card: SavedCard) {
    setRemoving(card.token);
    setNotice(null);
    try {
      const { removeSavedPaymentMethod } = await accountRequest('removeSavedPaymentMethod', { token: card.token });
      setCards(savedCardsOf(removeSavedPaymentMethod?.savedPaymentMethods));
      setNotice({ tone: 'success', text: t('account.savedCards.removed') });
    } catch (error) {
      setNotice({ tone: 'error', text: messageOf(error, t('account.savedCards.loadFailed')) });
    } finally {
      setRemoving(null);
    }
  }

  return (
    <Section title={t('account.savedCards.title')} id="details-saved-cards-title">
      <div className="space-y-3" data-saved-cards={cards?.length ?? 'loading'}>
        <FormNotice notice={notice} />
        {cards === null ? (
          <p role="status" className="text-sm text-gray-700">
            {t('account.savedCards.loading')}
          </p>
        ) : cards.length === 0 ? (
          <p className="text-sm text-gray-700">{t('account.savedCards.empty')}</p>
        ) : (
          <ul className="divide-y divide-gray-200 rounded-md border border-gray-200">
            {cards.map((card) => (
              <li key={card.token} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-gray-900" data-saved-card={card.last4}>
                    {cardLabel(t, card)}
                    {card.isDefault && (
                      <span className="ml-2 rounded bg-gray-100 px-1.5 py-0.5 text-xs font-normal text-gray-700">
                        {t('account.savedCards.default')}
                      </span>
                    )}
                  </p>
                  <p className="text-xs text-gray-600">{expiryLabel(t, card)}</p>
                </div>
                <button
                  type="button"
                  className={BUTTON_SECONDARY}
                  onClick={() => remove(card)}
                  disabled={removing !== null}
                  aria-label={t('account.savedCards.removeNamed', {
                    brand: brandName(card.cardType),
                    last4: card.last4,
                  })}
                  data-remove-card={card.last4}
                >
                  {removing === card.token ? t('account.savedCards.removing') : t('account.savedCards.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}
