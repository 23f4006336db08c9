import { filterProducts, hasActiveFilters, type CategoryParents } from './filters.ts';
import { isEmptyQuery, type CatalogQuery } from './query-url.ts';
import { searchProducts } from './search.ts';
import { sortProducts } from './sort.ts';
import type { CatalogProduct } from './types.ts';

export const PRODUCTS_PER_PAGE = 24;

function step<T>(name: string, list: T[], run: (list: T[]) => T[]): T[] {
  try {
    const result = run(list);
    if (!Array.isArray(result)) throw new Error(`${name} did not return a list`);
    return result;
  } catch (error) {
    // A broken step must not blank the shop: show the list as it was before the step.
    console.error(`Catalog ${name} failed; showing the list unchanged.`, error);
    return list;
  }
}

export interface ApplyOptions<T> {
  /** Locale for alphabetical sorting (bcp47). */
  locale?: string;
  /** The category tree, so a category filter includes subcategories' products (as the engine's). */
  categoryParents?: CategoryParents;
  /** Replaceable steps, for tests and for the engine-backed path. */
  filter?: (list: T[], query: CatalogQuery) => T[];
  search?: (list: T[], query: CatalogQuery) => T[];
  sort?: (list: T[], query: CatalogQuery) => T[];
}

/**
 * The product list a shopper sees for a query. The full list is never modified: with no filter,
 * search or sort it comes back as a copy; otherwise filter, then search, then sort. A non-array
 * input throws 'Products must be an array.'; a step that throws is logged and skipped.
 */
export function applyCatalogQuery<T extends CatalogProduct>(
  allProducts: readonly T[],
  query: CatalogQuery,
  options: ApplyOptions<T> = {},
): T[] {
  if (!Array.isArray(allProducts)) throw new Error('Products must be an array.');
  let list = allProducts.slice();
  if (isEmptyQuery(query)) return list;
  const filter = options.filter ?? ((items, q) => filterProducts(items, q.filters, options.categoryParents));
  const search = options.search ?? ((items, q) => searchProducts(items, q.search));
  const sort = options.sort ?? ((items, q) => sortProducts(items, q.orderby, q.order, options.locale));
  if (hasActiveFilters(query.filters)) list = step('filter', list, (items) => filter(items, query));
  if (query.search.trim()) list = step('search', list, (items) => search(items, query));
  if (query.orderby !== null || query.order !== null) list = step('sort', list, (items) => sort(items, query));
  return list;
}

export interface Pagination {
  /** 1-based position of the first item shown; 0 when there is nothing to show. */
  from: number;
  /** 1-based position of the last item shown; 0 when there is nothing to show. */
  to: number;
  total: number;
  /** Number of pages; at least 1 so page 1 of an empty list exists (it shows the empty state). */
  pages: number;
  /** The page, clamped into 1…pages. */
  page: number;
  perPage: number;
}

/** Numbers for 'Showing {from} to {to} of {total}' and the numbered pagination. */
export function pagination(total: number, page: number, perPage: number = PRODUCTS_PER_PAGE): Pagination {
  const safeTotal = Number.isFinite(total) && total > 0 ? Math.floor(total) : 0;
  const size = Number.isInteger(perPage) && perPage > 0 ? perPage : PRODUCTS_PER_PAGE;
  const pages = Math.max(1, Math.ceil(safeTotal / size));
  const current = Number.isInteger(page) ? Math.min(Math.max(page, 1), pages) : 1;
  if (safeTotal === 0) return { from: 0, to: 0, total: 0, pages, page: current, perPage: size };
  const from = (current - 1) * size + 1;
  const to = Math.min(current * size, safeTotal);
  return { from, to, total: safeTotal, pages, page: current, perPage: size };
}

/** The items of one page. */
export function pageSlice<T>(list: readonly T[], page: number, perPage: number = PRODUCTS_PER_PAGE): T[] {
  const { from, to } = pagination(list.length, page, perPage);
  return from === 0 ? [] : list.slice(from - 1, to);
}

/** A page number from a route parameter is valid when it is a whole number within 1…pages. */
export function isValidPage(n: unknown, pages: number): boolean {
  const value = typeof n === 'string' && /^\d+$/.test(n) ? Number(n) : n;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= Math.max(1, pages);
}

/**
 * Page numbers to render: always the first and last, a window around the current page, and null
 * where numbers are skipped (rendered as an ellipsis). pageNumbers(6, 12) → [1, null, 5, 6, 7, null, 12].
 */
export function pageNumbers(current: number, pages: number, around = 1): (number | null)[] {
  const result: (number | null)[] = [];
  for (let n = 1; n <= pages; n += 1) {
    if (n === 1 || n === pages || Math.abs(n - current) <= around) result.push(n);
    else if (result[result.length - 1] !== null) result.push(null);
  }
  return result;
}

const PAGED = /\/page\/(\d+)\/?$/;

/** '/de/products/page/3' → { base: '/de/products', page: 3 }; unpaged paths get page 1. */
export function parsePagedPath(pathname: string): { base: string; page: number } {
  const match = PAGED.exec(pathname);
  if (!match) return { base: pathname.replace(/\/+$/, '') || '/', page: 1 };
  return { base: pathname.slice(0, match.index) || '/', page: Number(match[1]) };
}

/** Path of page n of a listing: page 1 is the listing itself, others get '/page/{n}'. */
export function pagePath(basePath: string, page: number): string {
  const base = basePath.replace(/\/+$/, '');
  return page > 1 ? `${base}/page/${page}` : base || '/';
}

/** '/products/page/{n}' with an optional locale prefix ('/de'). */
export function productsPagePath(page: number, localePrefix = ''): string {
  return pagePath(`${localePrefix}/products`, page);
}

/** '/product-category/{slug}/page/{n}' with an optional locale prefix. */
export function categoryPagePath(slug: string, page: number, localePrefix = ''): string {
  return pagePath(`${localePrefix}/product-category/${encodeURIComponent(slug)}`, page);
}

/**
 * The path to show after the query changes: a new filter, search or sort starts again at page 1,
 * so '/page/{n}' is dropped; the rest of the route stays, so searching on
 * '/product-category/antennas/page/2' stays within '/product-category/antennas'.
 */
export function pathAfterQueryChange(pathname: string): string {
  return parsePagedPath(pathname).base;
}
