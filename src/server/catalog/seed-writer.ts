/**
 * Writes a validated seed catalog into the catalog tables in one transaction and bumps the catalog
 * version, so every process reloads. Rows are inserted in batches (a 5,000-product synthetic catalog
 * must seed in seconds on PGlite).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/connection.ts';
import { bumpCounter } from '../db/meta.ts';
import { parseMoney } from './money.ts';
import type { SeedCatalog } from './seed-loader.ts';
import type { SeedProduct } from './seed-format.ts';
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

const CATALOG_TABLES = [
  'catalog_reviews',
  'catalog_downloads',
  'catalog_product_attributes',
  'catalog_product_terms',
  'catalog_product_images',
  'catalog_variations',
  'catalog_products',
  'catalog_terms',
  'catalog_attributes',
  'catalog_images',
];

function chunks<T>(items: T[], size = 400): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function insertAll<T>(items: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (const batch of chunks(items)) if (batch.length) await insert(batch);
}

function date(value: string): Date {
  // Seed dates are shop-local wall-clock times; the shop runs on UTC.
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : `${value}${value.length === 16 ? ':00' : ''}Z`);
}

function titleCase(slug: string): string {
  return slug.replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

async function imageSize(file: string): Promise<{ width: number | null; height: number | null }> {
  try {
    const sharp = (await import('sharp')).default;
    const m = await sharp(file).metadata();
    return { width: m.width ?? null, height: m.height ?? null };
  } catch {
    return { width: null, height: null };
  }
}

export async function countProducts(db: DbOrTx): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(catalogProducts);
  return Number(rows[0]?.n ?? 0);
}

export type SeedResult = { products: number; variations: number; categories: number; reviews: number };

/** Replace the whole catalog with `catalog`. With `reset: false` the catalog tables must be empty. */
export async function writeSeedCatalog(
  db: Database,
  catalog: SeedCatalog,
  options: { reset?: boolean } = {},
): Promise<SeedResult> {
  const imageFiles = new Set<string>();
  for (const c of catalog.categories) if (c.image) imageFiles.add(c.image);
  for (const p of catalog.products) {
    imageFiles.add(p.image);
    p.gallery.forEach((g) => {
      imageFiles.add(g);
    });
    if (p.type === 'variable')
      p.variations.forEach((v) => {
        if (v.image) imageFiles.add(v.image);
      });
  }
  const sizes = new Map<string, { width: number | null; height: number | null }>();
  const imageDir = path.join(catalog.dir, 'images');
  await Promise.all(
    [...imageFiles].map(async (f) => {
      const full = path.join(imageDir, f);
      sizes.set(f, fs.existsSync(full) ? await imageSize(full) : { width: null, height: null });
    }),
  );
  // Alt text: the name of the first product (or category) that uses the image.
  const altOf = new Map<string, string>();
  for (const p of catalog.products) for (const f of [p.image, ...p.gallery]) if (!altOf.has(f)) altOf.set(f, p.name);
  for (const c of catalog.categories) if (c.image && !altOf.has(c.image)) altOf.set(c.image, c.name);

  return db.transaction(async (tx) => {
    // Processes starting together on one empty database: one seeds, the others then see it is not empty.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('meshfront:catalog-write', 0))`);
    if (options.reset) {
      await tx.execute(sql.raw(`truncate ${CATALOG_TABLES.join(', ')} restart identity cascade`));
      await tx.execute(sql`select setval('catalog_post_id_seq', 100, false)`);
    } else if ((await countProducts(tx)) > 0) {
      throw new Error('The catalog is not empty; use --reset to replace it.');
    }

    const imageIds = new Map<string, number>();
    await insertAll([...imageFiles], async (batch) => {
      const rows = await tx
        .insert(catalogImages)
        .values(
          batch.map((file) => ({
            file,
            altText: altOf.get(file) ?? '',
            title: file.replace(/\.[a-z]+$/, ''),
            ...sizes.get(file)!,
          })),
        )
        .returning({ id: catalogImages.id, file: catalogImages.file });
      rows.forEach((r) => {
        imageIds.set(r.file, r.id);
      });
    });

    const attributeIds = new Map<string, number>();
    if (catalog.attributes.length) {
      const rows = await tx
        .insert(catalogAttributes)
        .values(catalog.attributes.map((a) => ({ slug: a.slug, name: a.name, translations: a.translations })))
        .returning({ id: catalogAttributes.id, slug: catalogAttributes.slug });
      rows.forEach((r) => {
        attributeIds.set(r.slug, r.id);
      });
    }

    // Terms: categories (parents resolved afterwards), tags, global attribute terms.
    const termIds = new Map<string, number>(); // `${taxonomy}:${slug}`
    const termRows: (typeof catalogTerms.$inferInsert)[] = [];
    catalog.categories.forEach((c) => {
      termRows.push({
        taxonomy: 'product_cat',
        slug: c.slug,
        name: c.name,
        description: c.description,
        menuOrder: c.order,
        imageId: c.image ? imageIds.get(c.image) : null,
        translations: c.translations,
      });
    });
    const tags = new Set(catalog.products.flatMap((p) => p.tags));
    for (const t of [...tags].sort()) termRows.push({ taxonomy: 'product_tag', slug: t, name: titleCase(t) });
    for (const a of catalog.attributes)
      a.terms.forEach((t, i) => {
        termRows.push({ taxonomy: a.slug, slug: t.slug, name: t.name, menuOrder: i, translations: t.translations });
      });
    await insertAll(termRows, async (batch) => {
      const rows = await tx
        .insert(catalogTerms)
        .values(batch)
        .returning({ id: catalogTerms.id, taxonomy: catalogTerms.taxonomy, slug: catalogTerms.slug });
      rows.forEach((r) => {
        termIds.set(`${r.taxonomy}:${r.slug}`, r.id);
      });
    });
    for (const c of catalog.categories) {
      if (!c.parent) continue;
      await tx
        .update(catalogTerms)
        .set({ parentId: termIds.get(`product_cat:${c.parent}`)! })
        .where(sql`${catalogTerms.id} = ${termIds.get(`product_cat:${c.slug}`)!}`);
    }

    const productIds = new Map<string, number>();
    await insertAll(catalog.products, async (batch) => {
      const rows = await tx
        .insert(catalogProducts)
        .values(batch.map((p, i) => productRow(p, imageIds, i)))
        .returning({ id: catalogProducts.id, slug: catalogProducts.slug });
      rows.forEach((r) => {
        productIds.set(r.slug, r.id);
      });
    });

    const productTerms: (typeof catalogProductTerms.$inferInsert)[] = [];
    const productAttributes: (typeof catalogProductAttributes.$inferInsert)[] = [];
    const gallery: (typeof catalogProductImages.$inferInsert)[] = [];
    const variations: (typeof catalogVariations.$inferInsert)[] = [];
    const downloads: (typeof catalogDownloads.$inferInsert)[] = [];
    const reviews: (typeof catalogReviews.$inferInsert)[] = [];
    for (const p of catalog.products) {
      const productId = productIds.get(p.slug)!;
      const seen = new Set<number>();
      const addTerm = (key: string, position: number) => {
        const termId = termIds.get(key);
        if (termId === undefined || seen.has(termId)) return;
        seen.add(termId);
        productTerms.push({ productId, termId, position });
      };
      p.categories.forEach((c, i) => {
        addTerm(`product_cat:${c}`, i);
      });
      p.tags.forEach((t, i) => {
        addTerm(`product_tag:${t}`, i);
      });
      p.attributes.forEach((a, i) => {
        productAttributes.push({
          productId,
          position: i,
          name: a.name,
          attributeId: attributeIds.get(a.name) ?? null,
          options: a.options,
          visible: a.visible,
          variation: a.variation,
          translations: a.translations,
        });
        if (a.name.startsWith('pa_'))
          a.options.forEach((o, j) => {
            addTerm(`${a.name}:${o}`, j);
          });
      });
      p.gallery.forEach((g, i) => {
        gallery.push({ productId, imageId: imageIds.get(g)!, position: i });
      });
      if (p.type === 'variable') {
        p.variations.forEach((v, i) => {
          variations.push({
            productId,
            sku: v.sku,
            menuOrder: i,
            attributes: v.attributes,
            regularPriceCents: parseMoney(v.regularPrice),
            salePriceCents: v.salePrice !== undefined ? parseMoney(v.salePrice) : null,
            manageStock: v.stock.manage,
            stockQuantity: v.stock.quantity ?? null,
            lowStockAmount: v.stock.lowStockAmount ?? null,
            backorders: v.stock.backorders,
            stockStatus: v.stock.status ?? 'instock',
            imageId: v.image ? imageIds.get(v.image)! : null,
            description: v.description ?? '',
            weight: v.weight ?? null,
            length: v.length ?? null,
            width: v.width ?? null,
            height: v.height ?? null,
          });
        });
      }
      if (p.type === 'simple') {
        p.downloads.forEach((d, i) => {
          downloads.push({
            id: crypto.createHash('sha1').update(`${p.slug}/${d.file}`).digest('hex').slice(0, 32),
            productId,
            position: i,
            name: d.name,
            file: d.file,
          });
        });
      }
      for (const r of p.reviews) {
        reviews.push({
          productId,
          author: r.author,
          email: r.email,
          rating: r.rating,
          content: r.content,
          date: date(r.date),
          verified: r.verified,
        });
      }
    }
    await insertAll(productTerms, (b) => tx.insert(catalogProductTerms).values(b));
    await insertAll(productAttributes, (b) => tx.insert(catalogProductAttributes).values(b));
    await insertAll(gallery, (b) => tx.insert(catalogProductImages).values(b));
    await insertAll(variations, (b) => tx.insert(catalogVariations).values(b));
    await insertAll(downloads, (b) => tx.insert(catalogDownloads).values(b));
    await insertAll(reviews, (b) => tx.insert(catalogReviews).values(b));
    await bumpCounter(tx, 'catalog_version');
    return {
      products: catalog.products.length,
      variations: variations.length,
      categories: catalog.categories.length,
      reviews: reviews.length,
    };
  });
}

function productRow(p: SeedProduct, imageIds: Map<string, number>, index: number): typeof catalogProducts.$inferInsert {
  const base = {
    slug: p.slug,
    sku: p.sku,
    name: p.name,
    type: p.type,
    status: p.status,
    visibility: p.visibility,
    featured: p.featured,
    date: date(p.date),
    modified: date(p.date),
    menuOrder: index,
    shortDescription: p.shortDescription,
    description: p.description,
    totalSales: p.totalSales,
    reviewsAllowed: p.reviewsAllowed,
    imageId: imageIds.get(p.image)!,
    metaData: p.metaData,
    related: p.related,
    translations: p.translations,
    weight: p.weight ?? null,
    length: p.length ?? null,
    width: p.width ?? null,
    height: p.height ?? null,
  };
  if (p.type === 'variable') {
    return { ...base, defaultAttributes: p.defaultAttributes, manageStock: false };
  }
  const prices = {
    regularPriceCents: parseMoney(p.regularPrice),
    salePriceCents: p.salePrice !== undefined ? parseMoney(p.salePrice) : null,
  };
  if (p.type === 'external') {
    return {
      ...base,
      ...prices,
      externalUrl: p.externalUrl,
      buttonText: p.buttonText,
      manageStock: false,
      stockStatus: 'instock',
    };
  }
  return {
    ...base,
    ...prices,
    dateOnSaleFrom: p.dateOnSaleFrom ? date(p.dateOnSaleFrom) : null,
    dateOnSaleTo: p.dateOnSaleTo ? date(p.dateOnSaleTo) : null,
    manageStock: p.stock.manage,
    stockQuantity: p.stock.quantity ?? null,
    lowStockAmount: p.stock.lowStockAmount ?? null,
    backorders: p.stock.backorders,
    stockStatus: p.stock.status ?? 'instock',
    virtual: p.virtual,
    downloadable: p.downloadable,
    downloadLimit: p.downloadLimit ?? null,
    downloadExpiry: p.downloadExpiry ?? null,
  };
}
