/**
 * Catalog writes for store operators (admin GraphQL, `npm run shop`): products, variations, categories,
 * images and downloadable files. Every write runs in one transaction under the catalog write lock (the
 * seed and the importer take the same one) and bumps `catalog_version` — or only `stock_version` for a
 * stock-quantity change — in that transaction, so every process's snapshot and response cache follow.
 * Inputs are validated here with messages an operator can act on; amounts are integer cents.
 */
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, DbOrTx } from '../db/connection.ts';
import { bumpCounter } from '../db/meta.ts';
import type { CatalogService } from './service.ts';
import type { ProductModel, VariationModel } from './snapshot.ts';
import { markStockChanged } from './stock.ts';
import { compactTranslations, TRANSLATION_LOCALES, type Translations } from './translations.ts';
import {
  catalogAttributes,
  catalogDownloads,
  catalogImages,
  catalogProductAttributes,
  catalogProductImages,
  catalogProducts,
  catalogProductTerms,
  catalogTerms,
  catalogVariations,
} from './tables.ts';

/** A refusal an operator can fix (bad input, unknown id, a taken SKU …). */
export class CatalogInputError extends Error {
  override name = 'CatalogInputError';
  constructor(
    message: string,
    readonly code: 'BAD_USER_INPUT' | 'NOT_FOUND' = 'BAD_USER_INPUT',
  ) {
    super(message);
  }
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_CENTS = 100_000_000; // €1,000,000.00: more is a typo
const cents = (what: string) =>
  z
    .number({ message: `${what} must be a whole number of cents` })
    .int(`${what} must be a whole number of cents`)
    .min(0, `${what} cannot be negative`)
    .max(MAX_CENTS, `${what} is too large`);
const count = (what: string) =>
  z
    .number({ message: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .min(0, `${what} cannot be negative`)
    .max(1_000_000, `${what} is too large`);
const text = (what: string, max: number) => z.string().max(max, `${what} is too long (at most ${max} characters)`);
const date = (what: string) =>
  z
    .string()
    .refine(
      (s) =>
        /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(s) &&
        !Number.isNaN(Date.parse(s)),
      `${what} must be a date (YYYY-MM-DD) or date-time (ISO 8601)`,
    )
    .transform((s) => new Date(s.length === 10 ? `${s}T00:00:00Z` : /Z|[+-]\d{2}:\d{2}$/.test(s) ? s : `${s}Z`));

const stockFields = {
  manageStock: z.boolean().optional(),
  stockQuantity: z
    .number({ message: 'Stock quantity must be a whole number' })
    .int('Stock quantity must be a whole number')
    .min(-1_000_000)
    .max(1_000_000)
    .nullable()
    .optional(),
  lowStockAmount: count('Low-stock amount').nullable().optional(),
  backorders: z.enum(['no', 'notify', 'yes'], { message: 'Backorders must be no, notify or yes' }).optional(),
  stockStatus: z
    .enum(['instock', 'outofstock', 'onbackorder'], {
      message: 'Stock status must be instock, outofstock or onbackorder',
    })
    .optional(),
};

const attributeInput = z.object({
  name: text('Attribute name', 100).min(1, 'Every attribute needs a name'),
  options: z
    .array(text('Attribute value', 100).min(1, 'Attribute values cannot be empty'))
    .min(1, 'Every attribute needs at least one value')
    .max(100),
  visible: z.boolean().optional(),
  variation: z.boolean().optional(),
});

/**
 * A `translations` input: shop locales other than English only, the given fields only; stored without
 * empty fields (compactTranslations), so an emptied field shows the English text again.
 */
function textTranslations<S extends z.ZodRawShape>(fields: S) {
  const one = z.strictObject(fields, {
    error: (i) => (i.code === 'unrecognized_keys' ? `Unknown translated field ${i.keys.join(', ')}.` : undefined),
  });
  return z
    .record(z.string(), one)
    .refine((r) => Object.keys(r).every((k) => (TRANSLATION_LOCALES as string[]).includes(k)), {
      message: `Translations are for the shop's other languages: ${TRANSLATION_LOCALES.join(', ')}.`,
    })
    .transform((r) => compactTranslations(r as Translations<Record<string, unknown>>));
}

export const productInputSchema = z
  .object({
    name: text('Name', 200).trim().min(1, 'A product needs a name'),
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .max(200)
      .regex(SLUG, 'The slug may contain lower-case letters, digits and single hyphens only'),
    sku: z
      .string()
      .trim()
      .min(1, 'The SKU cannot be empty')
      .max(100, 'The SKU is too long')
      .regex(/^[A-Za-z0-9._-]+$/, 'The SKU may contain letters, digits, dots, underscores and hyphens only'),
    type: z.enum(['simple', 'variable', 'external'], { message: 'Type must be simple, variable or external' }),
    status: z.enum(['publish', 'draft', 'private'], { message: 'Status must be publish, draft or private' }),
    visibility: z.enum(['visible', 'catalog', 'search', 'hidden'], {
      message: 'Visibility must be visible, catalog, search or hidden',
    }),
    featured: z.boolean(),
    menuOrder: z.number().int().min(-100_000).max(100_000),
    shortDescription: text('Short description', 5_000),
    description: text('Description', 100_000),
    regularPriceCents: cents('Regular price').nullable(),
    salePriceCents: cents('Sale price').nullable(),
    dateOnSaleFrom: date('Sale start').nullable(),
    dateOnSaleTo: date('Sale end').nullable(),
    virtual: z.boolean(),
    downloadable: z.boolean(),
    downloadLimit: z
      .number()
      .int('Download limit must be a whole number')
      .min(1, 'Download limit must be at least 1 (leave it empty for unlimited)')
      .max(10_000)
      .nullable(),
    downloadExpiry: z
      .number()
      .int('Download expiry must be a whole number of days')
      .min(1, 'Download expiry must be at least 1 day (leave it empty for never)')
      .max(36_500)
      .nullable(),
    externalUrl: z.string().url('The external URL must be a full http(s) URL').max(2000).nullable(),
    buttonText: text('Button text', 100).nullable(),
    reviewsAllowed: z.boolean(),
    weight: text('Weight', 20).nullable(),
    categoryIds: z.array(z.number().int()).max(50),
    imageId: z.number().int().nullable(),
    galleryImageIds: z.array(z.number().int()).max(50),
    attributes: z.array(attributeInput).max(20),
    /** Name and descriptions in the shop's other languages; replaces the stored ones, empty = English. */
    translations: textTranslations({
      name: text('Translated name', 200).trim().optional(),
      shortDescription: text('Translated short description', 5_000).optional(),
      description: text('Translated description', 100_000).optional(),
    }),
    ...stockFields,
  })
  .partial();

export type ProductInput = z.input<typeof productInputSchema>;

export const variationInputSchema = z
  .object({
    sku: z
      .string()
      .trim()
      .min(1, 'The SKU cannot be empty')
      .max(100)
      .regex(/^[A-Za-z0-9._-]+$/, 'The SKU may contain letters, digits, dots, underscores and hyphens only'),
    attributes: z.record(z.string().max(100), z.string().max(100)),
    regularPriceCents: cents('Regular price'),
    salePriceCents: cents('Sale price').nullable(),
    description: text('Description', 5_000),
    imageId: z.number().int().nullable(),
    menuOrder: z.number().int().min(0).max(10_000),
    ...stockFields,
  })
  .partial();

export type VariationInput = z.input<typeof variationInputSchema>;

export const categoryInputSchema = z
  .object({
    name: text('Name', 200).trim().min(1, 'A category needs a name'),
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .max(200)
      .regex(SLUG, 'The slug may contain lower-case letters, digits and single hyphens only'),
    description: text('Description', 10_000),
    parentId: z.number().int().nullable(),
    menuOrder: z.number().int().min(-100_000).max(100_000),
    imageId: z.number().int().nullable(),
    /** Name and description in the shop's other languages; replaces the stored ones, empty = English. */
    translations: textTranslations({
      name: text('Translated name', 200).trim().optional(),
      description: text('Translated description', 10_000).optional(),
    }),
  })
  .partial();

export type CategoryInput = z.input<typeof categoryInputSchema>;

export type StockInput = z.input<z.ZodObject<typeof stockFields>>;

function parse<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input ?? {});
  if (!r.success) {
    throw new CatalogInputError(
      r.error.issues
        .map((i) => i.message)
        .filter((m, i, all) => all.indexOf(m) === i)
        .join(' '),
    );
  }
  return r.data;
}

/** Drops keys whose value is undefined (GraphQL: not given) so partial updates keep stored values. */
const given = <T extends Record<string, unknown>>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'product'
  );
}

function uniqueViolation(err: unknown): string | null {
  const e = err as {
    code?: string;
    constraint?: string;
    message?: string;
    cause?: { code?: string; constraint?: string; message?: string };
  };
  if ((e?.code ?? e?.cause?.code) !== '23505') return null;
  return `${e?.constraint ?? ''} ${e?.cause?.constraint ?? ''} ${e?.message ?? ''} ${e?.cause?.message ?? ''}`;
}

function friendlyUnique(err: unknown): never {
  const text = uniqueViolation(err);
  if (text === null) throw err;
  if (text.includes('sku')) throw new CatalogInputError('Another product or variation already has this SKU.');
  if (text.includes('slug')) throw new CatalogInputError('Another product or category already has this slug.');
  if (text.includes('catalog_images_file')) throw new CatalogInputError('An image with this file name exists already.');
  throw new CatalogInputError('That value is already taken.');
}

/** The sale rules WooCommerce applies: a sale price below the regular price, a start before the end. */
function checkSale(regular: number | null, sale: number | null, from: Date | null, to: Date | null): void {
  if (sale !== null && regular === null) throw new CatalogInputError('Set a regular price before a sale price.');
  if (sale !== null && regular !== null && sale >= regular)
    throw new CatalogInputError('The sale price must be lower than the regular price.');
  if (from && to && from.getTime() > to.getTime()) throw new CatalogInputError('The sale must start before it ends.');
}

export type ImageUpload = { file: string; altText: string; title: string; width: number | null; height: number | null };

export class CatalogOperator {
  constructor(
    private readonly db: Database,
    private readonly catalog: CatalogService,
  ) {}

  /**
   * One catalog write: lock, run, bump the catalog version (unless `catalogChanged` is false: a stock-only
   * change announces itself with markStockChanged), then let this process see it at once.
   */
  private async write<T>(fn: (tx: DbOrTx) => Promise<T>, catalogChanged = true): Promise<T> {
    let result: T;
    try {
      result = await this.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('meshfront:catalog-write', 0))`);
        const r = await fn(tx);
        if (catalogChanged) await bumpCounter(tx, 'catalog_version');
        return r;
      });
    } catch (err) {
      friendlyUnique(err);
    }
    this.catalog.invalidate();
    return result!;
  }

  private async productRow(tx: DbOrTx, id: number) {
    const [row] = await tx.select().from(catalogProducts).where(eq(catalogProducts.id, id));
    if (!row) throw new CatalogInputError(`There is no product with id ${id}.`, 'NOT_FOUND');
    return row;
  }

  private async checkImages(tx: DbOrTx, ids: number[]): Promise<void> {
    for (const id of new Set(ids)) {
      const [img] = await tx.select({ id: catalogImages.id }).from(catalogImages).where(eq(catalogImages.id, id));
      if (!img) throw new CatalogInputError(`There is no image with id ${id}; upload it first.`, 'NOT_FOUND');
    }
  }

  private async setCategories(tx: DbOrTx, productId: number, categoryIds: number[]): Promise<void> {
    const ids = [...new Set(categoryIds)];
    for (const id of ids) {
      const [t] = await tx
        .select({ id: catalogTerms.id })
        .from(catalogTerms)
        .where(and(eq(catalogTerms.id, id), eq(catalogTerms.taxonomy, 'product_cat')));
      if (!t) throw new CatalogInputError(`There is no category with id ${id}.`, 'NOT_FOUND');
    }
    await tx.execute(
      sql`delete from catalog_product_terms where product_id = ${productId} and term_id in (select id from catalog_terms where taxonomy = 'product_cat')`,
    );
    if (ids.length)
      await tx.insert(catalogProductTerms).values(ids.map((termId, position) => ({ productId, termId, position })));
  }

  private async setAttributes(
    tx: DbOrTx,
    productId: number,
    attributes: z.output<typeof attributeInput>[],
  ): Promise<void> {
    // A local attribute keeps its translations when the editor saves it again under the same name with the
    // same options (the product form does not edit them); other changes start them afresh.
    const previous = await tx
      .select({
        name: catalogProductAttributes.name,
        options: catalogProductAttributes.options,
        translations: catalogProductAttributes.translations,
      })
      .from(catalogProductAttributes)
      .where(eq(catalogProductAttributes.productId, productId));
    const keptTranslations = (a: { name: string; options: string[] }) =>
      previous.find((x) => x.name === a.name && JSON.stringify(x.options) === JSON.stringify(a.options))
        ?.translations ?? {};
    await tx.delete(catalogProductAttributes).where(eq(catalogProductAttributes.productId, productId));
    // Global attribute terms (pa_…) a product has are product terms too; local attributes are free text.
    await tx.execute(
      sql`delete from catalog_product_terms where product_id = ${productId} and term_id in (select id from catalog_terms where taxonomy like 'pa\_%')`,
    );
    let position = 0;
    for (const a of attributes) {
      const [global] = a.name.startsWith('pa_')
        ? await tx.select().from(catalogAttributes).where(eq(catalogAttributes.slug, a.name))
        : [];
      if (a.name.startsWith('pa_') && !global) throw new CatalogInputError(`There is no global attribute ${a.name}.`);
      await tx.insert(catalogProductAttributes).values({
        productId,
        position: position++,
        name: a.name,
        attributeId: global?.id ?? null,
        options: a.options,
        visible: a.visible ?? true,
        variation: a.variation ?? false,
        translations: global ? {} : keptTranslations(a),
      });
      if (global) {
        for (const [i, slug] of a.options.entries()) {
          const [term] = await tx
            .select({ id: catalogTerms.id })
            .from(catalogTerms)
            .where(and(eq(catalogTerms.taxonomy, a.name), eq(catalogTerms.slug, slug)));
          if (!term) throw new CatalogInputError(`${a.name} has no value "${slug}".`);
          await tx
            .insert(catalogProductTerms)
            .values({ productId, termId: term.id, position: i })
            .onConflictDoNothing();
        }
      }
    }
  }

  private async setGallery(tx: DbOrTx, productId: number, imageIds: number[]): Promise<void> {
    await this.checkImages(tx, imageIds);
    await tx.delete(catalogProductImages).where(eq(catalogProductImages.productId, productId));
    if (imageIds.length)
      await tx
        .insert(catalogProductImages)
        .values(imageIds.map((imageId, position) => ({ productId, imageId, position })));
  }

  /** A new product (draft unless `status` says otherwise). Slug from the name and SKU from the slug when not given. */
  async createProduct(input: ProductInput): Promise<number> {
    const p = parse(productInputSchema, input);
    if (!p.name) throw new CatalogInputError('A product needs a name.');
    const type = p.type ?? 'simple';
    const slug = p.slug ?? slugify(p.name);
    const sku = p.sku ?? slug.toUpperCase();
    if (type !== 'variable' && (p.regularPriceCents === undefined || p.regularPriceCents === null))
      throw new CatalogInputError('A simple or external product needs a regular price.');
    if (type === 'external' && !p.externalUrl)
      throw new CatalogInputError('An external product needs its external URL.');
    checkSale(p.regularPriceCents ?? null, p.salePriceCents ?? null, p.dateOnSaleFrom ?? null, p.dateOnSaleTo ?? null);
    return this.write(async (tx) => {
      if (p.imageId) await this.checkImages(tx, [p.imageId]);
      const now = new Date();
      const [maxOrder] = await tx
        .select({ n: sql<number>`coalesce(max(${catalogProducts.menuOrder}), 0)::int` })
        .from(catalogProducts);
      const [row] = await tx
        .insert(catalogProducts)
        .values({
          slug,
          sku,
          name: p.name!,
          type,
          status: p.status ?? 'draft',
          visibility: p.visibility ?? 'visible',
          featured: p.featured ?? false,
          date: now,
          modified: now,
          menuOrder: p.menuOrder ?? Number(maxOrder?.n ?? 0) + 1,
          shortDescription: p.shortDescription ?? '',
          description: p.description ?? '',
          regularPriceCents: type === 'variable' ? null : (p.regularPriceCents ?? null),
          salePriceCents: type === 'variable' ? null : (p.salePriceCents ?? null),
          dateOnSaleFrom: p.dateOnSaleFrom ?? null,
          dateOnSaleTo: p.dateOnSaleTo ?? null,
          manageStock: type === 'simple' ? (p.manageStock ?? false) : false,
          stockQuantity: p.stockQuantity ?? null,
          lowStockAmount: p.lowStockAmount ?? null,
          backorders: p.backorders ?? 'no',
          stockStatus: p.stockStatus ?? 'instock',
          virtual: p.virtual ?? false,
          downloadable: p.downloadable ?? false,
          downloadLimit: p.downloadLimit ?? null,
          downloadExpiry: p.downloadExpiry ?? null,
          externalUrl: p.externalUrl ?? null,
          buttonText: p.buttonText ?? null,
          reviewsAllowed: p.reviewsAllowed ?? true,
          weight: p.weight ?? null,
          imageId: p.imageId ?? null,
          translations: p.translations ?? {},
        })
        .returning({ id: catalogProducts.id });
      const id = row!.id;
      if (p.categoryIds) await this.setCategories(tx, id, p.categoryIds);
      if (p.galleryImageIds) await this.setGallery(tx, id, p.galleryImageIds);
      if (p.attributes) await this.setAttributes(tx, id, p.attributes);
      return id;
    });
  }

  /** Changes only the fields given; prices and sale dates are checked against the stored ones. */
  async updateProduct(id: number, input: ProductInput): Promise<void> {
    const p = parse(productInputSchema, input);
    await this.write(async (tx) => {
      const current = await this.productRow(tx, id);
      const type = p.type ?? (current.type as 'simple' | 'variable' | 'external');
      if (p.type && p.type !== current.type) {
        const [v] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(catalogVariations)
          .where(eq(catalogVariations.productId, id));
        if (current.type === 'variable' && Number(v?.n ?? 0) > 0)
          throw new CatalogInputError('Delete the variations before changing a variable product into another type.');
      }
      const regular = p.regularPriceCents !== undefined ? p.regularPriceCents : current.regularPriceCents;
      const sale = p.salePriceCents !== undefined ? p.salePriceCents : current.salePriceCents;
      const from = p.dateOnSaleFrom !== undefined ? p.dateOnSaleFrom : current.dateOnSaleFrom;
      const to = p.dateOnSaleTo !== undefined ? p.dateOnSaleTo : current.dateOnSaleTo;
      if (type !== 'variable') {
        if (regular === null) throw new CatalogInputError('A simple or external product needs a regular price.');
        checkSale(regular, sale, from, to);
      }
      if (p.imageId) await this.checkImages(tx, [p.imageId]);
      const { categoryIds, galleryImageIds, attributes, ...columns } = p;
      const set = given({ ...columns, type: p.type, modified: new Date() });
      if (type === 'variable')
        Object.assign(set, { regularPriceCents: null, salePriceCents: null, manageStock: false });
      await tx.update(catalogProducts).set(set).where(eq(catalogProducts.id, id));
      if (categoryIds) await this.setCategories(tx, id, categoryIds);
      if (galleryImageIds) await this.setGallery(tx, id, galleryImageIds);
      if (attributes) await this.setAttributes(tx, id, attributes);
    });
  }

  /** Archive = private: gone from the shop, its orders and reviews kept; `updateProduct({status:'publish'})` brings it back. */
  async archiveProduct(id: number): Promise<void> {
    await this.write(async (tx) => {
      await this.productRow(tx, id);
      await tx
        .update(catalogProducts)
        .set({ status: 'private', modified: new Date() })
        .where(eq(catalogProducts.id, id));
    });
  }

  /**
   * Stock of a product or a variation (they share one id sequence). Only the quantity → a stock-version
   * bump (cheap refresh everywhere); anything else changes what the catalog shows → a catalog-version bump.
   */
  async setStock(id: number, input: StockInput): Promise<'product' | 'variation'> {
    const s = parse(z.object(stockFields), input);
    if (s.manageStock === false && s.stockQuantity !== undefined && s.stockQuantity !== null)
      throw new CatalogInputError('Turn on stock management to set a stock quantity.');
    const onlyQuantity = Object.keys(given(s)).every((k) => k === 'stockQuantity' || k === 'stockStatus');
    return this.write(
      async (tx) => {
        const set = given(s);
        if (!Object.keys(set).length)
          throw new CatalogInputError(
            'Nothing to change: give a stock quantity, low-stock amount, backorders or stock management.',
          );
        const [v] = await tx.select().from(catalogVariations).where(eq(catalogVariations.id, id));
        if (v) {
          if (set.stockQuantity !== undefined && set.stockQuantity !== null && !(set.manageStock ?? v.manageStock))
            throw new CatalogInputError('Turn on stock management to set a stock quantity.');
          await tx.update(catalogVariations).set(set).where(eq(catalogVariations.id, id));
          await tx.update(catalogProducts).set({ modified: new Date() }).where(eq(catalogProducts.id, v.productId));
          await markStockChanged(tx, { variationIds: [id] });
          return 'variation' as const;
        }
        const p = await this.productRow(tx, id);
        if (p.type === 'external') throw new CatalogInputError('External products have no stock.');
        if (p.type === 'variable' && set.manageStock)
          throw new CatalogInputError('Set the stock of a variable product on its variations.');
        if (set.stockQuantity !== undefined && set.stockQuantity !== null && !(set.manageStock ?? p.manageStock))
          throw new CatalogInputError('Turn on stock management to set a stock quantity.');
        await tx
          .update(catalogProducts)
          .set({ ...set, modified: new Date() })
          .where(eq(catalogProducts.id, id));
        await markStockChanged(tx, { productIds: [id] });
        return 'product' as const;
      },
      // Anything beyond the quantity changes what the catalog shows.
      !onlyQuantity,
    );
  }

  /** Price of a product or a variation (regular, sale; sale dates for products). `null` sale = no sale. */
  async setPrice(
    id: number,
    input: {
      regularPriceCents?: number;
      salePriceCents?: number | null;
      dateOnSaleFrom?: string | null;
      dateOnSaleTo?: string | null;
    },
  ): Promise<'product' | 'variation'> {
    const [v] = await this.db
      .select({ id: catalogVariations.id })
      .from(catalogVariations)
      .where(eq(catalogVariations.id, id));
    if (v) {
      if (input.dateOnSaleFrom || input.dateOnSaleTo)
        throw new CatalogInputError('Sale dates are set on the product, not on a variation.');
      await this.updateVariation(id, {
        regularPriceCents: input.regularPriceCents,
        salePriceCents: input.salePriceCents,
      });
      return 'variation';
    }
    await this.updateProduct(id, input);
    return 'product';
  }

  // ---------- variations ----------

  private async checkVariationAttributes(
    tx: DbOrTx,
    productId: number,
    attributes: Record<string, string>,
  ): Promise<void> {
    const defined = await tx
      .select()
      .from(catalogProductAttributes)
      .where(eq(catalogProductAttributes.productId, productId));
    const forVariations = defined.filter((a) => a.variation);
    for (const [name, value] of Object.entries(attributes)) {
      const a = forVariations.find((x) => x.name === name);
      if (!a) throw new CatalogInputError(`The product has no attribute "${name}" used for variations.`);
      if (value !== '' && !a.options.includes(value))
        throw new CatalogInputError(`"${value}" is not a value of ${name} (${a.options.join(', ')}).`);
    }
  }

  async createVariation(productId: number, input: VariationInput): Promise<number> {
    const v = parse(variationInputSchema, input);
    if (v.regularPriceCents === undefined) throw new CatalogInputError('A variation needs a regular price.');
    if (!v.sku) throw new CatalogInputError('A variation needs its own SKU.');
    if (!v.attributes || !Object.keys(v.attributes).length)
      throw new CatalogInputError('A variation needs its attribute values (e.g. {"pa_frequency-band": "eu868"}).');
    checkSale(v.regularPriceCents, v.salePriceCents ?? null, null, null);
    return this.write(async (tx) => {
      const p = await this.productRow(tx, productId);
      if (p.type !== 'variable') throw new CatalogInputError('Only variable products have variations.');
      await this.checkVariationAttributes(tx, productId, v.attributes!);
      if (v.imageId) await this.checkImages(tx, [v.imageId]);
      const [row] = await tx
        .insert(catalogVariations)
        .values({
          productId,
          sku: v.sku!,
          attributes: v.attributes!,
          regularPriceCents: v.regularPriceCents!,
          salePriceCents: v.salePriceCents ?? null,
          description: v.description ?? '',
          imageId: v.imageId ?? null,
          menuOrder: v.menuOrder ?? 0,
          manageStock: v.manageStock ?? true,
          stockQuantity: v.stockQuantity ?? (v.manageStock === false ? null : 0),
          lowStockAmount: v.lowStockAmount ?? null,
          backorders: v.backorders ?? 'no',
          stockStatus: v.stockStatus ?? 'instock',
        })
        .returning({ id: catalogVariations.id });
      await tx.update(catalogProducts).set({ modified: new Date() }).where(eq(catalogProducts.id, productId));
      return row!.id;
    });
  }

  async updateVariation(id: number, input: VariationInput): Promise<void> {
    const v = parse(variationInputSchema, input);
    await this.write(async (tx) => {
      const [current] = await tx.select().from(catalogVariations).where(eq(catalogVariations.id, id));
      if (!current) throw new CatalogInputError(`There is no variation with id ${id}.`, 'NOT_FOUND');
      checkSale(
        v.regularPriceCents ?? current.regularPriceCents,
        v.salePriceCents !== undefined ? v.salePriceCents : current.salePriceCents,
        null,
        null,
      );
      if (v.attributes) await this.checkVariationAttributes(tx, current.productId, v.attributes);
      if (v.imageId) await this.checkImages(tx, [v.imageId]);
      await tx.update(catalogVariations).set(given(v)).where(eq(catalogVariations.id, id));
      await tx.update(catalogProducts).set({ modified: new Date() }).where(eq(catalogProducts.id, current.productId));
    });
  }

  async deleteVariation(id: number): Promise<void> {
    await this.write(async (tx) => {
      const rows = await tx
        .delete(catalogVariations)
        .where(eq(catalogVariations.id, id))
        .returning({ productId: catalogVariations.productId });
      if (!rows.length) throw new CatalogInputError(`There is no variation with id ${id}.`, 'NOT_FOUND');
    });
  }

  // ---------- categories ----------

  private async checkParent(tx: DbOrTx, id: number | null, parentId: number | null | undefined): Promise<void> {
    if (parentId === undefined || parentId === null) return;
    if (parentId === id) throw new CatalogInputError('A category cannot be its own parent.');
    let cursor: number | null = parentId;
    for (let depth = 0; cursor !== null && depth < 50; depth++) {
      const [t]: { id: number; parentId: number | null }[] = await tx
        .select({ id: catalogTerms.id, parentId: catalogTerms.parentId })
        .from(catalogTerms)
        .where(and(eq(catalogTerms.id, cursor), eq(catalogTerms.taxonomy, 'product_cat')));
      if (!t) throw new CatalogInputError(`There is no category with id ${cursor}.`, 'NOT_FOUND');
      if (id !== null && t.parentId === id)
        throw new CatalogInputError('A category cannot be moved under one of its own sub-categories.');
      cursor = t.parentId;
    }
  }

  async createCategory(input: CategoryInput): Promise<number> {
    const c = parse(categoryInputSchema, input);
    if (!c.name) throw new CatalogInputError('A category needs a name.');
    return this.write(async (tx) => {
      await this.checkParent(tx, null, c.parentId);
      if (c.imageId) await this.checkImages(tx, [c.imageId]);
      const slug = c.slug ?? slugify(c.name!);
      const [dup] = await tx
        .select({ id: catalogTerms.id })
        .from(catalogTerms)
        .where(and(eq(catalogTerms.taxonomy, 'product_cat'), eq(catalogTerms.slug, slug)));
      if (dup) throw new CatalogInputError(`A category with the slug "${slug}" exists already.`);
      const [row] = await tx
        .insert(catalogTerms)
        .values({
          taxonomy: 'product_cat',
          slug,
          name: c.name!,
          description: c.description ?? '',
          parentId: c.parentId ?? null,
          menuOrder: c.menuOrder ?? 0,
          imageId: c.imageId ?? null,
          translations: c.translations ?? {},
        })
        .returning({ id: catalogTerms.id });
      return row!.id;
    });
  }

  async updateCategory(id: number, input: CategoryInput): Promise<void> {
    const c = parse(categoryInputSchema, input);
    await this.write(async (tx) => {
      const [t] = await tx
        .select()
        .from(catalogTerms)
        .where(and(eq(catalogTerms.id, id), eq(catalogTerms.taxonomy, 'product_cat')));
      if (!t) throw new CatalogInputError(`There is no category with id ${id}.`, 'NOT_FOUND');
      await this.checkParent(tx, id, c.parentId);
      if (c.imageId) await this.checkImages(tx, [c.imageId]);
      if (c.slug && c.slug !== t.slug) {
        const [dup] = await tx
          .select({ id: catalogTerms.id })
          .from(catalogTerms)
          .where(and(eq(catalogTerms.taxonomy, 'product_cat'), eq(catalogTerms.slug, c.slug)));
        if (dup) throw new CatalogInputError(`A category with the slug "${c.slug}" exists already.`);
      }
      await tx.update(catalogTerms).set(given(c)).where(eq(catalogTerms.id, id));
    });
  }

  /** Deletes a category: its products stay (they lose the category), its sub-categories move up to its parent. */
  async deleteCategory(id: number): Promise<void> {
    await this.write(async (tx) => {
      const [t] = await tx
        .select()
        .from(catalogTerms)
        .where(and(eq(catalogTerms.id, id), eq(catalogTerms.taxonomy, 'product_cat')));
      if (!t) throw new CatalogInputError(`There is no category with id ${id}.`, 'NOT_FOUND');
      await tx.update(catalogTerms).set({ parentId: t.parentId }).where(eq(catalogTerms.parentId, id));
      await tx.delete(catalogTerms).where(eq(catalogTerms.id, id));
    });
  }

  // ---------- images and downloads ----------

  /** Records an uploaded image file (the caller stored it); returns its id for product and category inputs. */
  async addImage(image: ImageUpload): Promise<number> {
    return this.write(async (tx) => {
      const [row] = await tx.insert(catalogImages).values(image).returning({ id: catalogImages.id });
      return row!.id;
    });
  }

  async addDownload(productId: number, name: string, file: string): Promise<string> {
    const n = name.trim();
    if (!n || n.length > 200) throw new CatalogInputError('A downloadable file needs a name (at most 200 characters).');
    return this.write(async (tx) => {
      const p = await this.productRow(tx, productId);
      if (p.type !== 'simple') throw new CatalogInputError('Only simple products can have downloadable files.');
      const [pos] = await tx
        .select({ n: sql<number>`coalesce(max(${catalogDownloads.position}) + 1, 0)::int` })
        .from(catalogDownloads)
        .where(eq(catalogDownloads.productId, productId));
      const id = crypto.randomUUID().replace(/-/g, '');
      await tx.insert(catalogDownloads).values({ id, productId, position: Number(pos?.n ?? 0), name: n, file });
      // A product with a file to download is downloadable (WooCommerce ticks the box with the first file).
      await tx
        .update(catalogProducts)
        .set({ downloadable: true, modified: new Date() })
        .where(eq(catalogProducts.id, productId));
      return id;
    });
  }

  async removeDownload(downloadId: string): Promise<void> {
    await this.write(async (tx) => {
      const rows = await tx
        .delete(catalogDownloads)
        .where(eq(catalogDownloads.id, downloadId))
        .returning({ id: catalogDownloads.id });
      if (!rows.length)
        throw new CatalogInputError(`There is no downloadable file with id ${downloadId}.`, 'NOT_FOUND');
    });
  }

  // ---------- reads for operators (any status) ----------

  async image(id: number): Promise<ImageUpload & { id: number }> {
    const [row] = await this.db.select().from(catalogImages).where(eq(catalogImages.id, id));
    if (!row) throw new CatalogInputError(`There is no image with id ${id}.`, 'NOT_FOUND');
    return row;
  }

  async product(id: number): Promise<ProductModel | null> {
    return (await this.catalog.snapshot()).productsById.get(id) ?? null;
  }

  async variation(id: number): Promise<VariationModel | null> {
    return (await this.catalog.snapshot()).variationsById.get(id) ?? null;
  }
}
