import { beforeEach, describe, expect, it } from 'vitest';
import {
  $catalogChange,
  $catalogPage,
  $catalogQuery,
  catalogUrl,
  clearFiltersAndSearch,
  goToPage,
  readCatalogLocation,
  setCatalogHistory,
  setSearch,
  setSort,
  toggleFilterValue,
} from '../../src/stores/catalog.ts';

let pushed: string[] = [];
beforeEach(() => {
  pushed = [];
  setCatalogHistory({ pushState: (_d, _u, url) => pushed.push(String(url)), replaceState: () => {} });
});

describe('catalog query store', () => {
  it('reads the state from a paged location', () => {
    readCatalogLocation('/de/products/page/3', '?filter=category[gateways]&orderby=price&order=ASC');
    expect($catalogPage.get()).toBe(3);
    expect($catalogQuery.get().filters.categories).toEqual(['gateways']);
    expect(catalogUrl()).toBe('/de/products/page/3?filter=category[gateways]&orderby=price&order=ASC');
  });

  it('drops /page/{n} and records a filter change', () => {
    readCatalogLocation('/products/page/2', '');
    toggleFilterValue('category', 'antennas');
    toggleFilterValue('pa_color', 'red');
    expect($catalogChange.get()).toBe('filter');
    expect($catalogPage.get()).toBe(1);
    expect(pushed.at(-1)).toBe('/products?filter=category[antennas],pa_color[red]');
    toggleFilterValue('pa_color', 'red');
    expect(pushed.at(-1)).toBe('/products?filter=category[antennas]');
  });

  it('keeps a category route when searching and records sort changes', () => {
    readCatalogLocation('/product-category/antennas/page/2', '');
    setSearch('  omni ');
    expect($catalogChange.get()).toBe('search');
    expect(pushed.at(-1)).toBe('/product-category/antennas?search=omni');
    setSort('price', 'ASC');
    expect($catalogChange.get()).toBe('sort');
    expect(pushed.at(-1)).toBe('/product-category/antennas?orderby=price&order=ASC&search=omni');
  });

  it('clears filters and search but keeps the sort', () => {
    readCatalogLocation('/products', '?filter=sale[true]&search=x&orderby=rating');
    clearFiltersAndSearch();
    expect(pushed.at(-1)).toBe('/products?orderby=rating');
  });

  it('pages with the query kept', () => {
    readCatalogLocation('/products', '?filter=sale[true]');
    goToPage(2);
    expect($catalogChange.get()).toBe('page');
    expect(pushed.at(-1)).toBe('/products/page/2?filter=sale[true]');
  });
});
