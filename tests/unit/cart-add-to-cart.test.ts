import { useTestStorageEngine } from '@nanostores/persistent';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';

useTestStorageEngine();
const { default: AddToCartButton } = await import('../../src/islands/cart/AddToCartButton.tsx');
const { $chosenVariation } = await import('../../src/islands/product/selection.ts');

const strings = { 'cart.addToCart': 'Add to cart', 'cart.outOfStock': 'Out of stock', 'cart.chooseOptions': 'Choose options', 'cart.quantityLabel': 'Quantity', 'cart.adding': 'Adding...' };
const render = (product: Record<string, unknown>) => renderToString(createElement(AddToCartButton, { product: { databaseId: 30, type: 'SIMPLE', name: 'Mug', ...product }, strings }));
const button = (html: string) => /<button[^>]*data-add-to-cart[^>]*>([^<]*)<\/button>/.exec(html);

beforeEach(() => $chosenVariation.set(null));

describe('AddToCartButton', () => {
  it('offers "Add to cart" for a simple product in stock, disabled in the server HTML until the island hydrates', () => {
    const match = button(render({ stockStatus: 'IN_STOCK' }));
    expect(match?.[1]).toBe('Add to cart');
    // A tap before hydration would be lost, so the static button is not clickable yet; the browser
    // tests (tests/e2e/checkout.spec.ts) wait for it to become enabled and add to the cart.
    expect(match?.[0]).toContain('disabled=""');
  });

  it('is disabled and says so when out of stock', () => {
    const match = button(render({ stockStatus: 'OUT_OF_STOCK' }));
    expect(match?.[1]).toBe('Out of stock');
    expect(match?.[0]).toContain('disabled=""');
  });

  it('waits for a variation on a variable product, then offers it', () => {
    const variable = { type: 'VARIABLE', stockStatus: 'IN_STOCK' };
    expect(button(render(variable))?.[1]).toBe('Choose options');
    expect(button(render(variable))?.[0]).toContain('disabled=""');
    $chosenVariation.set({ productId: 30, variation: { databaseId: 31, stockStatus: 'IN_STOCK' }, selection: { pa_color: 'black' }, attributes: [{ attributeName: 'pa_color', attributeValue: 'black' }] });
    expect(button(render(variable))?.[1]).toBe('Add to cart');
    // A choice made on another product's picker does not count.
    $chosenVariation.set({ productId: 99, variation: { databaseId: 100, stockStatus: 'IN_STOCK' }, selection: {}, attributes: [] });
    expect(button(render(variable))?.[1]).toBe('Choose options');
  });

  it('hides the quantity field for products sold individually', () => {
    expect(render({ stockStatus: 'IN_STOCK' })).toContain('type="number"');
    expect(render({ stockStatus: 'IN_STOCK', soldIndividually: true })).not.toContain('type="number"');
  });
});
