/**
 * Build-time catalog data for the storefront pages (listings, categories, product pages, home
 * sections). Everything is fetched ONCE per build and language through src/graphql/build.ts and memoised
 * at module level, so every page of a locale reuses the same answers — one getProducts for the whole
 * catalog, one getProductCategories, one getAllTerms, one getProduct per product slug — and carries that
 * locale's product names, descriptions, categories and attribute names (English where not translated).
 *
 * (The leading '_' keeps this folder out of Astro's routing.)
 */
import { buildRequestIn } from '../../../../graphql/build';
import { DEFAULT_LOCALE, type LocaleInfo } from '../../../../lib/i18n/locales';
import type { ProductCategory, ProductDetail, ProductListItem, Term } from '../../../../graphql/shapes';
import { ENGINE_THRESHOLD } from '../../../../lib/catalog/engine-query';
import {
  categoryParentMap,
  facetsFromTerms,
  matchesCategories,
  priceBounds,
  type AttributeFacet,
  type PriceRange,
} from '../../../../lib/catalog/filters';
import { pageSlice, pagination, PRODUCTS_PER_PAGE } from '../../../../lib/catalog/list';
import { slimListingProduct } from '../../../../lib/catalog/slim';
import type { CatalogProduct } from '../../../../lib/catalog/types';

/**
 * The query parameters that make a listing differ from its prebuilt HTML (what parseCatalogQuery in
 * src/lib/catalog/query-url.ts reads): with one of them in the URL the listing island hydrates at once.
 */
export const LISTING_QUERY_PARAMS = ['filter', 'search', 'orderby', 'order'] as const;

/** Global attributes offered as listing filters. */
export const ATTRIBUTE_TAXONOMIES = ['pa_color', 'pa_size', 'pa_frequency-band'] as const;
const TAXONOMY_ENUMS = ['PACOLOR', 'PASIZE', 'PAFREQUENCYBAND'] as const;

export interface CatalogData {
  /** Every published, visible product, newest first (getProducts without `where`). */
  products: ProductListItem[];
  /** Non-empty categories, most products first. */
  categories: ProductCategory[];
  /** Terms of ATTRIBUTE_TAXONOMIES (for engine-mode facets). */
  terms: Term[];
}

const catalogs = new Map<string, Promise<CatalogData>>();

/** The catalog in `locale`'s language. */
export function getCatalog(locale: LocaleInfo = DEFAULT_LOCALE): Promise<CatalogData> {
  const buildRequest = buildRequestIn(locale.bcp47);
  let catalog = catalogs.get(locale.code);
  catalog ??= (async () => {
    const [products, cats, terms] = await Promise.all([
      allProducts(locale),
      buildRequest('getProductCategories', {}),
      buildRequest('getAllTerms', { taxonomies: [...TAXONOMY_ENUMS] }),
    ]);
    return {
      products,
      categories: (cats.productCategories?.nodes ?? []).filter((c): c is ProductCategory => Boolean(c?.slug)),
      terms: terms.terms?.nodes ?? [],
    };
  })().catch((error: unknown) => {
    catalogs.delete(locale.code);
    throw error;
  });
  catalogs.set(locale.code, catalog);
  return catalog;
}

/**
 * Every listed product, page after page: the engine clamps `first` to COMMERCE_MAX_PAGE_SIZE (1,000 by
 * default), so one request would silently leave the rest of a large catalog without pages.
 */
async function allProducts(locale: LocaleInfo): Promise<ProductListItem[]> {
  const buildRequest = buildRequestIn(locale.bcp47);
  const products: ProductListItem[] = [];
  let after: string | undefined;
  for (;;) {
    const list = await buildRequest('getProducts', after ? { after } : {});
    const nodes = list.products?.nodes ?? [];
    if (!Array.isArray(nodes)) throw new Error('Products must be an array.');
    products.push(...nodes);
    const next = list.products?.pageInfo;
    if (!next?.hasNextPage) return products;
    if (!next.endCursor || next.endCursor === after || nodes.length === 0) {
      throw new Error(`getProducts said there are more products after ${products.length} but gave no usable cursor.`);
    }
    after = next.endCursor;
  }
}

const details = new Map<string, Promise<ProductDetail | null>>();

/** getProduct by slug, once per build and language. */
export function getProductDetail(slug: string, locale: LocaleInfo = DEFAULT_LOCALE): Promise<ProductDetail | null> {
  const key = `${locale.code}:${slug}`;
  let pending = details.get(key);
  if (!pending) {
    pending = buildRequestIn(locale.bcp47)('getProduct', { slug }).then((result) => result.product);
    pending.catch(() => details.delete(key));
    details.set(key, pending);
  }
  return pending;
}

const featuredByLocale = new Map<string, Promise<ProductListItem[]>>();

/** Featured products (the home page), most sold first, in `locale`'s language. */
export function getFeaturedProducts(first = 8, locale: LocaleInfo = DEFAULT_LOCALE): Promise<ProductListItem[]> {
  let featured = featuredByLocale.get(locale.code);
  featured ??= buildRequestIn(locale.bcp47)('getProducts', {
    first,
    where: {
      featured: true,
      visibility: 'VISIBLE',
      status: 'publish',
      orderby: [{ field: 'POPULARITY', order: 'DESC' }],
    },
  }).then((result) => result.products?.nodes ?? []);
  featuredByLocale.set(locale.code, featured);
  return featured;
}

/** slug → parent slug of the catalog's categories, for matchesCategories. */
export function categoryParents(categories: readonly ProductCategory[]): Map<string, string> {
  return categoryParentMap(categories.map((c) => ({ slug: c.slug, parent: c.parent?.node?.slug })));
}

/**
 * The products of one category page: the category's own and its subcategories' products, as WooCommerce
 * shows them and as the engine's `categoryIn` answers (so the prebuilt page lists what the island in
 * engine mode would). `categories`: the whole catalog's, for the tree.
 */
export function productsInCategory(
  products: readonly ProductListItem[],
  slug: string,
  categories: readonly ProductCategory[],
): ProductListItem[] {
  const parents = categoryParents(categories);
  return products.filter((product) => matchesCategories(product, [slug], parents));
}

/** Number of listing pages for a product count. */
export function pageCount(total: number): number {
  return pagination(total, 1, PRODUCTS_PER_PAGE).pages;
}

export interface ListingIslandData {
  /** What the island gets: the whole listing (slimmed) or, above the threshold, only this page. */
  products: CatalogProduct[];
  /** The products of this page, for counting in the page's head. */
  pageProducts: CatalogProduct[];
  totalProducts: number;
  facets?: AttributeFacet[];
  /** Above the threshold: the whole listing's price range (the page alone would narrow the placeholders). */
  priceRange?: PriceRange | null;
}

/**
 * The listing island's product data for one static page. Small catalogs travel whole (slimmed) so
 * filtering, search and sort run in the browser; above ENGINE_THRESHOLD only the page's products
 * travel, the attribute facets come from getAllTerms and the price range from the whole listing.
 */
export function listingIslandData(
  all: readonly ProductListItem[],
  page: number,
  terms: readonly Term[],
): ListingIslandData {
  const slim = all.map(slimListingProduct);
  const pageProducts = pageSlice(slim, page, PRODUCTS_PER_PAGE);
  if (all.length > ENGINE_THRESHOLD) {
    return {
      products: pageProducts,
      pageProducts,
      totalProducts: all.length,
      facets: facetsFromTerms(terms, ATTRIBUTE_TAXONOMIES),
      priceRange: priceBounds(slim),
    };
  }
  return { products: slim, pageProducts, totalProducts: all.length };
}

/**
 * Categories as the listing's filter panel shows them: name and count, most products first, and the
 * parent's slug (the tree the island's category filter needs to include subcategories).
 */
export function filterCategories(
  categories: readonly ProductCategory[],
): { slug: string; name: string; count?: number; parent?: string }[] {
  return categories.map((c) => ({
    slug: c.slug as string,
    name: c.name ?? (c.slug as string),
    count: c.count ?? undefined,
    ...(c.parent?.node?.slug ? { parent: c.parent.node.slug } : {}),
  }));
}

// Shared with the engine's product heads (Product.fullYoastHead).
export { metaDescription, plainText } from '../../../../lib/catalog/seo-text';
