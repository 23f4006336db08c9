import { useTestStorageEngine } from '@nanostores/persistent';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';

useTestStorageEngine();
const { default: AddToCartButton } = await import('../../src/islands/cart/AddToCartButton.tsx');
const { $chosenVariation } = await import('../../src/islands/product/selection.ts');

const strings = {
  'cart.addToCart': 'Add to cart',
  'cart.outOfStock': 'Out of stock',
  'cart.chooseOptions': 'Choose options',
  'cart.quantityLabel': 'Quantity',
  'cart.adding': 'Adding...',
};
const render = (product: Record<string, unknown>) =>
  renderToString(
    createElement(AddToCartButton, { product: { databaseId: 30, type: 'SIMPLE', name: 'Mug', ...product }, strings }),
  );
const button = (html: string) => /<button[^>]*data-add-to-cart[^>]*>([^<]*)<\/button>/.exec(html);

beforeEach(() => $chosenVariation.set(null));

describe('AddToCartButton', () => {
  it('offers an enabled "Add to cart" for a simple product in stock in the server HTML', () => {
    const match = button(render({ stockStatus: 'IN_STOCK' }));
    expect(match?.[1]).toBe('Add to cart');
    // The island hydrates on the first interaction (client:interaction), which holds a tap made before
    // hydration and replays it afterwards, so the static button can be clickable at once.
    expect(match?.[0]).not.toContain('disabled=""');
    expect(match?.[0]).toContain('aria-disabled="false"');
  });

  it('is disabled and says so when out of stock', () => {
    const match = button(render({ stockStatus: 'OUT_OF_STOCK' }));
    expect(match?.[1]).toBe('Out of stock');
    expect(match?.[0]).toContain('disabled=""');
  });

  it('waits for a variation on a variable product, then offers it', () => {
    const variable = { type: 'VARIABLE', stockStatus: 'IN_STOCK' as const };
    const renderWith = (initialChoice: Parameters<typeof AddToCartButton>[0]['initialChoice']) =>
      renderToString(
        createElement(AddToCartButton, {
          product: { databaseId: 30, name: 'Shirt', ...variable },
          strings,
          initialChoice,
        }),
      );
    expect(button(render(variable))?.[1]).toBe('Choose options');
    expect(button(render(variable))?.[0]).toContain('disabled=""');
    // The page passes the variation the picker opens on, so the static button already offers it.
    const black = {
      productId: 30,
      variation: { databaseId: 31, stockStatus: 'IN_STOCK' as const },
      selection: { color: 'black' },
      attributes: [{ attributeName: 'pa_color', attributeValue: 'black' }],
    };
    expect(button(renderWith(black))?.[1]).toBe('Add to cart');
    expect(button(renderWith(black))?.[0]).not.toContain('disabled=""');
    // A sold-out default variation says so before anything hydrates.
    expect(button(renderWith({ ...black, variation: { databaseId: 31, stockStatus: 'OUT_OF_STOCK' } }))?.[1]).toBe(
      'Out of stock',
    );
    // A choice made for another product does not count.
    expect(button(renderWith({ ...black, productId: 99 }))?.[1]).toBe('Choose options');
  });

  it('renders what the static HTML shows even when the picker already published a choice', () => {
    // The picker island may hydrate first; the button's first render must still match the static
    // HTML (the picker's choice applies once it has mounted, covered by tests/e2e/catalog.spec.ts).
    $chosenVariation.set({ productId: 30, variation: undefined, selection: {}, attributes: [] });
    const initialChoice = {
      productId: 30,
      variation: { databaseId: 32, stockStatus: 'IN_STOCK' as const },
      selection: { size: 'm' },
      attributes: [{ attributeName: 'pa_size', attributeValue: 'm' }],
    };
    const html = renderToString(
      createElement(AddToCartButton, {
        product: { databaseId: 30, name: 'Shirt', type: 'VARIABLE', stockStatus: 'IN_STOCK' },
        strings,
        initialChoice,
      }),
    );
    expect(button(html)?.[1]).toBe('Add to cart');
  });

  it('hides the quantity field for products sold individually', () => {
    expect(render({ stockStatus: 'IN_STOCK' })).toContain('type="number"');
    expect(render({ stockStatus: 'IN_STOCK', soldIndividually: true })).not.toContain('type="number"');
  });
});
