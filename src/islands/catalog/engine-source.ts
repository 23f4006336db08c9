/**
 * The engine-backed side of the listing seam (see src/lib/catalog/engine-query.ts): used only when the
 * catalog is larger than the page can carry, so the GraphQL client is loaded on demand and small
 * catalogs never download it.
 */
import { productsWhere, needsLocalRefinement } from '../../lib/catalog/engine-query.ts';
import type { CategoryParents } from '../../lib/catalog/filters.ts';
import { applyCatalogQuery, pageSlice } from '../../lib/catalog/list.ts';
import type { CatalogQuery } from '../../lib/catalog/query-url.ts';
import type { CatalogProduct } from '../../lib/catalog/types.ts';

export interface CatalogPageResult {
  products: CatalogProduct[];
  total: number;
}

export interface EngineOptions {
  /** On a category route: the route's category, always applied. */
  fixedCategory?: string;
  locale?: string;
  /**
   * The category tree: the engine's categoryIn includes subcategories, so refining its answer in the
   * browser must too, or a price filter would drop a subcategory's products again.
   */
  categoryParents?: CategoryParents;
  signal?: AbortSignal;
}

/** Upper bound asked for when the browser must refine the engine's answer (price filter, discount sort). */
const REFINE_LIMIT = 1000;

export async function fetchCatalogPage(
  query: CatalogQuery,
  page: number,
  perPage: number,
  options: EngineOptions = {},
): Promise<CatalogPageResult> {
  const { request } = await import('../../graphql/client.ts');
  const where = productsWhere(query);
  if (options.fixedCategory) where.categoryIn = [...new Set([options.fixedCategory, ...(where.categoryIn ?? [])])];
  const refine = needsLocalRefinement(query);
  // WooGraphQL cursors are id-based, so page n is the tail of the first n × perPage results.
  const first = refine ? REFINE_LIMIT : page * perPage;
  const result = await request('getProducts', { first, where }, { signal: options.signal });
  const nodes: CatalogProduct[] = result.products?.nodes ?? [];
  if (refine) {
    const refined = applyCatalogQuery(nodes, query, {
      locale: options.locale,
      categoryParents: options.categoryParents,
    });
    return { products: pageSlice(refined, page, perPage), total: refined.length };
  }
  return { products: pageSlice(nodes, page, perPage), total: result.products?.found ?? nodes.length };
}
