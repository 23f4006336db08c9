/** Catalog resolvers: thin mapping from GraphQL fields to the catalog service and its models. */
import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from '../context.ts';
import type { LocaleCode } from '../../lib/i18n/locales.ts';
import { paginate, type PageArgs } from '../relay.ts';
import { imagePath, imageUrl } from './media-url.ts';
import { formatMoney, formatRaw } from './money.ts';
import {
  priceRange,
  productOnSale,
  productPrice,
  productStockStatus,
  stockStatusOf,
  variationOnSale,
  variationPrice,
} from './pricing.ts';
import { encodePostId, type ProductFilter, type TermFilter } from './service.ts';
import { shownPriceFor } from './shopper-prices.ts';
import { localized, localizedOption } from './translations.ts';
import { attributeLabel, localizedVariationName, variationAttributes } from './display-names.ts';
import type {
  ImageModel,
  ProductAttributeModel,
  ProductModel,
  ReviewModel,
  TermModel,
  VariationModel,
} from './snapshot.ts';

type Ctx = GraphQLContext;
type Format = { format?: 'RAW' | 'FORMATTED' | 'RENDERED' | null };

/** Absolute, under MEDIA_BASE_URL: a storefront on another origin shows it as it comes (media-url.ts). */
const mediaUrl = (i: ImageModel, ctx: Ctx) => imageUrl(i.file, ctx.storefront.mediaBaseUrl);
const MAX_RELATED = 5;
const MAX_GALLERY = 20;
const MAX_VARIATIONS = 100;

const b64 = (s: string) => Buffer.from(s).toString('base64');
const limits = (ctx: Ctx, max = ctx.config.maxPageSize) => ({
  defaultPageSize: Math.min(ctx.config.defaultPageSize, max),
  maxPageSize: max,
});
/** Small nested lists (gallery, variations, terms) return everything up to their cap when `first` is not given. */
const nestedLimits = (max: number) => ({ defaultPageSize: max, maxPageSize: max });

/** WPGraphQL post dates: site time (UTC here) without offset. */
export function wpDate(d: Date | null): string | null {
  return d ? d.toISOString().slice(0, 19) : null;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** money field: null for a missing or zero amount (as WooGraphQL), else RAW or "€349.00" / "349,00 €". */
function money(cents: number | null | undefined, format: Format['format'], locale: LocaleCode): string | null {
  if (cents === null || cents === undefined || cents === 0) return null;
  return format === 'RAW' ? formatRaw(cents) : formatMoney(cents, locale);
}

function moneyList(list: number[], format: Format['format'], locale: LocaleCode): string | null {
  if (!list.length) return null;
  const sorted = [...list].sort((a, b) => a - b);
  if (format === 'RAW') return sorted.map(formatRaw).join(', ');
  const min = sorted[0]!;
  const max = sorted.at(-1)!;
  return min === max ? formatMoney(min, locale) : `${formatMoney(min, locale)} - ${formatMoney(max, locale)}`;
}

function typeEnum(p: ProductModel): string {
  return p.type;
}

// ---------- shared field resolvers ----------

const mediaItem = {
  id: (i: ImageModel) => b64(`attachment:${i.id}`),
  databaseId: (i: ImageModel) => i.id,
  sourceUrl: (i: ImageModel, _: unknown, ctx: Ctx) => mediaUrl(i, ctx),
  altText: (i: ImageModel) => i.altText,
  title: (i: ImageModel) => i.title,
  caption: () => null,
  description: () => null,
  mimeType: (i: ImageModel) => {
    const ext = i.file.split('.').pop();
    return ext === 'svg' ? 'image/svg+xml' : ext === 'jpg' || ext === 'jpeg' ? 'image/jpeg' : `image/${ext}`;
  },
  mediaDetails: (i: ImageModel) => ({ width: i.width, height: i.height, file: i.file }),
  srcSet: () => null,
  sizes: () => null,
  // WPGraphQL's uri is a site path.
  uri: (i: ImageModel) => imagePath(i.file),
};

const termFields = {
  id: (t: TermModel) => b64(`term:${t.id}`),
  // The request's language, field by field, English where a translation is missing (translations.ts).
  name: (t: TermModel, _: unknown, ctx: Ctx) => localized(t.name, t.translations, ctx.locale, 'name'),
  description: (t: TermModel, _: unknown, ctx: Ctx) =>
    localized(t.description, t.translations, ctx.locale, 'description'),
  databaseId: (t: TermModel) => t.id,
  termTaxonomyId: (t: TermModel) => t.id,
  count: (t: TermModel) => t.count,
  uri: (t: TermModel) =>
    t.taxonomy === 'product_cat'
      ? `/product-category/${t.slug}/`
      : t.taxonomy === 'product_tag'
        ? `/product-tag/${t.slug}/`
        : `/${t.taxonomy}/${t.slug}/`,
  link: (t: TermModel) => (t.taxonomy === 'product_cat' ? `/product-category/${t.slug}/` : null),
  taxonomyName: (t: TermModel) => t.taxonomy,
};

/**
 * Catalog prices as the shop shows them (WooCommerce's wc_get_price_to_display), with or without tax as
 * TAX_DISPLAY_SHOP says: the base country's in a catalog read (the same for every caller: cached and
 * prebuilt), the shopper's own destination's in any other operation (shopper-prices.ts). RAW carries the
 * same amounts.
 */
function pricingFields<T extends ProductModel | VariationModel>() {
  return {
    price: async (x: T, a: Format, ctx: Ctx, info: GraphQLResolveInfo) => {
      const shown = await shownPriceFor(ctx, info);
      if (x.kind === 'variation') return money(shown(variationPrice(x)), a.format, ctx.locale);
      if (x.type === 'variable')
        return moneyList(
          x.variations.map((v) => shown(variationPrice(v))),
          a.format,
          ctx.locale,
        );
      const price = productPrice(x);
      return money(price === null ? null : shown(price), a.format, ctx.locale);
    },
    regularPrice: async (x: T, a: Format, ctx: Ctx, info: GraphQLResolveInfo) => {
      const shown = await shownPriceFor(ctx, info);
      if (x.kind === 'variation') return money(shown(x.regularPriceCents), a.format, ctx.locale);
      if (x.type === 'variable')
        return moneyList(
          x.variations.map((v) => shown(v.regularPriceCents)),
          a.format,
          ctx.locale,
        );
      return money(x.regularPriceCents === null ? null : shown(x.regularPriceCents), a.format, ctx.locale);
    },
    salePrice: async (x: T, a: Format, ctx: Ctx, info: GraphQLResolveInfo) => {
      const shown = await shownPriceFor(ctx, info);
      if (x.kind === 'variation')
        return variationOnSale(x) ? money(shown(x.salePriceCents!), a.format, ctx.locale) : null;
      if (x.type === 'variable')
        return moneyList(
          x.variations.filter((v) => variationOnSale(v)).map((v) => shown(v.salePriceCents!)),
          a.format,
          ctx.locale,
        );
      return productOnSale(x) ? money(shown(x.salePriceCents!), a.format, ctx.locale) : null;
    },
    taxStatus: () => 'TAXABLE',
    taxClass: () => 'STANDARD',
  };
}

function inventoryFields<T extends ProductModel | VariationModel>() {
  return {
    manageStock: (x: T) => (x.manageStock ? 'TRUE' : 'FALSE'),
    // The count where stock is managed (0 when sold out: a storefront must not read "unknown"); null only
    // where it is not.
    stockQuantity: (x: T) => (x.manageStock ? (x.stockQuantity ?? 0) : null),
    lowStockAmount: (x: T) => x.lowStockAmount || null,
    backorders: (x: T) => x.backorders.toUpperCase(),
    backordersAllowed: (x: T) => x.backorders !== 'no',
    soldIndividually: () => false,
    stockStatus: (x: T) => (x.kind === 'variation' ? stockStatusOf(x) : productStockStatus(x)),
  };
}

function dimensionFields<T extends ProductModel | VariationModel>() {
  const own = (x: T, k: 'weight' | 'length' | 'width' | 'height') =>
    (x[k] ?? (x.kind === 'variation' ? x.product[k] : null)) || null;
  return {
    weight: (x: T) => own(x, 'weight'),
    length: (x: T) => own(x, 'length'),
    width: (x: T) => own(x, 'width'),
    height: (x: T) => own(x, 'height'),
    shippingClassId: () => null,
    shippingRequired: (x: T) => !(x.kind === 'variation' ? x.product.virtual : x.virtual),
    shippingTaxable: (x: T) => !(x.kind === 'variation' ? x.product.virtual : x.virtual),
  };
}

function downloadFields<T extends ProductModel | VariationModel>() {
  const product = (x: T): ProductModel => (x.kind === 'variation' ? x.product : (x as ProductModel));
  return {
    downloadLimit: (x: T) => product(x).downloadLimit,
    downloadExpiry: (x: T) => product(x).downloadExpiry,
    downloads: (x: T) =>
      x.kind === 'variation'
        ? []
        : x.downloads.map((d) => ({
            downloadId: d.id,
            name: d.name,
            file: d.file,
            fileExt: d.file.split('.').pop() ?? null,
            fileType: null,
            allowedFileType: true,
            fileExists: true,
          })),
  };
}

function attributeName(a: ProductAttributeModel): string {
  return a.attribute ? a.attribute.slug : a.name;
}

const productFields = {
  id: (p: ProductModel) => encodePostId(p.id),
  databaseId: (p: ProductModel) => p.id,
  productId: (p: ProductModel) => p.id,
  uri: (p: ProductModel) => `/product/${p.slug}/`,
  link: (p: ProductModel) => `/product/${p.slug}/`,
  date: (p: ProductModel) => wpDate(p.date),
  dateGmt: (p: ProductModel) => wpDate(p.date),
  modified: (p: ProductModel) => wpDate(p.modified),
  name: (p: ProductModel, _: unknown, ctx: Ctx) => localized(p.name, p.translations, ctx.locale, 'name'),
  title: (p: ProductModel, _: unknown, ctx: Ctx) => localized(p.name, p.translations, ctx.locale, 'name'),
  type: typeEnum,
  catalogVisibility: (p: ProductModel) => p.visibility,
  description: (p: ProductModel, _: unknown, ctx: Ctx) =>
    localized(p.description, p.translations, ctx.locale, 'description'),
  shortDescription: (p: ProductModel, _: unknown, ctx: Ctx) =>
    localized(p.shortDescription, p.translations, ctx.locale, 'shortDescription'),
  dateOnSaleFrom: (p: ProductModel) => wpDate(p.dateOnSaleFrom),
  dateOnSaleTo: (p: ProductModel) => wpDate(p.dateOnSaleTo),
  purchaseNote: () => null,
  onSale: (p: ProductModel) => productOnSale(p),
  purchasable: (p: ProductModel) =>
    p.type !== 'external' && (p.type !== 'variable' || p.variations.length > 0) && priceRange(p) !== null,
  galleryImages: (p: ProductModel, a: PageArgs) => paginate(p.gallery, a, nestedLimits(MAX_GALLERY), (i) => i.id),
  productCategories: (p: ProductModel, a: PageArgs, ctx: Ctx) => paginate(p.categories, a, limits(ctx), (t) => t.id),
  productTags: (p: ProductModel, a: PageArgs, ctx: Ctx) => paginate(p.tags, a, limits(ctx), (t) => t.id),
  terms: (p: ProductModel, a: PageArgs & { where?: { taxonomies?: string[] | null } | null }, ctx: Ctx) => {
    const wanted = a.where?.taxonomies?.length ? new Set(a.where.taxonomies) : null;
    return paginate(wanted ? p.terms.filter((t) => wanted.has(t.taxonomy)) : p.terms, a, limits(ctx), (t) => t.id);
  },
  related: async (p: ProductModel, a: PageArgs, ctx: Ctx) =>
    paginate(await ctx.catalog.related(p, MAX_RELATED), a, nestedLimits(MAX_RELATED), (x) => x.id),
  reviews: (p: ProductModel, a: PageArgs, ctx: Ctx) => {
    const page = paginate(p.reviews, a, limits(ctx), (r) => r.id);
    return { ...page, edges: page.edges.map((e) => ({ ...e, rating: e.node.rating })), averageRating: p.averageRating };
  },
  metaData: (
    p: ProductModel,
    a: { key?: string | null; keysIn?: (string | null)[] | null; multiple?: boolean | null },
  ) => {
    let list = p.metaData.map((m, i) => ({ id: b64(`meta:${p.id}:${i}`), key: m.key, value: m.value }));
    if (a.key) list = list.filter((m) => m.key === a.key);
    if (a.keysIn) list = list.filter((m) => a.keysIn!.includes(m.key));
    if (a.key && !a.multiple) list = list.slice(0, 1);
    return list;
  },
  ...pricingFields<ProductModel>(),
  ...inventoryFields<ProductModel>(),
  ...dimensionFields<ProductModel>(),
  ...downloadFields<ProductModel>(),
  attributes: (p: ProductModel, a: PageArgs & { where?: { type?: 'GLOBAL' | 'LOCAL' | null } | null }, ctx: Ctx) => {
    const scope = a.where?.type;
    const list = p.attributes.filter((x) => !scope || (scope === 'GLOBAL') === (x.attribute !== null));
    return paginate(
      list.map((x) => ({ ...x, productId: p.id })),
      a,
      limits(ctx),
      (x) => x.position,
    );
  },
  globalAttributes: (p: ProductModel, a: PageArgs, ctx: Ctx) =>
    paginate(
      p.attributes.filter((x) => x.attribute).map((x) => ({ ...x, productId: p.id })),
      a,
      limits(ctx),
      (x) => x.position,
    ),
  localAttributes: (p: ProductModel, a: PageArgs, ctx: Ctx) =>
    paginate(
      p.attributes.filter((x) => !x.attribute).map((x) => ({ ...x, productId: p.id })),
      a,
      limits(ctx),
      (x) => x.position,
    ),
  defaultAttributes: (p: ProductModel, a: PageArgs, ctx: Ctx) =>
    paginate(variationAttributes(p.id, p.defaultAttributes, p, ctx.locale), a, limits(ctx), (x) => x.name),
};

const variationsField = {
  variations: (
    p: ProductModel,
    a: PageArgs & {
      where?: { stockStatus?: string[] | null; minPrice?: number | null; maxPrice?: number | null } | null;
    },
  ) => {
    let list = p.variations;
    const w = a.where;
    if (w?.stockStatus?.length) list = list.filter((v) => w.stockStatus!.includes(stockStatusOf(v)));
    if (w?.minPrice) list = list.filter((v) => variationPrice(v) >= Math.round(w.minPrice! * 100));
    if (w?.maxPrice) list = list.filter((v) => variationPrice(v) <= Math.round(w.maxPrice! * 100));
    return paginate(list, a, nestedLimits(MAX_VARIATIONS), (v) => v.id);
  },
};

const externalFields = {
  externalUrl: (p: ProductModel) => p.externalUrl,
  buttonText: (p: ProductModel) => p.buttonText,
};

/** The catalog keeps no group members (grouped products cannot be created here): a group lists none. */
const groupFields = {
  addToCartText: () => 'View products',
  addToCartDescription: (p: ProductModel) => `View products in the “${p.name}” group`,
  products: (_: ProductModel, a: PageArgs) =>
    paginate([] as ProductModel[], a, { defaultPageSize: 10, maxPageSize: 100 }, (x) => x.id),
};

const variationFields = {
  id: (v: VariationModel) => encodePostId(v.id),
  databaseId: (v: VariationModel) => v.id,
  productVariationId: (v: VariationModel) => v.id,
  slug: (v: VariationModel) => [v.product.slug, ...Object.values(v.attributes)].join('-'),
  name: (v: VariationModel, _: unknown, ctx: Ctx) => localizedVariationName(v, ctx.locale),
  type: () => 'variation',
  featured: () => false,
  catalogVisibility: (v: VariationModel) => v.product.visibility,
  description: (v: VariationModel) => v.description,
  image: (v: VariationModel) => v.image ?? v.product.image,
  onSale: (v: VariationModel) => variationOnSale(v),
  purchasable: () => true,
  date: (v: VariationModel) => wpDate(v.product.date),
  modified: (v: VariationModel) => wpDate(v.product.modified),
  status: (v: VariationModel) => v.product.status,
  menuOrder: (v: VariationModel) => v.menuOrder,
  hasAttributes: (v: VariationModel) => Object.keys(v.attributes).length > 0,
  shippingClass: () => null,
  attributes: (v: VariationModel, a: PageArgs, ctx: Ctx) =>
    paginate(variationAttributes(v.id, v.attributes, v.product, ctx.locale), a, nestedLimits(100), (x) => x.name),
  parent: (v: VariationModel) => ({ node: v.product }),
  averageRating: (v: VariationModel) => v.product.averageRating,
  reviewCount: (v: VariationModel) => v.product.reviewCount,
  virtual: (v: VariationModel) => v.product.virtual,
  downloadable: (v: VariationModel) => v.product.downloadable,
  dateOnSaleFrom: () => null,
  dateOnSaleTo: () => null,
  ...pricingFields<VariationModel>(),
  ...inventoryFields<VariationModel>(),
  ...dimensionFields<VariationModel>(),
  ...downloadFields<VariationModel>(),
};

type AttributeNode = ProductAttributeModel & { productId: number };
const attributeFields = {
  id: (a: AttributeNode) => b64(`${a.productId}||${attributeName(a)}`),
  attributeId: (a: AttributeNode) => a.attribute?.id ?? 0,
  name: (a: AttributeNode) => attributeName(a),
  label: (a: AttributeNode, _: unknown, ctx: Ctx) => attributeLabel(a, ctx.locale),
  // A local attribute's values in the request's language — except where they make variations: those values
  // are what the variation picker sends back to the cart, and their names come with each VariationAttribute.
  options: (a: AttributeNode, _: unknown, ctx: Ctx) =>
    a.attribute || a.variation
      ? a.options
      : a.options.map((o) => localizedOption(a.options, a.translations, ctx.locale, o)),
  scope: (a: AttributeNode) => (a.attribute ? 'GLOBAL' : 'LOCAL'),
};

const globalAttributeFields = {
  ...attributeFields,
  slug: (a: AttributeNode) => a.attribute?.slug ?? null,
  terms: (
    a: AttributeNode,
    args: PageArgs & { where?: { orderby?: string | null; order?: 'ASC' | 'DESC' | null } | null },
    ctx: Ctx,
  ) => {
    const terms = (a.attribute?.terms ?? []).filter((t) => a.options.includes(t.slug));
    const dir = args.where?.order === 'DESC' ? -1 : 1;
    const by = args.where?.orderby ?? 'MENU_ORDER';
    const sorted = [...terms].sort((x, y) => {
      const c =
        by === 'NAME' || by === 'NAME_NUM'
          ? x.name.localeCompare(y.name, 'en', { numeric: by === 'NAME_NUM' })
          : by === 'SLUG'
            ? x.slug.localeCompare(y.slug)
            : by === 'ID'
              ? x.id - y.id
              : by === 'COUNT'
                ? x.count - y.count
                : x.menuOrder - y.menuOrder;
      return dir * c || x.id - y.id;
    });
    return paginate(sorted, args, limits(ctx), (t) => t.id);
  },
};

function productTypeName(p: ProductModel): string {
  return p.type === 'variable' ? 'VariableProduct' : p.type === 'external' ? 'ExternalProduct' : 'SimpleProduct';
}

function termTypeName(t: TermModel, attributeTypeName: (taxonomy: string) => string): string {
  if (t.taxonomy === 'product_cat') return 'ProductCategory';
  if (t.taxonomy === 'product_tag') return 'ProductTag';
  return attributeTypeName(t.taxonomy);
}

const reviewFields = {
  id: (r: ReviewModel) => b64(`comment:${r.id}`),
  databaseId: (r: ReviewModel) => r.id,
  commentId: (r: ReviewModel) => r.id,
  parentId: () => null,
  parentDatabaseId: () => 0,
  content: (r: ReviewModel, a: Format) =>
    a.format === 'RAW'
      ? r.content
      : r.content
          .split(/\n{2,}/)
          .map((para) => `<p>${escapeHtml(para).replace(/\n/g, '<br />\n')}</p>`)
          .join('\n'),
  date: (r: ReviewModel) => wpDate(r.date),
  dateGmt: (r: ReviewModel) => wpDate(r.date),
  // approved and status: the reviews domain's, which also knows reviews waiting for approval (reviews/resolvers.ts).
  type: () => 'review',
  author: (r: ReviewModel) => ({
    node: { id: b64(`comment_author:${r.id}`), databaseId: 0, name: r.author, url: null, avatar: null },
  }),
  replies: () => ({
    nodes: [],
    edges: [],
    pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
  }),
};

/** Input enums arrive as internal values (see enumValues); filter lists are passed to the service as they are. */
export function catalogResolvers(
  attributeTaxonomies: string[],
  attributeTypeName: (t: string) => string,
  taxonomyEnumValue: (t: string) => string,
) {
  const attributeTypes = Object.fromEntries(attributeTaxonomies.map((t) => [attributeTypeName(t), termFields]));
  return {
    RootQuery: {
      catalogVersion: async (_: unknown, __: unknown, ctx: Ctx) => (await ctx.catalog.snapshot()).catalogVersion,
      product: (_: unknown, a: { id: string; idType?: 'ID' | 'DATABASE_ID' | 'SLUG' | 'SKU' | null }, ctx: Ctx) =>
        ctx.catalog.findProduct(a.id, a.idType ?? 'ID'),
      productVariation: async (
        _: unknown,
        a: { id: string; idType?: 'ID' | 'DATABASE_ID' | 'SLUG' | 'SKU' | null },
        ctx: Ctx,
      ) => {
        const snap = await ctx.catalog.snapshot();
        const idType = a.idType ?? 'ID';
        let v: VariationModel | undefined;
        if (idType === 'SKU')
          v = [...snap.variationsById.values()].find((x) => x.sku.toLowerCase() === a.id.toLowerCase());
        else if (idType === 'SLUG') v = [...snap.variationsById.values()].find((x) => variationFields.slug(x) === a.id);
        else {
          const raw =
            idType === 'DATABASE_ID'
              ? a.id
              : Buffer.from(a.id, 'base64')
                  .toString('utf8')
                  .replace(/^post:/, '');
          v = /^\d+$/.test(raw) ? snap.variationsById.get(Number(raw)) : undefined;
        }
        return v && v.product.status === 'publish' ? v : null;
      },
      products: async (_: unknown, a: PageArgs & { where?: ProductFilter | null }, ctx: Ctx) =>
        productConnection(ctx, a, a.where ?? {}),
      productCategory: async (_: unknown, a: { id: string; idType?: string | null }, ctx: Ctx) => {
        const snap = await ctx.catalog.snapshot();
        const cats = snap.terms.filter((t) => t.taxonomy === 'product_cat');
        switch (a.idType ?? 'ID') {
          case 'SLUG':
            return cats.find((c) => c.slug === a.id) ?? null;
          case 'NAME':
            return cats.find((c) => c.name === a.id) ?? null;
          case 'URI':
            return (
              cats.find((c) => termFields.uri(c) === a.id || termFields.uri(c) === `${a.id.replace(/\/?$/, '/')}`) ??
              null
            );
          case 'DATABASE_ID':
            return cats.find((c) => String(c.id) === a.id) ?? null;
          default:
            return cats.find((c) => termFields.id(c) === a.id) ?? null;
        }
      },
      productCategories: async (
        _: unknown,
        a: PageArgs & { where?: (TermFilter & { include?: unknown; exclude?: unknown }) | null },
        ctx: Ctx,
      ) => {
        const w = a.where ?? {};
        const list = await ctx.catalog.listTerms(
          { ...w, include: ids(w.include), exclude: ids(w.exclude), taxonomies: ['product_cat'] },
          ['product_cat'],
        );
        return paginate(list, a, limits(ctx), (t) => t.id);
      },
      terms: async (
        _: unknown,
        a: PageArgs & { where?: (TermFilter & { include?: unknown; exclude?: unknown }) | null },
        ctx: Ctx,
      ) => {
        const w = a.where ?? {};
        const defaults = ['product_cat', 'product_tag', ...(await ctx.catalog.attributeTaxonomies())];
        const list = await ctx.catalog.listTerms({ ...w, include: ids(w.include), exclude: ids(w.exclude) }, defaults);
        return paginate(list, a, limits(ctx), (t) => t.id);
      },
    },
    Node: { __resolveType: () => null },
    ProductUnion: {
      __resolveType: (x: ProductModel | VariationModel) =>
        x.kind === 'variation' ? 'SimpleProductVariation' : productTypeName(x),
    },
    Product: { __resolveType: productTypeName },
    ProductWithPricing: {
      __resolveType: (x: ProductModel | VariationModel) =>
        x.kind === 'variation' ? 'SimpleProductVariation' : productTypeName(x),
    },
    InventoriedProduct: {
      __resolveType: (x: ProductModel | VariationModel) =>
        x.kind === 'variation' ? 'SimpleProductVariation' : productTypeName(x),
    },
    ProductWithDimensions: {
      __resolveType: (x: ProductModel | VariationModel) =>
        x.kind === 'variation' ? 'SimpleProductVariation' : productTypeName(x),
    },
    DownloadableProduct: {
      __resolveType: (x: ProductModel | VariationModel) =>
        x.kind === 'variation' ? 'SimpleProductVariation' : productTypeName(x),
    },
    ProductWithAttributes: { __resolveType: productTypeName },
    ProductWithVariations: { __resolveType: productTypeName },
    ProductVariation: { __resolveType: () => 'SimpleProductVariation' },
    ProductAttribute: {
      __resolveType: (a: AttributeNode) => (a.attribute ? 'GlobalProductAttribute' : 'LocalProductAttribute'),
    },
    TermNode: { __resolveType: (t: TermModel) => termTypeName(t, attributeTypeName) },
    Commenter: { __resolveType: () => 'CommentAuthor' },
    Attribute: { __resolveType: () => 'VariationAttribute' },
    SimpleProduct: productFields,
    VariableProduct: { ...productFields, ...variationsField },
    ExternalProduct: { ...productFields, ...externalFields },
    GroupProduct: { ...productFields, ...groupFields },
    SimpleProductVariation: variationFields,
    GlobalProductAttribute: globalAttributeFields,
    LocalProductAttribute: attributeFields,
    MediaItem: mediaItem,
    Comment: reviewFields,
    ProductCategory: {
      ...termFields,
      parentId: (t: TermModel) => (t.parentId ? b64(`term:${t.parentId}`) : null),
      parentDatabaseId: (t: TermModel) => t.parentId ?? 0,
      parent: async (t: TermModel, _: unknown, ctx: Ctx) => {
        const parent = t.parentId ? await ctx.catalog.term('product_cat', t.parentId) : null;
        return parent ? { node: parent } : null;
      },
      children: async (t: TermModel, a: PageArgs, ctx: Ctx) =>
        paginate(
          (await ctx.catalog.snapshot()).terms.filter((c) => c.taxonomy === 'product_cat' && c.parentId === t.id),
          a,
          limits(ctx),
          (c) => c.id,
        ),
      ancestors: async (t: TermModel, a: PageArgs, ctx: Ctx) => {
        const snap = await ctx.catalog.snapshot();
        const out: TermModel[] = [];
        for (
          let p = t.parentId ? snap.termsById.get(t.parentId) : undefined;
          p && out.length < 50;
          p = p.parentId ? snap.termsById.get(p.parentId) : undefined
        )
          out.push(p);
        return paginate(out, a, limits(ctx), (c) => c.id);
      },
      image: (t: TermModel) => t.image,
      display: () => 'default',
      menuOrder: (t: TermModel) => t.menuOrder,
      products: (t: TermModel, a: PageArgs & { where?: ProductFilter | null }, ctx: Ctx) =>
        productConnection(ctx, a, { ...(a.where ?? {}), categoryId: t.id }),
    },
    ProductTag: termFields,
    ...attributeTypes,
    // Enum internal values: the wire spelling ↔ the engine's.
    StockStatusEnum: { IN_STOCK: 'instock', OUT_OF_STOCK: 'outofstock', ON_BACKORDER: 'onbackorder' },
    ProductTypesEnum: {
      SIMPLE: 'simple',
      VARIABLE: 'variable',
      EXTERNAL: 'external',
      GROUPED: 'grouped',
      VARIATION: 'variation',
    },
    CatalogVisibilityEnum: { VISIBLE: 'visible', CATALOG: 'catalog', SEARCH: 'search', HIDDEN: 'hidden' },
    TaxonomyEnum: Object.fromEntries([
      ['PRODUCTCATEGORY', 'product_cat'],
      ['PRODUCTTAG', 'product_tag'],
      ...attributeTaxonomies.map((t) => [taxonomyEnumValue(t), t]),
    ]),
  };
}

function ids(list: unknown): number[] | null {
  if (!Array.isArray(list)) return null;
  return list.map((x) => {
    const s = String(x);
    if (/^\d+$/.test(s)) return Number(s);
    const m = /^term:(\d+)$/.exec(Buffer.from(s, 'base64').toString('utf8'));
    if (!m) throw new GraphQLError(`Invalid term id "${s}".`, { extensions: { code: 'BAD_USER_INPUT' } });
    return Number(m[1]);
  });
}

async function productConnection(ctx: Ctx, args: PageArgs, where: ProductFilter) {
  // A search looks in the request's language besides English; without one the locale stays out of the
  // list cache's key, so every language shares the unsearched lists.
  const filter = where.search?.trim() ? { ...where, locale: ctx.locale } : where;
  const { snapshot, items, compare } = await ctx.catalog.listProducts(filter);
  // Keyset cursors: a cursor names a product; the page continues just after (before) it in this order.
  const boundary = (cursorId: string) => {
    const p = /^\d+$/.test(cursorId) ? snapshot.productsById.get(Number(cursorId)) : undefined;
    if (!p) return null;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(items[mid]!, p) < 0) lo = mid + 1;
      else hi = mid;
    }
    const before = lo;
    const after = lo < items.length && items[lo]!.id === p.id ? lo + 1 : lo;
    return { before, after };
  };
  return paginate(items, args, limits(ctx), (p) => p.id, boundary);
}
