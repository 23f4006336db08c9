import { describe, expect, it } from 'vitest';
import { buildProductJsonLd, serializeJsonLd } from '../../src/lib/catalog/structured-data.ts';
import type { CatalogProduct } from '../../src/lib/catalog/types.ts';
import {
  defaultSelection,
  findVariation,
  isOptionAvailable,
  normaliseAttributeName,
  normaliseAttributeValue,
  sameAttributeValue,
  variationChoices,
} from '../../src/lib/catalog/variations.ts';

const variation = (
  databaseId: number,
  attrs: Record<string, string>,
  price: string,
  stockStatus: 'IN_STOCK' | 'OUT_OF_STOCK' = 'IN_STOCK',
) => ({
  databaseId,
  rawPrice: price,
  stockStatus,
  attributes: { nodes: Object.entries(attrs).map(([name, value]) => ({ name, value })) },
});

const gateway: CatalogProduct = {
  databaseId: 10,
  name: 'Meshpoint One',
  type: 'VARIABLE',
  rawPrice: '329, 349',
  attributes: {
    nodes: [
      { name: 'pa_frequency-band', label: 'Frequency band', options: ['eu868', 'us915'], variation: true },
      { name: 'Enclosure', label: null, options: ['Indoor', 'Outdoor IP67'], variation: true },
      { name: 'pa_material', label: 'Material', options: ['aluminium'], variation: false },
    ],
  },
  terms: {
    nodes: [
      { taxonomyName: 'pa_frequency-band', slug: 'eu868', name: 'EU868' },
      { taxonomyName: 'pa_frequency-band', slug: 'us915', name: 'US915' },
    ],
  },
  defaultAttributes: {
    nodes: [
      { name: 'pa_frequency-band', value: 'eu868' },
      { name: 'pa_material', value: 'aluminium' },
    ],
  },
  variations: {
    nodes: [
      variation(11, { 'pa_frequency-band': 'eu868', enclosure: 'indoor' }, '329'),
      variation(12, { 'pa_frequency-band': 'EU 868', enclosure: 'outdoor-ip67' }, '349'),
      variation(13, { 'frequency-band': 'us915', enclosure: '' }, '339', 'OUT_OF_STOCK'),
    ],
  },
};

describe('attribute normalisation', () => {
  it('lower-cases names and drops the pa_ prefix', () => {
    expect(normaliseAttributeName('pa_Color')).toBe('color');
    expect(normaliseAttributeName('PA_frequency-band')).toBe('frequency-band');
    expect(normaliseAttributeName('Size')).toBe('size');
    expect(normaliseAttributeName(null)).toBe('');
  });
  it('compares values ignoring dashes, spaces and case', () => {
    expect(normaliseAttributeValue('Outdoor IP-67')).toBe('outdoorip67');
    expect(sameAttributeValue('EU 868', 'eu868')).toBe(true);
    expect(sameAttributeValue('eu-868', 'EU868')).toBe(true);
    expect(sameAttributeValue('eu868', 'us915')).toBe(false);
  });
});

describe('variationChoices', () => {
  it('lists variation attributes with term names as option labels', () => {
    const choices = variationChoices(gateway);
    expect(choices.map((c) => c.name)).toEqual(['frequency-band', 'enclosure']);
    expect(choices[0]).toMatchObject({ label: 'Frequency band', attributeName: 'pa_frequency-band' });
    expect(choices[0].options).toEqual([
      { value: 'eu868', label: 'EU868' },
      { value: 'us915', label: 'US915' },
    ]);
    expect(choices[1].label).toBe('enclosure');
    expect(choices[1].options[1]).toEqual({ value: 'Outdoor IP67', label: 'Outdoor IP67' });
  });
});

describe('findVariation', () => {
  it('finds the variation for a complete selection, tolerant of spelling', () => {
    expect(findVariation(gateway, { 'pa_frequency-band': 'eu868', Enclosure: 'Indoor' })?.databaseId).toBe(11);
    expect(findVariation(gateway, { 'frequency-band': 'eu868', enclosure: 'Outdoor IP67' })?.databaseId).toBe(12);
  });
  it("treats a variation's empty value as any value", () => {
    expect(findVariation(gateway, { 'frequency-band': 'us915', enclosure: 'Indoor' })?.databaseId).toBe(13);
  });
  it('returns undefined for an incomplete or unmatched selection', () => {
    expect(findVariation(gateway, { 'frequency-band': 'eu868' })).toBeUndefined();
    expect(findVariation(gateway, { 'frequency-band': 'as923', enclosure: 'Indoor' })).toBeUndefined();
    expect(findVariation(gateway, {})).toBeUndefined();
  });
});

describe('defaultSelection and availability', () => {
  it('starts from defaultAttributes, limited to variation attributes', () => {
    expect(defaultSelection(gateway)).toEqual({ 'frequency-band': 'eu868' });
    expect(defaultSelection({ databaseId: 1 })).toEqual({});
  });
  it('marks options that cannot lead to a variation', () => {
    const chosen = { 'frequency-band': 'eu868' };
    expect(isOptionAvailable(gateway, chosen, 'enclosure', 'Outdoor IP67')).toBe(true);
    expect(isOptionAvailable(gateway, { enclosure: 'Outdoor IP67' }, 'frequency-band', 'us915')).toBe(true);
    const noAny: CatalogProduct = { ...gateway, variations: { nodes: gateway.variations!.nodes!.slice(0, 2) } };
    expect(isOptionAvailable(noAny, { enclosure: 'Indoor' }, 'frequency-band', 'us915')).toBe(false);
  });
});

describe('buildProductJsonLd', () => {
  it('describes a simple product with an offer and rating', () => {
    const data = buildProductJsonLd(
      {
        databaseId: 1,
        name: 'Omni 5 dBi',
        sku: 'ANT-5',
        rawPrice: '59.9',
        stockStatus: 'ON_BACKORDER',
        averageRating: 4.5,
        reviewCount: 2,
        shortDescription: '<p>Fibreglass <b>antenna</b></p>',
      },
      { url: 'https://shop.test/product/omni', images: ['https://shop.test/a.png'] },
    );
    expect(data).toMatchObject({
      '@type': 'Product',
      name: 'Omni 5 dBi',
      sku: 'ANT-5',
      description: 'Fibreglass antenna',
      image: ['https://shop.test/a.png'],
      offers: { '@type': 'Offer', price: '59.90', priceCurrency: 'EUR', availability: 'https://schema.org/BackOrder' },
      aggregateRating: { ratingValue: 4.5, reviewCount: 2 },
    });
  });
  it('uses an aggregate offer for variable products and omits an empty rating', () => {
    const data = buildProductJsonLd(gateway, { url: 'https://shop.test/product/x' });
    expect(data.offers).toMatchObject({
      '@type': 'AggregateOffer',
      lowPrice: '329.00',
      highPrice: '349.00',
      offerCount: 3,
    });
    expect(data.aggregateRating).toBeUndefined();
  });
  it('serializes without a closing script tag', () => {
    expect(serializeJsonLd({ name: '</script><script>x' })).not.toContain('</script>');
  });
});
