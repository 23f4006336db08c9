import { describe, expect, it } from 'vitest';
import { discountPercent, productDiscountPercent } from '../../src/lib/catalog/discount.ts';
import { normaliseOrder, sortProducts } from '../../src/lib/catalog/sort.ts';
import type { CatalogProduct } from '../../src/lib/catalog/types.ts';

function product(name: string, over: Partial<CatalogProduct> = {}): CatalogProduct {
  return { databaseId: name.length, name, type: 'SIMPLE', ...over };
}
const names = (list: CatalogProduct[]) => list.map((p) => p.name);

const cheap = product('Cheap', { rawPrice: '5', date: '2026-01-01T10:00:00', averageRating: 3 });
const variable = product('Variable', {
  type: 'VARIABLE',
  rawPrice: '10, 10, 15, 99',
  date: '2026-03-01T10:00:00',
  averageRating: 5,
});
const mid = product('Mid', { rawPrice: '50', date: '2026-02-01T10:00:00', averageRating: 4 });
const list = [cheap, variable, mid];

describe('normaliseOrder', () => {
  it('defaults to DESC and treats anything but DESC as ascending', () => {
    expect(normaliseOrder(undefined)).toBe('DESC');
    expect(normaliseOrder(null)).toBe('DESC');
    expect(normaliseOrder('')).toBe('DESC');
    expect(normaliseOrder('desc')).toBe('DESC');
    expect(normaliseOrder('DeSc')).toBe('DESC');
    expect(normaliseOrder('ASC')).toBe('ASC');
    expect(normaliseOrder('sideways')).toBe('ASC');
  });
});

describe('sortProducts', () => {
  it('sorts by price, descending by default', () => {
    expect(names(sortProducts(list, 'price'))).toEqual(['Variable', 'Mid', 'Cheap']);
  });

  // WooCommerce's rule, which the engine's PRICE ordering follows (tests/api/products.test.ts): low to
  // high by a product's cheapest price, high to low by its dearest. Variable costs 10–99 €, Mid 50 €.
  it('sorts a variable product by its cheapest variation ascending and its dearest descending', () => {
    expect(names(sortProducts(list, 'price', 'asc'))).toEqual(['Cheap', 'Variable', 'Mid']);
    expect(names(sortProducts(list, 'price', 'DESC'))).toEqual(['Variable', 'Mid', 'Cheap']);
    // A 12–40 € product against simple 15 € and 30 € ones: first low to high (12 < 15), first high to low (40 > 30).
    const tee = product('Tee', { type: 'VARIABLE', rawPrice: '40, 12, 25' });
    const cap = product('Cap', { rawPrice: '15' });
    const hoodie = product('Hoodie', { rawPrice: '30' });
    expect(names(sortProducts([cap, hoodie, tee], 'price', 'ASC'))).toEqual(['Tee', 'Cap', 'Hoodie']);
    expect(names(sortProducts([cap, hoodie, tee], 'price', 'DESC'))).toEqual(['Tee', 'Hoodie', 'Cap']);
  });

  it('falls back to the regular price range when there is no current price', () => {
    const kit = product('Kit', { type: 'VARIABLE', rawPrice: null, rawRegularPrice: '8, 60' });
    expect(names(sortProducts([mid, kit], 'price', 'ASC'))).toEqual(['Kit', 'Mid']);
    expect(names(sortProducts([mid, kit], 'price', 'DESC'))).toEqual(['Kit', 'Mid']);
  });

  it('sorts by rating', () => {
    expect(names(sortProducts(list, 'rating', 'DESC'))).toEqual(['Variable', 'Mid', 'Cheap']);
    expect(names(sortProducts(list, 'rating', 'ASC'))).toEqual(['Cheap', 'Mid', 'Variable']);
  });

  it('sorts by date and falls back to date for unknown keys', () => {
    expect(names(sortProducts(list, 'date'))).toEqual(['Variable', 'Mid', 'Cheap']);
    expect(names(sortProducts(list, 'bogus', 'ASC'))).toEqual(['Cheap', 'Mid', 'Variable']);
    expect(names(sortProducts(list, undefined))).toEqual(['Variable', 'Mid', 'Cheap']);
  });

  it('sorts alphabetically with localeCompare', () => {
    const words = [product('zebra'), product('Äpfel'), product('banana')];
    expect(names(sortProducts(words, 'alphabetically', 'ASC', 'de'))).toEqual(['Äpfel', 'banana', 'zebra']);
    expect(names(sortProducts(words, 'alphabetically', undefined, 'de'))).toEqual(['zebra', 'banana', 'Äpfel']);
  });

  it('sorts by discount percent', () => {
    const a = product('A', { onSale: true, rawRegularPrice: '100', rawSalePrice: '90' });
    const b = product('B', { onSale: true, rawRegularPrice: '100', rawSalePrice: '50' });
    const c = product('C', { onSale: false, rawRegularPrice: '100' });
    expect(names(sortProducts([a, b, c], 'discount'))).toEqual(['B', 'A', 'C']);
    expect(names(sortProducts([a, b, c], 'discount', 'ASC'))).toEqual(['C', 'A', 'B']);
  });

  it('puts products without a value last in both directions and keeps ties stable', () => {
    const none = product('None', { rawPrice: null });
    const tieA = product('TieA', { rawPrice: '5' });
    expect(names(sortProducts([none, cheap, tieA, mid], 'price', 'ASC'))).toEqual(['Cheap', 'TieA', 'Mid', 'None']);
    expect(names(sortProducts([none, cheap, tieA, mid], 'price', 'DESC'))).toEqual(['Mid', 'Cheap', 'TieA', 'None']);
  });

  it('does not modify its input', () => {
    const copy = list.slice();
    sortProducts(list, 'price', 'ASC');
    expect(list).toEqual(copy);
  });
});

describe('discount', () => {
  it('rounds the percent of the sale against the regular price', () => {
    expect(discountPercent(10000, 7900)).toBe(21);
    expect(discountPercent(300, 200)).toBe(33);
    expect(discountPercent(1999, 1499)).toBe(25);
  });
  it('is 0 for no sale, a higher sale price or missing prices', () => {
    expect(discountPercent(1000, 1000)).toBe(0);
    expect(discountPercent(1000, 1200)).toBe(0);
    expect(discountPercent(null, 500)).toBe(0);
    expect(discountPercent(0, 0)).toBe(0);
  });
  it('uses the best variation discount of a variable product when variations are loaded', () => {
    const p = product('Tee', {
      type: 'VARIABLE',
      onSale: true,
      rawRegularPrice: '20, 30',
      rawSalePrice: '15',
      variations: {
        nodes: [
          { databaseId: 1, onSale: true, rawRegularPrice: '20', rawSalePrice: '15' },
          { databaseId: 2, onSale: false, rawRegularPrice: '30', rawSalePrice: null },
        ],
      },
    });
    expect(productDiscountPercent(p)).toBe(25);
  });
  it('uses the highest regular and sale values of the RAW lists without variations', () => {
    const p = product('Tee', { type: 'VARIABLE', onSale: true, rawRegularPrice: '20, 40', rawSalePrice: '15, 30' });
    expect(productDiscountPercent(p)).toBe(25);
  });
  it('gives 0 when the product is not on sale', () => {
    expect(productDiscountPercent(product('X', { onSale: false, rawRegularPrice: '10', rawSalePrice: '5' }))).toBe(0);
  });
});
