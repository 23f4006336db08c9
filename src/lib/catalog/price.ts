import { formatEUR, highestRawPrice, parseRawPrices } from '../money.ts';
import type { PricedFields } from './types.ts';

/**
 * The one price the catalog filters and sorts by, in cents: the highest of `rawPrice`'s values (for
 * a variable product the most expensive variation, for others its only price). Choosing the highest
 * for both the price filter and the price sort keeps them consistent: a product that passes
 * `price[10,200]` is sorted by the same number the filter checked. Falls back to `rawRegularPrice`
 * when the engine returned no current price; null when neither holds an amount.
 */
export function catalogPriceCents(product: PricedFields): number | null {
  return highestRawPrice(product.rawPrice) ?? highestRawPrice(product.rawRegularPrice);
}

export interface PriceDisplay {
  /** What the shopper pays (a range for a variable product). */
  price: string;
  /** The struck-through regular price when on sale, else null. */
  regularPrice: string | null;
  onSale: boolean;
}

function rangeFromRaw(raw: string | null | undefined): string {
  const prices = parseRawPrices(raw);
  if (!prices.length) return '';
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return low === high ? formatEUR(low) : `${formatEUR(low)} – ${formatEUR(high)}`;
}

/**
 * The price strings a card or product page shows: the engine's FORMATTED strings when present (they
 * follow the store's format), else euros formatted from the RAW amounts.
 */
export function priceDisplay(item: PricedFields): PriceDisplay {
  const price = item.price || rangeFromRaw(item.rawPrice) || item.regularPrice || rangeFromRaw(item.rawRegularPrice);
  const regular = item.regularPrice || rangeFromRaw(item.rawRegularPrice);
  const onSale = Boolean(item.onSale) && Boolean(regular) && regular !== price;
  return { price, regularPrice: onSale ? regular : null, onSale };
}
