/**
 * The product forms' descriptive part (name, slug, SKU, texts, categories, attributes, virtual and
 * downloadable settings), used by "New product" and by the product screen's details form. Read from the
 * posted fields into adminCreateProduct / adminUpdateProduct input; the engine checks again (a taken
 * SKU or slug, an unknown category…) and its message is shown on the form.
 */
import type { AdminProductFieldsFragment } from '../../../graphql/generated/admin-operations.ts';
import type { AdminAttributeInput, AdminProductInput } from '../../../graphql/generated/admin-schema.ts';
import { productPriceStockInput } from './product-form.ts';
import type { FormFields } from './forms.ts';
import { PRODUCT_TRANSLATED_FIELDS, translationsInput, translationValues } from './translation-form.ts';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SKU = /^[A-Za-z0-9._-]+$/;
export const NEW_PRODUCT_TYPES = ['SIMPLE', 'VARIABLE'] as const;
export const NEW_PRODUCT_STATUSES = ['DRAFT', 'PUBLISH'] as const;
const MAX_ATTRIBUTES = 20;

/** What the forms read of a stored product. */
type StoredProduct = Pick<
  AdminProductFieldsFragment,
  | 'type'
  | 'name'
  | 'slug'
  | 'sku'
  | 'shortDescription'
  | 'description'
  | 'categories'
  | 'attributes'
  | 'virtual'
  | 'downloadable'
  | 'downloadLimit'
  | 'downloadExpiry'
> &
  Partial<Pick<AdminProductFieldsFragment, 'translations'>>;

/**
 * Attributes typed one per line as "Name: value | value" (the admin has no script to add rows). Values may
 * not contain "|"; the engine limits names and values to 100 characters.
 */
export function parseAttributeLines(
  f: FormFields,
  name: string,
  label: string,
  variation: boolean,
  previous: readonly { name: string; visible: boolean }[],
): AdminAttributeInput[] | undefined {
  const lines = f
    .raw(name)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length > MAX_ATTRIBUTES) {
    f.errors[name] ??= `${label}: at most ${MAX_ATTRIBUTES} lines.`;
    return undefined;
  }
  const out: AdminAttributeInput[] = [];
  for (const [i, line] of lines.entries()) {
    const m = /^([^:]{1,100}):(.*)$/.exec(line);
    const options = m
      ? m[2]!
          .split('|')
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
    if (!m || !m[1]!.trim() || options.length === 0) {
      f.errors[name] ??= `${label}, line ${i + 1}: write "Name: value | value".`;
      return undefined;
    }
    const attrName = m[1]!.trim();
    if (options.some((o) => o.length > 100)) {
      f.errors[name] ??= `${label}, line ${i + 1}: a value is longer than 100 characters.`;
      return undefined;
    }
    if (new Set(options).size !== options.length) {
      f.errors[name] ??= `${label}, line ${i + 1}: a value is listed twice.`;
      return undefined;
    }
    if (out.some((a) => a.name === attrName)) {
      f.errors[name] ??= `${label}: "${attrName}" is listed twice.`;
      return undefined;
    }
    // Keep the shop's "shown on the product page" choice of an attribute that already existed.
    const visible = previous.find((p) => p.name === attrName)?.visible ?? true;
    out.push({ name: attrName, options, visible, variation });
  }
  return out;
}

/** Category ids ticked on the form, each one a category that exists. */
function categoryIds(f: FormFields, known: readonly { id: number }[]): number[] | undefined {
  const ids = f.form.getAll('categoryId').map((s) => s.trim());
  const out: number[] = [];
  for (const s of ids) {
    const id = /^\d{1,9}$/.test(s) ? Number(s) : NaN;
    if (!known.some((c) => c.id === id)) {
      f.errors.categoryId ??= 'One of the chosen categories no longer exists; reload the page.';
      return undefined;
    }
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** The descriptive fields both forms share. */
function details(
  f: FormFields,
  o: { type: string; categories: readonly { id: number }[]; current: StoredProduct | null },
) {
  const name = f.text('name', 'Name', { required: true, max: 200 });
  const slug = f.text('slug', 'Slug', { max: 200 })?.toLowerCase();
  if (slug && !SLUG.test(slug))
    f.errors.slug ??=
      'The slug may contain lower-case letters, digits and single hyphens only (leave it empty to make one from the name).';
  if (o.current && !slug) f.errors.slug ??= 'Slug is required.';
  const sku = f.text('sku', 'SKU', { max: 100 });
  if (sku && !SKU.test(sku))
    f.errors.sku ??= 'The SKU may contain letters, digits, dots, underscores and hyphens only.';
  if (o.current && !sku) f.errors.sku ??= 'SKU is required.';
  const shortDescription = f.text('shortDescription', 'Short description', { max: 5_000 });
  const description = f.text('description', 'Description', { max: 100_000 });
  const cats = categoryIds(f, o.categories);
  const previous = o.current?.attributes ?? [];
  const variationAttributes =
    o.type === 'VARIABLE'
      ? parseAttributeLines(f, 'variationAttributes', 'Attributes for variations', true, previous)
      : [];
  const otherAttributes = parseAttributeLines(f, 'otherAttributes', 'Other attributes', false, previous);
  if (variationAttributes && otherAttributes) {
    const dup = variationAttributes.find((a) => otherAttributes.some((b) => b.name === a.name));
    if (dup) f.errors.otherAttributes ??= `"${dup.name}" is already an attribute for variations.`;
  }
  const translations = translationsInput(f, PRODUCT_TRANSLATED_FIELDS);
  const simple = o.type === 'SIMPLE';
  const downloadable = simple && f.checked('downloadable');
  const downloadLimit = simple ? f.int('downloadLimit', 'Download limit', { min: 1, max: 10_000 }) : null;
  const downloadExpiry = simple ? f.int('downloadExpiry', 'Download expiry', { min: 1, max: 36_500 }) : null;
  return {
    name,
    slug: slug || undefined,
    sku: sku || undefined,
    shortDescription,
    description,
    translations,
    categoryIds: cats,
    attributes: [...(variationAttributes ?? []), ...(otherAttributes ?? [])],
    virtual: simple && f.checked('virtual'),
    downloadable,
    downloadLimit,
    downloadExpiry,
  };
}

/** adminCreateProduct input for "New product": details plus price and stock for a simple product. */
export function newProductInput(f: FormFields, categories: readonly { id: number }[]): AdminProductInput | null {
  const type = f.choice('type', 'Type', NEW_PRODUCT_TYPES, { required: true });
  const status = f.choice('status', 'Status', NEW_PRODUCT_STATUSES, { required: true });
  const d = details(f, { type: type ?? 'SIMPLE', categories, current: null });
  // A variable product's price and stock live on its variations, added on the product screen.
  const priceStock = type === 'SIMPLE' ? productPriceStockInput(f, 'SIMPLE') : {};
  if (!f.ok || !type || !status) return null;
  return { type, status, ...d, ...priceStock };
}

/** adminUpdateProduct input of the product screen's details form (type and status are changed elsewhere). */
export function productDetailsInput(
  f: FormFields,
  product: StoredProduct,
  categories: readonly { id: number }[],
): AdminProductInput | null {
  const d = details(f, { type: product.type, categories, current: product });
  if (!f.ok) return null;
  if (product.type !== 'SIMPLE') {
    // Only simple products carry these; leave what is stored alone.
    const { virtual: _v, downloadable: _d, downloadLimit: _l, downloadExpiry: _e, ...rest } = d;
    return rest;
  }
  return d;
}

export type DetailsValues = Record<string, string | boolean | string[]>;

const attributeLines = (attributes: StoredProduct['attributes'], variation: boolean) =>
  attributes
    .filter((a) => !!a.variation === variation)
    .map((a) => `${a.name}: ${a.options.join(' | ')}`)
    .join('\n');

/** What the details fields show: the stored product, what was posted, or a new product's defaults. */
export function detailsValues(product: StoredProduct | null, posted: URLSearchParams | null): DetailsValues {
  if (posted) {
    const v: DetailsValues = Object.fromEntries(
      [...posted.entries()].filter(([k]) => k !== 'intent' && k !== 'categoryId'),
    );
    v.categoryId = posted.getAll('categoryId');
    for (const k of ['virtual', 'downloadable', 'manageStock']) v[k] = posted.get(k) === 'on';
    return v;
  }
  if (!product)
    return {
      type: 'SIMPLE',
      status: 'DRAFT',
      categoryId: [],
      virtual: false,
      downloadable: false,
      backorders: 'NO',
      stockStatus: 'INSTOCK',
      manageStock: false,
    };
  return {
    name: product.name,
    slug: product.slug,
    sku: product.sku,
    shortDescription: product.shortDescription,
    description: product.description,
    categoryId: product.categories.map((c) => String(c.id)),
    variationAttributes: attributeLines(product.attributes, true),
    otherAttributes: attributeLines(product.attributes, false),
    virtual: !!product.virtual,
    downloadable: !!product.downloadable,
    downloadLimit: product.downloadLimit == null ? '' : String(product.downloadLimit),
    downloadExpiry: product.downloadExpiry == null ? '' : String(product.downloadExpiry),
    ...translationValues(product.translations ?? [], null, PRODUCT_TRANSLATED_FIELDS),
  };
}

/** Categories in tree order with their depth, for checkboxes and parent pickers. */
export function categoryTree<T extends { id: number; parentId: number | null; name: string; menuOrder?: number }>(
  all: readonly T[],
): (T & { depth: number })[] {
  const byParent = new Map<number | null, T[]>();
  for (const c of all) {
    const parent = c.parentId !== null && all.some((p) => p.id === c.parentId) ? c.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), c]);
  }
  const out: (T & { depth: number })[] = [];
  const walk = (parent: number | null, depth: number) => {
    const children = (byParent.get(parent) ?? [])
      .slice()
      .sort((a, b) => (a.menuOrder ?? 0) - (b.menuOrder ?? 0) || a.name.localeCompare(b.name));
    for (const c of children) {
      out.push({ ...c, depth });
      if (depth < 20) walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
