/**
 * The columns of WooCommerce's product CSV (Products → Export, default settings), in the order
 * WooCommerce writes them, and the value spellings it uses. Numbered columns (Attribute N …,
 * Download N …) and `Meta: <key>` columns follow the fixed ones.
 */

export const FIXED_COLUMNS = [
  'ID',
  'Type',
  'SKU',
  'Name',
  'Published',
  'Is featured?',
  'Visibility in catalog',
  'Short description',
  'Description',
  'Date sale price starts',
  'Date sale price ends',
  'Tax status',
  'Tax class',
  'In stock?',
  'Stock',
  'Low stock amount',
  'Backorders allowed?',
  'Sold individually?',
  'Weight (kg)',
  'Length (cm)',
  'Width (cm)',
  'Height (cm)',
  'Allow customer reviews?',
  'Purchase note',
  'Sale price',
  'Regular price',
  'Categories',
  'Tags',
  'Shipping class',
  'Images',
  'Download limit',
  'Download expiry days',
  'Parent',
  'Grouped products',
  'Upsells',
  'Cross-sells',
  'External URL',
  'Button text',
  'Position',
] as const;

export type FixedColumn = (typeof FIXED_COLUMNS)[number];

export const attributeColumns = (n: number) =>
  [
    `Attribute ${n} name`,
    `Attribute ${n} value(s)`,
    `Attribute ${n} visible`,
    `Attribute ${n} global`,
    `Attribute ${n} default`,
  ] as const;

export const downloadColumns = (n: number) => [`Download ${n} ID`, `Download ${n} name`, `Download ${n} URL`] as const;

export const META_PREFIX = 'Meta: ';

/**
 * A product's texts in the shop's other languages, one column per text and language after the WooCommerce
 * columns, as multilingual exports (WPML, Polylang) carry them: "Name (de_DE)", "Short description (de_DE)",
 * "Description (de_DE)". An empty cell means "as in English". `max` is what the admin's product form takes.
 */
export const TRANSLATED_TEXTS = [
  { column: 'Name', field: 'name', max: 200 },
  { column: 'Short description', field: 'shortDescription', max: 5_000 },
  { column: 'Description', field: 'description', max: 100_000 },
] as const;

export type TranslatedText = (typeof TRANSLATED_TEXTS)[number];

export const translationColumn = (text: TranslatedText, locale: string) => `${text.column} (${locale})`;

/** "Name (de_DE)" → the text and the written locale; null for every other header. */
export function translationHeader(header: string): { text: TranslatedText; locale: string } | null {
  const m = /^(.+?)\s*\(([^()]*)\)$/.exec(header.trim());
  const text = m && TRANSLATED_TEXTS.find((t) => t.column.toLowerCase() === m[1]!.toLowerCase());
  return text ? { text, locale: m![2]!.trim() } : null;
}

/** WooCommerce's "Published": 1 publish, 0 private, -1 draft. */
export const PUBLISHED = { publish: '1', private: '0', draft: '-1' } as const;

/**
 * Lists in one cell (categories, tags, images, attribute values) are separated by ", "; a comma inside
 * a name is written "\," (WooCommerce's escape). Category paths use " > ".
 */
export function splitList(cell: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < cell.length; i++) {
    const c = cell[i]!;
    if (c === '\\' && cell[i + 1] === ',') {
      cur += ',';
      i++;
    } else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

export function joinList(items: string[]): string {
  return items.map((s) => s.replace(/,/g, '\\,')).join(', ');
}

/**
 * Spreadsheet formula injection: WooCommerce prefixes text that starts with = + - @ tab or CR with a
 * quote on export, and importers drop that quote again. Plain numbers ("-1", "-5.5") are left alone.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
export function escapeFormula(value: string): string {
  return FORMULA_START.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
}
export function unescapeFormula(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** URL-safe lower-case slug from a name (WordPress's sanitize_title, ASCII part). */
export function slugify(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'item'
  );
}
