/**
 * Shipping method labels in the shopper's language. The shop's default labels ("Flat rate", "Free
 * shipping", "Local pickup", "International flat rate" — shop/settings.ts) are the engine's words and are
 * translated; a label the operator typed into the settings is the shop's own and stays as typed.
 */
import type { LocaleCode } from '../../lib/i18n/locales.ts';
import { renderText, text } from '../i18n/text.ts';

const DEFAULT_LABELS: Readonly<Record<string, string>> = {
  'Flat rate': 'shipping.flatRate',
  'Free shipping': 'shipping.freeShipping',
  'Local pickup': 'shipping.localPickup',
  'International flat rate': 'shipping.internationalFlatRate',
};

export function shippingLabel(label: string, locale: LocaleCode): string {
  const key = Object.hasOwn(DEFAULT_LABELS, label) ? DEFAULT_LABELS[label] : undefined;
  return key ? renderText(text(key), locale) : label;
}
