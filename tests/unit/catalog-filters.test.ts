import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  attributeFacets,
  categoryFacets,
  categoryParentMap,
  emptyFilters,
  facetsFromTerms,
  filterProducts,
  hasActiveFilters,
  matchesCategories,
  priceBounds,
  type CatalogFilters,
} from '../../src/lib/catalog/filters.ts';
import { searchProducts } from '../../src/lib/catalog/search.ts';
import type { CatalogProduct } from '../../src/lib/catalog/types.ts';

let nextId = 1;
function product(
  overrides: Partial<CatalogProduct> & { categories?: string[]; attrs?: [string, string][] } = {},
): CatalogProduct {
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

const gateway = product({
  name: 'Gateway',
  categories: ['gateways'],
  rawPrice: '349',
  averageRating: 4.5,
  attrs: [['pa_frequency-band', 'eu868']],
});
const antenna = product({
  name: 'Antenna',
  categories: ['antennas'],
  rawPrice: '59.90',
  onSale: true,
  averageRating: 3.9,
});
const shirt = product({
  name: 'Shirt',
  type: 'VARIABLE',
  categories: ['swag'],
  rawPrice: '20, 25, 200.01',
  averageRating: 4,
  attrs: [
    ['pa_color', 'red'],
    ['pa_color', 'blue'],
    ['pa_size', 'm'],
  ],
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
    expect(names(filterProducts(all, filters({ categories: ['gateways', 'antennas'] })))).toEqual([
      'Gateway',
      'Antenna',
    ]);
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
    expect(names(filterProducts(all, filters({ attributes: { 'pa_frequency-band': ['eu868'] } })))).toEqual([
      'Gateway',
    ]);
    // A slug of another taxonomy does not count.
    expect(filterProducts(all, filters({ attributes: { pa_size: ['red'] } }))).toEqual([]);
  });

  it('combines kinds of filters with AND', () => {
    expect(names(filterProducts(all, filters({ categories: ['swag', 'antennas'], rating: 4 })))).toEqual(['Shirt']);
  });
});

describe('category filter with the category tree (WooCommerce: a category lists its subcategories’ products)', () => {
  // gateways > outdoor-gateways > solar (three levels); accessories > power-poe.
  const parents = categoryParentMap([
    { slug: 'gateways' },
    { slug: 'outdoor-gateways', parent: 'gateways' },
    { slug: 'solar', parent: 'outdoor-gateways' },
    { slug: 'accessories', parent: null },
    { slug: 'power-poe', parent: 'accessories' },
  ]);
  const mast = product({ name: 'Mast gateway', categories: ['outdoor-gateways'] });
  const panel = product({ name: 'Solar panel', categories: ['solar'] });
  const injector = product({ name: 'PoE injector', categories: ['power-poe'] });
  const bracket = product({ name: 'Bracket', categories: ['accessories'] });
  const catalog = [mast, panel, injector, bracket];

  it('includes products of subcategories at any depth, and only those', () => {
    expect(names(filterProducts(catalog, filters({ categories: ['gateways'] }), parents))).toEqual([
      'Mast gateway',
      'Solar panel',
    ]);
    expect(names(filterProducts(catalog, filters({ categories: ['outdoor-gateways'] }), parents))).toEqual([
      'Mast gateway',
      'Solar panel',
    ]);
    expect(names(filterProducts(catalog, filters({ categories: ['accessories'] }), parents))).toEqual([
      'PoE injector',
      'Bracket',
    ]);
    // A subcategory does not pull in its parent's or siblings' products.
    expect(names(filterProducts(catalog, filters({ categories: ['power-poe'] }), parents))).toEqual(['PoE injector']);
    expect(names(filterProducts(catalog, filters({ categories: ['solar', 'power-poe'] }), parents))).toEqual([
      'Solar panel',
      'PoE injector',
    ]);
  });

  it('matches own categories only when no tree is given', () => {
    expect(names(filterProducts(catalog, filters({ categories: ['accessories'] })))).toEqual(['Bracket']);
  });

  it('stops on a cyclic tree instead of looping', () => {
    const cyclic = categoryParentMap([
      { slug: 'a', parent: 'b' },
      { slug: 'b', parent: 'a' },
    ]);
    expect(matchesCategories(product({ categories: ['a'] }), ['c'], cyclic)).toBe(false);
    expect(matchesCategories(product({ categories: ['a'] }), ['b'], cyclic)).toBe(true);
  });

  it('puts the seed catalog’s Off-Grid Solar Power Kit (power-poe) into Accessories, with every other power-poe product', () => {
    const dir = path.resolve('content/catalog/products');
    const seed = fs
      .readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map(
        (file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { name: string; categories?: string[] },
      )
      .map((p) => product({ name: p.name, categories: p.categories ?? [] }));
    const tree = categoryParentMap(
      JSON.parse(fs.readFileSync(path.resolve('content/catalog/categories.json'), 'utf8')) as {
        slug: string;
        parent?: string;
      }[],
    );
    expect(tree.get('power-poe')).toBe('accessories');
    const accessories = names(filterProducts(seed, filters({ categories: ['accessories'] }), tree));
    const ownOnly = names(filterProducts(seed, filters({ categories: ['accessories'] })));
    expect(accessories).toContain('Off-Grid Solar Power Kit for Meshfront Outdoor Gateway');
    expect(ownOnly).not.toContain('Off-Grid Solar Power Kit for Meshfront Outdoor Gateway');
    // Every product filed under power-poe is an accessory; everything listed without the tree still is.
    for (const name of names(filterProducts(seed, filters({ categories: ['power-poe'] }))).concat(ownOnly))
      expect(accessories).toContain(name);
    // Nothing outside the accessories tree: each listed product has a category that is accessories or below it.
    const accessoryTree = new Set([
      'accessories',
      ...[...tree].filter(([, parent]) => parent === 'accessories').map(([slug]) => slug),
    ]);
    for (const p of seed.filter((item) => accessories.includes(item.name ?? ''))) {
      expect(p.productCategories?.nodes?.some((c) => accessoryTree.has(c.slug ?? ''))).toBe(true);
    }
  });
});

describe('facets', () => {
  it('lists configured attribute values with counts', () => {
    const facets = attributeFacets(all, ['pa_color', 'pa_size']);
    expect(facets[0]).toEqual({
      taxonomy: 'pa_color',
      terms: [
        { slug: 'red', name: 'red', count: 1 },
        { slug: 'blue', name: 'blue', count: 1 },
      ],
    });
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
    expect(categoryFacets(all).map((c) => [c.slug, c.count])).toEqual([
      ['gateways', 1],
      ['antennas', 1],
      ['swag', 2],
    ]);
    expect(priceBounds(all)).toEqual({ min: 5990, max: 34900 });
    expect(priceBounds([])).toBeNull();
  });
});

describe('searchProducts', () => {
  const described = product({
    name: 'Outdoor kit',
    description: '<p>Includes a <strong>Fibreglass</strong> mast</p>',
    shortDescription: 'Weatherproof',
  });
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
