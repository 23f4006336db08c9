/**
 * The seed catalog (content/catalog/) parses with the loader's schemas and is internally consistent:
 * every referenced image, download, slug and attribute term exists, SKUs are unique, and the catalog
 * contains the product situations the storefront and its tests rely on.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  categorySchema,
  couponSchema,
  globalAttributeSchema,
  productSchema,
  type SeedCategory,
  type SeedCoupon,
  type SeedGlobalAttribute,
  type SeedProduct,
} from '../../src/server/catalog/seed-format.ts';

const root = join(import.meta.dirname, '../../content/catalog');
const read = (file: string): unknown => JSON.parse(readFileSync(join(root, file), 'utf8'));

const categories: SeedCategory[] = categorySchema.array().parse(read('categories.json'));
const attributes: SeedGlobalAttribute[] = globalAttributeSchema.array().parse(read('attributes.json'));
const coupons: SeedCoupon[] = couponSchema.array().parse(read('coupons.json'));
const productFiles = readdirSync(join(root, 'products'))
  .filter((f) => f.endsWith('.json'))
  .sort();
const products: SeedProduct[] = productFiles.map((f) => {
  const parsed = productSchema.safeParse(read(`products/${f}`));
  if (!parsed.success) throw new Error(`products/${f}: ${parsed.error.message}`);
  return parsed.data;
});

const productSlugs = new Set(products.map((p) => p.slug));
const categorySlugs = new Set(categories.map((c) => c.slug));
const terms = new Map(attributes.map((a) => [a.slug, new Set(a.terms.map((t) => t.slug))]));
const imageExists = (file: string) => existsSync(join(root, 'images', file));
const variable = products.filter((p) => p.type === 'variable');
const simple = products.filter((p) => p.type === 'simple');
const onSale = (regular: string, sale?: string) => sale !== undefined && Number(sale) < Number(regular);

describe('seed catalog files', () => {
  it('parse with the seed-format schemas', () => {
    expect(categories.length).toBeGreaterThanOrEqual(5);
    expect(attributes.map((a) => a.slug)).toEqual(expect.arrayContaining(['pa_frequency-band', 'pa_size', 'pa_color']));
    expect(coupons.length).toBeGreaterThanOrEqual(5);
    expect(products.length).toBeGreaterThanOrEqual(40);
  });

  it('name each product file after its slug, with unique slugs', () => {
    for (const [i, p] of products.entries()) expect(productFiles[i]).toBe(`${p.slug}.json`);
    expect(productSlugs.size).toBe(products.length);
    expect(categorySlugs.size).toBe(categories.length);
    expect(new Set(coupons.map((c) => c.code)).size).toBe(coupons.length);
  });

  it('have unique SKUs across products and variations', () => {
    const skus = products.flatMap((p) => [p.sku, ...(p.type === 'variable' ? p.variations.map((v) => v.sku) : [])]);
    const dupes = skus.filter((s, i) => skus.indexOf(s) !== i);
    expect(dupes).toEqual([]);
  });
});

describe('references', () => {
  it('every product, variation and category image exists, and every product has a gallery', () => {
    const missing: string[] = [];
    for (const p of products) {
      for (const f of [p.image, ...p.gallery]) if (!imageExists(f)) missing.push(`${p.slug}: ${f}`);
      if (p.type === 'variable')
        for (const v of p.variations) if (v.image && !imageExists(v.image)) missing.push(`${v.sku}: ${v.image}`);
      expect(p.gallery.length, `${p.slug} gallery`).toBeGreaterThanOrEqual(2);
      expect(p.gallery.length, `${p.slug} gallery`).toBeLessThanOrEqual(4);
      expect(p.gallery, `${p.slug} gallery repeats the main image`).not.toContain(p.image);
    }
    for (const c of categories) if (c.image && !imageExists(c.image)) missing.push(`category ${c.slug}: ${c.image}`);
    expect(missing).toEqual([]);
  });

  it('images are small, self-contained SVGs', () => {
    for (const f of readdirSync(join(root, 'images')).filter((f) => f.endsWith('.svg'))) {
      const svg = readFileSync(join(root, 'images', f), 'utf8');
      expect(statSync(join(root, 'images', f)).size, f).toBeLessThan(10_000);
      expect(svg, f).toMatch(/^<svg [^>]*viewBox="0 0 800 800"/);
      expect(svg, f).not.toMatch(/<image|xlink:href="http|href="http|@import|url\(http/);
    }
  });

  it('category parents, product categories and related slugs exist', () => {
    for (const c of categories) if (c.parent) expect(categorySlugs, `${c.slug} parent`).toContain(c.parent);
    for (const p of products) {
      for (const c of p.categories) expect(categorySlugs, `${p.slug} category`).toContain(c);
      for (const r of p.related) {
        expect(productSlugs, `${p.slug} related`).toContain(r);
        expect(r, `${p.slug} relates to itself`).not.toBe(p.slug);
      }
    }
  });

  it('every category has at least one product', () => {
    const used = new Set(products.flatMap((p) => p.categories));
    for (const c of categories) expect(used, c.slug).toContain(c.slug);
  });

  it('coupon product and category slugs exist', () => {
    for (const c of coupons) {
      for (const s of [...c.productSlugs, ...c.excludedProductSlugs])
        expect(productSlugs, `${c.code} product`).toContain(s);
      for (const s of [...c.categorySlugs, ...c.excludedCategorySlugs])
        expect(categorySlugs, `${c.code} category`).toContain(s);
    }
  });

  it('downloads exist in downloads/ and are real, non-empty files', () => {
    for (const p of simple) {
      if (!p.downloadable) continue;
      expect(p.virtual, `${p.slug} downloadable but not virtual`).toBe(true);
      expect(p.downloads.length, p.slug).toBeGreaterThan(0);
      for (const d of p.downloads) {
        const file = join(root, 'downloads', d.file);
        expect(existsSync(file), `${p.slug}: ${d.file}`).toBe(true);
        expect(statSync(file).size, d.file).toBeGreaterThan(100);
      }
    }
  });

  it('product attributes use declared global terms, and variations match the product attributes', () => {
    for (const p of products) {
      const declared = new Map(p.attributes.map((a) => [a.name, new Set(a.options)]));
      for (const a of p.attributes) {
        if (!a.name.startsWith('pa_')) continue;
        expect(terms.has(a.name), `${p.slug}: unknown global attribute ${a.name}`).toBe(true);
        for (const o of a.options) expect(terms.get(a.name), `${p.slug}: ${a.name}`).toContain(o);
      }
      if (p.type !== 'variable') continue;
      const variationAttrs = p.attributes
        .filter((a) => a.variation)
        .map((a) => a.name)
        .sort();
      expect(variationAttrs.length, `${p.slug} has no variation attribute`).toBeGreaterThan(0);
      for (const [name, value] of Object.entries(p.defaultAttributes))
        expect(declared.get(name), `${p.slug} default ${name}`).toContain(value);
      const combos = new Set<string>();
      for (const v of p.variations) {
        expect(Object.keys(v.attributes).sort(), v.sku).toEqual(variationAttrs);
        for (const [name, value] of Object.entries(v.attributes)) {
          expect(declared.get(name), `${v.sku} ${name}`).toContain(value);
          if (name.startsWith('pa_')) expect(terms.get(name), `${v.sku} ${name}`).toContain(value);
        }
        const key = JSON.stringify(Object.entries(v.attributes).sort());
        expect(combos.has(key), `${v.sku} duplicates another variation`).toBe(false);
        combos.add(key);
      }
    }
  });

  it('sale prices are below regular prices and reviews are dated after publication', () => {
    for (const p of products) {
      if (p.type === 'variable') {
        for (const v of p.variations)
          if (v.salePrice !== undefined) expect(onSale(v.regularPrice, v.salePrice), v.sku).toBe(true);
      } else if (p.salePrice !== undefined) expect(onSale(p.regularPrice, p.salePrice), p.slug).toBe(true);
      for (const r of p.reviews) {
        expect(r.date >= p.date.slice(0, 10), `${p.slug} review by ${r.author}`).toBe(true);
        expect(r.email.endsWith('@example.com'), r.email).toBe(true);
      }
    }
  });
});

describe('catalog contains every situation the shop must show', () => {
  type Stock = { manage: boolean; quantity?: number; lowStockAmount?: number; backorders: string; status?: string };
  const stocks: Stock[] = products.flatMap((p) =>
    p.type === 'variable' ? p.variations.map((v) => v.stock) : p.type === 'simple' ? [p.stock] : [],
  );

  it('an external product sold by a partner', () => {
    const ext = products.filter((p) => p.type === 'external');
    expect(ext.length).toBeGreaterThan(0);
    for (const p of ext) {
      expect(p.externalUrl).toMatch(/^https:\/\//);
      expect(p.buttonText).toMatch(/^Buy at /);
    }
  });

  it('an out-of-stock simple product and an on-backorder simple product', () => {
    expect(simple.some((p) => p.stock.manage && p.stock.quantity === 0 && p.stock.backorders === 'no')).toBe(true);
    expect(simple.some((p) => p.stock.manage && p.stock.quantity === 0 && p.stock.backorders !== 'no')).toBe(true);
  });

  it('several low-stock items', () => {
    const low = stocks.filter(
      (s) =>
        s.manage &&
        s.quantity !== undefined &&
        s.quantity > 0 &&
        s.lowStockAmount !== undefined &&
        s.quantity <= s.lowStockAmount,
    );
    expect(low.length).toBeGreaterThanOrEqual(3);
  });

  it('a virtual downloadable product with a download limit and expiry', () => {
    expect(
      simple.some((p) => p.virtual && p.downloadable && p.downloadLimit && p.downloadExpiry && p.downloads.length >= 2),
    ).toBe(true);
  });

  it('variable products with pa_size/pa_color and with pa_frequency-band', () => {
    const varies = (p: SeedProduct, name: string) => p.attributes.some((a) => a.name === name && a.variation);
    expect(variable.some((p) => varies(p, 'pa_size') && varies(p, 'pa_color'))).toBe(true);
    expect(variable.some((p) => varies(p, 'pa_frequency-band'))).toBe(true);
  });

  it('several items on sale, featured products, reviews with a spread of ratings', () => {
    const sale = products.filter((p) =>
      p.type === 'variable'
        ? p.variations.some((v) => onSale(v.regularPrice, v.salePrice))
        : onSale(p.regularPrice, p.salePrice),
    );
    expect(sale.length).toBeGreaterThanOrEqual(3);
    expect(products.filter((p) => p.featured).length).toBeGreaterThanOrEqual(6);
    const ratings = new Set(products.flatMap((p) => p.reviews.map((r) => r.rating)));
    expect([...ratings].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(products.filter((p) => p.reviews.length > 0).length).toBeGreaterThan(products.length / 2);
  });

  it('publish dates spread over 2025 and 2026; physical products have a weight', () => {
    const years = new Set(products.map((p) => p.date.slice(0, 4)));
    expect(years).toEqual(new Set(['2025', '2026']));
    for (const p of products) {
      const physical = p.type === 'variable' || (p.type === 'simple' && !p.virtual);
      if (physical) expect(p.weight, `${p.slug} weight`).toBeDefined();
    }
  });

  it('every top-level category the shop links to is present', () => {
    for (const slug of ['gateways', 'antennas', 'accessories', 'software', 'swag'])
      expect(categorySlugs).toContain(slug);
  });
});
