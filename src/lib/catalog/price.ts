import type { LocaleCode } from '../i18n/locales.ts';
import { pageLocale } from '../i18n/page-locale.ts';
import { formatMoney, highestRawPrice, lowestRawPrice, parseRawPrices } from '../money.ts';
import type { PricedFields } from './types.ts';

/**
 * The price the catalog's price filter checks, in cents: the highest of `rawPrice`'s values (for a
 * variable product the most expensive variation, for others its only price). Falls back to
 * `rawRegularPrice` when the engine returned no current price; null when neither holds an amount.
 * The price sort does not use it: see sortPriceCents.
 */
export function catalogPriceCents(product: PricedFields): number | null {
  return highestRawPrice(product.rawPrice) ?? highestRawPrice(product.rawRegularPrice);
}

/**
 * The price a price sort orders by, in cents — WooCommerce's rule, which the engine's PRICE ordering
 * follows too (src/server/catalog/service.ts): low to high by the cheapest variation, high to low by the
 * dearest one. A variable product at 10–99 € therefore comes before a 50 € product both ways, as it
 * would in WooCommerce. Same fallback as catalogPriceCents; null when there is no amount.
 */
export function sortPriceCents(product: PricedFields, order: 'ASC' | 'DESC'): number | null {
  const pick = order === 'ASC' ? lowestRawPrice : highestRawPrice;
  return pick(product.rawPrice) ?? pick(product.rawRegularPrice);
}

export interface PriceDisplay {
  /** What the shopper pays (a range for a variable product). */
  price: string;
  /** The struck-through regular price when on sale, else null. */
  regularPrice: string | null;
  onSale: boolean;
}

function rangeFromRaw(raw: string | null | undefined, locale: LocaleCode): string {
  const prices = parseRawPrices(raw);
  if (!prices.length) return '';
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return low === high ? formatMoney(low, locale) : `${formatMoney(low, locale)} – ${formatMoney(high, locale)}`;
}

/**
 * The price strings a card or product page shows: the engine's FORMATTED strings when present (they
 * follow the store's format and the language the page asked the engine for), else euros formatted from
 * the RAW amounts in `locale` (default: the page's).
 */
export function priceDisplay(item: PricedFields, locale: LocaleCode = pageLocale()): PriceDisplay {
  const price =
    item.price ||
    rangeFromRaw(item.rawPrice, locale) ||
    item.regularPrice ||
    rangeFromRaw(item.rawRegularPrice, locale);
  const regular = item.regularPrice || rangeFromRaw(item.rawRegularPrice, locale);
  const onSale = Boolean(item.onSale) && Boolean(regular) && regular !== price;
  return { price, regularPrice: onSale ? regular : null, onSale };
}
