import { highestRawPrice } from '../money.ts';
import type { CatalogProduct, PricedFields } from './types.ts';

/**
 * Sale badge percent: how much of the regular price the sale takes off, rounded to a whole percent
 * (regular 100.00, sale 79.00 → 21). No discount, a sale price at or above the regular price, or
 * missing prices → 0, so callers can show a badge only when the result is positive.
 */
export function discountPercent(regularCents: number | null, saleCents: number | null): number {
  if (regularCents === null || saleCents === null) return 0;
  if (regularCents <= 0 || saleCents < 0 || saleCents >= regularCents) return 0;
  // Integer arithmetic until the final division keeps e.g. 1/3 off from drifting.
  return Math.round(((regularCents - saleCents) * 100) / regularCents);
}

function pricedDiscount(item: PricedFields): number {
  return discountPercent(highestRawPrice(item.rawRegularPrice), highestRawPrice(item.rawSalePrice));
}

/**
 * The product's badge percent. Products not marked onSale get 0.
 *
 * Variable products: when the variations are loaded, the largest discount of any variation on sale
 * ("up to"); otherwise the highest regular against the highest sale price of the RAW lists — the
 * same "highest value" rule the price filter uses, because the lists are sorted independently
 * and cannot be paired per variation.
 */
export function productDiscountPercent(product: CatalogProduct): number {
  if (!product.onSale) return 0;
  const variations = product.variations?.nodes ?? [];
  if (product.type === 'VARIABLE' && variations.length > 0) {
    let best = 0;
    for (const variation of variations) {
      if (variation.onSale === false) continue;
      best = Math.max(best, pricedDiscount(variation));
    }
    if (best > 0) return best;
  }
  return pricedDiscount(product);
}
