/**
 * Server rendering of the catalog islands: what the static page (and a no-JS visitor or crawler) gets.
 * Interaction is covered by the Playwright suite.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import ProductCard from '../../src/islands/catalog/ProductCard.tsx';
import ProductList from '../../src/islands/catalog/ProductList.tsx';
import StarRating from '../../src/islands/catalog/StarRating.tsx';
import Gallery from '../../src/islands/product/Gallery.tsx';
import VariationPicker from '../../src/islands/product/VariationPicker.tsx';
import WishlistPage from '../../src/islands/wishlist/WishlistPage.tsx';
import type { CatalogProduct } from '../../src/lib/catalog/types.ts';
import en from '../../locales/en_US.json';

const strings = en as Record<string, string>;

const product = (id: number, over: Partial<CatalogProduct> = {}): CatalogProduct => ({
  databaseId: id,
  name: `Product ${id}`,
  slug: `product-${id}`,
  type: 'SIMPLE',
  rawPrice: '10',
  price: '€10.00',
  regularPrice: '€10.00',
  date: `2026-01-01T00:00:${String(id % 60).padStart(2, '0')}`,
  image: { sourceUrl: `/media/catalog/p${id}.png`, altText: null },
  ...over,
});

describe('ProductCard', () => {
  it('shows sale price, struck regular price, percent badge and a localized link', () => {
    const html = renderToStaticMarkup(
      createElement(ProductCard, {
        product: product(1, {
          onSale: true,
          price: '€79.00',
          regularPrice: '€100.00',
          rawRegularPrice: '100',
          rawSalePrice: '79',
          averageRating: 4.5,
          reviewCount: 3,
        }),
        strings,
        localePrefix: '/de',
      }),
    );
    expect(html).toContain('href="/de/product/product-1"');
    expect(html).toContain('-21%');
    expect(html).toContain('€100.00');
    expect(html).toContain('€79.00');
    expect(html).toContain('Rated 4.5 out of 5');
    expect(html).toContain('/_ipx/s_640x640&amp;fit_contain');
    expect(html).toContain('aria-label="Add Product 1 to the wishlist"');
  });

  it('shows no badge when not on sale and marks out-of-stock products', () => {
    const html = renderToStaticMarkup(
      createElement(ProductCard, {
        product: product(2, { stockStatus: 'OUT_OF_STOCK' }),
        strings,
        showWishlist: false,
      }),
    );
    expect(html).not.toMatch(/-\d+%/);
    expect(html).toContain('Out of stock');
    expect(html).not.toContain('wishlist');
  });
});

describe('StarRating', () => {
  it('names the rating and draws the gold row to scale', () => {
    const html = renderToStaticMarkup(createElement(StarRating, { rating: 3.5, strings }));
    expect(html).toContain('aria-label="Rated 3.5 out of 5"');
    expect(html).toContain('width:70%');
  });
});

describe('ProductList (static render)', () => {
  const all = Array.from({ length: 30 }, (_, i) => product(i + 1));

  it('renders the route page of the unfiltered list with the count and numbered pagination', () => {
    const html = renderToStaticMarkup(
      createElement(ProductList, { products: all, strings, basePath: '/products', initialPage: 2 }),
    );
    expect(html).toContain('Showing 25 to 30 of 30');
    expect((html.match(/<article/g) ?? []).length).toBe(6);
    expect(html).toContain('href="/products"');
    expect(html).toContain('aria-current="page"');
    expect(html).toContain('rel="prev"');
  });

  it("in engine mode the price placeholders show the whole listing's range, not the page's", () => {
    const page = [product(1, { rawPrice: '12', price: '€12.00' }), product(2, { rawPrice: '30', price: '€30.00' })];
    const render = (extra: object) =>
      renderToStaticMarkup(
        createElement(ProductList, {
          products: page,
          strings,
          basePath: '/products',
          totalProducts: 900,
          engineThreshold: 500,
          ...extra,
        }),
      );
    expect(render({})).toContain('placeholder="12"');
    const html = render({ priceRange: { min: 500, max: 45_900 } });
    expect(html).toContain('placeholder="5"');
    expect(html).toContain('placeholder="459"');
  });

  it('renders the empty state for an empty listing', () => {
    const html = renderToStaticMarkup(createElement(ProductList, { products: [], strings, basePath: '/products' }));
    expect(html).toContain('No products found');
    expect(html).toContain('Try fewer filters');
  });
});

describe('VariationPicker (static render)', () => {
  it('opens on the default variation and shows its price and stock', () => {
    const html = renderToStaticMarkup(
      createElement(VariationPicker, {
        strings,
        live: false,
        product: {
          databaseId: 5,
          name: 'Gateway',
          type: 'VARIABLE',
          rawPrice: '329, 349',
          attributes: {
            nodes: [
              { name: 'pa_frequency-band', label: 'Frequency band', options: ['eu868', 'us915'], variation: true },
            ],
          },
          defaultAttributes: { nodes: [{ name: 'pa_frequency-band', value: 'us915' }] },
          variations: {
            nodes: [
              {
                databaseId: 6,
                rawPrice: '329',
                price: '€329.00',
                stockStatus: 'IN_STOCK',
                stockQuantity: 40,
                attributes: { nodes: [{ name: 'pa_frequency-band', value: 'eu868' }] },
              },
              {
                databaseId: 7,
                rawPrice: '349',
                price: '€349.00',
                stockStatus: 'IN_STOCK',
                stockQuantity: 3,
                attributes: { nodes: [{ name: 'pa_frequency-band', value: 'us915' }] },
              },
            ],
          },
        },
      }),
    );
    expect(html).toContain('€349.00');
    expect(html).not.toContain('€329.00');
    expect(html).toContain('Only 3 left in stock');
    expect(html).toContain('Frequency band');
  });
});

describe('Gallery and WishlistPage (static render)', () => {
  it('renders the main image with thumbnails and controls', () => {
    const html = renderToStaticMarkup(
      createElement(Gallery, {
        productName: 'Gateway',
        strings,
        images: [{ sourceUrl: '/media/catalog/a.png' }, { sourceUrl: '/media/catalog/b.png' }],
      }),
    );
    expect(html).toContain('Show image 2 of 2');
    expect(html).toContain('Next image');
    expect(html).toContain('alt="Gateway"');
  });

  it('renders a loading note until the browser wishlist is known', () => {
    expect(renderToStaticMarkup(createElement(WishlistPage, { strings }))).toContain('Loading your wishlist');
  });
});
