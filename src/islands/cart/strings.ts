/**
 * The cart, checkout and order islands' strings for a locale (build time only: pages call it and pass
 * the result as a prop, so islands ship no i18n runtime). Keys cart.*, checkout.*, order.* live in
 * locales/<code>.json; English fills any key a locale lacks.
 */
import { pickStrings } from '../../lib/i18n';
import type { LocaleCode } from '../../lib/i18n/locales';

export const COMMERCE_PREFIXES = ['cart.', 'checkout.', 'order.'] as const;

export function commerceStrings(
  code: LocaleCode,
  prefixes: readonly string[] = COMMERCE_PREFIXES,
): Record<string, string> {
  return pickStrings(code, prefixes);
}
