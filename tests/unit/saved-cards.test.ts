import { describe, expect, it } from 'vitest';
import { translate } from '../../src/lib/i18n/index.ts';
import type { Lookup } from '../../src/lib/i18n/lookup.ts';
import {
  brandName,
  cardLabel,
  expiryLabel,
  initialChoice,
  isExpired,
  NEW_CARD,
  type SavedCard,
  savedCardsOf,
} from '../../src/islands/checkout/saved-cards.ts';

const card = (over: Partial<SavedCard> = {}): SavedCard => ({
  token: 'pm_1',
  last4: '4242',
  expiryMonth: '12',
  expiryYear: '2034',
  cardType: 'visa',
  isDefault: false,
  ...over,
});
const en: Lookup = (key, params) => translate('en_US', key, params);
const de: Lookup = (key, params) => translate('de_DE', key, params);
const MAY_2030 = new Date(Date.UTC(2030, 4, 15));

describe('saved cards at checkout and in the account', () => {
  it('keeps only well-formed cards from the engine answer', () => {
    expect(
      savedCardsOf([
        { token: 'pm_a', last4: '4242', expiryMonth: '01', expiryYear: '2031', cardType: 'visa', isDefault: true },
        { token: 'not-a-pm', last4: '1111' },
        { token: 'pm_b', last4: '12' },
        null,
        'pm_c',
      ]),
    ).toEqual([card({ token: 'pm_a', expiryMonth: '01', expiryYear: '2031', isDefault: true })]);
    expect(savedCardsOf(null)).toEqual([]);
  });

  it('chooses the default card first, else the first one still valid, else a new card', () => {
    const a = card({ token: 'pm_a' });
    const b = card({ token: 'pm_b', isDefault: true });
    const expiredDefault = card({ token: 'pm_x', isDefault: true, expiryMonth: '04', expiryYear: '2030' });
    expect(initialChoice([a, b], MAY_2030)).toBe('pm_b');
    expect(initialChoice([a], MAY_2030)).toBe('pm_a');
    expect(initialChoice([expiredDefault, a], MAY_2030)).toBe('pm_a');
    expect(initialChoice([expiredDefault], MAY_2030)).toBe(NEW_CARD);
    expect(initialChoice([], MAY_2030)).toBe(NEW_CARD);
  });

  it('counts a card valid through the last day of its expiry month', () => {
    expect(isExpired(card({ expiryMonth: '05', expiryYear: '2030' }), MAY_2030)).toBe(false);
    expect(isExpired(card({ expiryMonth: '04', expiryYear: '2030' }), MAY_2030)).toBe(true);
    expect(isExpired(card({ expiryMonth: '01', expiryYear: '2029' }), MAY_2030)).toBe(true);
    expect(isExpired(card({ expiryMonth: '', expiryYear: '' }), MAY_2030)).toBe(false);
  });

  it('names the card by brand and last four digits, with its expiry as MM/YY, in the shopper language', () => {
    const master = card({ cardType: 'mastercard', last4: '4444', expiryMonth: '3', expiryYear: '2031' });
    expect(cardLabel(en, master)).toBe('Mastercard •••• 4444');
    expect(expiryLabel(en, master)).toBe('Expires 03/31');
    expect(expiryLabel(de, master)).toBe('Gültig bis 03/31');
    expect(cardLabel(en, card({ cardType: 'unknown', last4: '0005' }))).toBe('•••• 0005');
    expect(brandName('amex')).toBe('American Express');
    expect(brandName('cartes_bancaires')).toBe('Cartes Bancaires');
    expect(brandName('newbrand')).toBe('Newbrand');
  });
});
