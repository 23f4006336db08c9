/**
 * Catalog models → WooCommerce product CSV rows. A variable product is followed by its variations
 * (Type "variation", Parent "id:<parent id>"), as WooCommerce exports them. Columns that Meshfront does
 * not model (tax class, shipping class, purchase note, grouped products, cross-sells) are written empty.
 * The product's name and descriptions in the shop's other languages follow as "Name (de_DE)", ….
 */
import { formatRaw } from '../money.ts';
import type {
  CatalogSnapshot,
  ImageModel,
  ProductAttributeModel,
  ProductModel,
  StockFields,
  TermModel,
  VariationModel,
} from '../snapshot.ts';
import {
  attributeColumns,
  downloadColumns,
  escapeFormula,
  FIXED_COLUMNS,
  joinList,
  META_PREFIX,
  PUBLISHED,
  TRANSLATED_TEXTS,
  translationColumn,
  type FixedColumn,
} from './columns.ts';
import { TRANSLATION_LOCALES } from '../translations.ts';

export type ExportOptions = {
  /** Absolute site URL; images are written as <siteUrl>/media/catalog/<file>. */
  siteUrl: string;
};

type Row = Map<string, string>;

const bool = (b: boolean) => (b ? '1' : '0');
const money = (cents: number | null) => (cents === null ? '' : formatRaw(cents));

function date(d: Date | null): string {
  if (!d) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

function inStock(s: StockFields): string {
  const status = s.manageStock
    ? (s.stockQuantity ?? 0) > 0
      ? 'instock'
      : s.backorders !== 'no'
        ? 'onbackorder'
        : 'outofstock'
    : s.storedStockStatus;
  return status === 'instock' ? '1' : status === 'outofstock' ? '0' : 'backorder';
}

const backorders = (b: StockFields['backorders']) => (b === 'yes' ? '1' : b === 'no' ? '0' : 'notify');

function categoryPath(term: TermModel, byId: Map<number, TermModel>): string {
  const names = [term.name];
  const seen = new Set([term.id]);
  let parent = term.parentId === null ? undefined : byId.get(term.parentId);
  while (parent && !seen.has(parent.id)) {
    names.unshift(parent.name);
    seen.add(parent.id);
    parent = parent.parentId === null ? undefined : byId.get(parent.parentId);
  }
  return names.map((n) => n.replace(/>/g, '')).join(' > ');
}

/** The display name of a product attribute and the display names of its values. */
function attributeDisplay(a: ProductAttributeModel): {
  name: string;
  values: string[];
  valueName: (slug: string) => string;
} {
  if (!a.attribute) return { name: a.name, values: a.options, valueName: (v) => v };
  const termName = new Map(a.attribute.terms.map((t) => [t.slug, t.name]));
  const valueName = (slug: string) => termName.get(slug) ?? slug;
  return { name: a.attribute.name, values: a.options.map(valueName), valueName };
}

export function exportRows(snapshot: CatalogSnapshot, options: ExportOptions): string[][] {
  const base = options.siteUrl.replace(/\/+$/, '');
  const imageUrl = (img: ImageModel) => `${base}/media/catalog/${encodeURIComponent(img.file)}`;
  const rows: Row[] = [];
  let attributeCount = 0;
  let downloadCount = 0;
  const metaKeys = new Set<string>();

  const common = (row: Row, s: StockFields) => {
    row.set('In stock?', inStock(s));
    row.set('Stock', s.manageStock ? String(s.stockQuantity ?? 0) : '');
    row.set('Low stock amount', s.lowStockAmount === null ? '' : String(s.lowStockAmount));
    row.set('Backorders allowed?', backorders(s.backorders));
  };
  const dims = (
    row: Row,
    d: { weight: string | null; length: string | null; width: string | null; height: string | null },
  ) => {
    row.set('Weight (kg)', d.weight ?? '');
    row.set('Length (cm)', d.length ?? '');
    row.set('Width (cm)', d.width ?? '');
    row.set('Height (cm)', d.height ?? '');
  };

  for (const p of snapshot.products) {
    const row: Row = new Map();
    const type = [
      p.type,
      ...(p.type === 'simple' && p.virtual ? ['virtual'] : []),
      ...(p.type === 'simple' && p.downloadable ? ['downloadable'] : []),
    ];
    row.set('ID', String(p.id));
    row.set('Type', type.join(', '));
    row.set('SKU', p.sku);
    row.set('Name', p.name);
    row.set('Published', PUBLISHED[p.status as keyof typeof PUBLISHED] ?? PUBLISHED.draft);
    row.set('Is featured?', bool(p.featured));
    row.set('Visibility in catalog', p.visibility);
    row.set('Short description', p.shortDescription);
    row.set('Description', p.description);
    row.set('Date sale price starts', date(p.dateOnSaleFrom));
    row.set('Date sale price ends', date(p.dateOnSaleTo));
    row.set('Tax status', 'taxable');
    if (p.type === 'variable') {
      // WooCommerce writes a variable parent's stock only when it manages stock at product level.
      row.set('In stock?', p.variations.some((v) => inStock(v.manageStock ? v : p) !== '0') ? '1' : '0');
      row.set('Stock', p.manageStock ? String(p.stockQuantity ?? 0) : '');
      row.set('Low stock amount', p.lowStockAmount === null ? '' : String(p.lowStockAmount));
      row.set('Backorders allowed?', backorders(p.backorders));
    } else common(row, p);
    row.set('Sold individually?', '0');
    dims(row, p);
    row.set('Allow customer reviews?', bool(p.reviewsAllowed));
    row.set('Sale price', money(p.salePriceCents));
    row.set('Regular price', money(p.regularPriceCents));
    row.set('Categories', joinList(p.categories.map((c) => categoryPath(c, snapshot.termsById))));
    row.set('Tags', joinList(p.tags.map((t) => t.name)));
    row.set(
      'Images',
      [p.image, ...p.gallery]
        .filter((i): i is ImageModel => i !== null)
        .map(imageUrl)
        .join(', '),
    );
    row.set('Download limit', p.downloadLimit === null ? '' : String(p.downloadLimit));
    row.set('Download expiry days', p.downloadExpiry === null ? '' : String(p.downloadExpiry));
    row.set(
      'Upsells',
      joinList(p.relatedSlugs.map((s) => snapshot.productsBySlug.get(s)?.sku).filter((s): s is string => !!s)),
    );
    row.set('External URL', p.externalUrl ?? '');
    row.set('Button text', p.type === 'external' ? (p.buttonText ?? '') : '');
    row.set('Position', String(p.menuOrder));
    p.attributes.forEach((a, i) => {
      const d = attributeDisplay(a);
      const [name, values, visible, global, def] = attributeColumns(i + 1);
      row.set(name, d.name);
      row.set(values, joinList(d.values));
      row.set(visible, bool(a.visible));
      row.set(global, bool(a.attribute !== null));
      const key = a.attribute ? a.attribute.slug : a.name;
      const dv = p.defaultAttributes[key];
      row.set(def, dv === undefined ? '' : d.valueName(dv));
    });
    attributeCount = Math.max(attributeCount, p.attributes.length);
    p.downloads.forEach((dl, i) => {
      const [did, dname, durl] = downloadColumns(i + 1);
      row.set(did, dl.id);
      row.set(dname, dl.name);
      row.set(durl, dl.file);
    });
    downloadCount = Math.max(downloadCount, p.downloads.length);
    for (const m of p.metaData) {
      row.set(`${META_PREFIX}${m.key}`, m.value);
      metaKeys.add(m.key);
    }
    for (const locale of TRANSLATION_LOCALES)
      for (const text of TRANSLATED_TEXTS)
        row.set(translationColumn(text, locale), p.translations[locale]?.[text.field] ?? '');
    rows.push(row);
    for (const v of p.variations) rows.push(variationRow(p, v, imageUrl, common, dims));
    attributeCount = Math.max(attributeCount, ...p.variations.map((v) => Object.keys(v.attributes).length));
  }

  const header: string[] = [...FIXED_COLUMNS];
  for (let n = 1; n <= attributeCount; n++) header.push(...attributeColumns(n));
  for (let n = 1; n <= downloadCount; n++) header.push(...downloadColumns(n));
  for (const k of [...metaKeys].sort()) header.push(`${META_PREFIX}${k}`);
  // Every shop language, translated or not: the columns a translator fills in (empty = as in English).
  for (const locale of TRANSLATION_LOCALES) header.push(...TRANSLATED_TEXTS.map((t) => translationColumn(t, locale)));
  return [header, ...rows.map((r) => header.map((h) => escapeFormula(r.get(h) ?? '')))];
}

function variationRow(
  p: ProductModel,
  v: VariationModel,
  imageUrl: (img: ImageModel) => string,
  common: (row: Row, s: StockFields) => void,
  dims: (row: Row, d: VariationModel) => void,
): Row {
  const row: Row = new Map<FixedColumn | string, string>();
  const displays = new Map(
    p.attributes.map((a) => [a.attribute ? a.attribute.slug : a.name, { a, d: attributeDisplay(a) }]),
  );
  const values = Object.entries(v.attributes).map(([key, value]) => ({ key, value, info: displays.get(key) }));
  row.set('ID', String(v.id));
  row.set('Type', 'variation');
  row.set('SKU', v.sku);
  row.set('Name', `${p.name} - ${values.map((x) => (x.info ? x.info.d.valueName(x.value) : x.value)).join(', ')}`);
  row.set('Published', '1');
  row.set('Is featured?', '0');
  row.set('Visibility in catalog', 'visible');
  row.set('Description', v.description);
  row.set('Tax status', 'taxable');
  row.set('Tax class', 'parent');
  if (v.manageStock) common(row, v);
  else {
    common(row, v);
    row.set('Stock', 'parent');
  }
  row.set('Sold individually?', '0');
  dims(row, v);
  row.set('Allow customer reviews?', '0');
  row.set('Sale price', money(v.salePriceCents));
  row.set('Regular price', money(v.regularPriceCents));
  row.set('Images', v.image ? imageUrl(v.image) : '');
  row.set('Parent', `id:${p.id}`);
  row.set('Position', String(v.menuOrder));
  values.forEach((x, i) => {
    const [name, value, visible, global] = attributeColumns(i + 1);
    row.set(name, x.info ? x.info.d.name : x.key);
    row.set(value, x.info ? x.info.d.valueName(x.value) : x.value);
    row.set(visible, '');
    row.set(global, bool(!!x.info?.a.attribute));
  });
  return row;
}
