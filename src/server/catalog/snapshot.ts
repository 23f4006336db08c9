/**
 * An in-memory, read-only image of the published catalog, rebuilt when the catalog version in the
 * database changes (stock-only changes refresh just the stock fields). Hot reads (product lists, product
 * pages) are served from it without touching the database.
 */
import { asc, gt } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection.ts';
import {
  catalogAttributes,
  catalogDownloads,
  catalogImages,
  catalogProductAttributes,
  catalogProductImages,
  catalogProducts,
  catalogProductTerms,
  catalogReviews,
  catalogTerms,
  catalogVariations,
} from './tables.ts';
import {
  type AttributeTexts,
  type LocalAttributeTexts,
  type ProductTexts,
  type TermTexts,
  type Translations,
  translatedTexts,
} from './translations.ts';

export type ImageModel = {
  id: number;
  file: string;
  altText: string;
  title: string;
  width: number | null;
  height: number | null;
};

export type TermModel = {
  id: number;
  taxonomy: string;
  slug: string;
  name: string;
  description: string;
  parentId: number | null;
  menuOrder: number;
  image: ImageModel | null;
  /** Published products in this term (categories: including sub-categories). */
  count: number;
  /** Name and description in the shop's other languages; resolvers pick the request's (translations.ts). */
  translations: Translations<TermTexts>;
};

export type AttributeModel = {
  id: number;
  slug: string;
  name: string;
  translations: Translations<AttributeTexts>;
  terms: TermModel[];
};

export type ProductAttributeModel = {
  position: number;
  name: string;
  /** Global attribute (pa_…) or null for a local one. */
  attribute: AttributeModel | null;
  options: string[];
  visible: boolean;
  variation: boolean;
  /** Local attributes' name and options in other languages (global ones translate in `attribute`). */
  translations: Translations<LocalAttributeTexts>;
};

export type StockFields = {
  manageStock: boolean;
  stockQuantity: number | null;
  lowStockAmount: number | null;
  backorders: 'no' | 'notify' | 'yes';
  /** Stored status, used when stock is not managed. */
  storedStockStatus: 'instock' | 'outofstock' | 'onbackorder';
};

export type VariationModel = StockFields & {
  kind: 'variation';
  id: number;
  product: ProductModel;
  sku: string;
  menuOrder: number;
  attributes: Record<string, string>;
  regularPriceCents: number;
  salePriceCents: number | null;
  image: ImageModel | null;
  description: string;
  weight: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
};

export type ReviewModel = {
  id: number;
  productId: number;
  author: string;
  rating: number;
  content: string;
  date: Date;
  verified: boolean;
};
export type DownloadModel = { id: string; name: string; file: string };

export type ProductModel = StockFields & {
  kind: 'product';
  id: number;
  slug: string;
  sku: string;
  name: string;
  type: 'simple' | 'variable' | 'external';
  status: string;
  visibility: 'visible' | 'catalog' | 'search' | 'hidden';
  featured: boolean;
  date: Date;
  modified: Date;
  menuOrder: number;
  shortDescription: string;
  description: string;
  regularPriceCents: number | null;
  salePriceCents: number | null;
  dateOnSaleFrom: Date | null;
  dateOnSaleTo: Date | null;
  virtual: boolean;
  downloadable: boolean;
  downloadLimit: number | null;
  downloadExpiry: number | null;
  weight: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
  externalUrl: string | null;
  buttonText: string | null;
  totalSales: number;
  reviewsAllowed: boolean;
  image: ImageModel | null;
  gallery: ImageModel[];
  categories: TermModel[];
  tags: TermModel[];
  /** Every term: categories, tags and global attribute values. */
  terms: TermModel[];
  attributes: ProductAttributeModel[];
  defaultAttributes: Record<string, string>;
  variations: VariationModel[];
  reviews: ReviewModel[];
  averageRating: number;
  reviewCount: number;
  metaData: { key: string; value: string }[];
  relatedSlugs: string[];
  downloads: DownloadModel[];
  /** Name, short description and description in the shop's other languages (translations.ts). */
  translations: Translations<ProductTexts>;
  /** Lower-cased name, slug, SKU and descriptions in English, for `search` (see matchesSearch). */
  searchText: string;
  /** The same texts in each language that has a translation, for `search` in that language. */
  translatedSearchText: Partial<Record<string, string>>;
};

/**
 * Whether a product matches a search: its English texts, and those of `locale` where translated (a German
 * shopper finds "Kabel" and "cable"; an English one is not shown a product only its Spanish text names);
 * 'any' searches every language, as the operators' product lists do.
 */
export function matchesSearch(
  p: Pick<ProductModel, 'searchText' | 'translatedSearchText'>,
  needle: string,
  locale: string,
): boolean {
  if (p.searchText.includes(needle)) return true;
  if (locale === 'any') return Object.values(p.translatedSearchText).some((text) => text?.includes(needle));
  return !!p.translatedSearchText[locale]?.includes(needle);
}

export type CatalogSnapshot = {
  catalogVersion: number;
  stockVersion: number;
  loadedAt: number;
  /** Every product (any status), in menu order. */
  products: ProductModel[];
  productsById: Map<number, ProductModel>;
  productsBySlug: Map<string, ProductModel>;
  productsBySku: Map<string, ProductModel>;
  variationsById: Map<number, VariationModel>;
  terms: TermModel[];
  termsById: Map<number, TermModel>;
  /** `${taxonomy}:${slug}` */
  termsByKey: Map<string, TermModel>;
  attributes: AttributeModel[];
  /** Category id → itself and every descendant id. */
  categoryDescendants: Map<number, Set<number>>;
};

const stripTags = (html: string) => html.replace(/<[^>]*>/g, ' ');

export async function loadSnapshot(
  db: DbOrTx,
  versions: { catalogVersion: number; stockVersion: number },
): Promise<CatalogSnapshot> {
  const [
    images,
    attributes,
    terms,
    products,
    variations,
    gallery,
    productTerms,
    productAttributes,
    downloads,
    reviews,
  ] = await Promise.all([
    db.select().from(catalogImages),
    db.select().from(catalogAttributes).orderBy(asc(catalogAttributes.id)),
    db.select().from(catalogTerms).orderBy(asc(catalogTerms.menuOrder), asc(catalogTerms.id)),
    db.select().from(catalogProducts).orderBy(asc(catalogProducts.menuOrder), asc(catalogProducts.id)),
    db.select().from(catalogVariations).orderBy(asc(catalogVariations.menuOrder), asc(catalogVariations.id)),
    db.select().from(catalogProductImages).orderBy(asc(catalogProductImages.position)),
    db.select().from(catalogProductTerms).orderBy(asc(catalogProductTerms.position)),
    db.select().from(catalogProductAttributes).orderBy(asc(catalogProductAttributes.position)),
    db.select().from(catalogDownloads).orderBy(asc(catalogDownloads.position)),
    db.select().from(catalogReviews).orderBy(asc(catalogReviews.id)),
  ]);

  const imagesById = new Map<number, ImageModel>(images.map((i) => [i.id, i]));
  const img = (id: number | null) => (id === null ? null : (imagesById.get(id) ?? null));
  const termModels: TermModel[] = terms.map((t) => ({
    id: t.id,
    taxonomy: t.taxonomy,
    slug: t.slug,
    name: t.name,
    description: t.description,
    parentId: t.parentId,
    menuOrder: t.menuOrder,
    image: img(t.imageId),
    count: 0,
    translations: t.translations,
  }));
  const termsById = new Map(termModels.map((t) => [t.id, t]));
  const termsByKey = new Map(termModels.map((t) => [`${t.taxonomy}:${t.slug}`, t]));
  const attributeModels: AttributeModel[] = attributes.map((a) => ({
    ...a,
    terms: termModels.filter((t) => t.taxonomy === a.slug),
  }));
  const attributesById = new Map(attributeModels.map((a) => [a.id, a]));

  const categoryDescendants = new Map<number, Set<number>>();
  const categories = termModels.filter((t) => t.taxonomy === 'product_cat');
  for (const c of categories) {
    const set = new Set<number>([c.id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const d of categories)
        if (d.parentId !== null && set.has(d.parentId) && !set.has(d.id)) {
          set.add(d.id);
          grew = true;
        }
    }
    categoryDescendants.set(c.id, set);
  }

  const productsById = new Map<number, ProductModel>();
  const models: ProductModel[] = products.map((p) => {
    const m: ProductModel = {
      kind: 'product',
      id: p.id,
      slug: p.slug,
      sku: p.sku,
      name: p.name,
      type: p.type as ProductModel['type'],
      status: p.status,
      visibility: p.visibility as ProductModel['visibility'],
      featured: p.featured,
      date: p.date,
      modified: p.modified,
      menuOrder: p.menuOrder,
      shortDescription: p.shortDescription,
      description: p.description,
      regularPriceCents: p.regularPriceCents,
      salePriceCents: p.salePriceCents,
      dateOnSaleFrom: p.dateOnSaleFrom,
      dateOnSaleTo: p.dateOnSaleTo,
      manageStock: p.manageStock,
      stockQuantity: p.stockQuantity,
      lowStockAmount: p.lowStockAmount,
      backorders: p.backorders as StockFields['backorders'],
      storedStockStatus: p.stockStatus as StockFields['storedStockStatus'],
      virtual: p.virtual,
      downloadable: p.downloadable,
      downloadLimit: p.downloadLimit,
      downloadExpiry: p.downloadExpiry,
      weight: p.weight,
      length: p.length,
      width: p.width,
      height: p.height,
      externalUrl: p.externalUrl,
      buttonText: p.buttonText,
      totalSales: p.totalSales,
      reviewsAllowed: p.reviewsAllowed,
      image: img(p.imageId),
      gallery: [],
      categories: [],
      tags: [],
      terms: [],
      attributes: [],
      defaultAttributes: p.defaultAttributes,
      variations: [],
      reviews: [],
      averageRating: 0,
      reviewCount: 0,
      metaData: p.metaData,
      relatedSlugs: p.related,
      downloads: [],
      translations: p.translations,
      searchText: [p.name, p.slug, p.sku, stripTags(p.description), stripTags(p.shortDescription)]
        .join('\n')
        .toLowerCase(),
      translatedSearchText: Object.fromEntries(
        Object.entries(p.translations ?? {}).map(([locale, texts]) => [
          locale,
          translatedTexts({ [locale]: texts })
            .map(stripTags)
            .join('\n')
            .toLowerCase(),
        ]),
      ),
    };
    productsById.set(p.id, m);
    return m;
  });

  for (const g of gallery) {
    const image = imagesById.get(g.imageId);
    if (image) productsById.get(g.productId)?.gallery.push(image);
  }
  for (const pt of productTerms) {
    const p = productsById.get(pt.productId);
    const t = termsById.get(pt.termId);
    if (!p || !t) continue;
    p.terms.push(t);
    if (t.taxonomy === 'product_cat') p.categories.push(t);
    else if (t.taxonomy === 'product_tag') p.tags.push(t);
  }
  for (const a of productAttributes) {
    productsById.get(a.productId)?.attributes.push({
      position: a.position,
      name: a.name,
      attribute: a.attributeId === null ? null : (attributesById.get(a.attributeId) ?? null),
      options: a.options,
      visible: a.visible,
      variation: a.variation,
      translations: a.translations,
    });
  }
  const variationsById = new Map<number, VariationModel>();
  for (const v of variations) {
    const product = productsById.get(v.productId);
    if (!product) continue;
    const vm: VariationModel = {
      kind: 'variation',
      id: v.id,
      product,
      sku: v.sku,
      menuOrder: v.menuOrder,
      attributes: v.attributes,
      regularPriceCents: v.regularPriceCents,
      salePriceCents: v.salePriceCents,
      manageStock: v.manageStock,
      stockQuantity: v.stockQuantity,
      lowStockAmount: v.lowStockAmount,
      backorders: v.backorders as StockFields['backorders'],
      storedStockStatus: v.stockStatus as StockFields['storedStockStatus'],
      image: img(v.imageId),
      description: v.description,
      weight: v.weight,
      length: v.length,
      width: v.width,
      height: v.height,
    };
    product.variations.push(vm);
    variationsById.set(v.id, vm);
  }
  // jsonb does not keep key order: put attribute maps back in the product's attribute order.
  for (const p of models) {
    const rank = new Map(p.attributes.map((a, i) => [a.attribute ? a.attribute.slug : a.name, i]));
    const ordered = (rec: Record<string, string>) =>
      Object.fromEntries(Object.entries(rec).sort(([a], [b]) => (rank.get(a) ?? 99) - (rank.get(b) ?? 99)));
    p.defaultAttributes = ordered(p.defaultAttributes);
    for (const v of p.variations) v.attributes = ordered(v.attributes);
  }
  for (const d of downloads) productsById.get(d.productId)?.downloads.push({ id: d.id, name: d.name, file: d.file });
  for (const r of reviews) {
    if (r.status !== 'approved') continue;
    productsById.get(r.productId)?.reviews.push({
      id: r.id,
      productId: r.productId,
      author: r.author,
      rating: r.rating,
      content: r.content,
      date: r.date,
      verified: r.verified,
    });
  }
  for (const p of models) {
    p.reviews.sort((a, b) => b.date.getTime() - a.date.getTime() || b.id - a.id);
    p.reviewCount = p.reviews.length;
    p.averageRating = p.reviewCount
      ? Math.round((p.reviews.reduce((s, r) => s + r.rating, 0) / p.reviewCount) * 100) / 100
      : 0;
  }

  // Term counts: published products; a category also counts its sub-categories' products.
  for (const t of termModels) {
    const ids = t.taxonomy === 'product_cat' ? categoryDescendants.get(t.id)! : new Set([t.id]);
    t.count = models.filter((p) => p.status === 'publish' && p.terms.some((pt) => ids.has(pt.id))).length;
  }

  return {
    catalogVersion: versions.catalogVersion,
    stockVersion: versions.stockVersion,
    loadedAt: Date.now(),
    products: models,
    productsById,
    productsBySlug: new Map(models.map((p) => [p.slug, p])),
    productsBySku: new Map(models.map((p) => [p.sku.toLowerCase(), p])),
    variationsById,
    terms: termModels,
    termsById,
    termsByKey,
    attributes: attributeModels,
    categoryDescendants,
  };
}

/** Refresh only the stock fields of an existing snapshot (after orders changed stock, not the catalog). */
export async function refreshStock(db: DbOrTx, snapshot: CatalogSnapshot, stockVersion: number): Promise<void> {
  // Only rows stamped after the version this snapshot holds (catalog/stock.ts markStockChanged): a checkout
  // changes a few rows, and reading back every product's stock after each one was most of a busy engine's
  // time on the embedded database.
  const since = snapshot.stockVersion;
  const [products, variations] = await Promise.all([
    db
      .select({
        id: catalogProducts.id,
        q: catalogProducts.stockQuantity,
        s: catalogProducts.stockStatus,
        sales: catalogProducts.totalSales,
      })
      .from(catalogProducts)
      .where(gt(catalogProducts.stockVersion, since)),
    db
      .select({ id: catalogVariations.id, q: catalogVariations.stockQuantity, s: catalogVariations.stockStatus })
      .from(catalogVariations)
      .where(gt(catalogVariations.stockVersion, since)),
  ]);
  for (const r of products) {
    const p = snapshot.productsById.get(r.id);
    if (!p) continue;
    p.stockQuantity = r.q;
    p.storedStockStatus = r.s as StockFields['storedStockStatus'];
    p.totalSales = r.sales;
  }
  for (const r of variations) {
    const v = snapshot.variationsById.get(r.id);
    if (!v) continue;
    v.stockQuantity = r.q;
    v.storedStockStatus = r.s as StockFields['storedStockStatus'];
  }
  snapshot.stockVersion = stockVersion;
}
