import { afterEach, describe, expect, it, vi } from 'vitest';
import { productsWhere, needsLocalRefinement } from '../../src/lib/catalog/engine-query.ts';
import {
  applyCatalogQuery,
  categoryPagePath,
  isValidPage,
  pageNumbers,
  pagePath,
  pageSlice,
  pagination,
  parsePagedPath,
  pathAfterQueryChange,
  productsPagePath,
} from '../../src/lib/catalog/list.ts';
import { emptyQuery, parseCatalogQuery } from '../../src/lib/catalog/query-url.ts';
import type { CatalogProduct } from '../../src/lib/catalog/types.ts';

const p = (id: number, name: string, over: Partial<CatalogProduct> = {}): CatalogProduct => ({
  databaseId: id,
  name,
  type: 'SIMPLE',
  rawPrice: String(id * 10),
  date: `2026-01-${String(id).padStart(2, '0')}T00:00:00`,
  productCategories: { nodes: [{ slug: id % 2 ? 'odd' : 'even', name: '' }] },
  ...over,
});
const all = [p(1, 'Alpha lora'), p(2, 'Beta'), p(3, 'Gamma lora'), p(4, 'Delta lora')];
const names = (list: CatalogProduct[]) => list.map((x) => x.name);

afterEach(() => vi.restoreAllMocks());

describe('applyCatalogQuery', () => {
  it('returns a copy of the full list for an empty query', () => {
    const result = applyCatalogQuery(all, emptyQuery());
    expect(result).toEqual(all);
    expect(result).not.toBe(all);
  });

  it('filters, then searches, then sorts', () => {
    const query = parseCatalogQuery('filter=category[even]&search=LORA&orderby=price&order=ASC');
    expect(names(applyCatalogQuery(all, query))).toEqual(['Delta lora']);
    const sortedOnly = parseCatalogQuery('orderby=price');
    expect(names(applyCatalogQuery(all, sortedOnly))).toEqual(['Delta lora', 'Gamma lora', 'Beta', 'Alpha lora']);
  });

  it('runs the steps in that order', () => {
    const calls: string[] = [];
    const record = (name: string) => (list: CatalogProduct[]) => {
      calls.push(name);
      return list;
    };
    applyCatalogQuery(all, parseCatalogQuery('filter=sale[true]&search=x&orderby=price'), {
      filter: record('filter'),
      search: record('search'),
      sort: record('sort'),
    });
    expect(calls).toEqual(['filter', 'search', 'sort']);
  });

  it('throws for a non-array list', () => {
    expect(() => applyCatalogQuery(null as unknown as CatalogProduct[], emptyQuery())).toThrow(
      'Products must be an array.',
    );
    expect(() => applyCatalogQuery({} as unknown as CatalogProduct[], emptyQuery())).toThrow(
      'Products must be an array.',
    );
  });

  it('logs a failing step and leaves the list as it was', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = applyCatalogQuery(all, parseCatalogQuery('filter=category[even]&orderby=price&order=ASC'), {
      filter: () => {
        throw new Error('boom');
      },
    });
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0][0])).toContain('filter');
    // The filter was skipped, the sort still ran.
    expect(names(result)).toEqual(['Alpha lora', 'Beta', 'Gamma lora', 'Delta lora']);
  });

  it('treats a step returning a non-list as a failure', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = applyCatalogQuery(all, parseCatalogQuery('search=lora'), {
      search: () => undefined as unknown as CatalogProduct[],
    });
    expect(result).toEqual(all);
    expect(error).toHaveBeenCalled();
  });

  it('never changes the full list', () => {
    const before = all.slice();
    applyCatalogQuery(all, parseCatalogQuery('orderby=price&order=ASC'));
    expect(all).toEqual(before);
  });
});

describe('pagination', () => {
  it("gives the numbers for 'Showing X to Y of Z'", () => {
    expect(pagination(60, 1)).toEqual({ from: 1, to: 24, total: 60, pages: 3, page: 1, perPage: 24 });
    expect(pagination(60, 3)).toMatchObject({ from: 49, to: 60, pages: 3 });
    expect(pagination(48, 2)).toMatchObject({ from: 25, to: 48, pages: 2 });
    expect(pagination(5, 1, 2)).toMatchObject({ from: 1, to: 2, pages: 3 });
  });
  it('clamps the page and handles an empty list', () => {
    expect(pagination(60, 9)).toMatchObject({ page: 3, from: 49 });
    expect(pagination(60, -1)).toMatchObject({ page: 1, from: 1 });
    expect(pagination(0, 1)).toEqual({ from: 0, to: 0, total: 0, pages: 1, page: 1, perPage: 24 });
  });
  it('slices a page', () => {
    const list = Array.from({ length: 30 }, (_, i) => i);
    expect(pageSlice(list, 2)).toEqual([24, 25, 26, 27, 28, 29]);
    expect(pageSlice([], 1)).toEqual([]);
  });
  it('lists page numbers with gaps', () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(1, 3)).toEqual([1, 2, 3]);
    expect(pageNumbers(6, 12)).toEqual([1, null, 5, 6, 7, null, 12]);
    expect(pageNumbers(2, 12)).toEqual([1, 2, 3, null, 12]);
  });
});

describe('isValidPage', () => {
  it('accepts whole numbers within range', () => {
    expect(isValidPage(1, 3)).toBe(true);
    expect(isValidPage('3', 3)).toBe(true);
    expect(isValidPage(1, 0)).toBe(true);
  });
  it('rejects anything else', () => {
    for (const bad of [0, 4, -1, 1.5, '2a', 'abc', '', NaN, null, undefined, '1e1'])
      expect(isValidPage(bad, 3)).toBe(false);
  });
});

describe('page paths', () => {
  it('builds listing and category paths', () => {
    expect(productsPagePath(1)).toBe('/products');
    expect(productsPagePath(3)).toBe('/products/page/3');
    expect(productsPagePath(2, '/de')).toBe('/de/products/page/2');
    expect(categoryPagePath('antennas', 1)).toBe('/product-category/antennas');
    expect(categoryPagePath('antennas', 4, '/fr')).toBe('/fr/product-category/antennas/page/4');
    expect(pagePath('/products/', 2)).toBe('/products/page/2');
  });
  it('parses paged paths', () => {
    expect(parsePagedPath('/de/products/page/3')).toEqual({ base: '/de/products', page: 3 });
    expect(parsePagedPath('/product-category/x/page/2/')).toEqual({ base: '/product-category/x', page: 2 });
    expect(parsePagedPath('/products/')).toEqual({ base: '/products', page: 1 });
  });
  it('drops /page/{n} on a query change and keeps a category route', () => {
    expect(pathAfterQueryChange('/products/page/3')).toBe('/products');
    expect(pathAfterQueryChange('/es/product-category/antennas/page/2')).toBe('/es/product-category/antennas');
    expect(pathAfterQueryChange('/product-category/antennas')).toBe('/product-category/antennas');
  });
});

describe('engine query seam', () => {
  it('maps the URL query to products(where)', () => {
    const query = parseCatalogQuery(
      'filter=category[a],price[10,200.5],rating[4],sale[true],pa_color[red,blue]&orderby=alphabetically&order=asc&search=lora',
    );
    expect(productsWhere(query)).toEqual({
      status: 'publish',
      visibility: 'VISIBLE',
      categoryIn: ['a'],
      search: 'lora',
      minPrice: 10,
      maxPrice: 200.5,
      onSale: true,
      rating: [4, 5],
      attributes: { queries: [{ taxonomy: 'pa_color', terms: ['red', 'blue'], operator: 'IN' }], relation: 'AND' },
      orderby: [{ field: 'NAME', order: 'ASC' }],
    });
    expect(productsWhere(emptyQuery())).toEqual({
      status: 'publish',
      visibility: 'VISIBLE',
      orderby: [{ field: 'DATE', order: 'DESC' }],
    });
  });
  it('keeps what the engine cannot express for the browser', () => {
    expect(productsWhere(parseCatalogQuery('orderby=discount')).orderby).toBeUndefined();
    expect(needsLocalRefinement(parseCatalogQuery('orderby=discount'))).toBe(true);
    expect(needsLocalRefinement(parseCatalogQuery('filter=price[1,2]'))).toBe(true);
    expect(needsLocalRefinement(parseCatalogQuery('orderby=price'))).toBe(false);
  });
});
