/**
 * Imports a WooCommerce product CSV into the catalog. Rows are checked first (map-import.ts); each product
 * with its variations is then written in its own transaction, so one bad product never blocks the rest
 * and never leaves half of itself behind. A product is matched by ID, then by SKU: matched products are
 * updated, others created (keeping the file's ID when it is free, so `Parent` references and a round
 * trip through an empty shop keep their ids). Categories, tags, global attributes and their terms are
 * found by name and created when missing. Every row that could not be taken is reported with its line,
 * column and reason; with `dryRun` every transaction is rolled back after it was checked.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/connection.ts';
import { bumpCounter } from '../../db/meta.ts';
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
} from '../tables.ts';
import { compactTranslations, type ProductTexts, type Translations } from '../translations.ts';
import { slugify } from './columns.ts';
import { mapRecords, type CsvItem, type CsvTranslation, type RowIssue } from './map-import.ts';
import { type CsvRecord, CsvSyntaxError, parseCsv } from './parse.ts';

export type ImportOptions = {
  /** The seed catalog directory: images are looked up in <catalogDir>/images. */
  catalogDir: string;
  /** Where downloadable files are looked up (DOWNLOADS_DIR). */
  downloadDirs: string[];
  dryRun?: boolean;
  now?: Date;
};

export type ImportReport = {
  dryRun: boolean;
  /** Data rows in the file (header excluded). */
  rows: number;
  created: number;
  updated: number;
  variationsCreated: number;
  variationsUpdated: number;
  /** Rows that were not imported, and why. */
  errors: RowIssue[];
  /** Rows that were imported with something left out (an image file that is not there, an unsupported column value). */
  warnings: RowIssue[];
};

type Group = { parent: CsvItem; variations: CsvItem[]; existingId: number | null };

class RowError extends Error {
  constructor(
    readonly row: number,
    readonly column: string,
    message: string,
  ) {
    super(message);
  }
}

class DryRunRollback extends Error {}

const IMAGE_FILE = /^[a-z0-9][a-z0-9._-]*\.(svg|png|jpe?g|webp|gif|avif)$/i;

export async function importWooCommerceCsv(db: Database, text: string, options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = {
    dryRun: !!options.dryRun,
    rows: 0,
    created: 0,
    updated: 0,
    variationsCreated: 0,
    variationsUpdated: 0,
    errors: [],
    warnings: [],
  };
  let records: CsvRecord[];
  try {
    records = parseCsv(text);
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) throw err;
    report.errors.push({ row: err.line, column: '', message: err.message });
    return report;
  }
  report.rows = Math.max(0, records.length - 1);
  const mapped = mapRecords(records);
  report.errors.push(...mapped.issues);
  report.warnings.push(...mapped.warnings);

  // Group variations under their parents: a parent row in this file first, then a product in the shop.
  const groups: Group[] = [];
  const byId = new Map<number, Group>();
  const bySku = new Map<string, Group>();
  const skuRow = new Map<string, number>();
  for (const item of mapped.items) {
    const key = item.sku.toLowerCase();
    const seen = skuRow.get(key);
    if (seen !== undefined) {
      report.errors.push({ row: item.row, column: 'SKU', message: `SKU "${item.sku}" is also on row ${seen}` });
      continue;
    }
    skuRow.set(key, item.row);
    if (item.type === 'variation') continue;
    if (item.id !== null && byId.has(item.id)) {
      report.errors.push({
        row: item.row,
        column: 'ID',
        message: `ID ${item.id} is also on row ${byId.get(item.id)!.parent.row}`,
      });
      continue;
    }
    const g: Group = { parent: item, variations: [], existingId: null };
    groups.push(g);
    if (item.id !== null) byId.set(item.id, g);
    bySku.set(key, g);
  }
  const shopParents = new Map<string, Group>();
  for (const item of mapped.items) {
    if (item.type !== 'variation' || skuRow.get(item.sku.toLowerCase()) !== item.row) continue;
    const ref = item.parent!;
    let g = 'id' in ref ? byId.get(ref.id) : bySku.get(ref.sku.toLowerCase());
    if (!g) {
      const refKey = 'id' in ref ? `id:${ref.id}` : `sku:${ref.sku.toLowerCase()}`;
      g = shopParents.get(refKey);
      if (!g) {
        const [found] = await db
          .select({ id: catalogProducts.id, type: catalogProducts.type })
          .from(catalogProducts)
          .where(
            'id' in ref
              ? eq(catalogProducts.id, ref.id)
              : sql`lower(${catalogProducts.sku}) = ${ref.sku.toLowerCase()}`,
          );
        if (!found) {
          report.errors.push({
            row: item.row,
            column: 'Parent',
            message: `parent "${'id' in ref ? `id:${ref.id}` : ref.sku}" is neither a product row of this file that could be imported nor a product in the shop`,
          });
          continue;
        }
        if (found.type !== 'variable') {
          report.errors.push({
            row: item.row,
            column: 'Parent',
            message: `the parent product ${found.id} is not a variable product`,
          });
          continue;
        }
        g = { parent: item, variations: [], existingId: found.id };
        shopParents.set(refKey, g);
        groups.push(g);
      }
    } else if (g.parent.type !== 'variable') {
      report.errors.push({
        row: item.row,
        column: 'Parent',
        message: `the parent on row ${g.parent.row} is not a variable product`,
      });
      continue;
    }
    g.variations.push(item);
  }

  const upsells: { row: number; productId: number; skus: string[] }[] = [];
  for (const g of groups) {
    const variationsOnly = g.existingId !== null && g.parent.type === 'variation';
    try {
      let outcome: Outcome | undefined;
      await db
        .transaction(async (tx) => {
          // One catalog writer at a time (seed, import, admin edits), in every process.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('meshfront:catalog-write', 0))`);
          outcome = variationsOnly
            ? await writeVariationsOnly(tx, g, options, report)
            : await writeProduct(tx, g, options, report);
          await bumpCounter(tx, 'catalog_version');
          if (options.dryRun) throw new DryRunRollback();
        })
        .catch((err) => {
          if (!(err instanceof DryRunRollback)) throw err;
        });
      const done = outcome!;
      tally(report, done);
      if (!variationsOnly && g.parent.upsells.length)
        upsells.push({ row: g.parent.row, productId: done.productId, skus: g.parent.upsells });
    } catch (err) {
      const row = err instanceof RowError ? err.row : g.parent.row;
      const column = err instanceof RowError ? err.column : '';
      const message = err instanceof RowError ? err.message : `could not be saved: ${(err as Error).message}`;
      report.errors.push({
        row,
        column,
        message: variationsOnly
          ? message
          : `${message}${g.variations.length ? ` (its ${g.variations.length} variation row${g.variations.length === 1 ? ' was' : 's were'} not imported either)` : ''}`,
      });
    }
  }
  if (!options.dryRun) await linkUpsells(db, upsells, report);
  report.errors.sort((a, b) => a.row - b.row);
  report.warnings.sort((a, b) => a.row - b.row);
  return report;
}

type Outcome = { productId: number; created: boolean | null; variationsCreated: number; variationsUpdated: number };

function tally(report: ImportReport, o: Outcome) {
  if (o.created === true) report.created++;
  else if (o.created === false) report.updated++;
  report.variationsCreated += o.variationsCreated;
  report.variationsUpdated += o.variationsUpdated;
}

async function writeProduct(tx: DbOrTx, g: Group, options: ImportOptions, report: ImportReport): Promise<Outcome> {
  const p = g.parent;
  const now = options.now ?? new Date();
  // Match by ID, then by SKU.
  let existing: { id: number; type: string; slug: string; translations: Translations<ProductTexts> } | undefined;
  if (p.id !== null) {
    [existing] = await tx
      .select({
        id: catalogProducts.id,
        type: catalogProducts.type,
        slug: catalogProducts.slug,
        translations: catalogProducts.translations,
      })
      .from(catalogProducts)
      .where(eq(catalogProducts.id, p.id));
    if (!existing) {
      const [v] = await tx
        .select({ id: catalogVariations.id })
        .from(catalogVariations)
        .where(eq(catalogVariations.id, p.id));
      if (v) throw new RowError(p.row, 'ID', `ID ${p.id} is a variation in the shop, not a product`);
    }
  }
  if (!existing) {
    [existing] = await tx
      .select({
        id: catalogProducts.id,
        type: catalogProducts.type,
        slug: catalogProducts.slug,
        translations: catalogProducts.translations,
      })
      .from(catalogProducts)
      .where(sql`lower(${catalogProducts.sku}) = ${p.sku.toLowerCase()}`);
  }
  if (existing && existing.type !== p.type)
    throw new RowError(
      p.row,
      'Type',
      `product ${existing.id} is ${existing.type} in the shop; import cannot change a product's type`,
    );
  const [skuOnVariation] = await tx
    .select({ id: catalogVariations.id })
    .from(catalogVariations)
    .where(sql`lower(${catalogVariations.sku}) = ${p.sku.toLowerCase()}`);
  if (skuOnVariation)
    throw new RowError(p.row, 'SKU', `SKU "${p.sku}" belongs to variation ${skuOnVariation.id} in the shop`);

  const images = await resolveImages(tx, p, options, report);
  const categoryIds = [];
  for (const pathNames of p.categories) categoryIds.push(await categoryFor(tx, pathNames));
  const tagIds = [];
  for (const t of p.tags) tagIds.push(await termFor(tx, 'product_tag', t, null));

  // Attributes: global ones become pa_ taxonomies with terms; the options stored are term slugs.
  const variationAttributeNames = new Set(g.variations.flatMap((v) => v.attributes.map((a) => a.name.toLowerCase())));
  if (existing && g.variations.length === 0 && p.type === 'variable') {
    const vs = await tx
      .select({ attributes: catalogVariations.attributes })
      .from(catalogVariations)
      .where(eq(catalogVariations.productId, existing.id));
    for (const v of vs) for (const k of Object.keys(v.attributes)) variationAttributeNames.add(k.toLowerCase());
  }
  const attributes: (ProductAttr & { termIds: number[]; visible: boolean; defaultSlug: string | null })[] = [];
  for (const a of p.attributes) {
    if (a.global) {
      const attr = await attributeFor(tx, a.name);
      const termIds: number[] = [];
      const slugs: string[] = [];
      for (const value of a.values) {
        const t = await termFor(tx, attr.slug, value, null);
        termIds.push(t.id);
        slugs.push(t.slug);
      }
      const def = a.defaultValue
        ? slugs[a.values.findIndex((v) => v.toLowerCase() === a.defaultValue!.toLowerCase())]!
        : null;
      const variation =
        p.type === 'variable' &&
        (variationAttributeNames.has(a.name.toLowerCase()) || variationAttributeNames.has(attr.slug) || def !== null);
      attributes.push({
        name: attr.slug,
        label: a.name,
        attributeId: attr.id,
        key: attr.slug,
        options: slugs,
        termIds,
        visible: a.visible,
        variation,
        defaultSlug: def,
      });
    } else {
      const def = a.defaultValue ? a.values.find((v) => v.toLowerCase() === a.defaultValue!.toLowerCase())! : null;
      const variation = p.type === 'variable' && (variationAttributeNames.has(a.name.toLowerCase()) || def !== null);
      attributes.push({
        name: a.name,
        label: a.name,
        attributeId: null,
        key: a.name,
        options: a.values,
        termIds: [],
        visible: a.visible,
        variation,
        defaultSlug: def,
      });
    }
  }
  const defaultAttributes = Object.fromEntries(
    attributes.filter((a) => a.defaultSlug !== null).map((a) => [a.key, a.defaultSlug!]),
  );

  const fields = {
    sku: p.sku,
    name: p.name,
    type: p.type,
    status: p.status,
    visibility: p.visibility,
    featured: p.featured,
    modified: now,
    menuOrder: p.position,
    shortDescription: p.shortDescription,
    description: p.description,
    regularPriceCents: p.regularPriceCents,
    salePriceCents: p.salePriceCents,
    dateOnSaleFrom: p.dateOnSaleFrom,
    dateOnSaleTo: p.dateOnSaleTo,
    manageStock: p.stock.manage,
    stockQuantity: p.stock.quantity,
    lowStockAmount: p.stock.lowStockAmount,
    backorders: p.stock.backorders,
    stockStatus: p.stock.status,
    virtual: p.virtual,
    downloadable: p.downloadable,
    downloadLimit: p.downloadLimit,
    downloadExpiry: p.downloadExpiry,
    weight: p.weight,
    length: p.length,
    width: p.width,
    height: p.height,
    externalUrl: p.type === 'external' ? p.externalUrl : null,
    buttonText: p.buttonText,
    reviewsAllowed: p.reviewsAllowed,
    imageId: images[0] ?? null,
    defaultAttributes,
    metaData: p.metaData,
    translations: withTranslations(existing?.translations, p.translations),
  };

  let productId: number;
  if (existing) {
    productId = existing.id;
    await tx.update(catalogProducts).set(fields).where(eq(catalogProducts.id, productId));
    await tx.delete(catalogProductTerms).where(eq(catalogProductTerms.productId, productId));
    await tx.delete(catalogProductAttributes).where(eq(catalogProductAttributes.productId, productId));
    await tx.delete(catalogProductImages).where(eq(catalogProductImages.productId, productId));
    await tx.delete(catalogDownloads).where(eq(catalogDownloads.productId, productId));
  } else {
    const slug = await uniqueSlug(tx, p.name);
    const idFree = p.id !== null && !(await postIdTaken(tx, p.id));
    const [row] = await tx
      .insert(catalogProducts)
      .values({ ...fields, ...(idFree ? { id: p.id! } : {}), slug, date: now })
      .returning({ id: catalogProducts.id });
    productId = row!.id;
    if (idFree) await keepSequenceAbove(tx, productId);
  }

  const seenTerms = new Set<number>();
  const termRows: (typeof catalogProductTerms.$inferInsert)[] = [];
  const addTerm = (termId: number, position: number) => {
    if (seenTerms.has(termId)) return;
    seenTerms.add(termId);
    termRows.push({ productId, termId, position });
  };
  categoryIds.forEach((id, i) => {
    addTerm(id, i);
  });
  tagIds.forEach((t, i) => {
    addTerm(t.id, i);
  });
  attributes.forEach((a) => {
    a.termIds.forEach((id, j) => {
      addTerm(id, j);
    });
  });
  if (termRows.length) await tx.insert(catalogProductTerms).values(termRows);
  if (attributes.length) {
    await tx.insert(catalogProductAttributes).values(
      attributes.map((a, i) => ({
        productId,
        position: i,
        name: a.name,
        attributeId: a.attributeId,
        options: a.options,
        visible: a.visible,
        variation: a.variation,
      })),
    );
  }
  if (images.length > 1)
    await tx
      .insert(catalogProductImages)
      .values(images.slice(1).map((imageId, i) => ({ productId, imageId, position: i })));
  await writeDownloads(tx, productId, p, options, report);

  let variationsCreated = 0;
  let variationsUpdated = 0;
  for (const v of g.variations) {
    const created = await writeVariation(tx, productId, v, attributes, options, report);
    if (created === true) variationsCreated++;
    else if (created === false) variationsUpdated++;
  }
  return { productId, created: !existing, variationsCreated, variationsUpdated };
}

/**
 * The stored translations with the file's columns laid over them: a column's text replaces the stored one,
 * an empty cell drops it (the shop then shows the English text); languages and texts the file has no
 * column for stay as they are, so a plain WooCommerce export does not wipe the shop's translations.
 */
function withTranslations(
  stored: Translations<ProductTexts> | undefined,
  fromFile: CsvTranslation[],
): Translations<ProductTexts> {
  const out: Translations<ProductTexts> = {};
  for (const [locale, texts] of Object.entries(stored ?? {})) out[locale as keyof typeof out] = { ...texts };
  for (const t of fromFile) out[t.locale] = { ...out[t.locale], [t.field]: t.value };
  return compactTranslations(out);
}

/** Variation rows whose parent is already in the shop (not in the file). */
async function writeVariationsOnly(
  tx: DbOrTx,
  g: Group,
  options: ImportOptions,
  report: ImportReport,
): Promise<Outcome> {
  const productId = g.existingId!;
  const rows = await tx
    .select()
    .from(catalogProductAttributes)
    .where(eq(catalogProductAttributes.productId, productId));
  const attrs = await tx.select().from(catalogAttributes);
  const attributes = rows
    .sort((a, b) => a.position - b.position)
    .map((r) => ({
      name: r.name,
      label: attrs.find((a) => a.id === r.attributeId)?.name ?? r.name,
      attributeId: r.attributeId,
      key: r.name,
      options: r.options,
      variation: r.variation,
    }));
  let variationsCreated = 0;
  let variationsUpdated = 0;
  for (const v of g.variations) {
    const created = await writeVariation(tx, productId, v, attributes, options, report);
    if (created === true) variationsCreated++;
    else if (created === false) variationsUpdated++;
  }
  return { productId, created: null, variationsCreated, variationsUpdated };
}

/** A product's attribute: `key` is how variations name it (pa_ slug or local name), `label` how the CSV does. */
type ProductAttr = {
  name: string;
  label: string;
  attributeId: number | null;
  key: string;
  options: string[];
  variation: boolean;
};

/** Creates or updates one variation; a problem with it is reported on its row and the variation is skipped (null). */
async function writeVariation(
  tx: DbOrTx,
  productId: number,
  v: CsvItem,
  attributes: ProductAttr[],
  options: ImportOptions,
  report: ImportReport,
): Promise<boolean | null> {
  const fail = (column: string, message: string) => {
    report.errors.push({ row: v.row, column, message });
    return null;
  };
  const values: Record<string, string> = {};
  for (const [i, a] of v.attributes.entries()) {
    const column = `Attribute ${i + 1} value(s)`;
    const lower = a.name.toLowerCase();
    const pa = attributes.find((x) => x.label.toLowerCase() === lower || x.key.toLowerCase() === lower);
    if (!pa?.variation)
      return fail(`Attribute ${i + 1} name`, `"${a.name}" is not one of the parent's variation attributes`);
    const value = a.values[0]!;
    if (pa.attributeId !== null) {
      const [term] = await tx
        .select({ slug: catalogTerms.slug })
        .from(catalogTerms)
        .where(
          and(
            eq(catalogTerms.taxonomy, pa.key),
            sql`(lower(${catalogTerms.name}) = ${value.toLowerCase()} or ${catalogTerms.slug} = ${slugify(value)})`,
          ),
        );
      if (!term || !pa.options.includes(term.slug))
        return fail(column, `"${value}" is not a value of the parent's "${a.name}"`);
      values[pa.key] = term.slug;
    } else {
      const option = pa.options.find((o) => o.toLowerCase() === value.toLowerCase());
      if (!option) return fail(column, `"${value}" is not a value of the parent's "${a.name}"`);
      values[pa.key] = option;
    }
  }
  if (v.regularPriceCents === null) return fail('Regular price', 'a variation needs a regular price');
  const imageIds = await resolveImages(tx, v, options, report);
  const fields = {
    productId,
    sku: v.sku,
    menuOrder: v.position,
    attributes: values,
    regularPriceCents: v.regularPriceCents,
    salePriceCents: v.salePriceCents,
    manageStock: v.stock.manage,
    stockQuantity: v.stock.quantity,
    lowStockAmount: v.stock.lowStockAmount,
    backorders: v.stock.backorders,
    stockStatus: v.stock.status,
    imageId: imageIds[0] ?? null,
    description: v.description,
    weight: v.weight,
    length: v.length,
    width: v.width,
    height: v.height,
  };
  let [existing] =
    v.id === null
      ? []
      : await tx
          .select({ id: catalogVariations.id, productId: catalogVariations.productId })
          .from(catalogVariations)
          .where(eq(catalogVariations.id, v.id));
  existing ??= (
    await tx
      .select({ id: catalogVariations.id, productId: catalogVariations.productId })
      .from(catalogVariations)
      .where(sql`lower(${catalogVariations.sku}) = ${v.sku.toLowerCase()}`)
  )[0];
  if (existing && existing.productId !== productId)
    return fail(
      v.id !== null ? 'ID' : 'SKU',
      `variation ${existing.id} belongs to another product (${existing.productId})`,
    );
  const [skuOnProduct] = await tx
    .select({ id: catalogProducts.id })
    .from(catalogProducts)
    .where(sql`lower(${catalogProducts.sku}) = ${v.sku.toLowerCase()}`);
  if (skuOnProduct) return fail('SKU', `SKU "${v.sku}" belongs to product ${skuOnProduct.id} in the shop`);
  const [sameCombo] = await tx
    .select({ id: catalogVariations.id })
    .from(catalogVariations)
    .where(
      and(
        eq(catalogVariations.productId, productId),
        sql`${catalogVariations.attributes} = ${JSON.stringify(values)}::jsonb`,
        existing ? ne(catalogVariations.id, existing.id) : sql`true`,
      ),
    );
  if (sameCombo) return fail('Attribute 1 value(s)', `variation ${sameCombo.id} already has these attribute values`);
  if (existing) {
    await tx.update(catalogVariations).set(fields).where(eq(catalogVariations.id, existing.id));
    return false;
  }
  const idFree = v.id !== null && !(await postIdTaken(tx, v.id));
  const [row] = await tx
    .insert(catalogVariations)
    .values({ ...fields, ...(idFree ? { id: v.id! } : {}) })
    .returning({ id: catalogVariations.id });
  if (idFree) await keepSequenceAbove(tx, row!.id);
  return true;
}

async function postIdTaken(tx: DbOrTx, id: number): Promise<boolean> {
  const [a] = await tx.select({ id: catalogProducts.id }).from(catalogProducts).where(eq(catalogProducts.id, id));
  if (a) return true;
  const [b] = await tx.select({ id: catalogVariations.id }).from(catalogVariations).where(eq(catalogVariations.id, id));
  return !!b;
}

/** After inserting an explicit id, the shared id sequence must never hand it out again. */
async function keepSequenceAbove(tx: DbOrTx, id: number): Promise<void> {
  await tx.execute(
    sql`select setval('catalog_post_id_seq', greatest((select last_value from catalog_post_id_seq), ${id}))`,
  );
}

async function uniqueSlug(tx: DbOrTx, name: string): Promise<string> {
  const base = slugify(name);
  const rows = await tx
    .select({ slug: catalogProducts.slug })
    .from(catalogProducts)
    .where(sql`${catalogProducts.slug} = ${base} or ${catalogProducts.slug} like ${`${base}-%`}`);
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** A term of `taxonomy` with this name (any case) under `parentId`, created when missing. */
async function termFor(
  tx: DbOrTx,
  taxonomy: string,
  name: string,
  parentId: number | null,
): Promise<{ id: number; slug: string }> {
  const parentCond =
    taxonomy === 'product_cat'
      ? parentId === null
        ? sql`${catalogTerms.parentId} is null`
        : sql`${catalogTerms.parentId} = ${parentId}`
      : sql`true`;
  const [found] = await tx
    .select({ id: catalogTerms.id, slug: catalogTerms.slug })
    .from(catalogTerms)
    .where(
      and(eq(catalogTerms.taxonomy, taxonomy), sql`lower(${catalogTerms.name}) = ${name.toLowerCase()}`, parentCond),
    );
  if (found) return found;
  const base = slugify(name);
  const rows = await tx
    .select({ slug: catalogTerms.slug })
    .from(catalogTerms)
    .where(
      and(
        eq(catalogTerms.taxonomy, taxonomy),
        sql`(${catalogTerms.slug} = ${base} or ${catalogTerms.slug} like ${`${base}-%`})`,
      ),
    );
  const taken = new Set(rows.map((r) => r.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  const [maxOrder] = await tx
    .select({ n: sql<number>`coalesce(max(${catalogTerms.menuOrder}), -1)::int` })
    .from(catalogTerms)
    .where(eq(catalogTerms.taxonomy, taxonomy));
  const [row] = await tx
    .insert(catalogTerms)
    .values({ taxonomy, slug, name, parentId, menuOrder: Number(maxOrder?.n ?? -1) + 1 })
    .returning({ id: catalogTerms.id, slug: catalogTerms.slug });
  return row!;
}

async function categoryFor(tx: DbOrTx, names: string[]): Promise<number> {
  let parent: number | null = null;
  for (const name of names) parent = (await termFor(tx, 'product_cat', name, parent)).id;
  return parent!;
}

async function attributeFor(tx: DbOrTx, name: string): Promise<{ id: number; slug: string }> {
  const slug = `pa_${slugify(name)}`;
  const [found] = await tx
    .select({ id: catalogAttributes.id, slug: catalogAttributes.slug })
    .from(catalogAttributes)
    .where(sql`lower(${catalogAttributes.name}) = ${name.toLowerCase()} or ${catalogAttributes.slug} = ${slug}`);
  if (found) return found;
  const [row] = await tx
    .insert(catalogAttributes)
    .values({ slug, name })
    .returning({ id: catalogAttributes.id, slug: catalogAttributes.slug });
  return row!;
}

/**
 * Image URLs → catalog image ids. Meshfront serves catalog images from its own folder, so a URL is taken
 * by its file name when that file is already known or lies in <catalogDir>/images; others are skipped
 * with a warning (copy the files there and import again).
 */
async function resolveImages(
  tx: DbOrTx,
  item: CsvItem,
  options: ImportOptions,
  report: ImportReport,
): Promise<number[]> {
  const ids: number[] = [];
  for (const url of item.images) {
    let file: string;
    try {
      file = decodeURIComponent(new URL(url, 'http://import.invalid/').pathname.split('/').pop() ?? '');
    } catch {
      file = '';
    }
    if (!IMAGE_FILE.test(file)) {
      report.warnings.push({
        row: item.row,
        column: 'Images',
        message: `"${url}" is not an image file URL (svg, png, jpg, webp, gif, avif); left out`,
      });
      continue;
    }
    const [known] = await tx.select({ id: catalogImages.id }).from(catalogImages).where(eq(catalogImages.file, file));
    if (known) {
      if (!ids.includes(known.id)) ids.push(known.id);
      continue;
    }
    if (!fs.existsSync(path.join(options.catalogDir, 'images', file))) {
      report.warnings.push({
        row: item.row,
        column: 'Images',
        message: `image "${file}" is not in ${path.join(options.catalogDir, 'images')}; left out (copy it there and import again)`,
      });
      continue;
    }
    const [row] = await tx
      .insert(catalogImages)
      .values({ file, altText: item.name, title: file.replace(/\.[a-z]+$/i, '') })
      .returning({ id: catalogImages.id });
    ids.push(row!.id);
  }
  return ids;
}

async function writeDownloads(
  tx: DbOrTx,
  productId: number,
  p: CsvItem,
  options: ImportOptions,
  report: ImportReport,
): Promise<void> {
  for (const [i, d] of p.downloads.entries()) {
    if (!options.downloadDirs.some((dir) => fs.existsSync(path.join(dir, d.file)))) {
      report.warnings.push({
        row: p.row,
        column: `Download ${i + 1} URL`,
        message: `file "${d.file}" is not in ${options.downloadDirs.join(' or ')}; buyers cannot download it until it is copied there`,
      });
    }
    let id = d.id ?? crypto.createHash('sha1').update(`${p.sku}/${d.file}`).digest('hex').slice(0, 32);
    const [taken] = await tx
      .select({ productId: catalogDownloads.productId })
      .from(catalogDownloads)
      .where(eq(catalogDownloads.id, id));
    if (taken && taken.productId !== productId)
      id = crypto.createHash('sha1').update(`${productId}/${d.file}/${i}`).digest('hex').slice(0, 32);
    await tx.insert(catalogDownloads).values({ id, productId, position: i, name: d.name, file: d.file });
  }
}

/** Upsells name other products by SKU; they are linked once every product of the file is in. */
async function linkUpsells(
  db: Database,
  list: { row: number; productId: number; skus: string[] }[],
  report: ImportReport,
): Promise<void> {
  if (!list.length) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('meshfront:catalog-write', 0))`);
    for (const u of list) {
      const slugs: string[] = [];
      for (const sku of u.skus) {
        const m = /^id:(\d{1,9})$/i.exec(sku);
        const [p] = await tx
          .select({ slug: catalogProducts.slug })
          .from(catalogProducts)
          .where(m ? eq(catalogProducts.id, Number(m[1])) : sql`lower(${catalogProducts.sku}) = ${sku.toLowerCase()}`);
        if (p) slugs.push(p.slug);
        else report.warnings.push({ row: u.row, column: 'Upsells', message: `no product with SKU "${sku}"; left out` });
      }
      await tx.update(catalogProducts).set({ related: slugs }).where(eq(catalogProducts.id, u.productId));
    }
    await bumpCounter(tx, 'catalog_version');
  });
}
