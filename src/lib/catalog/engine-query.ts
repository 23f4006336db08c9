/**
 * The seam between browser-side filtering and asking the engine. Small catalogs arrive whole with the
 * static page and are filtered in the browser; beyond `ENGINE_THRESHOLD` products the island sends the
 * same query to the engine as `products(where: …)` with the same URL syntax and the same results.
 *
 * Two things the engine cannot express in WooGraphQL's `where` are kept in the browser: the `discount`
 * sort (no ProductsOrderByEnum value), and price filtering by the *highest* variation price (WooGraphQL's
 * minPrice/maxPrice match on a price-range overlap). `needsLocalRefinement` tells the caller.
 */
import type { OperationVariables } from '../../graphql/shapes.ts';
import { centsToDecimal } from '../money.ts';
import type { CatalogQuery } from './query-url.ts';
import { normaliseOrder } from './sort.ts';

/** Products in the catalog above which the listing island asks the engine instead. */
export const ENGINE_THRESHOLD = 500;

/** getProducts' `where` argument. */
type ProductsWhere = NonNullable<OperationVariables<'getProducts'>['where']>;

const ORDERBY_FIELD = { date: 'DATE', price: 'PRICE', rating: 'RATING', alphabetically: 'NAME' } as const;

/** Variables for the getProducts operation's `where` argument. */
export function productsWhere(query: CatalogQuery): ProductsWhere {
  // Same defaults as getProducts without `where`: what the static listing shows.
  const where: ProductsWhere = { status: 'publish', visibility: 'VISIBLE' };
  const { filters } = query;
  if (filters.categories.length) where.categoryIn = filters.categories;
  if (query.search.trim()) where.search = query.search.trim();
  // WooGraphQL takes floats here and ignores 0; decimal strings → Number keep two decimals exactly enough.
  if (filters.price?.min) where.minPrice = Number(centsToDecimal(filters.price.min));
  if (filters.price?.max !== null && filters.price?.max !== undefined)
    where.maxPrice = Number(centsToDecimal(filters.price.max));
  if (filters.sale) where.onSale = true;
  if (filters.rating !== null) where.rating = [1, 2, 3, 4, 5].filter((n) => n >= (filters.rating as number));
  const queries = Object.entries(filters.attributes)
    .filter(([, terms]) => terms.length > 0)
    .map(([taxonomy, terms]) => ({ taxonomy, terms, operator: 'IN' as const }));
  if (queries.length) where.attributes = { queries, relation: 'AND' };
  const key = query.orderby ?? 'date';
  if (key !== 'discount') where.orderby = [{ field: ORDERBY_FIELD[key], order: normaliseOrder(query.order) }];
  return where;
}

/** True when the engine's answer must still pass through applyCatalogQuery to match browser semantics. */
export function needsLocalRefinement(query: CatalogQuery): boolean {
  return query.orderby === 'discount' || query.filters.price !== null;
}
