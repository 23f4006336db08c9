/**
 * The strings the account islands need (build time: pages pass them as a prop). Besides account.*, the
 * address fields reused from the checkout, the order statuses, the wishlist list and how a saved card is named.
 */
import { pickStrings } from '../../lib/i18n';
import type { LocaleCode } from '../../lib/i18n/locales';

export const ACCOUNT_STRING_PREFIXES = [
  'account.',
  'wishlist.',
  'checkout.field.',
  'checkout.error.',
  'checkout.loadingCountries',
  // A saved card's name and expiry, said as at checkout (Saved cards).
  'checkout.card.saved.',
  'order.statusName.',
] as const;

export function accountStrings(code: LocaleCode): Record<string, string> {
  return pickStrings(code, ACCOUNT_STRING_PREFIXES);
}
