/**
 * The logged-in customer's saved cards as the checkout and the account show them: which one is chosen
 * first, how a card is named (brand, •••• last four digits) and its expiry. Shared by the checkout's card
 * choice (StripePayment.tsx) and the account's Saved cards section.
 */
import type { Lookup } from '../../lib/i18n/lookup';

/** A saved card as getSavedPaymentMethods answers it (the WooGraphQL Stripe plugin's shape). */
export type SavedCard = {
  token: string;
  last4: string;
  expiryMonth: string;
  expiryYear: string;
  cardType: string;
  isDefault: boolean;
};

/** The choice "a new card" in the checkout's list. */
export const NEW_CARD = 'new';

/** Well-formed saved cards from an engine answer; anything else is left out rather than shown half. */
export function savedCardsOf(list: readonly unknown[] | null | undefined): SavedCard[] {
  const out: SavedCard[] = [];
  for (const item of list ?? []) {
    if (!item || typeof item !== 'object') continue;
    const c = item as Record<string, unknown>;
    if (typeof c.token !== 'string' || !/^pm_\w+$/.test(c.token)) continue;
    if (typeof c.last4 !== 'string' || !/^\d{4}$/.test(c.last4)) continue;
    out.push({
      token: c.token,
      last4: c.last4,
      expiryMonth: typeof c.expiryMonth === 'string' ? c.expiryMonth : '',
      expiryYear: typeof c.expiryYear === 'string' ? c.expiryYear : '',
      cardType: typeof c.cardType === 'string' ? c.cardType : '',
      isDefault: c.isDefault === true,
    });
  }
  return out;
}

/** Whether the card's expiry month is over (a card is valid through the last day of its month). */
export function isExpired(card: SavedCard, now = new Date()): boolean {
  const month = Number(card.expiryMonth);
  const year = Number(card.expiryYear);
  if (!Number.isInteger(month) || !Number.isInteger(year) || month < 1 || month > 12) return false;
  return year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
}

/** The card the checkout selects first: the default, else the first one that has not expired; else a new card. */
export function initialChoice(cards: readonly SavedCard[], now = new Date()): string {
  const usable = cards.filter((c) => !isExpired(c, now));
  return (usable.find((c) => c.isDefault) ?? usable[0])?.token ?? NEW_CARD;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
  eftpos_au: 'eftpos',
  link: 'Link',
};

/** The brand's name as printed on cards ("mastercard" → "Mastercard"); an unknown brand as Stripe names it. */
export function brandName(cardType: string): string {
  const key = cardType.trim().toLowerCase();
  if (BRANDS[key]) return BRANDS[key];
  if (!key || key === 'unknown') return '';
  return key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ');
}

/** "Visa •••• 4242" */
export function cardLabel(t: Lookup, card: SavedCard): string {
  return t('checkout.card.saved.card', { brand: brandName(card.cardType), last4: card.last4 }).trim();
}

/** "Expires 03/31" (month with two digits, year with its last two). */
export function expiryLabel(t: Lookup, card: SavedCard): string {
  const month = card.expiryMonth.padStart(2, '0');
  const year = card.expiryYear.slice(-2);
  return t('checkout.card.saved.expires', { month, year });
}
