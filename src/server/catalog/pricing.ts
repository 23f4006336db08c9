/** Prices, sale state and stock status derived from a product or variation, the way WooCommerce derives them. */
import type { ProductModel, StockFields, VariationModel } from './snapshot.ts';

export type StockStatus = 'instock' | 'outofstock' | 'onbackorder';

function saleActive(
  salePriceCents: number | null,
  regularPriceCents: number | null,
  from: Date | null,
  to: Date | null,
  now: number,
): boolean {
  if (salePriceCents === null || regularPriceCents === null || salePriceCents >= regularPriceCents) return false;
  if (from && from.getTime() > now) return false;
  if (to && to.getTime() < now) return false;
  return true;
}

export function variationOnSale(v: VariationModel, now = Date.now()): boolean {
  return saleActive(v.salePriceCents, v.regularPriceCents, null, null, now);
}

export function variationPrice(v: VariationModel, now = Date.now()): number {
  return variationOnSale(v, now) ? v.salePriceCents! : v.regularPriceCents;
}

export function productOnSale(p: ProductModel, now = Date.now()): boolean {
  if (p.type === 'variable') return p.variations.some((v) => variationOnSale(v, now));
  return saleActive(p.salePriceCents, p.regularPriceCents, p.dateOnSaleFrom, p.dateOnSaleTo, now);
}

/** Current price of a simple/external product; for variable products see priceRange. */
export function productPrice(p: ProductModel, now = Date.now()): number | null {
  if (p.type === 'variable') return priceRange(p, now)?.[0] ?? null;
  return productOnSale(p, now) ? p.salePriceCents : p.regularPriceCents;
}

/** [min, max] current price (variations for variable products). */
export function priceRange(p: ProductModel, now = Date.now()): [number, number] | null {
  if (p.type !== 'variable') {
    const price = productPrice(p, now);
    return price === null ? null : [price, price];
  }
  if (!p.variations.length) return null;
  const prices = p.variations.map((v) => variationPrice(v, now));
  return [Math.min(...prices), Math.max(...prices)];
}

export function stockStatusOf(s: StockFields): StockStatus {
  if (!s.manageStock) return s.storedStockStatus;
  if ((s.stockQuantity ?? 0) > 0) return 'instock';
  return s.backorders === 'no' ? 'outofstock' : 'onbackorder';
}

/** A variable product is in stock if any variation is, else on backorder if any is, else out of stock. */
export function productStockStatus(p: ProductModel): StockStatus {
  if (p.type !== 'variable' || p.manageStock) return stockStatusOf(p);
  const statuses = p.variations.map(stockStatusOf);
  if (statuses.includes('instock')) return 'instock';
  if (statuses.includes('onbackorder')) return 'onbackorder';
  return p.variations.length ? 'outofstock' : stockStatusOf(p);
}

/** WooCommerce's `rated-N` bucket: the average rounded to a whole star (0 = unrated). */
export function ratingBucket(p: ProductModel): number {
  return Math.round(p.averageRating);
}
