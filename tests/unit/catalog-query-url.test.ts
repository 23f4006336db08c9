import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyFilters } from '../../src/lib/catalog/filters.ts';
import {
  emptyQuery,
  isEmptyQuery,
  parseCatalogQuery,
  parseFilterParam,
  serializeCatalogQuery,
  serializeFilterParam,
  type CatalogQuery,
} from '../../src/lib/catalog/query-url.ts';
import { SORT_KEYS } from '../../src/lib/catalog/sort.ts';

describe('parseFilterParam', () => {
  it('reads every kind of filter', () => {
    expect(parseFilterParam('category[a,b],price[10,200],rating[4],sale[true],pa_color[red]')).toEqual({
      categories: ['a', 'b'],
      price: { min: 1000, max: 20000 },
      rating: 4,
      sale: true,
      attributes: { pa_color: ['red'] },
    });
  });

  it('reads decimal and open-ended prices and swaps reversed bounds', () => {
    expect(parseFilterParam('price[9.99,]').price).toEqual({ min: 999, max: null });
    expect(parseFilterParam('price[,50]').price).toEqual({ min: null, max: 5000 });
    expect(parseFilterParam('price[200,10]').price).toEqual({ min: 1000, max: 20000 });
  });

  it('accepts hyphenated attribute taxonomies', () => {
    expect(parseFilterParam('pa_frequency-band[eu868,us915]').attributes).toEqual({
      'pa_frequency-band': ['eu868', 'us915'],
    });
  });

  it('ignores garbage safely', () => {
    const garbage = [
      'category[',
      'price[a,b]',
      'price[10]',
      'price[,]',
      'price[-5,10]',
      'rating[9]',
      'rating[4.5]',
      'sale[yes]',
      'unknown[x]',
      'color[red]',
      'category[../etc,<script>]',
      ']]][[[,,,',
      '%%%',
    ];
    for (const input of garbage) expect(parseFilterParam(input)).toEqual(emptyFilters());
    expect(parseFilterParam('category[ok,<bad>,Ok,ok]').categories).toEqual(['ok']);
    expect(parseFilterParam(null)).toEqual(emptyFilters());
    expect(parseFilterParam('x'.repeat(5000))).toEqual(emptyFilters());
  });
});

describe('parseCatalogQuery', () => {
  it('reads filter, orderby, order and search from a URL', () => {
    const url = new URL(
      'https://shop.test/products?filter=category[gateways],sale[true]&orderby=price&order=asc&search=%20Lora%20',
    );
    const query = parseCatalogQuery(url);
    expect(query.filters.categories).toEqual(['gateways']);
    expect(query.filters.sale).toBe(true);
    expect(query.orderby).toBe('price');
    expect(query.order).toBe('ASC');
    expect(query.search).toBe('Lora');
  });

  it('reads percent-encoded brackets the browser may produce', () => {
    expect(parseCatalogQuery('?filter=category%5Ba%2Cb%5D').filters.categories).toEqual(['a', 'b']);
  });

  it('drops unknown sort keys, keeps order case-insensitive and defaults to nothing', () => {
    expect(parseCatalogQuery('orderby=cheapest').orderby).toBeNull();
    expect(parseCatalogQuery('order=DeSc').order).toBe('DESC');
    expect(parseCatalogQuery('order=up').order).toBe('ASC');
    expect(isEmptyQuery(parseCatalogQuery(''))).toBe(true);
    expect(isEmptyQuery(parseCatalogQuery(undefined))).toBe(true);
  });

  it('caps the search length', () => {
    expect(parseCatalogQuery(`search=${'a'.repeat(500)}`).search).toHaveLength(100);
  });
});

describe('serializeCatalogQuery', () => {
  it('writes the documented syntax with readable brackets', () => {
    const query: CatalogQuery = {
      filters: {
        categories: ['a', 'b'],
        price: { min: 1000, max: 20000 },
        rating: 4,
        sale: true,
        attributes: { pa_size: ['m'], pa_color: ['red'] },
      },
      orderby: 'price',
      order: 'ASC',
      search: 'solar panel',
    };
    expect(serializeCatalogQuery(query)).toBe(
      'filter=category[a,b],price[10,200],rating[4],sale[true],pa_color[red],pa_size[m]&orderby=price&order=ASC&search=solar%20panel',
    );
    expect(serializeFilterParam({ ...emptyFilters(), price: { min: 1050, max: null } })).toBe('price[10.5,]');
    expect(serializeCatalogQuery(emptyQuery())).toBe('');
  });

  it('round-trips any valid query', () => {
    const slug = fc.stringMatching(/^[a-z0-9]{1,6}(-[a-z0-9]{1,4})?$/);
    const slugs = fc.uniqueArray(slug, { maxLength: 4 });
    const cents = fc.integer({ min: 0, max: 10_000_000 });
    const query = fc.record({
      filters: fc.record({
        categories: slugs,
        price: fc.option(
          fc
            .tuple(fc.option(cents), fc.option(cents))
            .filter(([a, b]) => a !== null || b !== null)
            .map(([a, b]) => (a !== null && b !== null && a > b ? { min: b, max: a } : { min: a, max: b })),
        ),
        rating: fc.option(fc.integer({ min: 1, max: 5 })),
        sale: fc.boolean(),
        attributes: fc.dictionary(
          slug.map((s) => `pa_${s}`),
          fc.uniqueArray(slug, { minLength: 1, maxLength: 3 }),
          { maxKeys: 3 },
        ),
      }),
      orderby: fc.option(fc.constantFrom(...SORT_KEYS)),
      order: fc.option(fc.constantFrom('ASC' as const, 'DESC' as const)),
      search: fc.string({ maxLength: 30 }).map((s) => s.trim()),
    });
    fc.assert(
      fc.property(query, (q) => {
        const parsed = parseCatalogQuery(serializeCatalogQuery(q));
        const normalise = (x: CatalogQuery) => ({
          ...x,
          filters: { ...x.filters, attributes: Object.fromEntries(Object.entries(x.filters.attributes).sort()) },
        });
        expect(normalise(parsed)).toEqual(normalise(q));
      }),
      { numRuns: 300 },
    );
  });
});
