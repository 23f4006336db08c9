/**
 * Reads a seed catalog directory (content/catalog/ or a test fixture) in the format of seed-format.ts and
 * checks it: every problem is reported with its file and the path inside it, all at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import {
  categorySchema,
  couponSchema,
  globalAttributeSchema,
  productSchema,
  type SeedCategory,
  type SeedCoupon,
  type SeedGlobalAttribute,
  type SeedProduct,
} from './seed-format.ts';

export type SeedCatalog = {
  dir: string;
  categories: SeedCategory[];
  attributes: SeedGlobalAttribute[];
  coupons: SeedCoupon[];
  products: SeedProduct[];
};

export type SeedIssue = { file: string; path: string; message: string };

export class SeedValidationError extends Error {
  override name = 'SeedValidationError';
  constructor(readonly issues: SeedIssue[]) {
    super(
      `The seed catalog has ${issues.length} problem${issues.length === 1 ? '' : 's'}:\n` +
        issues.map((i) => `  ${i.file}${i.path ? ` at ${i.path}` : ''}: ${i.message}`).join('\n'),
    );
  }
}

export class SeedMissingError extends Error {
  override name = 'SeedMissingError';
}

function readJson(file: string, rel: string, issues: SeedIssue[]): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    issues.push({ file: rel, path: '', message: `cannot read JSON: ${(err as Error).message}` });
    return undefined;
  }
}

function formatPath(p: PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

function check<T>(
  schema: z.ZodType<T>,
  value: unknown,
  rel: string,
  prefix: PropertyKey[],
  issues: SeedIssue[],
): T | undefined {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const i of r.error.issues)
    issues.push({ file: rel, path: formatPath([...prefix, ...i.path]), message: i.message });
  return undefined;
}

function readList<T>(dir: string, name: string, schema: z.ZodType<T>, issues: SeedIssue[], required: boolean): T[] {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) {
    if (required) issues.push({ file: name, path: '', message: 'file is missing' });
    return [];
  }
  const raw = readJson(file, name, issues);
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    issues.push({ file: name, path: '', message: 'expected a JSON array' });
    return [];
  }
  const out: T[] = [];
  raw.forEach((item, i) => {
    const v = check(schema, item, name, [i], issues);
    if (v) out.push(v);
  });
  return out;
}

export type LoadOptions = {
  /** Check that referenced images exist in <dir>/images (default true). */
  checkFiles?: boolean;
};

/** Load and validate a catalog directory. Throws SeedMissingError when there is no catalog, SeedValidationError listing every problem. */
export function loadSeedCatalog(dir: string, options: LoadOptions = {}): SeedCatalog {
  const checkFiles = options.checkFiles ?? true;
  const productsDir = path.join(dir, 'products');
  if (!fs.existsSync(dir) || !fs.existsSync(productsDir))
    throw new SeedMissingError(`No seed catalog at ${dir} (expected ${productsDir}/<slug>.json).`);
  const productFiles = fs
    .readdirSync(productsDir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (productFiles.length === 0)
    throw new SeedMissingError(`The seed catalog at ${dir} has no products yet (${productsDir} is empty).`);

  const issues: SeedIssue[] = [];
  const categories = readList(dir, 'categories.json', categorySchema, issues, true);
  const attributes = readList(dir, 'attributes.json', globalAttributeSchema, issues, false);
  const coupons = readList(dir, 'coupons.json', couponSchema, issues, false);
  const products: SeedProduct[] = [];
  const fileOf = new Map<SeedProduct, string>();
  for (const f of productFiles) {
    const rel = `products/${f}`;
    const raw = readJson(path.join(productsDir, f), rel, issues);
    if (raw === undefined) continue;
    const p = check(productSchema, raw, rel, [], issues);
    if (!p) continue;
    if (`${p.slug}.json` !== f)
      issues.push({ file: rel, path: 'slug', message: `the file must be named after the slug (${p.slug}.json)` });
    products.push(p);
    fileOf.set(p, rel);
  }

  // Cross-references: everything a product names must exist.
  const categorySlugs = new Set<string>();
  categories.forEach((c, i) => {
    if (categorySlugs.has(c.slug))
      issues.push({ file: 'categories.json', path: `[${i}].slug`, message: `duplicate category slug "${c.slug}"` });
    categorySlugs.add(c.slug);
  });
  categories.forEach((c, i) => {
    if (c.parent && !categorySlugs.has(c.parent))
      issues.push({ file: 'categories.json', path: `[${i}].parent`, message: `unknown category "${c.parent}"` });
  });
  const attributeTerms = new Map(attributes.map((a) => [a.slug, new Set(a.terms.map((t) => t.slug))]));
  const images = fs.existsSync(path.join(dir, 'images'))
    ? new Set(fs.readdirSync(path.join(dir, 'images')))
    : new Set<string>();
  const downloads = fs.existsSync(path.join(dir, 'downloads'))
    ? new Set(fs.readdirSync(path.join(dir, 'downloads')))
    : new Set<string>();
  const needImage = (file: string, rel: string, at: string) => {
    if (checkFiles && !images.has(file))
      issues.push({ file: rel, path: at, message: `image "${file}" is not in images/` });
  };
  categories.forEach((c, i) => {
    if (c.image) needImage(c.image, 'categories.json', `[${i}].image`);
  });

  const slugs = new Map<string, string>();
  const skus = new Map<string, string>();
  const claimSku = (sku: string, rel: string, at: string) => {
    const other = skus.get(sku);
    if (other) issues.push({ file: rel, path: at, message: `SKU "${sku}" is also used by ${other}` });
    else skus.set(sku, `${rel} ${at}`);
  };
  for (const p of products) {
    const rel = fileOf.get(p)!;
    const other = slugs.get(p.slug);
    if (other) issues.push({ file: rel, path: 'slug', message: `slug "${p.slug}" is also used by ${other}` });
    slugs.set(p.slug, rel);
    claimSku(p.sku, rel, 'sku');
    p.categories.forEach((c, i) => {
      if (!categorySlugs.has(c))
        issues.push({ file: rel, path: `categories[${i}]`, message: `unknown category "${c}"` });
    });
    needImage(p.image, rel, 'image');
    p.gallery.forEach((g, i) => {
      needImage(g, rel, `gallery[${i}]`);
    });
    const attrByName = new Map(p.attributes.map((a) => [a.name, a]));
    p.attributes.forEach((a, i) => {
      if (!a.name.startsWith('pa_')) {
        for (const [locale, t] of Object.entries(a.translations))
          if (t?.options && t.options.length !== a.options.length)
            issues.push({
              file: rel,
              path: `attributes[${i}].translations.${locale}.options`,
              message: `expected ${a.options.length} translated options, one per option in the same order, got ${t.options.length}`,
            });
        return;
      }
      if (Object.keys(a.translations).length)
        issues.push({
          file: rel,
          path: `attributes[${i}].translations`,
          message: `${a.name} is a global attribute: translate its name and terms in attributes.json`,
        });
      const terms = attributeTerms.get(a.name);
      if (!terms) {
        issues.push({
          file: rel,
          path: `attributes[${i}].name`,
          message: `unknown global attribute "${a.name}" (declare it in attributes.json)`,
        });
        return;
      }
      a.options.forEach((o, j) => {
        if (!terms.has(o))
          issues.push({
            file: rel,
            path: `attributes[${i}].options[${j}]`,
            message: `"${o}" is not a term of ${a.name}`,
          });
      });
    });
    if (p.type !== 'variable' && p.salePrice !== undefined && Number(p.salePrice) >= Number(p.regularPrice)) {
      issues.push({ file: rel, path: 'salePrice', message: 'a sale price must be lower than the regular price' });
    }
    if (p.type === 'simple') {
      p.downloads.forEach((d, i) => {
        if (checkFiles && !downloads.has(d.file))
          issues.push({
            file: rel,
            path: `downloads[${i}].file`,
            message: `download "${d.file}" is not in downloads/`,
          });
      });
      if (p.stock.manage && p.stock.quantity === undefined)
        issues.push({ file: rel, path: 'stock.quantity', message: 'required when stock is managed' });
    }
    if (p.type === 'variable') {
      const combos = new Set<string>();
      p.variations.forEach((v, i) => {
        claimSku(v.sku, rel, `variations[${i}].sku`);
        if (v.image) needImage(v.image, rel, `variations[${i}].image`);
        if (v.salePrice !== undefined && Number(v.salePrice) >= Number(v.regularPrice)) {
          issues.push({
            file: rel,
            path: `variations[${i}].salePrice`,
            message: 'a sale price must be lower than the regular price',
          });
        }
        for (const [name, value] of Object.entries(v.attributes)) {
          const a = attrByName.get(name);
          if (!a?.variation)
            issues.push({
              file: rel,
              path: `variations[${i}].attributes.${name}`,
              message: `"${name}" is not one of this product's variation attributes`,
            });
          else if (!a.options.includes(value))
            issues.push({
              file: rel,
              path: `variations[${i}].attributes.${name}`,
              message: `"${value}" is not an option of ${name}`,
            });
        }
        const key = JSON.stringify(Object.entries(v.attributes).sort());
        if (combos.has(key))
          issues.push({
            file: rel,
            path: `variations[${i}].attributes`,
            message: 'another variation has the same attributes',
          });
        combos.add(key);
      });
      for (const [name, value] of Object.entries(p.defaultAttributes)) {
        const a = attrByName.get(name);
        if (!a?.options.includes(value))
          issues.push({
            file: rel,
            path: `defaultAttributes.${name}`,
            message: `"${value}" is not an option of ${name}`,
          });
      }
    }
  }
  for (const p of products) {
    p.related.forEach((r, i) => {
      if (!slugs.has(r))
        issues.push({ file: fileOf.get(p)!, path: `related[${i}]`, message: `unknown product "${r}"` });
    });
  }
  if (issues.length) throw new SeedValidationError(issues);
  return { dir, categories, attributes, coupons, products };
}
