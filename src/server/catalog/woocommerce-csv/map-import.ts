/**
 * CSV records → checked import items. Each row becomes one CsvItem (a product or a variation) or a list
 * of problems naming the row's line, the column and what is wrong. Nothing here touches the database:
 * references to other rows and stored products are resolved by import.ts.
 */
import { DEFAULT_LOCALE } from '../../../lib/i18n/locales.ts';
import { TRANSLATION_LOCALES, type TranslationLocale } from '../translations.ts';
import {
  splitList,
  translationHeader,
  unescapeFormula,
  META_PREFIX,
  PUBLISHED,
  type TranslatedText,
} from './columns.ts';
import type { CsvRecord } from './parse.ts';

export type RowIssue = { row: number; column: string; message: string };

export type CsvAttribute = {
  name: string;
  values: string[];
  visible: boolean;
  global: boolean;
  defaultValue: string | null;
};
export type CsvDownload = { id: string | null; name: string; file: string };
export type CsvStock = {
  manage: boolean;
  /** Variations: stock managed on the parent product ("parent" in the Stock column). */
  fromParent: boolean;
  quantity: number | null;
  lowStockAmount: number | null;
  status: 'instock' | 'outofstock' | 'onbackorder';
  backorders: 'no' | 'notify' | 'yes';
};

/** A translation column of the file: its header as written, the shop locale and the text it holds. */
type TranslationColumn = { header: string; locale: TranslationLocale; text: TranslatedText };

/**
 * One translated text of a row, for each translation column the file has: an empty value means "as in
 * English" (the stored translation is dropped); a language or text without a column keeps what is stored.
 */
export type CsvTranslation = { locale: TranslationLocale; field: TranslatedText['field']; value: string };

export type CsvItem = {
  row: number;
  id: number | null;
  type: 'simple' | 'variable' | 'external' | 'variation';
  virtual: boolean;
  downloadable: boolean;
  sku: string;
  name: string;
  status: 'publish' | 'private' | 'draft';
  featured: boolean;
  visibility: 'visible' | 'catalog' | 'search' | 'hidden';
  shortDescription: string;
  description: string;
  dateOnSaleFrom: Date | null;
  dateOnSaleTo: Date | null;
  stock: CsvStock;
  weight: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
  reviewsAllowed: boolean;
  regularPriceCents: number | null;
  salePriceCents: number | null;
  /** Each a path of names from the top category down. */
  categories: string[][];
  tags: string[];
  images: string[];
  downloadLimit: number | null;
  downloadExpiry: number | null;
  parent: { id: number } | { sku: string } | null;
  upsells: string[];
  externalUrl: string | null;
  buttonText: string | null;
  position: number;
  attributes: CsvAttribute[];
  downloads: CsvDownload[];
  metaData: { key: string; value: string }[];
  translations: CsvTranslation[];
};

export type MappedRows = { items: CsvItem[]; issues: RowIssue[]; warnings: RowIssue[] };

const REQUIRED_HEADERS = ['Type', 'Name'];

/** Header cells are matched without regard to case or surrounding space; "Weight (lbs)" counts as Weight. */
function canonicalHeader(h: string): string {
  const t = h.trim().toLowerCase();
  const unit = /^(weight|length|width|height)\s*\(.*\)$/.exec(t);
  return unit ? unit[1]! : t;
}

class RowReader {
  readonly issues: RowIssue[] = [];
  readonly warnings: RowIssue[] = [];
  constructor(
    private readonly index: Map<string, number>,
    private readonly headers: string[],
    private readonly record: CsvRecord,
  ) {}
  get row() {
    return this.record.line;
  }
  has(column: string): boolean {
    return this.index.has(canonicalHeader(column));
  }
  text(column: string): string {
    const i = this.index.get(canonicalHeader(column));
    if (i === undefined) return '';
    return unescapeFormula(this.record.fields[i] ?? '');
  }
  headerName(column: string): string {
    const i = this.index.get(canonicalHeader(column));
    return i === undefined ? column : this.headers[i]!.trim();
  }
  fail(column: string, message: string): null {
    this.issues.push({ row: this.row, column: this.headerName(column), message });
    return null;
  }
  warn(column: string, message: string): void {
    this.warnings.push({ row: this.row, column: this.headerName(column), message });
  }
  bool(column: string, fallback: boolean): boolean {
    const v = this.text(column).trim().toLowerCase();
    if (v === '') return fallback;
    if (v === '1' || v === 'yes' || v === 'true') return true;
    if (v === '0' || v === 'no' || v === 'false') return false;
    this.fail(column, `"${v}" is not 1 or 0`);
    return fallback;
  }
  int(column: string, { min = 0, allowNegativeOneAsEmpty = false } = {}): number | null {
    const v = this.text(column).trim();
    if (v === '' || (allowNegativeOneAsEmpty && v === '-1')) return null;
    if (!/^-?\d{1,9}$/.test(v) || Number(v) < min)
      return this.fail(column, `"${v}" is not a whole number${min === 0 ? ' of 0 or more' : ` of at least ${min}`}`);
    return Number(v);
  }
  money(column: string): number | null {
    const v = this.text(column).trim();
    if (v === '') return null;
    // WooCommerce stores prices as entered; a decimal comma appears in some locales' exports.
    const m = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(v);
    if (!m) return this.fail(column, `"${v}" is not a price such as 349 or 12.50`);
    return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
  }
  date(column: string): Date | null {
    const v = this.text(column).trim();
    if (v === '') return null;
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(v);
    const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0))) : null;
    if (!d || Number.isNaN(d.getTime()) || d.getUTCDate() !== +m![3]!)
      return this.fail(column, `"${v}" is not a date such as 2026-03-01 or 2026-03-01 00:00:00`);
    return d;
  }
  dimension(column: string): string | null {
    const v = this.text(column).trim();
    if (v === '') return null;
    if (!/^\d{1,6}(\.\d{1,4})?$/.test(v)) return this.fail(column, `"${v}" is not a number such as 0.4`);
    return v;
  }
}

export function mapRecords(records: CsvRecord[]): MappedRows {
  const issues: RowIssue[] = [];
  const warnings: RowIssue[] = [];
  if (records.length === 0)
    return {
      items: [],
      issues: [{ row: 1, column: '', message: 'the file is empty: expected a header row and product rows' }],
      warnings,
    };
  const header = records[0]!;
  const index = new Map<string, number>();
  header.fields.forEach((h, i) => {
    const key = canonicalHeader(h);
    if (key && !index.has(key)) index.set(key, i);
  });
  const missing = REQUIRED_HEADERS.filter((h) => !index.has(canonicalHeader(h)));
  if (missing.length) {
    return {
      items: [],
      issues: [
        {
          row: header.line,
          column: missing.join(', '),
          message: `the header row has no ${missing.join(' or ')} column: is this a WooCommerce product export?`,
        },
      ],
      warnings,
    };
  }
  const translations = translationColumns(header);
  if ('issues' in translations) return { items: [], issues: translations.issues, warnings };
  const attributeNumbers = new Set<number>();
  const downloadNumbers = new Set<number>();
  const metaKeys: string[] = [];
  for (const h of header.fields) {
    const a = /^attribute (\d{1,3}) name$/i.exec(h.trim());
    if (a) attributeNumbers.add(Number(a[1]));
    const d = /^download (\d{1,3}) (name|url)$/i.exec(h.trim());
    if (d) downloadNumbers.add(Number(d[1]));
    if (h.startsWith(META_PREFIX) && h.length > META_PREFIX.length) metaKeys.push(h.slice(META_PREFIX.length));
  }
  const items: CsvItem[] = [];
  for (const record of records.slice(1)) {
    const r = new RowReader(index, header.fields, record);
    const item = mapRow(
      r,
      [...attributeNumbers].sort((a, b) => a - b),
      [...downloadNumbers].sort((a, b) => a - b),
      metaKeys,
      translations.columns,
    );
    if (record.fields.length !== header.fields.length && record.fields.some((f) => f !== '')) {
      r.warn('', `the row has ${record.fields.length} cells, the header ${header.fields.length}`);
    }
    issues.push(...r.issues);
    warnings.push(...r.warnings);
    if (item && r.issues.length === 0) items.push(item);
  }
  return { items, issues, warnings };
}

/**
 * The header's translation columns ("Name (de_DE)", "Short description (fr_FR)", …). A column for a language
 * the shop does not have, for English (the untagged columns are English) or written twice refuses the whole
 * file, naming the column: its texts would otherwise be dropped without a word.
 */
function translationColumns(header: CsvRecord): { columns: TranslationColumn[] } | { issues: RowIssue[] } {
  const columns: TranslationColumn[] = [];
  const issues: RowIssue[] = [];
  const problem = (column: string, message: string) => issues.push({ row: header.line, column, message });
  for (const cell of header.fields) {
    const h = translationHeader(cell);
    if (!h) continue;
    const column = cell.trim();
    const written = h.locale.replace('-', '_').toLowerCase();
    const locale = TRANSLATION_LOCALES.find((l) => l.toLowerCase() === written);
    if (written === DEFAULT_LOCALE.code.toLowerCase() || written === 'en') {
      problem(column, `English is the "${h.text.column}" column itself: leave out "${column}"`);
    } else if (!locale) {
      problem(
        column,
        `"${h.locale}" is not a language of the shop: translation columns are "${h.text.column} (xx_XX)" for ${TRANSLATION_LOCALES.join(', ')}`,
      );
    } else if (columns.some((c) => c.locale === locale && c.text === h.text)) {
      problem(column, `the ${locale} ${h.text.column.toLowerCase()} has two columns`);
    } else columns.push({ header: cell, locale, text: h.text });
  }
  return issues.length ? { issues } : { columns };
}

/** A row's translated texts, each checked against the length the admin's product form takes. */
function rowTranslations(r: RowReader, type: CsvItem['type'], columns: TranslationColumn[]): CsvTranslation[] {
  const out: CsvTranslation[] = [];
  for (const c of columns) {
    const raw = r.text(c.header);
    const value = c.text.field === 'name' ? raw.trim() : raw;
    if (value.trim() === '') {
      out.push({ locale: c.locale, field: c.text.field, value: '' });
      continue;
    }
    if (type === 'variation') {
      r.fail(c.header, "a variation has no texts of its own to translate: translate its product's row");
      continue;
    }
    if (value.length > c.text.max) {
      r.fail(
        c.header,
        `the ${c.locale} ${c.text.column.toLowerCase()} is ${value.length} characters long; at most ${c.text.max} are taken`,
      );
      continue;
    }
    out.push({ locale: c.locale, field: c.text.field, value });
  }
  return out;
}

const TYPE_WORDS = new Set(['simple', 'variable', 'external', 'variation', 'grouped', 'virtual', 'downloadable']);

function mapRow(
  r: RowReader,
  attributeNumbers: number[],
  downloadNumbers: number[],
  metaKeys: string[],
  translationColumnsOfFile: TranslationColumn[],
): CsvItem | null {
  const typeWords = splitList(r.text('Type').toLowerCase());
  const unknownWord = typeWords.find((w) => !TYPE_WORDS.has(w));
  if (unknownWord)
    return r.fail('Type', `"${unknownWord}" is not a product type (simple, variable, variation, external)`);
  if (typeWords.includes('grouped'))
    return r.fail('Type', 'grouped products are not supported: import their products as simple products');
  const kinds = typeWords.filter((w) => w !== 'virtual' && w !== 'downloadable');
  if (kinds.length !== 1)
    return r.fail(
      'Type',
      kinds.length
        ? `"${r.text('Type')}" names more than one type`
        : 'the type is empty (simple, variable, variation or external)',
    );
  const type = kinds[0] as CsvItem['type'];

  const idText = r.text('ID').trim();
  let id: number | null = null;
  if (idText !== '') {
    if (!/^\d{1,9}$/.test(idText) || Number(idText) < 1) r.fail('ID', `"${idText}" is not a product id`);
    else id = Number(idText);
  }
  let sku = r.text('SKU').trim();
  if (sku === '') {
    if (id === null) r.fail('SKU', 'every product and variation needs a SKU (or an ID to make one from)');
    else {
      sku = `wc-${id}`;
      r.warn('SKU', `no SKU: using "${sku}"`);
    }
  } else if (sku.length > 100 || /[\r\n]/.test(sku)) r.fail('SKU', 'a SKU is one line of at most 100 characters');

  const name = r.text('Name').trim();
  if (type !== 'variation' && name === '') r.fail('Name', 'the name is empty');

  const publishedText = r.text('Published').trim();
  const status =
    publishedText === ''
      ? 'publish'
      : (Object.entries(PUBLISHED).find(([, v]) => v === publishedText)?.[0] as CsvItem['status'] | undefined);
  if (!status) r.fail('Published', `"${publishedText}" is not 1 (published), 0 (private) or -1 (draft)`);

  const visibilityText = r.text('Visibility in catalog').trim().toLowerCase() || 'visible';
  if (!['visible', 'catalog', 'search', 'hidden'].includes(visibilityText))
    r.fail('Visibility in catalog', `"${visibilityText}" is not visible, catalog, search or hidden`);

  const taxStatus = r.text('Tax status').trim().toLowerCase();
  if (taxStatus && taxStatus !== 'taxable' && type !== 'variation')
    r.warn('Tax status', `"${taxStatus}" is not supported: every product is taxed by the shop's tax rules`);

  // Stock: a number in Stock means the shop counts it; "parent" (variations) means the parent counts it.
  const stockText = r.text('Stock').trim().toLowerCase();
  const fromParent = type === 'variation' && stockText === 'parent';
  const quantity = fromParent ? null : r.int('Stock', { min: -999_999_999 });
  const inStock = r.text('In stock?').trim().toLowerCase();
  const stockStatus =
    inStock === '' || inStock === '1' || inStock === 'instock'
      ? 'instock'
      : inStock === '0' || inStock === 'outofstock'
        ? 'outofstock'
        : inStock === 'backorder' || inStock === 'onbackorder'
          ? 'onbackorder'
          : null;
  if (!stockStatus) r.fail('In stock?', `"${inStock}" is not 1 (in stock), 0 (out of stock) or backorder`);
  const backordersText = r.text('Backorders allowed?').trim().toLowerCase();
  const backorders =
    backordersText === '' || backordersText === '0' || backordersText === 'no'
      ? 'no'
      : backordersText === '1' || backordersText === 'yes'
        ? 'yes'
        : backordersText === 'notify'
          ? 'notify'
          : null;
  if (!backorders) r.fail('Backorders allowed?', `"${backordersText}" is not 1, 0 or notify`);

  const regular = r.money('Regular price');
  const sale = r.money('Sale price');
  if ((type === 'simple' || type === 'external' || type === 'variation') && regular === null && r.issues.length === 0)
    r.fail('Regular price', 'a regular price is required');
  if (regular !== null && sale !== null && sale >= regular)
    r.fail('Sale price', 'the sale price must be lower than the regular price');
  if (type === 'variable' && (regular !== null || sale !== null))
    r.warn(
      'Regular price',
      'a variable product takes its prices from its variations; the prices on this row are ignored',
    );

  const saleFrom = r.date('Date sale price starts');
  const saleTo = r.date('Date sale price ends');
  if (saleFrom && saleTo && saleTo < saleFrom) r.fail('Date sale price ends', 'the sale ends before it starts');

  const categories = splitList(r.text('Categories')).map((path) => path.split('>').map((s) => s.trim()));
  if (categories.some((p) => p.some((n) => n === '')))
    r.fail('Categories', 'a category path has an empty name (write "Parent > Child")');
  if (type !== 'variation' && categories.length === 0 && r.has('Categories'))
    r.warn('Categories', 'no category: the product is filed under Uncategorized');

  const images = splitList(r.text('Images'));
  const parentText = r.text('Parent').trim();
  let parent: CsvItem['parent'] = null;
  if (type === 'variation') {
    if (parentText === '') r.fail('Parent', 'a variation needs its parent product (id:123 or the parent SKU)');
    else {
      const m = /^id:(\d{1,9})$/i.exec(parentText);
      parent = m ? { id: Number(m[1]) } : { sku: parentText };
    }
  }

  const externalUrl = r.text('External URL').trim() || null;
  const buttonText = r.text('Button text').trim() || null;
  if (type === 'external') {
    if (!externalUrl) r.fail('External URL', 'an external product needs the URL it links to');
    else if (!/^https?:\/\/[^\s]+$/i.test(externalUrl))
      r.fail('External URL', `"${externalUrl}" is not an http(s) URL`);
  }

  const attributes: CsvAttribute[] = [];
  for (const n of attributeNumbers) {
    const aname = r.text(`Attribute ${n} name`).trim();
    const values = splitList(r.text(`Attribute ${n} value(s)`));
    if (aname === '' && values.length === 0) continue;
    if (aname === '') {
      r.fail(`Attribute ${n} name`, 'values without an attribute name');
      continue;
    }
    if (values.length === 0) {
      // A variation with an empty value matches any value of that attribute ("Any Size" in WooCommerce).
      if (type !== 'variation') r.fail(`Attribute ${n} value(s)`, `attribute "${aname}" has no values`);
      continue;
    }
    if (type === 'variation' && values.length > 1)
      r.fail(`Attribute ${n} value(s)`, `a variation has one value per attribute, not "${values.join(', ')}"`);
    const defaultValue = r.text(`Attribute ${n} default`).trim() || null;
    if (defaultValue && !values.some((v) => v.toLowerCase() === defaultValue.toLowerCase()))
      r.fail(`Attribute ${n} default`, `"${defaultValue}" is not one of the values of "${aname}"`);
    if (attributes.some((a) => a.name.toLowerCase() === aname.toLowerCase()))
      r.fail(`Attribute ${n} name`, `attribute "${aname}" appears twice`);
    attributes.push({
      name: aname,
      values,
      visible: r.bool(`Attribute ${n} visible`, true),
      global: r.bool(`Attribute ${n} global`, false),
      defaultValue,
    });
  }

  const downloads: CsvDownload[] = [];
  for (const n of downloadNumbers) {
    const dname = r.text(`Download ${n} name`).trim();
    const url = r.text(`Download ${n} URL`).trim();
    if (dname === '' && url === '') continue;
    const file = decodeURIComponent(url.split(/[?#]/)[0]!.split('/').pop() ?? '');
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(file)) {
      r.fail(`Download ${n} URL`, `"${url}" does not end in a file name`);
      continue;
    }
    const did = r.text(`Download ${n} ID`).trim();
    downloads.push({
      id: /^[A-Za-z0-9-]{1,64}$/.test(did) ? did : null,
      name: dname || file,
      file: file.toLowerCase(),
    });
  }
  if (downloads.length && type !== 'simple') r.fail('Download 1 URL', 'only simple products can have downloads');

  const metaData = metaKeys
    .map((key) => ({ key, value: r.text(`${META_PREFIX}${key}`) }))
    .filter((m) => m.value !== '');

  const item: CsvItem = {
    row: r.row,
    id,
    type,
    virtual: typeWords.includes('virtual'),
    downloadable: typeWords.includes('downloadable') || downloads.length > 0,
    sku,
    name,
    status: status ?? 'publish',
    featured: r.bool('Is featured?', false),
    visibility: visibilityText as CsvItem['visibility'],
    shortDescription: r.text('Short description'),
    description: r.text('Description'),
    dateOnSaleFrom: saleFrom,
    dateOnSaleTo: saleTo,
    stock: {
      manage: !fromParent && quantity !== null,
      fromParent,
      quantity,
      lowStockAmount: r.int('Low stock amount'),
      status: stockStatus ?? 'instock',
      backorders: backorders ?? 'no',
    },
    weight: r.dimension('Weight'),
    length: r.dimension('Length'),
    width: r.dimension('Width'),
    height: r.dimension('Height'),
    reviewsAllowed: r.bool('Allow customer reviews?', true),
    regularPriceCents: type === 'variable' ? null : regular,
    salePriceCents: type === 'variable' ? null : sale,
    categories,
    tags: splitList(r.text('Tags')),
    images,
    downloadLimit: r.int('Download limit', { min: 1, allowNegativeOneAsEmpty: true }),
    downloadExpiry: r.int('Download expiry days', { min: 1, allowNegativeOneAsEmpty: true }),
    parent,
    upsells: splitList(r.text('Upsells')),
    externalUrl,
    buttonText: type === 'external' ? (buttonText ?? 'Buy product') : null,
    position: r.int('Position', { min: -999_999 }) ?? 0,
    attributes,
    downloads,
    metaData,
    translations: rowTranslations(r, type, translationColumnsOfFile),
  };
  return r.issues.length ? null : item;
}
