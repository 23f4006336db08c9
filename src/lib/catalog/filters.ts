import { catalogPriceCents } from './price.ts';
import type { CatalogProduct } from './types.ts';

/** Price bounds in cents, inclusive; null = open end. */
export interface PriceRange {
  min: number | null;
  max: number | null;
}

/**
 * The filter part of the catalog query (`filter=category[a,b],price[10,200],rating[4],sale[true],pa_color[red]`).
 * Empty arrays / null mean "no filter of that kind".
 */
export interface CatalogFilters {
  categories: string[];
  price: PriceRange | null;
  /** Minimum average rating, 1–5. */
  rating: number | null;
  /** true = only products on sale. */
  sale: boolean;
  /** Global attribute taxonomy (`pa_color`) → selected term slugs. */
  attributes: Record<string, string[]>;
}

export function emptyFilters(): CatalogFilters {
  return { categories: [], price: null, rating: null, sale: false, attributes: {} };
}

export function hasActiveFilters(filters: CatalogFilters): boolean {
  return (
    filters.categories.length > 0 ||
    (filters.price !== null && (filters.price.min !== null || filters.price.max !== null)) ||
    filters.rating !== null ||
    filters.sale ||
    Object.values(filters.attributes).some((slugs) => slugs.length > 0)
  );
}

/**
 * The catalog's category tree as the listing needs it: category slug → its parent's slug (top-level
 * categories have no entry). Built from getProductCategories' `parent.node.slug` by `categoryParentMap`.
 */
export type CategoryParents = ReadonlyMap<string, string>;

/** Deeper than any real category tree; stops a malformed (cyclic) tree from looping. */
const MAX_CATEGORY_DEPTH = 32;

/** slug → parent slug from a list of categories (`parent` absent, null or '' = top level). */
export function categoryParentMap(
  categories: readonly { slug?: string | null; parent?: string | null }[],
): Map<string, string> {
  const parents = new Map<string, string>();
  for (const category of categories) if (category.slug && category.parent) parents.set(category.slug, category.parent);
  return parents;
}

/**
 * A product is in one of `slugs` when one of its own categories is that category or lies below it:
 * WooCommerce lists a subcategory's products on the parent category's page, and the engine's
 * `categoryIn` (WooGraphQL: a tax query with include_children) answers the same, so the browser's filter
 * must too or the listing's two modes disagree. Without `parents` only the product's own categories
 * count (a catalog whose products carry every ancestor explicitly gives the same answer).
 */
export function matchesCategories(
  product: CatalogProduct,
  slugs: readonly string[],
  parents?: CategoryParents,
): boolean {
  if (slugs.length === 0) return true;
  const own = product.productCategories?.nodes ?? [];
  return own.some((category) => {
    let slug = category.slug ?? undefined;
    for (let depth = 0; slug && depth < MAX_CATEGORY_DEPTH; depth += 1) {
      if (slugs.includes(slug)) return true;
      slug = parents?.get(slug);
    }
    return false;
  });
}

/** Inclusive on both ends; a product without a price never matches a price filter. */
export function matchesPrice(product: CatalogProduct, range: PriceRange | null): boolean {
  if (!range || (range.min === null && range.max === null)) return true;
  const price = catalogPriceCents(product);
  if (price === null) return false;
  if (range.min !== null && price < range.min) return false;
  if (range.max !== null && price > range.max) return false;
  return true;
}

export function matchesRating(product: CatalogProduct, atLeast: number | null): boolean {
  if (atLeast === null) return true;
  return (product.averageRating ?? 0) >= atLeast;
}

export function matchesSale(product: CatalogProduct, saleOnly: boolean): boolean {
  return !saleOnly || product.onSale === true;
}

/**
 * Each taxonomy with a selection must match (AND between attributes); within one taxonomy any
 * selected slug present in the product's terms matches (OR between values).
 */
export function matchesAttributes(product: CatalogProduct, attributes: Record<string, string[]>): boolean {
  const terms = product.terms?.nodes ?? [];
  for (const [taxonomy, slugs] of Object.entries(attributes)) {
    if (slugs.length === 0) continue;
    const found = terms.some(
      (term) => term.taxonomyName === taxonomy && term.slug != null && slugs.includes(term.slug),
    );
    if (!found) return false;
  }
  return true;
}

export function matchesFilters(product: CatalogProduct, filters: CatalogFilters, parents?: CategoryParents): boolean {
  return (
    matchesCategories(product, filters.categories, parents) &&
    matchesPrice(product, filters.price) &&
    matchesRating(product, filters.rating) &&
    matchesSale(product, filters.sale) &&
    matchesAttributes(product, filters.attributes)
  );
}

/** `parents`: the category tree, so a category filter includes its subcategories' products (matchesCategories). */
export function filterProducts<T extends CatalogProduct>(
  products: readonly T[],
  filters: CatalogFilters,
  parents?: CategoryParents,
): T[] {
  if (!hasActiveFilters(filters)) return products.slice();
  return products.filter((product) => matchesFilters(product, filters, parents));
}

/** Attribute taxonomies the filter panel offers, with their values as found in the catalog. */
export interface AttributeFacet {
  taxonomy: string;
  terms: { slug: string; name: string; count: number }[];
}

/**
 * Collects the values of the configured global attributes (e.g. pa_color, pa_size,
 * pa_frequency-band) from the products' terms, for the filter panel. Terms keep first-seen order.
 */
export function attributeFacets(products: readonly CatalogProduct[], taxonomies: readonly string[]): AttributeFacet[] {
  return taxonomies.map((taxonomy) => {
    const bySlug = new Map<string, { slug: string; name: string; count: number }>();
    for (const product of products) {
      for (const term of product.terms?.nodes ?? []) {
        if (term.taxonomyName !== taxonomy || !term.slug) continue;
        const entry = bySlug.get(term.slug) ?? { slug: term.slug, name: term.name || term.slug, count: 0 };
        entry.count += 1;
        bySlug.set(term.slug, entry);
      }
    }
    return { taxonomy, terms: [...bySlug.values()] };
  });
}

/** Categories present in the products, with counts, for the filter panel. */
export function categoryFacets(products: readonly CatalogProduct[]): { slug: string; name: string; count: number }[] {
  const bySlug = new Map<string, { slug: string; name: string; count: number }>();
  for (const product of products) {
    for (const category of product.productCategories?.nodes ?? []) {
      if (!category.slug) continue;
      const entry = bySlug.get(category.slug) ?? {
        slug: category.slug,
        name: category.name || category.slug,
        count: 0,
      };
      entry.count += 1;
      bySlug.set(category.slug, entry);
    }
  }
  return [...bySlug.values()];
}

/** Lowest and highest catalog price in cents, for the price range inputs; null for an empty list. */
export function priceBounds(products: readonly CatalogProduct[]): PriceRange | null {
  let min: number | null = null;
  let max: number | null = null;
  for (const product of products) {
    const price = catalogPriceCents(product);
    if (price === null) continue;
    if (min === null || price < min) min = price;
    if (max === null || price > max) max = price;
  }
  return min === null ? null : { min, max };
}

/** Facets from a getAllTerms answer (engine mode, where the island holds only one page of products). */
export function facetsFromTerms(
  terms: readonly { taxonomyName?: string | null; slug?: string | null; name?: string | null; count?: number | null }[],
  taxonomies: readonly string[],
): AttributeFacet[] {
  return taxonomies.map((taxonomy) => ({
    taxonomy,
    terms: terms
      .filter((term) => term.taxonomyName === taxonomy && term.slug)
      .map((term) => ({ slug: term.slug as string, name: term.name || (term.slug as string), count: term.count ?? 0 })),
  }));
}
