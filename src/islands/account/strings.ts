/**
 * The strings the account islands need (build time: pages pass them as a prop). Besides account.*, the
 * address fields reused from the checkout, the order statuses and the wishlist list.
 */
import { pickStrings } from '../../lib/i18n';
import type { LocaleCode } from '../../lib/i18n/locales';

export const ACCOUNT_STRING_PREFIXES = [
  'account.',
  'wishlist.',
  'checkout.field.',
  'checkout.error.',
  'checkout.loadingCountries',
  'order.statusName.',
] as const;

export function accountStrings(code: LocaleCode): Record<string, string> {
  return pickStrings(code, ACCOUNT_STRING_PREFIXES);
}
