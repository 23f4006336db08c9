/**
 * The catalog domain's tables. Only src/server/catalog/ reads or writes them; other domains go through
 * the catalog service. Money is integer cents (EUR). Products and variations share one id sequence, like
 * WordPress posts, so a database id (and the global id `post:<id>`) names exactly one of them.
 * Every taxonomy term (product_cat, product_tag, pa_*) lives in `catalog_terms`, as WordPress terms do.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AttributeTexts, LocalAttributeTexts, ProductTexts, TermTexts, Translations } from './translations.ts';

export const catalogPostIdSeq = pgSequence('catalog_post_id_seq', { startWith: 100 });

export const catalogImages = pgTable('catalog_images', {
  id: serial('id').primaryKey(),
  /** File name under content/catalog/images/, served at /media/catalog/<file>. */
  file: text('file').notNull().unique(),
  altText: text('alt_text').notNull().default(''),
  title: text('title').notNull().default(''),
  width: integer('width'),
  height: integer('height'),
});

export const catalogAttributes = pgTable('catalog_attributes', {
  id: serial('id').primaryKey(),
  /** Taxonomy name, e.g. pa_color. */
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  /** The name in the shop's other languages (translations.ts). */
  translations: jsonb('translations').$type<Translations<AttributeTexts>>().notNull().default({}),
});

export const catalogTerms = pgTable(
  'catalog_terms',
  {
    id: serial('id').primaryKey(),
    /** product_cat, product_tag or a global attribute taxonomy (pa_…). */
    taxonomy: text('taxonomy').notNull(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    parentId: integer('parent_id'),
    menuOrder: integer('menu_order').notNull().default(0),
    imageId: integer('image_id').references(() => catalogImages.id),
    /** Name and description in the shop's other languages (translations.ts). */
    translations: jsonb('translations').$type<Translations<TermTexts>>().notNull().default({}),
  },
  (t) => [uniqueIndex('catalog_terms_taxonomy_slug').on(t.taxonomy, t.slug)],
);

export const catalogProducts = pgTable(
  'catalog_products',
  {
    id: integer('id').primaryKey().default(sql`nextval('catalog_post_id_seq')`),
    slug: text('slug').notNull().unique(),
    sku: text('sku').notNull().unique(),
    name: text('name').notNull(),
    /** simple | variable | external */
    type: text('type').notNull(),
    /** publish | draft | private */
    status: text('status').notNull().default('publish'),
    /** visible | catalog | search | hidden */
    visibility: text('visibility').notNull().default('visible'),
    featured: boolean('featured').notNull().default(false),
    date: timestamp('date', { mode: 'date' }).notNull(),
    modified: timestamp('modified', { mode: 'date' }).notNull().defaultNow(),
    menuOrder: integer('menu_order').notNull().default(0),
    shortDescription: text('short_description').notNull().default(''),
    description: text('description').notNull().default(''),
    /** Null for variable products (their prices live on variations). */
    regularPriceCents: integer('regular_price_cents'),
    salePriceCents: integer('sale_price_cents'),
    dateOnSaleFrom: timestamp('date_on_sale_from', { mode: 'date' }),
    dateOnSaleTo: timestamp('date_on_sale_to', { mode: 'date' }),
    manageStock: boolean('manage_stock').notNull().default(false),
    stockQuantity: integer('stock_quantity'),
    lowStockAmount: integer('low_stock_amount'),
    /** no | notify | yes */
    backorders: text('backorders').notNull().default('no'),
    /** instock | outofstock | onbackorder — only used when stock is not managed. */
    stockStatus: text('stock_status').notNull().default('instock'),
    virtual: boolean('virtual').notNull().default(false),
    downloadable: boolean('downloadable').notNull().default(false),
    downloadLimit: integer('download_limit'),
    downloadExpiry: integer('download_expiry'),
    weight: text('weight'),
    length: text('length'),
    width: text('width'),
    height: text('height'),
    externalUrl: text('external_url'),
    buttonText: text('button_text'),
    totalSales: integer('total_sales').notNull().default(0),
    /** The `stock_version` counter value of the last stock change of this row (catalog/stock.ts). */
    stockVersion: bigint('stock_version', { mode: 'number' }).notNull().default(0),
    reviewsAllowed: boolean('reviews_allowed').notNull().default(true),
    imageId: integer('image_id').references(() => catalogImages.id),
    /** attribute name → option slug */
    defaultAttributes: jsonb('default_attributes').$type<Record<string, string>>().notNull().default({}),
    metaData: jsonb('meta_data').$type<{ key: string; value: string }[]>().notNull().default([]),
    /** Slugs of related products, in editor order. */
    related: jsonb('related').$type<string[]>().notNull().default([]),
    /** Name, short description and description in the shop's other languages (translations.ts). */
    translations: jsonb('translations').$type<Translations<ProductTexts>>().notNull().default({}),
  },
  (t) => [index('catalog_products_status').on(t.status), index('catalog_products_stock_version').on(t.stockVersion)],
);

export const catalogVariations = pgTable(
  'catalog_variations',
  {
    id: integer('id').primaryKey().default(sql`nextval('catalog_post_id_seq')`),
    productId: integer('product_id')
      .notNull()
      .references(() => catalogProducts.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull().unique(),
    menuOrder: integer('menu_order').notNull().default(0),
    /** attribute name → option slug, e.g. { "pa_frequency-band": "eu868" } */
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull(),
    regularPriceCents: integer('regular_price_cents').notNull(),
    salePriceCents: integer('sale_price_cents'),
    manageStock: boolean('manage_stock').notNull().default(true),
    stockQuantity: integer('stock_quantity'),
    lowStockAmount: integer('low_stock_amount'),
    backorders: text('backorders').notNull().default('no'),
    stockStatus: text('stock_status').notNull().default('instock'),
    stockVersion: bigint('stock_version', { mode: 'number' }).notNull().default(0),
    imageId: integer('image_id').references(() => catalogImages.id),
    description: text('description').notNull().default(''),
    weight: text('weight'),
    length: text('length'),
    width: text('width'),
    height: text('height'),
  },
  (t) => [
    index('catalog_variations_product').on(t.productId),
    index('catalog_variations_stock_version').on(t.stockVersion),
  ],
);

export const catalogProductImages = pgTable(
  'catalog_product_images',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => catalogProducts.id, { onDelete: 'cascade' }),
    imageId: integer('image_id')
      .notNull()
      .references(() => catalogImages.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.position] })],
);

/** Which terms (categories, tags, global attribute values) a product has. */
export const catalogProductTerms = pgTable(
  'catalog_product_terms',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => catalogProducts.id, { onDelete: 'cascade' }),
    termId: integer('term_id')
      .notNull()
      .references(() => catalogTerms.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.termId] }), index('catalog_product_terms_term').on(t.termId)],
);

/** A product's use of an attribute (global by pa_ slug, or local by name), in display order. */
export const catalogProductAttributes = pgTable(
  'catalog_product_attributes',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => catalogProducts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    /** Set for global attributes. */
    attributeId: integer('attribute_id').references(() => catalogAttributes.id),
    /** Term slugs (global) or free-text values (local). */
    options: jsonb('options').$type<string[]>().notNull(),
    visible: boolean('visible').notNull().default(true),
    variation: boolean('variation').notNull().default(false),
    /** Local attributes: name and options in the shop's other languages (global ones: catalog_attributes/terms). */
    translations: jsonb('translations').$type<Translations<LocalAttributeTexts>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.productId, t.position] })],
);

export const catalogDownloads = pgTable('catalog_downloads', {
  /** Stable download id (uuid), as WooCommerce's download ids. */
  id: text('id').primaryKey(),
  productId: integer('product_id')
    .notNull()
    .references(() => catalogProducts.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  name: text('name').notNull(),
  /** File name under content/catalog/downloads/. */
  file: text('file').notNull(),
});

export const catalogReviews = pgTable(
  'catalog_reviews',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => catalogProducts.id, { onDelete: 'cascade' }),
    author: text('author').notNull(),
    email: text('email').notNull(),
    rating: integer('rating').notNull(),
    content: text('content').notNull(),
    date: timestamp('date', { mode: 'date' }).notNull(),
    verified: boolean('verified').notNull().default(false),
    /** approved | pending | spam — only approved reviews are shown and counted. */
    status: text('status').notNull().default('approved'),
  },
  (t) => [index('catalog_reviews_product').on(t.productId)],
);
