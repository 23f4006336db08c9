/**
 * The cart, checkout and order islands' strings for a locale (build time only: pages call it and pass
 * the result as a prop). Keys cart.*, checkout.*, order.* come from locales/<code>.json; until the lead
 * has merged tmp-locales/cart.<code>.json into locales/, those drafts fill the gaps. English fills any
 * key a locale lacks.
 */
import { MESSAGES } from '../../lib/i18n';
import { DEFAULT_LOCALE, type LocaleCode } from '../../lib/i18n/locales';

const drafts = import.meta.glob('../../../tmp-locales/cart.*.json', { eager: true, import: 'default' }) as Record<
  string,
  Record<string, string>
>;

function draftFor(code: LocaleCode): Record<string, string> {
  return drafts[`../../../tmp-locales/cart.${code}.json`] ?? {};
}

export const COMMERCE_PREFIXES = ['cart.', 'checkout.', 'order.'] as const;

export function commerceStrings(code: LocaleCode, prefixes: readonly string[] = COMMERCE_PREFIXES): Record<string, string> {
  const out: Record<string, string> = {};
  const sources = [draftFor(DEFAULT_LOCALE.code), MESSAGES[DEFAULT_LOCALE.code], draftFor(code), MESSAGES[code]];
  for (const source of sources) {
    for (const [key, value] of Object.entries(source ?? {})) {
      if (prefixes.some((p) => key.startsWith(p))) out[key] = value;
    }
  }
  return out;
}
