import { productDiscountPercent } from './discount.ts';
import { sortPriceCents } from './price.ts';
import type { CatalogProduct } from './types.ts';

export const SORT_KEYS = ['date', 'price', 'rating', 'discount', 'alphabetically'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortOrder = 'ASC' | 'DESC';
export const DEFAULT_SORT_KEY: SortKey = 'date';

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === 'string' && (SORT_KEYS as readonly string[]).includes(value);
}

/**
 * Descending unless told otherwise: no order (null/undefined/'') → DESC, 'DESC' in any case → DESC,
 * anything else → ASC.
 */
export function normaliseOrder(order: string | null | undefined): SortOrder {
  if (order === null || order === undefined || order.trim() === '') return 'DESC';
  return order.trim().toUpperCase() === 'DESC' ? 'DESC' : 'ASC';
}

type Value = number | string | null;

function sortValue(product: CatalogProduct, key: SortKey, order: SortOrder): Value {
  switch (key) {
    case 'price':
      return sortPriceCents(product, order);
    case 'rating':
      return product.averageRating ?? 0;
    case 'discount':
      return productDiscountPercent(product);
    case 'alphabetically':
      return product.name ?? '';
    case 'date': {
      // WPGraphQL dates are ISO-like without offset; compare them as timestamps, unknown → null.
      const time = product.date ? Date.parse(product.date) : Number.NaN;
      return Number.isNaN(time) ? null : time;
    }
  }
}

/**
 * Sorts a copy by price (ascending by the lowest of rawPrice's values, descending by the highest, as
 * WooCommerce and the engine: sortPriceCents), rating, discount (rounded sale percent),
 * alphabetically (localeCompare) or date (default for an unknown key). Products without a value
 * (no price, no date) go last in either direction; ties keep their incoming order.
 */
export function sortProducts<T extends CatalogProduct>(
  products: readonly T[],
  orderby: string | null | undefined,
  order?: string | null,
  locale?: string,
): T[] {
  const key: SortKey = isSortKey(orderby) ? orderby : DEFAULT_SORT_KEY;
  const normalised = normaliseOrder(order);
  const direction = normalised === 'DESC' ? -1 : 1;
  const keyed = products.map((product, index) => ({ product, index, value: sortValue(product, key, normalised) }));
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value === b.value) return a.index - b.index;
      return a.value === null ? 1 : -1;
    }
    const compared =
      typeof a.value === 'string' && typeof b.value === 'string'
        ? a.value.localeCompare(b.value, locale, { sensitivity: 'base' })
        : (a.value as number) - (b.value as number);
    return compared === 0 ? a.index - b.index : compared * direction;
  });
  return keyed.map((entry) => entry.product);
}
