/**
 * The catalog service: every catalog read the API makes, answered from an in-memory snapshot that
 * follows the catalog version in the database (checked at most every CATALOG_VERSION_CHECK_MS), plus
 * the catalog writes (seed) that bump that version. Resolvers call this; nothing else reads catalog tables.
 */
import type { Database } from '../db/connection.ts';
import { readCounters } from '../db/meta.ts';
import { eurosToCents } from './money.ts';
import { priceRange, productOnSale, productStockStatus, ratingBucket, type StockStatus } from './pricing.ts';
import { loadSeedCatalog, type LoadOptions } from './seed-loader.ts';
import { writeSeedCatalog, countProducts, type SeedResult } from './seed-writer.ts';
import {
  loadSnapshot,
  matchesSearch,
  refreshStock,
  type CatalogSnapshot,
  type ProductModel,
  type TermModel,
} from './snapshot.ts';

export type ProductOrderField =
  | 'DATE'
  | 'MODIFIED'
  | 'NAME'
  | 'SLUG'
  | 'PARENT'
  | 'IN'
  | 'NAME_IN'
  | 'MENU_ORDER'
  | 'PRICE'
  | 'POPULARITY'
  | 'RATING'
  | 'REVIEW_COUNT'
  | 'REGULAR_PRICE'
  | 'SALE_PRICE'
  | 'ON_SALE_FROM'
  | 'ON_SALE_TO'
  | 'TOTAL_SALES';

export type ProductFilter = {
  search?: string | null;
  /** The language `search` looks in besides English (the request's). */
  locale?: string | null;
  slugIn?: (string | null)[] | null;
  sku?: string | null;
  status?: string | null;
  featured?: boolean | null;
  onSale?: boolean | null;
  category?: string | null;
  categoryIn?: (string | null)[] | null;
  categoryNotIn?: (string | null)[] | null;
  categoryId?: number | null;
  categoryIdIn?: (number | null)[] | null;
  categoryIdNotIn?: (number | null)[] | null;
  tag?: string | null;
  tagIn?: (string | null)[] | null;
  tagNotIn?: (string | null)[] | null;
  type?: ProductModel['type'] | null;
  typeIn?: (ProductModel['type'] | null)[] | null;
  typeNotIn?: (ProductModel['type'] | null)[] | null;
  stockStatus?: (StockStatus | null)[] | null;
  minPrice?: number | null;
  maxPrice?: number | null;
  rating?: (number | null)[] | null;
  visibility?: ProductModel['visibility'] | null;
  include?: (number | null)[] | null;
  exclude?: (number | null)[] | null;
  attributes?: {
    queries?:
      | ({
          taxonomy: string;
          terms?: (string | null)[] | null;
          ids?: (number | null)[] | null;
          operator?: 'IN' | 'NOT_IN' | 'AND' | null;
        } | null)[]
      | null;
    relation?: 'IN' | 'NOT_IN' | 'AND' | 'OR' | null;
  } | null;
  orderby?: ({ field: ProductOrderField; order?: 'ASC' | 'DESC' | null } | null)[] | null;
};

export type TermFilter = {
  taxonomies?: string[] | null;
  hideEmpty?: boolean | null;
  orderby?: 'NAME' | 'SLUG' | 'COUNT' | 'TERM_ID' | 'TERM_ORDER' | 'DESCRIPTION' | 'TERM_GROUP' | 'NONE' | null;
  order?: 'ASC' | 'DESC' | null;
  parent?: number | null;
  slug?: (string | null)[] | null;
  include?: (number | null)[] | null;
  exclude?: (number | null)[] | null;
  search?: string | null;
  nameLike?: string | null;
};

const LIST_CACHE_SIZE = 500;
/** Sale windows depend on the clock: cached lists are recomputed at least this often. */
const LIST_CACHE_TTL_MS = 60_000;

const compact = <T>(list: (T | null | undefined)[] | null | undefined): T[] =>
  (list ?? []).filter((x): x is T => x !== null && x !== undefined);

export class CatalogService {
  private current: CatalogSnapshot | null = null;
  private loading: Promise<CatalogSnapshot> | null = null;
  private lastCheck = 0;
  private listCache = new Map<string, { at: number; items: ProductModel[] }>();

  constructor(
    private readonly db: Database,
    private readonly options: { versionCheckMs: number },
  ) {}

  /** The current snapshot: rebuilt when another write (in any process) bumped the catalog version. */
  async snapshot(): Promise<CatalogSnapshot> {
    const now = Date.now();
    if (this.current && now - this.lastCheck < this.options.versionCheckMs) return this.current;
    if (this.loading) return this.loading;
    this.loading = this.refresh().finally(() => (this.loading = null));
    return this.loading;
  }

  /** Forget the cached snapshot (after a write in this process, so it is seen at once). */
  invalidate(): void {
    this.lastCheck = 0;
  }

  private async refresh(): Promise<CatalogSnapshot> {
    const counters = await readCounters(this.db, ['catalog_version', 'stock_version']);
    this.lastCheck = Date.now();
    const cur = this.current;
    if (cur && cur.catalogVersion === counters.catalog_version) {
      if (cur.stockVersion !== counters.stock_version) {
        await refreshStock(this.db, cur, counters.stock_version);
        this.listCache.clear();
      }
      return cur;
    }
    const next = await loadSnapshot(this.db, {
      catalogVersion: counters.catalog_version,
      stockVersion: counters.stock_version,
    });
    this.current = next;
    this.listCache.clear();
    return next;
  }

  // ---------- products ----------

  /** Products matching `filter`, sorted by its `orderby` (stable: ties broken by id). Anonymous callers see published products only. */
  async listProducts(filter: ProductFilter = {}): Promise<{
    snapshot: CatalogSnapshot;
    items: ProductModel[];
    compare: (a: ProductModel, b: ProductModel) => number;
  }> {
    const snap = await this.snapshot();
    const compare = this.comparator(filter, snap);
    const key = JSON.stringify(filter);
    const hit = this.listCache.get(key);
    const now = Date.now();
    if (hit && now - hit.at < LIST_CACHE_TTL_MS) return { snapshot: snap, items: hit.items, compare };
    const items = this.filterProducts(snap, filter, now).sort(compare);
    if (this.listCache.size >= LIST_CACHE_SIZE) this.listCache.delete(this.listCache.keys().next().value!);
    this.listCache.set(key, { at: now, items });
    return { snapshot: snap, items, compare };
  }

  private filterProducts(snap: CatalogSnapshot, f: ProductFilter, now: number): ProductModel[] {
    const tests: ((p: ProductModel) => boolean)[] = [(p) => p.status === 'publish'];
    if (f.status) tests.push((p) => p.status === f.status);
    if (f.search?.trim()) {
      const needle = f.search.trim().toLowerCase();
      const locale = f.locale ?? 'en_US';
      tests.push((p) => matchesSearch(p, needle, locale));
    }
    const slugIn = compact(f.slugIn);
    if (f.slugIn) tests.push((p) => slugIn.includes(p.slug));
    if (f.sku) {
      const sku = f.sku.toLowerCase();
      tests.push((p) => p.sku.toLowerCase() === sku || p.variations.some((v) => v.sku.toLowerCase() === sku));
    }
    if (f.featured === true) tests.push((p) => p.featured);
    if (f.featured === false) tests.push((p) => !p.featured);
    if (f.onSale === true) tests.push((p) => productOnSale(p, now));
    if (f.onSale === false) tests.push((p) => !productOnSale(p, now));

    // Categories: slugs (unknown ones dropped, as WooGraphQL) or ids; a category includes its sub-categories.
    const catIds = (slugs: string[]) =>
      slugs.map((s) => snap.termsByKey.get(`product_cat:${s}`)?.id).filter((x): x is number => x !== undefined);
    const expand = (ids: number[]) => new Set(ids.flatMap((id) => [...(snap.categoryDescendants.get(id) ?? [])]));
    const inCats = (p: ProductModel, ids: Set<number>) => p.categories.some((c) => ids.has(c.id));
    const wanted: number[][] = [];
    if (f.category) wanted.push(catIds([f.category]));
    if (f.categoryIn) wanted.push(catIds(compact(f.categoryIn)));
    if (f.categoryId != null) wanted.push([f.categoryId]);
    if (f.categoryIdIn) wanted.push(compact(f.categoryIdIn));
    for (const ids of wanted) {
      const set = expand(ids);
      tests.push((p) => inCats(p, set));
    }
    const unwanted = [...catIds(compact(f.categoryNotIn)), ...compact(f.categoryIdNotIn)];
    if (unwanted.length) {
      const set = expand(unwanted);
      tests.push((p) => !inCats(p, set));
    }
    const tagSet = (slugs: string[]) => new Set(slugs);
    if (f.tag) tests.push((p) => p.tags.some((t) => t.slug === f.tag));
    if (f.tagIn) {
      const s = tagSet(compact(f.tagIn));
      tests.push((p) => p.tags.some((t) => s.has(t.slug)));
    }
    if (f.tagNotIn) {
      const s = tagSet(compact(f.tagNotIn));
      tests.push((p) => !p.tags.some((t) => s.has(t.slug)));
    }
    if (f.type) tests.push((p) => p.type === f.type);
    if (f.typeIn) {
      const s = new Set(compact(f.typeIn));
      tests.push((p) => s.has(p.type));
    }
    if (f.typeNotIn) {
      const s = new Set(compact(f.typeNotIn));
      tests.push((p) => !s.has(p.type));
    }
    if (f.stockStatus?.length) {
      const s = new Set(compact(f.stockStatus));
      tests.push((p) => s.has(productStockStatus(p)));
    }
    // Price filter: falsy bounds are ignored (as WooGraphQL); a product matches when its price range overlaps.
    if (f.minPrice || f.maxPrice) {
      const min = f.minPrice ? eurosToCents(f.minPrice) : -Infinity;
      const max = f.maxPrice ? eurosToCents(f.maxPrice) : Infinity;
      tests.push((p) => {
        const r = priceRange(p, now);
        return r !== null && r[1] >= min && r[0] <= max;
      });
    }
    if (f.rating?.length) {
      const s = new Set(compact(f.rating));
      tests.push((p) => s.has(ratingBucket(p)));
    }
    if (f.visibility) {
      const v = f.visibility;
      tests.push((p) =>
        v === 'visible'
          ? p.visibility === 'visible'
          : v === 'catalog'
            ? p.visibility === 'visible' || p.visibility === 'catalog'
            : v === 'search'
              ? p.visibility === 'visible' || p.visibility === 'search'
              : p.visibility === 'hidden',
      );
    }
    if (f.include) {
      const s = new Set(compact(f.include));
      tests.push((p) => s.has(p.id));
    }
    if (f.exclude) {
      const s = new Set(compact(f.exclude));
      tests.push((p) => !s.has(p.id));
    }
    const attributeQueries = compact(f.attributes?.queries);
    if (attributeQueries.length) {
      const relation = f.attributes?.relation === 'OR' || f.attributes?.relation === 'IN' ? 'OR' : 'AND';
      const checks = attributeQueries.map((q) => {
        const taxonomy = q.taxonomy.startsWith('pa_') ? q.taxonomy : `pa_${q.taxonomy}`;
        const ids = new Set([
          ...compact(q.terms).map((slug) => snap.termsByKey.get(`${taxonomy}:${slug}`)?.id ?? -1),
          ...compact(q.ids),
        ]);
        const op = q.operator ?? 'IN';
        return (p: ProductModel) => {
          const has = p.terms.filter((t) => t.taxonomy === taxonomy && ids.has(t.id)).length;
          return op === 'IN' ? has > 0 : op === 'NOT_IN' ? has === 0 : has === ids.size;
        };
      });
      tests.push(relation === 'AND' ? (p) => checks.every((c) => c(p)) : (p) => checks.some((c) => c(p)));
    }
    return snap.products.filter((p) => tests.every((t) => t(p)));
  }

  /**
   * Sort order for a filter. Only the first `orderby` entry counts (as WooGraphQL); order defaults to DESC.
   * Every order ends with the database id in the same direction, so it is total and cursors are stable.
   * Without `orderby`: menu order, then name (ascending).
   */
  private comparator(f: ProductFilter, snap: CatalogSnapshot): (a: ProductModel, b: ProductModel) => number {
    const first = compact(f.orderby)[0];
    const now = Date.now();
    if (!first) return (a, b) => a.menuOrder - b.menuOrder || a.name.localeCompare(b.name, 'en') || a.id - b.id;
    const dir = first.order === 'ASC' ? 1 : -1;
    const num = (get: (p: ProductModel) => number) => (a: ProductModel, b: ProductModel) =>
      dir * (get(a) - get(b) || a.id - b.id);
    const str = (get: (p: ProductModel) => string) => (a: ProductModel, b: ProductModel) =>
      dir * (get(a).localeCompare(get(b), 'en') || a.id - b.id);
    const time = (d: Date | null) => (d ? d.getTime() : 0);
    const position = (list: unknown[], value: unknown) => {
      const i = list.indexOf(value);
      return i === -1 ? Number.MAX_SAFE_INTEGER : i;
    };
    switch (first.field) {
      case 'DATE':
        return num((p) => p.date.getTime());
      case 'MODIFIED':
        return num((p) => p.modified.getTime());
      case 'NAME':
        return str((p) => p.name);
      case 'SLUG':
        return str((p) => p.slug);
      case 'PARENT':
        return num(() => 0);
      case 'IN': {
        const list = compact(f.include);
        return (a, b) => position(list, a.id) - position(list, b.id) || a.id - b.id;
      }
      case 'NAME_IN': {
        const list = compact(f.slugIn);
        return (a, b) => position(list, a.slug) - position(list, b.slug) || a.id - b.id;
      }
      case 'MENU_ORDER':
        return num((p) => p.menuOrder);
      case 'PRICE':
        // Ascending by the cheapest variation, descending by the dearest one (as WooCommerce's lookup table).
        return num((p) => {
          const r = priceRange(p, now);
          return r ? (dir === 1 ? r[0] : r[1]) : 0;
        });
      case 'REGULAR_PRICE':
        return num((p) =>
          p.type === 'variable'
            ? Math.min(...p.variations.map((v) => v.regularPriceCents))
            : (p.regularPriceCents ?? 0),
        );
      case 'SALE_PRICE':
        return num((p) =>
          p.type === 'variable'
            ? Math.min(...p.variations.map((v) => v.salePriceCents ?? v.regularPriceCents))
            : (p.salePriceCents ?? p.regularPriceCents ?? 0),
        );
      case 'POPULARITY':
      case 'TOTAL_SALES':
        return num((p) => p.totalSales);
      case 'RATING':
        return num((p) => p.averageRating);
      case 'REVIEW_COUNT':
        return num((p) => p.reviewCount);
      case 'ON_SALE_FROM':
        return num((p) => time(p.dateOnSaleFrom));
      case 'ON_SALE_TO':
        return num((p) => time(p.dateOnSaleTo));
      default:
        void snap;
        return num((p) => p.menuOrder);
    }
  }

  /** A published product by global id, database id, slug or SKU; null when there is none. */
  async findProduct(id: string, idType: 'ID' | 'DATABASE_ID' | 'SLUG' | 'SKU' = 'ID'): Promise<ProductModel | null> {
    const snap = await this.snapshot();
    let p: ProductModel | undefined;
    if (idType === 'SLUG') p = snap.productsBySlug.get(id);
    else if (idType === 'SKU') p = snap.productsBySku.get(id.toLowerCase());
    else {
      const dbId = idType === 'DATABASE_ID' ? parseDatabaseId(id) : decodePostId(id);
      if (dbId !== null) p = snap.productsById.get(dbId);
    }
    return p && p.status === 'publish' ? p : null;
  }

  /** Up to `limit` related products: the editor's list first, then products sharing a category. */
  async related(product: ProductModel, limit: number): Promise<ProductModel[]> {
    const snap = await this.snapshot();
    const out: ProductModel[] = [];
    const seen = new Set([product.id]);
    const add = (p: ProductModel | undefined) => {
      if (p && p.status === 'publish' && !seen.has(p.id) && out.length < limit) {
        out.push(p);
        seen.add(p.id);
      }
    };
    product.relatedSlugs.forEach((s) => {
      add(snap.productsBySlug.get(s));
    });
    const cats = new Set(product.categories.map((c) => c.id));
    for (const p of snap.products) {
      if (out.length >= limit) break;
      if (p.visibility !== 'hidden' && p.categories.some((c) => cats.has(c.id))) add(p);
    }
    return out;
  }

  // ---------- terms ----------

  async listTerms(filter: TermFilter, defaultTaxonomies: string[]): Promise<TermModel[]> {
    const snap = await this.snapshot();
    const taxonomies = new Set(filter.taxonomies?.length ? filter.taxonomies : defaultTaxonomies);
    let list = snap.terms.filter((t) => taxonomies.has(t.taxonomy));
    if (filter.hideEmpty) list = list.filter((t) => t.count > 0);
    if (filter.parent != null) list = list.filter((t) => (t.parentId ?? 0) === filter.parent);
    const slugs = compact(filter.slug);
    if (slugs.length) list = list.filter((t) => slugs.includes(t.slug));
    const include = compact(filter.include);
    if (include.length) list = list.filter((t) => include.includes(t.id));
    const exclude = compact(filter.exclude);
    if (exclude.length) list = list.filter((t) => !exclude.includes(t.id));
    const needle = (filter.search ?? filter.nameLike)?.toLowerCase();
    if (needle) list = list.filter((t) => t.name.toLowerCase().includes(needle));
    // WordPress default: by name ascending. COUNT, TERM_ORDER etc. as asked; ties by id.
    const dir = filter.order === 'DESC' ? -1 : 1;
    const by = filter.orderby ?? 'NAME';
    const key: Record<string, (t: TermModel) => number | string> = {
      NAME: (t) => t.name,
      SLUG: (t) => t.slug,
      COUNT: (t) => t.count,
      TERM_ID: (t) => t.id,
      TERM_ORDER: (t) => t.menuOrder,
      DESCRIPTION: (t) => t.description,
      TERM_GROUP: (t) => t.menuOrder,
      NONE: (t) => t.id,
    };
    const get = key[by] ?? key.NAME!;
    return [...list].sort((a, b) => {
      const x = get(a);
      const y = get(b);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'en');
      return dir * c || a.id - b.id;
    });
  }

  async term(taxonomy: string, id: number): Promise<TermModel | null> {
    const t = (await this.snapshot()).termsById.get(id);
    return t && t.taxonomy === taxonomy ? t : null;
  }

  async attributeTaxonomies(): Promise<string[]> {
    return (await this.snapshot()).attributes.map((a) => a.slug);
  }

  // ---------- writes ----------

  async isEmpty(): Promise<boolean> {
    return (await countProducts(this.db)) === 0;
  }

  /** Load a seed directory and write it (replacing the catalog with `reset`). */
  async seedFromDirectory(dir: string, options: { reset?: boolean } & LoadOptions = {}): Promise<SeedResult> {
    const catalog = loadSeedCatalog(dir, options);
    const result = await writeSeedCatalog(this.db, catalog, options);
    this.invalidate();
    return result;
  }
}

export function encodePostId(id: number): string {
  return Buffer.from(`post:${id}`).toString('base64');
}

export function decodePostId(globalId: string): number | null {
  const decoded = Buffer.from(globalId, 'base64').toString('utf8');
  const m = /^post:(\d+)$/.exec(decoded);
  return m ? Number(m[1]) : null;
}

function parseDatabaseId(id: string): number | null {
  return /^\d{1,10}$/.test(id) ? Number(id) : null;
}
