/**
 * The seed catalog's file format (content/catalog/), validated with zod when it is loaded.
 * Editors write these files by hand, so every field says what it means and errors point at the file.
 *
 *   content/catalog/categories.json   Category[]
 *   content/catalog/attributes.json   GlobalAttribute[]      (pa_size, pa_color, pa_frequency-band …)
 *   content/catalog/coupons.json      Coupon[]
 *   content/catalog/products/<slug>.json   one Product per file
 *   content/catalog/images/<file>     images referenced by products and categories (svg, png, jpg, webp)
 *   content/catalog/downloads/<file>  files sold by downloadable products
 *
 * Texts in the shop's other languages sit in a `translations` object keyed by locale, beside the English
 * fields they translate (translations.ts): `"translations": { "de_DE": { "name": "…" } }`. A missing locale or
 * field shows the English text.
 *
 * Money is a decimal string in the store currency (EUR) with at most two decimals ("349", "349.00",
 * "12.5"): never a JSON number, so no float ever touches an amount.
 */
import { z } from 'zod';
import { translationsSchema } from './translations.ts';

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case words joined by dashes');
const attributeSlug = z.string().regex(/^pa_[a-z0-9]+(?:-[a-z0-9]+)*$/, 'pa_<name>');
export const money = z.string().regex(/^\d{1,7}(?:\.\d{1,2})?$/, 'a decimal amount such as "349.00"');
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?)?$/, 'YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]');
const text = z.string().min(1).optional();
const termTranslations = translationsSchema({ name: text, description: z.string().optional() });

const imageFile = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]*\.(svg|png|jpe?g|webp)$/, 'a file name in content/catalog/images/');

export const categorySchema = z.object({
  slug,
  name: z.string().min(1),
  description: z.string().default(''),
  parent: slug.optional(),
  image: imageFile.optional(),
  /** Position in menus; lower first. */
  order: z.number().int().default(0),
  translations: termTranslations,
});

export const globalAttributeSchema = z.object({
  slug: attributeSlug,
  name: z.string().min(1),
  terms: z.array(z.object({ slug, name: z.string().min(1), translations: translationsSchema({ name: text }) })).min(1),
  translations: translationsSchema({ name: text }),
});

const stockSchema = z.object({
  /** true: stock is counted; false: only `status` applies. */
  manage: z.boolean().default(true),
  quantity: z.number().int().min(0).optional(),
  lowStockAmount: z.number().int().min(0).optional(),
  backorders: z.enum(['no', 'notify', 'yes']).default('no'),
  /** Only for products that do not manage stock. */
  status: z.enum(['instock', 'outofstock', 'onbackorder']).optional(),
});

const dimensionsSchema = z.object({
  /** kg */ weight: z.string().optional(),
  /** cm */ length: z.string().optional(),
  width: z.string().optional(),
  height: z.string().optional(),
});

const reviewSchema = z.object({
  author: z.string().min(1),
  email: z.email(),
  rating: z.number().int().min(1).max(5),
  content: z.string().min(1),
  date: isoDate,
  /** Marks a review by someone who bought the product. */
  verified: z.boolean().default(false),
});

/** A product's use of an attribute: a global one by its pa_ slug (options are term slugs) or a local one by name. */
const productAttributeSchema = z.object({
  name: z.string().min(1),
  options: z.array(z.string().min(1)).min(1),
  visible: z.boolean().default(true),
  /** Used to make variations (variable products only). */
  variation: z.boolean().default(false),
  /** Local attributes only: the name and the options (in the order of `options`) in other languages. */
  translations: translationsSchema({ name: text, options: z.array(z.string()).optional() }),
});

const variationSchema = z.object({
  sku: z.string().min(1),
  /** attribute name → option, e.g. { "pa_frequency-band": "eu868" } */
  attributes: z.record(z.string(), z.string()),
  regularPrice: money,
  salePrice: money.optional(),
  stock: stockSchema.default({ manage: true, quantity: 0, backorders: 'no' }),
  image: imageFile.optional(),
  description: z.string().optional(),
  ...dimensionsSchema.shape,
});

const downloadSchema = z.object({
  name: z.string().min(1),
  /** a file name in content/catalog/downloads/ */
  file: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
});

const productBase = z.object({
  slug,
  name: z.string().min(1),
  sku: z.string().min(1),
  status: z.enum(['publish', 'draft', 'private']).default('publish'),
  visibility: z.enum(['visible', 'catalog', 'search', 'hidden']).default('visible'),
  featured: z.boolean().default(false),
  /** Publish date; sorts "newest first". */
  date: isoDate,
  /** Short HTML shown beside the price. */
  shortDescription: z.string().default(''),
  /** Long HTML shown under the gallery. */
  description: z.string().default(''),
  categories: z.array(slug).min(1),
  tags: z.array(slug).default([]),
  image: imageFile,
  gallery: z.array(imageFile).max(20).default([]),
  attributes: z.array(productAttributeSchema).default([]),
  /** Slugs of products to show as related (at most 5 are shown). */
  related: z.array(slug).default([]),
  totalSales: z.number().int().min(0).default(0),
  reviews: z.array(reviewSchema).default([]),
  reviewsAllowed: z.boolean().default(true),
  metaData: z.array(z.object({ key: z.string().min(1), value: z.string() })).default([]),
  translations: translationsSchema({
    name: text,
    shortDescription: z.string().optional(),
    description: z.string().optional(),
  }),
  ...dimensionsSchema.shape,
});

export const simpleProductSchema = productBase.extend({
  type: z.literal('simple'),
  regularPrice: money,
  salePrice: money.optional(),
  dateOnSaleFrom: isoDate.optional(),
  dateOnSaleTo: isoDate.optional(),
  stock: stockSchema,
  virtual: z.boolean().default(false),
  downloadable: z.boolean().default(false),
  downloads: z.array(downloadSchema).default([]),
  /** Times a buyer may download; omitted = unlimited. */
  downloadLimit: z.number().int().positive().optional(),
  /** Days the download link stays valid after purchase; omitted = never expires. */
  downloadExpiry: z.number().int().positive().optional(),
});

export const variableProductSchema = productBase.extend({
  type: z.literal('variable'),
  defaultAttributes: z.record(z.string(), z.string()).default({}),
  variations: z.array(variationSchema).min(1).max(100),
});

export const externalProductSchema = productBase.extend({
  type: z.literal('external'),
  regularPrice: money,
  salePrice: money.optional(),
  externalUrl: z.url(),
  buttonText: z.string().min(1),
});

export const productSchema = z.discriminatedUnion('type', [
  simpleProductSchema,
  variableProductSchema,
  externalProductSchema,
]);

export const couponSchema = z.object({
  code: z.string().regex(/^[a-z0-9_-]+$/, 'lower-case code'),
  description: z.string().default(''),
  discountType: z.enum(['percent', 'fixed_cart', 'fixed_product']),
  amount: money,
  expires: isoDate.optional(),
  usageLimit: z.number().int().positive().optional(),
  usageLimitPerUser: z.number().int().positive().optional(),
  minimumAmount: money.optional(),
  maximumAmount: money.optional(),
  individualUse: z.boolean().default(false),
  freeShipping: z.boolean().default(false),
  excludeSaleItems: z.boolean().default(false),
  productSlugs: z.array(slug).default([]),
  excludedProductSlugs: z.array(slug).default([]),
  categorySlugs: z.array(slug).default([]),
  excludedCategorySlugs: z.array(slug).default([]),
  emailRestrictions: z.array(z.string()).default([]),
});

export type SeedCategory = z.infer<typeof categorySchema>;
export type SeedGlobalAttribute = z.infer<typeof globalAttributeSchema>;
export type SeedProduct = z.infer<typeof productSchema>;
export type SeedCoupon = z.infer<typeof couponSchema>;
