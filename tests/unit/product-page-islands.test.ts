/**
 * What the product page's islands put in the static HTML (before they hydrate on the first interaction
 * or, for the review form, when it scrolls into view).
 */
import { useTestStorageEngine } from '@nanostores/persistent';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en_US.json';

useTestStorageEngine();
const { default: Gallery } = await import('../../src/islands/product/Gallery.tsx');
const { default: ReviewForm } = await import('../../src/islands/reviews/ReviewForm.tsx');
const { chosenVariation } = await import('../../src/islands/product/selection.ts');

const strings = en as Record<string, string>;

describe('Gallery', () => {
  it("shows the default variation's image in the main spot before the picker runs", () => {
    const html = renderToString(
      createElement(Gallery, {
        productName: 'Gateway',
        strings,
        images: [{ sourceUrl: '/media/catalog/main.png' }, { sourceUrl: '/media/catalog/side.png' }],
        initialImage: { sourceUrl: '/media/catalog/eu868.png', altText: 'EU868 model' },
      }),
    );
    const main = /<img[^>]*fetchPriority="high"[^>]*>|<img[^>]*alt="EU868 model"[^>]*>/.exec(html)?.[0] ?? '';
    expect(main).toContain('eu868.png');
    expect(html).toContain('aria-label="Image 1 of 3"');
  });
});

describe('chosenVariation', () => {
  it("publishes the default selection's variation and addToCart attributes", () => {
    const product = {
      databaseId: 5,
      type: 'VARIABLE' as const,
      attributes: {
        nodes: [{ name: 'pa_frequency-band', label: 'Band', options: ['eu868', 'us915'], variation: true }],
      },
      variations: {
        nodes: [
          { databaseId: 6, attributes: { nodes: [{ name: 'pa_frequency-band', value: 'eu868' }] } },
          { databaseId: 7, attributes: { nodes: [{ name: 'pa_frequency-band', value: 'us915' }] } },
        ],
      },
    };
    const chosen = chosenVariation(product, { 'frequency-band': 'us915' });
    expect(chosen.variation?.databaseId).toBe(7);
    expect(chosen.attributes).toEqual([{ attributeName: 'pa_frequency-band', attributeValue: 'us915' }]);
    expect(chosenVariation(product, {}).variation).toBeUndefined();
  });
});

describe('ReviewForm (static render)', () => {
  const html = renderToString(createElement(ReviewForm, { productId: 12, productName: 'Window Antenna', strings }));

  it('is a labelled form with a five-star radio group named by its legend', () => {
    expect(html).toContain('Write a review');
    expect(html).toMatch(/<legend[^>]*>Your rating/);
    expect((html.match(/type="radio"/g) ?? []).length).toBe(5);
    for (let n = 1; n <= 5; n++) expect(html).toContain(`${n} of 5 stars`);
    expect(html).toContain('name="content"');
    expect(html).toContain('name="author"');
    expect(html).toContain('type="email"');
  });

  it('keeps the submit button disabled until hydrated, so Enter cannot post the page', () => {
    expect(/<button[^>]*data-review-submit[^>]*>/.exec(html)?.[0]).toContain('disabled=""');
  });
});
