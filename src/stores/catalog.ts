/**
 * The catalog listing's query (filters, sort, search) and page, kept in step with the URL:
 * `?filter=…&orderby=…&order=…&search=…` and the `/page/{n}` path. The listing island reads these
 * stores; the filter panel, sort dropdown, search box and pagination call the actions. Each change
 * records what kind it was, because the island refreshes 100 ms after a sort and 50 ms after a filter
 * or search change.
 */
import { atom } from 'nanostores';
import { emptyFilters, type CatalogFilters } from '../lib/catalog/filters.ts';
import { pagePath, parsePagedPath } from '../lib/catalog/list.ts';
import { emptyQuery, parseCatalogQuery, serializeCatalogQuery, type CatalogQuery } from '../lib/catalog/query-url.ts';
import type { SortKey, SortOrder } from '../lib/catalog/sort.ts';

export type CatalogChange = 'init' | 'filter' | 'search' | 'sort' | 'page' | 'history';

export const $catalogQuery = atom<CatalogQuery>(emptyQuery());
export const $catalogPage = atom<number>(1);
/** The kind of the latest change, for the refresh timing. */
export const $catalogChange = atom<CatalogChange>('init');

/** The listing's path without '/page/{n}' ('/de/product-category/antennas'). */
let basePath = '/';

interface HistoryLike {
  pushState(data: unknown, unused: string, url?: string | URL | null): void;
  replaceState(data: unknown, unused: string, url?: string | URL | null): void;
}
let history: HistoryLike | null = null;

/** The URL (path + query) for the current state. */
export function catalogUrl(query: CatalogQuery = $catalogQuery.get(), page: number = $catalogPage.get()): string {
  const search = serializeCatalogQuery(query);
  return `${pagePath(basePath, page)}${search ? `?${search}` : ''}`;
}

/**
 * Reads state from a location; used on start and on back/forward. The base path drops '/page/{n}',
 * so every later filter, search or sort change lands on page 1 of the same route (a category route
 * stays a category route).
 */
export function readCatalogLocation(pathname: string, search: string, change: CatalogChange = 'init'): void {
  const { base, page } = parsePagedPath(pathname);
  basePath = base;
  $catalogQuery.set(parseCatalogQuery(search));
  $catalogPage.set(page);
  $catalogChange.set(change);
}

function commit(query: CatalogQuery, change: Exclude<CatalogChange, 'init' | 'history' | 'page'>): void {
  $catalogQuery.set(query);
  $catalogPage.set(1);
  $catalogChange.set(change);
  history?.pushState(null, '', catalogUrl(query, 1));
}

export function setFilters(filters: CatalogFilters): void {
  commit({ ...$catalogQuery.get(), filters }, 'filter');
}

export function updateFilters(change: (filters: CatalogFilters) => CatalogFilters): void {
  setFilters(change(cloneFilters($catalogQuery.get().filters)));
}

function cloneFilters(filters: CatalogFilters): CatalogFilters {
  return {
    categories: [...filters.categories],
    price: filters.price ? { ...filters.price } : null,
    rating: filters.rating,
    sale: filters.sale,
    attributes: Object.fromEntries(Object.entries(filters.attributes).map(([k, v]) => [k, [...v]])),
  };
}

/** Adds or removes one category or attribute value. */
export function toggleFilterValue(key: 'category' | `pa_${string}`, slug: string): void {
  updateFilters((filters) => {
    const list = key === 'category' ? filters.categories : (filters.attributes[key] ?? []);
    const next = list.includes(slug) ? list.filter((s) => s !== slug) : [...list, slug];
    if (key === 'category') filters.categories = next;
    else if (next.length) filters.attributes[key] = next;
    else delete filters.attributes[key];
    return filters;
  });
}

export function setSort(orderby: SortKey | null, order: SortOrder | null): void {
  commit({ ...$catalogQuery.get(), orderby, order }, 'sort');
}

export function setSearch(search: string): void {
  commit({ ...$catalogQuery.get(), search: search.trim().slice(0, 100) }, 'search');
}

/** Clears filters and search (the empty state's action); the sort stays. */
export function clearFiltersAndSearch(): void {
  commit({ ...$catalogQuery.get(), filters: emptyFilters(), search: '' }, 'filter');
}

export function goToPage(page: number): void {
  $catalogPage.set(Math.max(1, Math.floor(page)));
  $catalogChange.set('page');
  history?.pushState(null, '', catalogUrl());
}

/**
 * Starts URL sync in the browser: reads the current location and follows back/forward.
 * Returns a function that stops it (for island unmount).
 */
export function startCatalogUrlSync(win: Window = window): () => void {
  history = win.history;
  readCatalogLocation(win.location.pathname, win.location.search);
  const onPopState = () => readCatalogLocation(win.location.pathname, win.location.search, 'history');
  win.addEventListener('popstate', onPopState);
  return () => {
    win.removeEventListener('popstate', onPopState);
    history = null;
  };
}

/** For tests: route pushState somewhere observable. */
export function setCatalogHistory(target: HistoryLike | null): void {
  history = target;
}
