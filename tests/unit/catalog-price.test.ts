import { describe, expect, it } from 'vitest';
import { catalogPriceCents, priceDisplay } from '../../src/lib/catalog/price.ts';
import { slimListingProduct } from '../../src/lib/catalog/slim.ts';

describe('catalogPriceCents', () => {
  it('uses the highest rawPrice value and falls back to the regular price', () => {
    expect(catalogPriceCents({ rawPrice: '10, 25.5, 12' })).toBe(2550);
    expect(catalogPriceCents({ rawPrice: null, rawRegularPrice: '30' })).toBe(3000);
    expect(catalogPriceCents({})).toBeNull();
  });
});

describe('priceDisplay', () => {
  it("prefers the engine's formatted strings", () => {
    expect(priceDisplay({ price: '79,00 €', regularPrice: '100,00 €', onSale: true })).toEqual({
      price: '79,00 €',
      regularPrice: '100,00 €',
      onSale: true,
    });
  });
  it('formats RAW amounts and variable ranges when formatted strings are missing', () => {
    expect(priceDisplay({ rawPrice: '1234.5' })).toEqual({ price: '€1,234.50', regularPrice: null, onSale: false });
    expect(priceDisplay({ rawPrice: '10, 10, 20' }).price).toBe('€10.00 – €20.00');
    expect(priceDisplay({ rawPrice: '15, 15' }).price).toBe('€15.00');
  });
  it('shows no struck price unless on sale with a different regular price', () => {
    expect(priceDisplay({ price: '€10.00', regularPrice: '€12.00', onSale: false }).regularPrice).toBeNull();
    expect(priceDisplay({ price: '€10.00', regularPrice: '€10.00', onSale: true })).toMatchObject({
      regularPrice: null,
      onSale: false,
    });
  });
});

describe('slimListingProduct', () => {
  it('keeps what the listing reads and turns descriptions into plain text', () => {
    const slim = slimListingProduct({
      databaseId: 1,
      name: 'Omni',
      slug: 'omni',
      rawPrice: '59',
      description: '<p>Fibreglass <b>antenna</b></p>'.repeat(100),
      shortDescription: '<p>Short</p>',
      terms: {
        nodes: [
          { taxonomyName: 'pa_color', slug: 'white', name: 'White' },
          { taxonomyName: 'product_type', slug: 'simple', name: 'simple' },
        ],
      },
      galleryImages: { nodes: [{ sourceUrl: '/x.png' }] },
    });
    expect(slim.shortDescription).toBe('Short');
    expect(slim.description?.startsWith('Fibreglass antenna Fibreglass')).toBe(true);
    expect(slim.description).not.toContain('<');
    expect(slim.terms?.nodes).toEqual([{ taxonomyName: 'pa_color', slug: 'white', name: 'White' }]);
    expect(slim).not.toHaveProperty('galleryImages');
    expect(slim.rawPrice).toBe('59');
  });
});
