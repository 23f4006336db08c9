import { describe, expect, it } from 'vitest';
import {
  attributeFacets,
  categoryFacets,
  emptyFilters,
  facetsFromTerms,
  filterProducts,
  hasActiveFilters,
  priceBounds,
  type CatalogFilters,
} from '../../src/lib/catalog/filters.ts';
import { searchProducts } from '../../src/lib/catalog/search.ts';
import type { CatalogProduct } from '../../src/lib/catalog/types.ts';

let nextId = 1;
function product(overrides: Partial<CatalogProduct> & { categories?: string[]; attrs?: [string, string][] } = {}): CatalogProduct {
  const { categories = [], attrs = [], ...rest } = overrides;
  return {
    databaseId: nextId++,
    name: 'Product',
    slug: `product-${nextId}`,
    type: 'SIMPLE',
    rawPrice: '10',
    onSale: false,
    averageRating: 0,
    productCategories: { nodes: categories.map((slug) => ({ slug, name: slug })) },
    terms: { nodes: attrs.map(([taxonomyName, slug]) => ({ taxonomyName, slug, name: slug })) },
    ...rest,
  };
}

const filters = (over: Partial<CatalogFilters>): CatalogFilters => ({ ...emptyFilters(), ...over });
const names = (list: CatalogProduct[]) => list.map((p) => p.name);

const gateway = product({ name: 'Gateway', categories: ['gateways'], rawPrice: '349', averageRating: 4.5, attrs: [['pa_frequency-band', 'eu868']] });
const antenna = product({ name: 'Antenna', categories: ['antennas'], rawPrice: '59.90', onSale: true, averageRating: 3.9 });
const shirt = product({
  name: 'Shirt',
  type: 'VARIABLE',
  categories: ['swag'],
  rawPrice: '20, 25, 200.01',
  averageRating: 4,
  attrs: [['pa_color', 'red'], ['pa_color', 'blue'], ['pa_size', 'm']],
});
const unpriced = product({ name: 'Unpriced', categories: ['swag'], rawPrice: null, rawRegularPrice: null });
const all = [gateway, antenna, shirt, unpriced];

describe('filterProducts', () => {
  it('returns a copy of the list when no filter is active', () => {
    const result = filterProducts(all, emptyFilters());
    expect(result).toEqual(all);
    expect(result).not.toBe(all);
    expect(hasActiveFilters(emptyFilters())).toBe(false);
  });

  it('keeps products in any of the selected categories', () => {
    expect(names(filterProducts(all, filters({ categories: ['gateways', 'antennas'] })))).toEqual(['Gateway', 'Antenna']);
    expect(filterProducts(all, filters({ categories: ['nope'] }))).toEqual([]);
  });

  it('filters price inclusively at both ends', () => {
    const two = [gateway, antenna];
    expect(names(filterProducts(two, filters({ price: { min: 5990, max: 34900 } })))).toEqual(['Gateway', 'Antenna']);
    expect(names(filterProducts(two, filters({ price: { min: 5991, max: 34899 } })))).toEqual([]);
  });

  it('uses the highest variation price of a variable product', () => {
    // 20, 25 and 200.01: the highest is above 200, so price[10,200] leaves the shirt out.
    expect(names(filterProducts(all, filters({ price: { min: 1000, max: 20000 } })))).toEqual(['Antenna']);
    expect(names(filterProducts(all, filters({ price: { min: 20001, max: null } })))).toEqual(['Gateway', 'Shirt']);
  });

  it('never matches a product without a price when a price filter is set', () => {
    expect(names(filterProducts(all, filters({ price: { min: null, max: 100000 } })))).not.toContain('Unpriced');
  });

  it('keeps products rated at least N', () => {
    expect(names(filterProducts(all, filters({ rating: 4 })))).toEqual(['Gateway', 'Shirt']);
  });

  it('keeps only products on sale', () => {
    expect(names(filterProducts(all, filters({ sale: true })))).toEqual(['Antenna']);
  });

  it('matches an attribute when any selected slug is present, and requires every attribute', () => {
    expect(names(filterProducts(all, filters({ attributes: { pa_color: ['green', 'blue'] } })))).toEqual(['Shirt']);
    expect(names(filterProducts(all, filters({ attributes: { pa_color: ['red'], pa_size: ['xl'] } })))).toEqual([]);
    expect(names(filterProducts(all, filters({ attributes: { 'pa_frequency-band': ['eu868'] } })))).toEqual(['Gateway']);
    // A slug of another taxonomy does not count.
    expect(filterProducts(all, filters({ attributes: { pa_size: ['red'] } }))).toEqual([]);
  });

  it('combines kinds of filters with AND', () => {
    expect(names(filterProducts(all, filters({ categories: ['swag', 'antennas'], rating: 4 })))).toEqual(['Shirt']);
  });
});

describe('facets', () => {
  it('lists configured attribute values with counts', () => {
    const facets = attributeFacets(all, ['pa_color', 'pa_size']);
    expect(facets[0]).toEqual({ taxonomy: 'pa_color', terms: [{ slug: 'red', name: 'red', count: 1 }, { slug: 'blue', name: 'blue', count: 1 }] });
    expect(facets[1].terms.map((t) => t.slug)).toEqual(['m']);
  });
  it('builds facets from getAllTerms for engine mode', () => {
    const terms = [
      { taxonomyName: 'pa_color', slug: 'red', name: 'Red', count: 4 },
      { taxonomyName: 'pa_size', slug: 'xl', name: 'XL', count: null },
      { taxonomyName: 'product_cat', slug: 'swag', name: 'Swag', count: 9 },
    ];
    expect(facetsFromTerms(terms, ['pa_color', 'pa_size'])).toEqual([
      { taxonomy: 'pa_color', terms: [{ slug: 'red', name: 'Red', count: 4 }] },
      { taxonomy: 'pa_size', terms: [{ slug: 'xl', name: 'XL', count: 0 }] },
    ]);
  });

  it('lists categories and price bounds', () => {
    expect(categoryFacets(all).map((c) => [c.slug, c.count])).toEqual([['gateways', 1], ['antennas', 1], ['swag', 2]]);
    expect(priceBounds(all)).toEqual({ min: 5990, max: 34900 });
    expect(priceBounds([])).toBeNull();
  });
});

describe('searchProducts', () => {
  const described = product({ name: 'Outdoor kit', description: '<p>Includes a <strong>Fibreglass</strong> mast</p>', shortDescription: 'Weatherproof' });
  const list = [gateway, antenna, described];

  it('matches name case-insensitively', () => {
    expect(names(searchProducts(list, 'gATe'))).toEqual(['Gateway']);
  });
  it('matches description and short description text', () => {
    expect(names(searchProducts(list, 'fibreglass'))).toEqual(['Outdoor kit']);
    expect(names(searchProducts(list, 'WEATHER'))).toEqual(['Outdoor kit']);
  });
  it('does not match HTML tag names', () => {
    expect(searchProducts(list, 'strong')).toEqual([]);
  });
  it('keeps everything for a blank term and nothing for a miss', () => {
    expect(searchProducts(list, '   ')).toEqual(list);
    expect(searchProducts(list, 'zzz')).toEqual([]);
  });
});
