/**
 * The catalog's URL state, so a filtered/sorted/searched list can be linked, reloaded and navigated
 * with the back button:
 *
 *   ?filter=category[gateways,antennas],price[10,200],rating[4],sale[true],pa_color[red,blue]
 *   &orderby=price&order=ASC&search=antenna
 *
 * Prices in the URL are euros (decimals allowed, either end may be empty: price[,200]); inside the
 * query they are cents. Parsing never throws: unknown keys, malformed groups and invalid values are
 * dropped, so a hand-edited or stale link still shows a sensible list.
 */
import { centsToDecimal, decimalToCents } from '../money.ts';
import { emptyFilters, hasActiveFilters, type CatalogFilters } from './filters.ts';
import { isSortKey, normaliseOrder, type SortKey, type SortOrder } from './sort.ts';

export interface CatalogQuery {
  filters: CatalogFilters;
  /** null = default (date). */
  orderby: SortKey | null;
  /** null = default (DESC). */
  order: SortOrder | null;
  search: string;
}

export const MAX_SEARCH_LENGTH = 100;
const MAX_VALUES_PER_KEY = 50;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ATTRIBUTE_KEY = /^pa_[a-z0-9]+(?:-[a-z0-9]+)*$/;
const GROUP = /([a-z0-9_-]+)\[([^[\]]*)\]/gi;

export function emptyQuery(): CatalogQuery {
  return { filters: emptyFilters(), orderby: null, order: null, search: '' };
}

export function isEmptyQuery(query: CatalogQuery): boolean {
  return !hasActiveFilters(query.filters) && query.orderby === null && query.order === null && query.search === '';
}

function slugList(raw: string): string[] {
  const seen: string[] = [];
  for (const part of raw.split(',')) {
    const slug = part.trim().toLowerCase();
    if (SLUG.test(slug) && !seen.includes(slug)) seen.push(slug);
    if (seen.length >= MAX_VALUES_PER_KEY) break;
  }
  return seen;
}

function priceBound(raw: string | undefined): number | null | undefined {
  if (raw === undefined || raw.trim() === '') return null;
  const cents = decimalToCents(raw);
  return cents === null || cents < 0 ? undefined : cents;
}

/** Parses the `filter` parameter. */
export function parseFilterParam(raw: string | null | undefined): CatalogFilters {
  const filters = emptyFilters();
  if (typeof raw !== 'string' || raw.length > 2000) return filters;
  for (const match of raw.matchAll(GROUP)) {
    const key = match[1].toLowerCase();
    const value = match[2];
    if (key === 'category') {
      filters.categories = slugList(value);
    } else if (key === 'price') {
      const parts = value.split(',');
      if (parts.length !== 2) continue;
      const min = priceBound(parts[0]);
      const max = priceBound(parts[1]);
      if (min === undefined || max === undefined || (min === null && max === null)) continue;
      filters.price = min !== null && max !== null && min > max ? { min: max, max: min } : { min, max };
    } else if (key === 'rating') {
      const rating = Number(value.trim());
      if (Number.isInteger(rating) && rating >= 1 && rating <= 5) filters.rating = rating;
    } else if (key === 'sale') {
      filters.sale = value.trim().toLowerCase() === 'true';
    } else if (ATTRIBUTE_KEY.test(key)) {
      const slugs = slugList(value);
      if (slugs.length) filters.attributes[key] = slugs;
    }
  }
  return filters;
}

/** "10" for 1000 cents, "10.5" for 1050, "10.05" for 1005. */
function euros(cents: number): string {
  return centsToDecimal(cents)
    .replace(/\.00$/, '')
    .replace(/(\.\d)0$/, '$1');
}

/** Serializes filters in a fixed order (category, price, rating, sale, attributes by name); '' when none. */
export function serializeFilterParam(filters: CatalogFilters): string {
  const groups: string[] = [];
  if (filters.categories.length) groups.push(`category[${filters.categories.join(',')}]`);
  if (filters.price && (filters.price.min !== null || filters.price.max !== null)) {
    const min = filters.price.min === null ? '' : euros(filters.price.min);
    const max = filters.price.max === null ? '' : euros(filters.price.max);
    groups.push(`price[${min},${max}]`);
  }
  if (filters.rating !== null) groups.push(`rating[${filters.rating}]`);
  if (filters.sale) groups.push('sale[true]');
  for (const key of Object.keys(filters.attributes).sort()) {
    const slugs = filters.attributes[key];
    if (slugs.length) groups.push(`${key}[${slugs.join(',')}]`);
  }
  return groups.join(',');
}

/** Reads the catalog query from a URL, a query string ("?filter=…") or URLSearchParams. */
export function parseCatalogQuery(input: URL | URLSearchParams | string | null | undefined): CatalogQuery {
  let params: URLSearchParams;
  try {
    if (input instanceof URL) params = input.searchParams;
    else if (input instanceof URLSearchParams) params = input;
    else params = new URLSearchParams(typeof input === 'string' ? input : '');
  } catch {
    return emptyQuery();
  }
  const orderby = params.get('orderby');
  const order = params.get('order');
  const search = (params.get('search') ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
  return {
    filters: parseFilterParam(params.get('filter')),
    orderby: isSortKey(orderby) ? orderby : null,
    order: order === null || order.trim() === '' ? null : normaliseOrder(order),
    search,
  };
}

/** Keeps brackets and commas readable in the address bar; everything else is percent-encoded. */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%2C/g, ',');
}

/**
 * The query string for a catalog query, without '?', parameters in a fixed order, defaults left out:
 * `filter=category[a,b],price[10,200]&orderby=price&order=ASC&search=lora`. '' for the empty query.
 */
export function serializeCatalogQuery(query: CatalogQuery): string {
  const parts: string[] = [];
  const filter = serializeFilterParam(query.filters);
  if (filter) parts.push(`filter=${encodeValue(filter)}`);
  if (query.orderby) parts.push(`orderby=${query.orderby}`);
  if (query.order) parts.push(`order=${query.order}`);
  const search = query.search.trim().slice(0, MAX_SEARCH_LENGTH);
  if (search) parts.push(`search=${encodeValue(search)}`);
  return parts.join('&');
}
