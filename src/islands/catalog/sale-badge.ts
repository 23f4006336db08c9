/**
 * The sale badge of a listing card and of the product page's price: "-21%" when one discount fits the
 * item, "Sale!" when the engine marks it on sale but no single percent does — a variable product with
 * only some variations on sale (WooCommerce shows "Sale!" on a variable product as soon as any
 * variation is on sale; a percent would promise every variation that discount).
 */
import { productDiscountPercent } from '../../lib/catalog/discount.ts';
import type { CatalogProduct, PricedFields } from '../../lib/catalog/types.ts';
import type { Lookup } from '../../lib/i18n/lookup.ts';
import { parseRawPrices } from '../../lib/money.ts';

export type SaleBadgeItem = PricedFields & Partial<Pick<CatalogProduct, 'type' | 'variations'>>;

/**
 * Whether every variation of a variable product is on sale: from the variations where they are loaded
 * (product page), otherwise from the raw price lists (listing), where the sale list names only the
 * variations on sale.
 */
function everyVariationOnSale(item: SaleBadgeItem): boolean {
  const variations = item.variations?.nodes ?? [];
  if (variations.length > 0) return variations.every((variation) => variation.onSale === true);
  return parseRawPrices(item.rawSalePrice).length >= parseRawPrices(item.rawRegularPrice).length;
}

/** The badge's text, or null when the item is not on sale. */
export function saleBadgeText(item: SaleBadgeItem, t: Lookup): string | null {
  if (!item.onSale) return null;
  if (item.type === 'VARIABLE' && !everyVariationOnSale(item)) return t('product.saleBadgeNoPercent');
  const percent = productDiscountPercent({ ...item, databaseId: 0 });
  return percent > 0 ? t('product.saleBadge', { percent }) : t('product.saleBadgeNoPercent');
}
